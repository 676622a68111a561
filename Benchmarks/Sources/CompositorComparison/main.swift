// Draws the same scenes with LayerKit (one core and all cores), cairo drawing them from scratch,
// cairo compositing LayerKit's bitmaps, the same composites issued straight to pixman, and a
// memcpy of the frame, side by side in one run; then the scaling tables, where a clock tick's time
// goes, and a memory soak. Writes markdown and JSON.
//
//   swift run -c release --package-path Benchmarks CompositorComparison [options]
import CompositorBench
import Foundation
import LayerKit

let usage = """
    Usage: CompositorComparison [options]

      --seconds S        time per measurement and round (default 0.3)
      --rounds N         rounds per measurement; the median round counts, and a ratio is the
                         median of the rounds' ratios (default 5)
      --resolutions L    comma-separated: 720p, 1080p, 1440p, 2160p (default 1080p,2160p)
      --only TEXT        only scenes whose name contains TEXT (the scaling tables are skipped)
      --drawer TEXT      only drawers whose name contains TEXT (repeatable; for profiling)
      --soak N           frames of the memory soak (default 100000; 0 skips it)
      --no-scaling       skip the scaling tables (and the idle-frame table)
      --breakdown        time where the clock tick's time goes (on by default without --only)
      --pictures DIR     write frame 0 of every drawer of every measured scene to DIR as PNG
      --no-check         skip the check that each cairo drawer draws LayerKit's picture
      --markdown PATH    write the markdown report here (default: stdout only)
      --json PATH        write the JSON report here
      --quick            --seconds 0.1 --rounds 1 --soak 2000, for trying it out
      -h, --help         this text
    """

struct Options {
    var seconds = 0.3
    var rounds = 5
    var resolutions = ["1080p", "2160p"]
    var only: String?
    var drawers: [String] = []
    var soak = 100_000
    var scaling = true
    var markdown: String?
    var json: String?
    var breakdown: Bool?
    var pictures: String?
    var check = true
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CompositorComparison: \(message)\n\n\(usage)\n".utf8))
    exit(2)
}

/// Stops the run for a fault found while running (not a usage error).
func stop(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CompositorComparison: \(message)\n".utf8))
    exit(1)
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()[...]
    func value(_ flag: String) -> String {
        guard let v = arguments.popFirst() else { fail("\(flag) needs a value") }
        return v
    }
    func number<T: LosslessStringConvertible & Comparable>(_ flag: String, _ minimum: T) -> T {
        let text = value(flag)
        guard let v = T(text), v >= minimum else { fail("\(flag) takes a number of at least \(minimum), not '\(text)'") }
        return v
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--seconds": options.seconds = number(argument, 0.001)
        case "--rounds": options.rounds = number(argument, 1)
        case "--resolutions":
            options.resolutions = value(argument).split(separator: ",").map { String($0) }
            for r in options.resolutions where size(of: r) == nil {
                fail("unknown resolution '\(r)' (use 720p, 1080p, 1440p or 2160p)")
            }
        case "--only": options.only = value(argument)
        case "--drawer": options.drawers.append(value(argument))
        case "--soak": options.soak = number(argument, 0)
        case "--no-scaling": options.scaling = false
        case "--breakdown": options.breakdown = true
        case "--pictures": options.pictures = value(argument)
        case "--no-check": options.check = false
        case "--markdown": options.markdown = value(argument)
        case "--json": options.json = value(argument)
        case "--quick": options.seconds = 0.1; options.rounds = 1; options.soak = 2000
        case "-h", "--help": print(usage); exit(0)
        default: fail("unknown option '\(argument)'")
        }
    }
    return options
}

func size(of resolution: String) -> (width: Int, height: Int)? {
    switch resolution {
    case "720p": Resolution.hd
    case "1080p": Resolution.fullHD
    case "1440p": Resolution.qhd
    case "2160p": Resolution.uhd
    default: nil
    }
}

func progress(_ text: String) { FileHandle.standardError.write(Data((text + "\n").utf8)) }

let options = parseOptions()
let cores = ProcessInfo.processInfo.activeProcessorCount
let allCores = "LayerKit \(cores) cores"
let allCoresMemcpy = "memcpy, \(cores) cores"
let drawerNames = ["LayerKit 1 core", allCores, cairoFromScratch, cairoBitmaps, "raw pixman", "memcpy"]
var report = Report(machine: .current(), secondsPerMeasurement: options.seconds, rounds: options.rounds)
#if DEBUG
report.build = "debug"
#endif

