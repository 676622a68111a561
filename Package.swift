// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LayerKit",
    products: [
        .library(name: "LayerKit", targets: ["LayerKit"]),
        .executable(name: "Sample", targets: ["Sample"]),
    ],
    targets: [
        // C libraries, reached only through the thin owning wrappers in LayerKit/Graphics.
        .systemLibrary(
            name: "CPixman",
            pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"]), .brew(["pixman"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),
        .target(
            name: "LayerKit",
            dependencies: ["CPixman", "CPNG"]
        ),
        .executableTarget(
            name: "Sample",
            dependencies: ["LayerKit"],
            path: "Examples/Sample"
        ),
        .testTarget(
            name: "LayerKitTests",
            dependencies: ["LayerKit"],
            resources: [.copy("Graphics/Fixtures")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
