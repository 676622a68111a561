// swift-tools-version:6.1
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, whatever the clone is called.
let layerKitPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Benchmarks live in their own package so that library users never resolve their dependencies.
// They use LayerKit's public API only.
let package = Package(
    name: "LayerKitBenchmarks",
    platforms: [.macOS(.v15)],   // LayerKit's own floor (Synchronization)
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .systemLibrary(
            name: "CCairoOracle",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]
        ),
        // glibc's mallinfo2, for the memory soak.
        .systemLibrary(name: "CMallocInfo"),
        // The scenes, and the four ways of drawing them: LayerKit, cairo, raw pixman, memcpy.
        // (Raw pixman is LayerKit's own CPixman module: a second module map of pixman.h beside
        // it would split pixman's declarations between two modules.)
        .target(
            name: "CompositorBench",
            dependencies: [
                .product(name: "LayerKit", package: layerKitPackage),
                .product(name: "ExampleScenes", package: layerKitPackage),
                "CCairoOracle", "CMallocInfo",
            ]
        ),
        // Frames per second side by side in one run, with scaling tables, as markdown and JSON.
        .executableTarget(
            name: "CompositorComparison",
            dependencies: ["CompositorBench", .product(name: "LayerKit", package: layerKitPackage)]
        ),
        // Per frame: wall time beside the CPU time of the calling thread and of all threads, and
        // context switches: two cores timed on a machine shared with other work.
        .executableTarget(
            name: "ThreadProbe",
            dependencies: ["CompositorBench", .product(name: "LayerKit", package: layerKitPackage)]
        ),
        // The standard harness (package-benchmark): wall time, throughput, mallocs, peak memory.
        .executableTarget(
            name: "Compositor",
            dependencies: [
                "CompositorBench",
                .product(name: "LayerKit", package: layerKitPackage),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Compositor",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Quality and speed of LayerKit's path rasterizer beside cairo's, on the same paths.
        .executableTarget(
            name: "PathComparison",
            dependencies: [.product(name: "LayerKit", package: layerKitPackage), "CCairoOracle", "CompositorBench"]
        ),
        // ns per pixel of pixman's samplers beside each variant of LayerKit's SIMD kernels.
        .executableTarget(
            name: "KernelSpeed",
            dependencies: [.product(name: "LayerKit", package: layerKitPackage)]
        ),
        // Timing-function evaluation speed beside a plain bisection solver.
        .executableTarget(
            name: "TimingFunctionSpeed",
            dependencies: [.product(name: "LayerKit", package: layerKitPackage)]
        ),
        // How the tables are computed from the rounds (not the speeds: those are never asserted).
        .testTarget(
            name: "CompositorBenchTests",
            dependencies: ["CompositorBench", .product(name: "LayerKit", package: layerKitPackage)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