/// Measures `drawers` of one scene side by side: each round times every drawer once, in turn.
@MainActor func compare(_ table: String, _ scene: Scene, _ drawers: [(String, Result<Drawer, Unsupported>)]) {
    compare(table, drawers.map { (scene, $0.0, $0.1) })
}

/// Measures drawers of several scenes side by side: each round times every drawer once, in turn.
@MainActor func compare(_ table: String, _ entries: [(Scene, String, Result<Drawer, Unsupported>)]) {
    let entries = entries.filter { wanted($0.1) }
    var samples = Array(repeating: [Sample](), count: entries.count)
    for round in 0..<options.rounds {
        for (k, (_, _, drawer)) in entries.enumerated() {
            guard case let .success(drawer) = drawer else { continue }
            // Caches are filled in the first round; later rounds warm up with one frame, which
            // the slowest scenes (seconds a frame for cairo at 2160p) feel.
            samples[k].append(measure(drawer, seconds: options.seconds, warmUp: round == 0 ? 2 : 1))
        }
    }
    for (k, (scene, name, drawer)) in entries.enumerated() {
        switch drawer {
        case let .success(drawer):
            var m = Measurement(table: table, scene: scene, drawer: name, samples: samples[k])
            if let layerKit = drawer as? LayerKitDrawer, layerKit.mode == .damage { m.damagedPixels = layerKit.lastDamage?.area }
            report.measurements.append(m)
        case let .failure(why):
            report.measurements.append(Measurement(table: table, scene: scene, drawer: name, unsupported: why.description))
        }
    }
}

func wanted(_ drawer: String) -> Bool {
    options.drawers.isEmpty || options.drawers.contains { drawer.localizedCaseInsensitiveContains($0) }
}

func attempt(_ make: () throws -> Drawer) -> Result<Drawer, Unsupported> {
    do { return .success(try make()) } catch let error as Unsupported { return .failure(error) } catch {
        return .failure(Unsupported("\(error)"))
    }
}

/// Draws frame 0 with the baselines and LayerKit and records how far their pictures are apart
/// (and writes the pictures when asked).
@MainActor func checkAgreement(_ scene: Scene, reference: Drawer, _ baselines: [(String, Result<Drawer, Unsupported>)]) {
    reference.draw(frame: 0)
    guard let expected = reference.pixels() else { return }
    writePicture(expected, scene, "LayerKit")
    for (name, drawer) in baselines {
        guard case let .success(drawer) = drawer else { continue }
        drawer.draw(frame: 0)
        guard let pixels = drawer.pixels() else { continue }
        writePicture(pixels, scene, name)
        let d = difference(expected, pixels)
        report.agreement.append(Agreement(scene: scene.name, resolution: scene.resolutionName, drawer: name,
                                          meanDifference: d.mean, largestDifference: d.largest))
    }
}

/// Writes a frame to `--pictures`, named after its resolution, scene and drawer.
func writePicture(_ pixels: [UInt32], _ scene: Scene, _ drawer: String) {
    guard let directory = options.pictures else { return }
    let slug = { (s: String) in s.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "-" }.joined() }
    let path = "\(directory)/\(scene.resolutionName)-\(slug(scene.name))-\(slug(drawer)).png"
    do {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let bitmap = try Bitmap(width: scene.width, height: scene.height)
        bitmap.withUnsafeMutablePixels { out in for i in out.indices { out[i] = pixels[i] } }
        try bitmap.writePNG(to: path)
    } catch {
        stop("cannot write \(path): \(error)")
    }
}

// MARK: The cairo drawers draw LayerKit's pictures

