import Foundation
import Testing

/// A layer tree and its renderer live in one isolation domain: sharing either across threads is
/// a compile error in Swift 6, while the documented way to render in the background compiles.
/// Checked by type-checking small programs against the LayerKit module these tests were built
/// with.
@Suite struct IsolationTests {
    @Test(arguments: [
        ("a renderer captured by a concurrent closure", """
        func share(_ layer: Layer, _ renderer: Renderer) {
            DispatchQueue.global().async { _ = try? renderer.render(layer) }
        }
        """),
        ("a layer changed from another thread", """
        func share(_ layer: Layer) {
            Thread.detachNewThread { layer.opacity = 0.5 }
        }
        """),
        ("a tree and renderer used by a detached task and by their owner", """
        func share() async {
            let layer = Layer()
            let renderer = Renderer()
            Task.detached { _ = try? renderer.render(layer) }
            _ = try? renderer.render(layer)
        }
        """),
        ("a layer handed out of an actor", """
        actor Owner {
            let layer = Layer()
            func give() -> Layer { layer }
        }
        func take(_ owner: Owner) async { let layer = await owner.give(); layer.opacity = 0.3 }
        """),
    ])
    func sharingATreeOrARendererDoesNotCompile(_ case: (String, String)) throws {
        let (status, output) = try typecheck(`case`.1)
        #expect(status != 0, "\(`case`.0) compiled")
        #expect(output.contains("Sendable") || output.contains("data race"), "\(`case`.0): \(output)")
    }

    /// The way the docs give for rendering in the background: tree and renderer made inside the
    /// task, and what comes back (an Image) Sendable.
    @Test func renderingInABackgroundTaskCompiles() throws {
        let (status, output) = try typecheck("""
        func frameInTheBackground() async throws -> Image {
            try await Task.detached {
                let root = Layer()
                root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
                root.backgroundColor = .red
                let renderer = Renderer(scale: 2)
                return try Image(renderer.render(root, at: 1))
            }.value
        }
        """)
        #expect(status == 0, "\(output)")
    }

    /// Compiles `body` in Swift 6 mode, through the SIL diagnostics that find data races (region
    /// isolation is checked there, not when type-checking), against the LayerKit module beside
    /// the test binary.
    private func typecheck(_ body: String) throws -> (Int32, String) {
        let products = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let modules = products.appendingPathComponent("Modules")
        guard FileManager.default.fileExists(atPath: modules.appendingPathComponent("LayerKit.swiftmodule").path) else {
            throw IsolationCheckError("no LayerKit.swiftmodule in \(modules.path)")
        }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let sources = package.appendingPathComponent("Sources")
        let cModules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasPrefix("C") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-isolation-\(UUID().uuidString).swift")
        try ("import Foundation\nimport Dispatch\nimport LayerKit\n" + body + "\n").write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let includes = try run("/usr/bin/env", ["pkg-config", "--cflags-only-I", "pixman-1", "freetype2", "harfbuzz", "fontconfig", "libpng16"]).1
            .split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        var arguments = ["swiftc", "-emit-sil", "-o", "/dev/null", "-swift-version", "6", "-I", modules.path]
        for module in cModules { arguments += ["-I", sources.appendingPathComponent(module).path] }
        // C targets built from sources (CTerminal) have module maps that SwiftPM generates in
        // their build folders; pass those as SwiftPM does.
        for folder in try FileManager.default.contentsOfDirectory(atPath: products.path) where folder.hasSuffix(".build") {
            let map = products.appendingPathComponent(folder).appendingPathComponent("module.modulemap")
            if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=" + map.path] }
        }
        for include in includes { arguments += ["-Xcc", include] }
        arguments.append(file.path)
        return try run("/usr/bin/env", arguments)
    }

    private func run(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

struct IsolationCheckError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
