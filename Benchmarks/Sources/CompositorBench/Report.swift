import Foundation

/// The drawer names the tables use for cairo: drawing each scene from scratch (the baseline of
/// the targets), and compositing LayerKit's own bitmaps.
public let cairoFromScratch = "cairo from scratch"
public let cairoBitmaps = "cairo, LayerKit's bitmaps"

/// One measured (scene, resolution, drawer) cell.
public struct Measurement: Codable, Sendable {
    public var table: String
    public var scene: String
    public var resolution: String
    public var width: Int
    public var height: Int
    public var drawer: String
    public var framesPerSecond: Double
    public var megapixelsPerSecond: Double
    public var millisecondsPerFrame: Double
    /// Frames timed over all rounds.
    public var frames: Int
    /// Each round's frames per second, in the order the rounds ran: every drawer of a table is
    /// timed once a round, in turn, so round `i` of two drawers saw the same state of the machine
    /// (see `PairedRatio`).
    public var roundsFramesPerSecond: [Double]
    /// Why the drawer could not draw the scene (then the numbers are 0).
    public var unsupported: String?
    /// Pixels the last timed frame repainted, for LayerKit drawing through damage.
    public var damagedPixels: Int?

    public init(table: String, scene: Scene, drawer: String, samples: [Sample]) {
        self.table = table
        self.scene = scene.name
        resolution = scene.resolutionName
        width = scene.width
        height = scene.height
        self.drawer = drawer
        // The median round: robust to a round disturbed by the rest of the machine.
        roundsFramesPerSecond = samples.map(\.framesPerSecond)
        let sorted = roundsFramesPerSecond.sorted()
        let fps = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        framesPerSecond = fps
        megapixelsPerSecond = fps * Double(scene.pixelCount) / 1e6
        millisecondsPerFrame = fps > 0 ? 1000 / fps : 0
        frames = samples.reduce(0) { $0 + $1.frames }
    }

    public init(table: String, scene: Scene, drawer: String, unsupported: String) {
        self.init(table: table, scene: scene, drawer: drawer, samples: [])
        self.unsupported = unsupported
    }
}

/// How closely a baseline's picture matches LayerKit's for the same frame.
public struct Agreement: Codable, Sendable {
    public var scene: String
    public var resolution: String
    public var drawer: String
    public var meanDifference: Double
    public var largestDifference: Int

    public init(scene: String, resolution: String, drawer: String, meanDifference: Double, largestDifference: Int) {
        self.scene = scene
        self.resolution = resolution
        self.drawer = drawer
        self.meanDifference = meanDifference
        self.largestDifference = largestDifference
    }
}

/// One of the issues' targets, as measured.
public struct TargetResult: Codable, Sendable {
    /// Where the target was set ("issue 17").
    public var source: String
    public var target: String
    public var measured: String
    /// nil when this run did not measure what the target needs.
    public var met: Bool?
    public var note: String
}

/// The memory soak: frames of the animated clock and what the process held before and after.
public struct Soak: Codable, Sendable {
    public var frames: Int
    public var resolution: String
    public var seconds: Double
    public var residentBytesAfterWarmUp: Int
    public var residentBytesAtEnd: Int
    public var heapBytesAfterWarmUp: Int
    public var heapBytesAtEnd: Int
    public var cachedStoresAfterWarmUp: Int
    public var cachedStoresAtEnd: Int
    /// `Renderer.cachedByteCount`: pixels held in backing stores and the raster cache together.
    public var cachedBytesAfterWarmUp = 0
    public var cachedBytesAtEnd = 0
    /// The bytes of backing stores alone for the last frame: `cachedByteCount` of a renderer
    /// with the raster cache off that drew that one frame. The rest is the raster cache's.
    public var storeBytes = 0
    /// `Renderer.rasterCacheBudget`.
    public var rasterCacheBudget = 0

    /// The raster cache's bytes (total less the stores'), after warm-up and at the end.
    public var rasterCacheBytes: (afterWarmUp: Int, atEnd: Int) {
        (max(0, cachedBytesAfterWarmUp - storeBytes), max(0, cachedBytesAtEnd - storeBytes))
    }

    public init(frames: Int, resolution: String, seconds: Double, residentBytesAfterWarmUp: Int, residentBytesAtEnd: Int,
                heapBytesAfterWarmUp: Int, heapBytesAtEnd: Int, cachedStoresAfterWarmUp: Int, cachedStoresAtEnd: Int) {
        self.frames = frames
        self.resolution = resolution
        self.seconds = seconds
        self.residentBytesAfterWarmUp = residentBytesAfterWarmUp
        self.residentBytesAtEnd = residentBytesAtEnd
        self.heapBytesAfterWarmUp = heapBytesAfterWarmUp
        self.heapBytesAtEnd = heapBytesAtEnd
        self.cachedStoresAfterWarmUp = cachedStoresAfterWarmUp
        self.cachedStoresAtEnd = cachedStoresAtEnd
    }
}

public struct Report: Codable, Sendable {
    public var machine: Machine
    /// "release" or "debug": how the benchmark (and LayerKit with it) was compiled.
    public var build = "release"
    public var secondsPerMeasurement: Double
    public var rounds: Int
    public var measurements: [Measurement] = []
    public var agreement: [Agreement] = []
    public var targets: [TargetResult] = []
    public var soak: Soak?
    public var tickBreakdown: TickBreakdown?

    public init(machine: Machine, secondsPerMeasurement: Double, rounds: Int) {
        self.machine = machine
        self.secondsPerMeasurement = secondsPerMeasurement
        self.rounds = rounds
    }

    public func find(_ table: String, _ scene: String, _ resolution: String, _ drawer: String) -> Measurement? {
        measurements.first { $0.table == table && $0.scene == scene && $0.resolution == resolution && $0.drawer == drawer }
    }
}