/// Each from-scratch cairo drawer draws frame 0 of its scene at 480x270 beside LayerKit, and the
/// run stops if a picture is far from LayerKit's: a drawer that drew another picture (or none)
/// would make every ratio meaningless. Cheap, so it runs every time (CI included). The text board
/// is checked at 720p (in narrower columns LayerKit's text layers cut their lines at their bounds,
/// where cairo's lines run on) and allowed more: cairo's hinted advances move glyphs along a line.
/// (Measured when this was written: 0.3-1.6 levels for the vector scenes, 4.3 for the text board.)
@MainActor func checkCairoPictures() {
    let (width, height) = (480, 270)
    let scenes: [(Scene, allowed: Double)] = [
        (Scenes.clock(width: width, height: height), 2), (Scenes.clockTick(width: width, height: height), 2),
        (Scenes.countdown(width: width, height: height), 2), (Scenes.layers(100, shadows: true, width: width, height: height), 2),
        (Scenes.text(width: Resolution.hd.width, height: Resolution.hd.height), 6), (Scenes.paths(width: width, height: height), 3),
        (Scenes.strokes(width: width, height: height), 2),
    ]
    for (scene, allowed) in scenes {
        guard let layerKit = try? LayerKitDrawer(scene, threads: 1), let cairo = try? CairoDrawer(scene) else {
            stop("cannot draw \(scene.name) for the picture check")
        }
        layerKit.draw(frame: 0)
        cairo.draw(frame: 0)
        writePicture(layerKit.pixels()!, scene, "LayerKit")
        writePicture(cairo.pixels()!, scene, cairoFromScratch)
        let d = difference(layerKit.pixels()!, cairo.pixels()!)
        let coarse = coarseDifference(layerKit.pixels()!, cairo.pixels()!, width: scene.width)
        if coarse > allowed {
            stop(String(format: "%@ drawn by cairo from scratch differs from LayerKit's by %.2f levels on average over 4x4 squares "
                        + "(more than %.1f): the drawer draws another picture", scene.name, coarse, allowed))
        }
        progress(String(format: "picture check: %@ %.3f levels on average over 4x4 squares (per pixel %.3f, max %d)",
                        scene.name, coarse, d.mean, d.largest))
    }
}

if options.check { checkCairoPictures() }

// MARK: The main table

typealias SceneBuilder = (Int, Int) -> Scene
let mainScenes: [SceneBuilder] = [
    Scenes.clock, Scenes.clockTick, Scenes.flipClock, Scenes.countdown,
    { Scenes.layers(10, width: $0, height: $1) }, { Scenes.layers(100, width: $0, height: $1) },
    { Scenes.layers(1000, width: $0, height: $1) }, { Scenes.layers(10000, width: $0, height: $1) },
    { Scenes.layers(10, shadows: true, width: $0, height: $1) }, { Scenes.layers(100, shadows: true, width: $0, height: $1) },
    { Scenes.layers(1000, shadows: true, width: $0, height: $1) }, { Scenes.layers(10000, shadows: true, width: $0, height: $1) },
    Scenes.perspective, Scenes.text, Scenes.textThroughDamage, Scenes.paths, Scenes.strokes,
]

for resolution in options.resolutions {
    let (width, height) = size(of: resolution)!
    for build in mainScenes {
        let scene = build(width, height)
        if let only = options.only, !scene.name.localizedCaseInsensitiveContains(only) { continue }
        progress("\(resolution) \(scene.name)")
        var drawers: [(String, Result<Drawer, Unsupported>)] = [
            ("LayerKit 1 core", attempt { try LayerKitDrawer(scene, threads: 1) }),
        ]
        if cores > 1 { drawers.append((allCores, attempt { try LayerKitDrawer(scene, threads: cores, submits: true) })) }
        let baselines: [(String, Result<Drawer, Unsupported>)] = [
            (cairoFromScratch, attempt { try CairoDrawer(scene) }),
            (cairoBitmaps, attempt { try CairoBitmapDrawer(scene) }),
            ("raw pixman", attempt { try PixmanFloor(scene) }),
        ]
        if case let .success(reference) = drawers[0].1 { checkAgreement(scene, reference: reference, baselines) }
        var floors: [(String, Result<Drawer, Unsupported>)] = [("memcpy", .success(MemcpyFloor(scene)))]
        if cores > 1 { floors.append((allCoresMemcpy, .success(MemcpyFloor(scene, threads: cores)))) }
        compare("main", scene, drawers + baselines + floors)
    }
}

// MARK: Scaling tables

if options.scaling, options.only == nil {
    let (width, height) = Resolution.fullHD
    for fraction in [0.01, 0.05, 0.25, 1.0] {
        let scene = Scenes.damagedArea(fraction, width: width, height: height)
        progress("scaling: \(scene.name)")
        compare("damage", scene, [
            ("LayerKit 1 core, damage", attempt { try LayerKitDrawer(scene, threads: 1) }),
            ("LayerKit 1 core, full frame", attempt { try LayerKitDrawer(scene, threads: 1, mode: .fullFrame) }),
            ("raw pixman", attempt { try PixmanFloor(scene) }),
        ])
    }
    for resolution in ["720p", "1080p", "1440p", "2160p"] {
        let (width, height) = size(of: resolution)!
        for build in [Scenes.clock, { Scenes.layers(1000, width: $0, height: $1) }] as [SceneBuilder] {
            let scene = build(width, height)
            progress("scaling: \(resolution) \(scene.name)")
            compare("resolution", scene, [
                ("LayerKit 1 core", attempt { try LayerKitDrawer(scene, threads: 1) }),
                (allCores, attempt { try LayerKitDrawer(scene, threads: cores, submits: true) }),
                ("raw pixman", attempt { try PixmanFloor(scene) }),
            ])
        }
    }
}

