// Draws the same scenes with LayerKit (one core and all cores), cairo's image back end, the same
// composites issued straight to pixman, and a memcpy of the frame, side by side in one run; then
// the scaling tables and a memory soak. Writes markdown and JSON.
//
//   swift run -c release --package-path Benchmarks CompositorComparison [options]
import CompositorBench
import Foundation
import LayerKit

let usage = """
    Usage: CompositorComparison [options]

      --seconds S        time per measurement and round (default 0.5)
      --rounds N         rounds per measurement; the median round counts (default 3)
      --resolutions L    comma-separated: 720p, 1080p, 1440p, 2160p (default 1080p,2160p)
      --only TEXT        only scenes whose name contains TEXT (the scaling tables are skipped)
      --drawer TEXT      only drawers whose name contains TEXT (repeatable; for profiling)
      --soak N           frames of the memory soak (default 100000; 0 skips it)
      --no-scaling       skip the scaling tables
      --markdown PATH    write the markdown report here (default: stdout only)
      --json PATH        write the JSON report here
      --quick            --seconds 0.1 --rounds 1 --soak 2000, for trying it out
      -h, --help         this text
    """

struct Options {
    var seconds = 0.5
    var rounds = 3
    var resolutions = ["1080p", "2160p"]
    var only: String?
    var drawers: [String] = []
    var soak = 100_000
    var scaling = true
    var markdown: String?
    var json: String?
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("CompositorComparison: \(message)\n\n\(usage)\n".utf8))
    exit(2)
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
let drawerNames = ["LayerKit 1 core", allCores, "cairo", "raw pixman", "memcpy"]
var report = Report(machine: .current(), secondsPerMeasurement: options.seconds, rounds: options.rounds)

/// Measures `drawers` side by side: each round times every drawer once, in turn.
@MainActor func compare(_ table: String, _ scene: Scene, _ drawers: [(String, Result<Drawer, Unsupported>)]) {
    var samples: [String: [Sample]] = [:]
    for _ in 0..<options.rounds {
        for (name, drawer) in drawers where wanted(name) {
            guard case let .success(drawer) = drawer else { continue }
            samples[name, default: []].append(measure(drawer, seconds: options.seconds))
        }
    }
    for (name, drawer) in drawers where wanted(name) {
        switch drawer {
        case .success:
            report.measurements.append(Measurement(table: table, scene: scene, drawer: name, samples: samples[name] ?? []))
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

/// Draws frame 0 with the baselines and LayerKit and records how far their pictures are apart.
@MainActor func checkAgreement(_ scene: Scene, reference: Drawer, _ baselines: [(String, Result<Drawer, Unsupported>)]) {
    reference.draw(frame: 0)
    guard let expected = reference.pixels() else { return }
    for (name, drawer) in baselines {
        guard case let .success(drawer) = drawer else { continue }
        drawer.draw(frame: 0)
        guard let pixels = drawer.pixels() else { continue }
        let d = difference(expected, pixels)
        report.agreement.append(Agreement(scene: scene.name, resolution: scene.resolutionName, drawer: name,
                                          meanDifference: d.mean, largestDifference: d.largest))
    }
}

// MARK: The main table

typealias SceneBuilder = (Int, Int) -> Scene
let mainScenes: [SceneBuilder] = [
    Scenes.clock, Scenes.clockTick, Scenes.flipClock, Scenes.countdown,
    { Scenes.layers(10, width: $0, height: $1) }, { Scenes.layers(100, width: $0, height: $1) },
    { Scenes.layers(1000, width: $0, height: $1) }, { Scenes.layers(10000, width: $0, height: $1) },
    { Scenes.layers(10, shadows: true, width: $0, height: $1) }, { Scenes.layers(100, shadows: true, width: $0, height: $1) },
    { Scenes.layers(1000, shadows: true, width: $0, height: $1) }, { Scenes.layers(10000, shadows: true, width: $0, height: $1) },
    Scenes.perspective, Scenes.text, Scenes.paths,
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
        if cores > 1 { drawers.append((allCores, attempt { try LayerKitDrawer(scene, threads: cores) })) }
        let baselines: [(String, Result<Drawer, Unsupported>)] = [
            ("cairo", attempt { try CairoDrawer(scene) }),
            ("raw pixman", attempt { try PixmanFloor(scene) }),
        ]
        if case let .success(reference) = drawers[0].1 { checkAgreement(scene, reference: reference, baselines) }
        compare("main", scene, drawers + baselines + [("memcpy", .success(MemcpyFloor(scene)))])
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
                (allCores, attempt { try LayerKitDrawer(scene, threads: cores) }),
                ("raw pixman", attempt { try PixmanFloor(scene) }),
            ])
        }
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
    let start = now()
    for i in warmUp..<options.soak { frame(i) }
    report.soak = Soak(frames: options.soak, resolution: "1080p", seconds: now() - start,
                       residentBytesAfterWarmUp: residentBefore, residentBytesAtEnd: residentBytes(),
                       heapBytesAfterWarmUp: heapBefore, heapBytesAtEnd: heapBytes(),
                       cachedStoresAfterWarmUp: storesBefore, cachedStoresAtEnd: drawer.renderer.cachedStoreCount)
}

// MARK: Targets and output

report.targets = evaluateTargets(report, cores: cores)
let markdown = renderMarkdown(report, drawers: drawerNames, allCores: allCores)
print(markdown)
do {
    if let path = options.markdown { try markdown.write(toFile: path, atomically: true, encoding: .utf8) }
    if let path = options.json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(report).write(to: URL(fileURLWithPath: path))
    }
} catch {
    progress("CompositorComparison: cannot write the report: \(error)")
    exit(1)
}
