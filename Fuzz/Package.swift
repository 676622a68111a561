// swift-tools-version:6.0
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, whatever the clone is called.
let layerKitPackage = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

// libFuzzer targets, in their own package so that the library's build never sees them. Built
// only by scripts/fuzz, with `--sanitize fuzzer --sanitize address`: libFuzzer supplies main()
// and each target supplies LLVMFuzzerTestOneInput (hence -parse-as-library). Public API only.
let package = Package(
    name: "LayerKitFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // Bytes as a PNG file.
        .executableTarget(
            name: "FuzzPNG",
            dependencies: [.product(name: "LayerKit", package: layerKitPackage)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        // Bytes as a program that builds a layer tree with hostile numbers and renders it.
        .executableTarget(
            name: "FuzzLayers",
            dependencies: [.product(name: "LayerKit", package: layerKitPackage)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
