// swift-tools-version:6.1
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, whatever the clone is called.
let layerKitPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// Benchmarks live in their own package so that library users never resolve their dependencies.
// They use LayerKit's public API only.
let package = Package(
    name: "LayerKitBenchmarks",
    dependencies: [
        .package(path: ".."),
    ],
    targets: [
        .systemLibrary(
            name: "CCairoOracle",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]
        ),
        // Quality and speed of LayerKit's path rasterizer beside cairo's, on the same paths.
        .executableTarget(
            name: "PathComparison",
            dependencies: [.product(name: "LayerKit", package: layerKitPackage), "CCairoOracle"]
        ),
        // Timing-function evaluation speed beside a plain bisection solver.
        .executableTarget(
            name: "TimingFunctionSpeed",
            dependencies: [.product(name: "LayerKit", package: layerKitPackage)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
