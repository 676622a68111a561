// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "LayerKit",
    // Linux is the home platform. On macOS the floor is what the code uses: Synchronization's
    // Atomic and Mutex (layer ids, caches, diagnostics) need macOS 15.
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LayerKit", targets: ["LayerKit"]),
        // Windows through SDL2, kept apart so that the core library needs no SDL.
        .library(name: "LayerKitSDL", targets: ["LayerKitSDL"]),
        // Core Animation's names (CALayer, CABasicAnimation, CATransform3DMakeRotation, …) over
        // LayerKit: import it instead of QuartzCore.
        .library(name: "LayerKitQuartzCore", targets: ["LayerKitQuartzCore"]),
        // The examples' scenes as plain layer trees, for the side-by-side benchmarks (Benchmarks/)
        // and for anyone who wants a clock face without the command-line runner.
        .library(name: "ExampleScenes", targets: ["ExampleScenes"]),
        .executable(name: "Clock", targets: ["Clock"]),
        .executable(name: "FlipClock", targets: ["FlipClock"]),
        .executable(name: "Countdown", targets: ["Countdown"]),
    ],
    dependencies: [
        // The examples' command lines: generated help, validation, shell completion scripts.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
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
        .systemLibrary(
            name: "CFreeType",
            pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"]), .brew(["freetype"])]
        ),
        .systemLibrary(
            name: "CHarfBuzz",
            pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"]), .brew(["harfbuzz"])]
        ),
        .systemLibrary(
            name: "CFontconfig",
            pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"]), .brew(["fontconfig"])]
        ),
        // Test-only oracle: cairo draws the same scenes independently.
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]
        ),
        // No pkgConfig: sdl2.pc adds -D_REENTRANT, which SwiftPM refuses (with a warning);
        // <SDL2/SDL.h> is found on the default include path without it.
        .systemLibrary(
            name: "CSDL2",
            providers: [.apt(["libsdl2-dev"]), .brew(["sdl2"])]
        ),
        // The terminal presenter's raw input and signal handlers: C, so that the handlers are
        // async-signal-safe (no Swift runtime in them).
        .target(name: "CTerminal"),
        // LayerKit's own SIMD kernels (C intrinsics, no dependencies), reached through thin wrappers:
        // Graphics/Kernels.swift (sampling), Paths/CellRow.swift (the scan converter's cells) and the
        // glyph blit in Text. No global -mavx2: the AVX2 and AVX-512 functions carry their own
        // target attribute and are chosen at run time, so the baseline stays SSE2.
        .target(
            name: "CKernels"
        ),
        .target(
            name: "LayerKit",
            dependencies: ["CKernels", "CPixman", "CPNG", "CFreeType", "CHarfBuzz", "CFontconfig", "CTerminal"]
        ),
        .target(
            name: "LayerKitQuartzCore",
            dependencies: ["LayerKit"]
        ),
        .target(
            name: "LayerKitSDL",
            dependencies: ["LayerKit", "CSDL2"]
        ),
        // The examples' scenes (tested): layer trees built with LayerKit alone.
        .target(
            name: "ExampleScenes",
            dependencies: ["LayerKit"],
            path: "Examples/ExampleScenes"
        ),
        // What the examples share: options and the run loop.
        .target(
            name: "ExampleSupport",
            dependencies: ["LayerKit", "LayerKitSDL",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/ExampleSupport"
        ),
        .executableTarget(
            name: "Clock",
            dependencies: ["ExampleScenes", "ExampleSupport", "LayerKit",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/Clock"
        ),
        .executableTarget(
            name: "FlipClock",
            dependencies: ["ExampleScenes", "ExampleSupport", "LayerKit",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/FlipClock"
        ),
        .executableTarget(
            name: "Countdown",
            dependencies: ["ExampleScenes", "ExampleSupport", "LayerKit",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Examples/Countdown"
        ),
        .testTarget(
            name: "LayerKitTests",
            dependencies: ["LayerKit", "LayerKitSDL", "ExampleScenes", "ExampleSupport", "CCairo"],
            // Reference images are read beside the test sources (and rewritten there when
            // recording), not bundled.
            exclude: ["Render/References"],
            resources: [.copy("Graphics/Fixtures")]
        ),
        // Written with Core Animation's names only: the seeds' code ported through
        // LayerKitQuartzCore, rendered and probed.
        .testTarget(
            name: "LayerKitQuartzCoreTests",
            dependencies: ["LayerKitQuartzCore"]
        ),
        // The Swift blocks of the README and the DocC articles, mirrored by scripts/doc-snippets
        // (whose --check keeps them identical), so that the documentation compiles.
        .testTarget(
            name: "DocumentationSnippets",
            dependencies: ["LayerKit", "LayerKitQuartzCore"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The documentation plugin (`swift package generate-documentation`, see the README) joins the
// package only when asked for with LAYERKIT_DOCS=1, so that `swift build` never resolves,
// fetches or plans it: library users and CI's builds pay nothing for it.
if Context.environment["LAYERKIT_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