// MARK: Layers at rest, idle frames, where the tick's time goes

if options.scaling, options.only == nil {
    let (width, height) = Resolution.fullHD
    let scenes = [10, 100, 1000, 10000].map { Scenes.staticLayers($0, width: width, height: height) }
    progress("scaling: layers at rest + 3 moving")
    compare("static", scenes.map { scene in (scene, "LayerKit 1 core", attempt { try LayerKitDrawer(scene, threads: 1) }) })

    progress("idle frames")
    let clock = Scenes.clock(width: width, height: height)
    let idle = [Scenes.clockIdle(width: width, height: height), Scenes.clockIdleBetweenTicks(width: width, height: height)]
    compare("idle", [(clock, "LayerKit 1 core", attempt { try LayerKitDrawer(clock, threads: 1) })]
        + idle.map { scene in (scene, "LayerKit 1 core", attempt { try LayerKitDrawer(scene, threads: 1) }) })
}

if options.breakdown ?? (options.only == nil) {
    let (width, height) = Resolution.fullHD
    progress("where the clock tick's time goes")
    do {
        report.tickBreakdown = try measureTickBreakdown(width: width, height: height, seconds: options.seconds, rounds: options.rounds)
    } catch {
        progress("CompositorComparison: no tick breakdown: \(error)")
    }
}

// MARK: Memory soak

if options.soak > 0 {
    let (width, height) = Resolution.fullHD
    let scene = Scenes.clock(width: width, height: height)
    let drawer = try LayerKitDrawer(scene, threads: 1, mode: .damage)
    progress("soak: \(options.soak) frames of the animated clock at 1080p")
    let warmUp = min(1000, options.soak)
    // 60 frames a second of clock time, the hands turning continuously.
    func frame(_ i: Int) { drawer.renderer.render(scene.root, at: 0.5 + Double(i) / 60, into: drawer.target) }
    for i in 0..<warmUp { frame(i) }
    let residentBefore = residentBytes(), heapBefore = heapBytes(), storesBefore = drawer.renderer.cachedStoreCount
    let bytesBefore = drawer.renderer.cachedByteCount
    let start = now()
    for i in warmUp..<options.soak { frame(i) }
    report.soak = Soak(frames: options.soak, resolution: "1080p", seconds: now() - start,
                       residentBytesAfterWarmUp: residentBefore, residentBytesAtEnd: residentBytes(),
                       heapBytesAfterWarmUp: heapBefore, heapBytesAtEnd: heapBytes(),
                       cachedStoresAfterWarmUp: storesBefore, cachedStoresAtEnd: drawer.renderer.cachedStoreCount)
    report.soak?.cachedBytesAfterWarmUp = bytesBefore
    report.soak?.cachedBytesAtEnd = drawer.renderer.cachedByteCount
    report.soak?.rasterCacheBudget = drawer.renderer.rasterCacheBudget
    // The stores alone: one frame of the same tree and time by a renderer without a raster cache.
    let storesOnly = Renderer(threadCount: 1)
    storesOnly.rasterCacheBudget = 0
    storesOnly.render(scene.root, at: 0.5 + Double(options.soak - 1) / 60, into: try Bitmap(width: width, height: height))
    report.soak?.storeBytes = storesOnly.cachedByteCount
}

// MARK: Targets and output

report.targets = evaluateTargets(report, cores: cores)
let markdown = renderMarkdown(report, drawers: drawerNames, allCores: allCores, allCoresMemcpy: allCoresMemcpy)
print(markdown)
/// Writes a report to `path`: into a temporary file renamed over it when the path is a regular
/// file or new (an interrupted run leaves the last report whole), else in place. Renamed over
/// `/dev/null` (a run that wants only the printed table), as root, the device became a file.
func writeReport(_ data: Data, to path: String) throws {
    let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    try data.write(to: URL(fileURLWithPath: path), options: type == nil || type == .typeRegular ? .atomic : [])
}

do {
    if let path = options.markdown { try writeReport(Data(markdown.utf8), to: path) }
    if let path = options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try writeReport(encoder.encode(report), to: path)
    }
} catch {
    progress("CompositorComparison: cannot write the report: \(error)")
    exit(1)
}
