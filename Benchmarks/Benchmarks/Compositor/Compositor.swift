// The compositor scenes under ordo-one's package-benchmark harness: wall time, throughput,
// mallocs and peak memory per frame, for LayerKit and for the raw-pixman and cairo baselines (cairo
// drawing each scene from scratch, and cairo compositing LayerKit's bitmaps).
//
//   swift package --package-path Benchmarks benchmark --target Compositor
//
// The side-by-side table with ratios, resolutions and scaling is CompositorComparison's.
import Benchmark
import CompositorBench
import LayerKit

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
        warmupIterations: 2,
        maxDuration: .seconds(1),
        maxIterations: 500
    )

    let (width, height) = Resolution.fullHD
    let scenes: [(String, (Int, Int) -> Scene)] = [
        ("clock", Scenes.clock), ("clock tick (damage)", Scenes.clockTick), ("flip clock mid-flip", Scenes.flipClock),
        ("countdown", Scenes.countdown),
        ("100 layers", { Scenes.layers(100, width: $0, height: $1) }),
        ("1000 layers", { Scenes.layers(1000, width: $0, height: $1) }),
        ("100 layers + shadows", { Scenes.layers(100, shadows: true, width: $0, height: $1) }),
        ("perspective wall", Scenes.perspective), ("text board", Scenes.text), ("path shapes", Scenes.paths),
        ("stroke-only shapes", Scenes.strokes),
    ]
    let drawers: [(String, (Scene) throws -> Drawer)] = [
        ("LayerKit 1 core", { try LayerKitDrawer($0, threads: 1) }),
        ("raw pixman", { try PixmanFloor($0) }),
        (cairoFromScratch, { try CairoDrawer($0) }),
        (cairoBitmaps, { try CairoBitmapDrawer($0) }),
    ]
    // cairo's matrices are affine: it cannot draw the perspective scenes (its drawers throw).
    let cairoless: Set<String> = ["flip clock mid-flip", "perspective wall"]
    for (sceneName, build) in scenes {
        for (drawerName, make) in drawers where !(drawerName.hasPrefix("cairo") && cairoless.contains(sceneName)) {
            Benchmark("\(sceneName) 1080p, \(drawerName)") { benchmark in
                let scene = build(width, height)
                // A drawer that cannot draw the scene (cairo and perspective) has no numbers.
                guard let drawer = try? make(scene) else { return }
                drawer.draw(frame: 0)
                drawer.draw(frame: 1)
                benchmark.startMeasurement()
                for i in benchmark.scaledIterations { drawer.draw(frame: i) }
            }
        }
    }
}
