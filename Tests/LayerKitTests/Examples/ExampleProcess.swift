import Foundation
import LayerKit

/// Runs the built example executables (Clock, FlipClock, Countdown) as a user would.
enum ExampleProcess {
    /// The build folder the tests run from: the examples are built beside the test bundle.
    static let directory: URL = {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        if FileManager.default.isExecutableFile(atPath: bundle.appendingPathComponent("Clock").path) { return bundle }
        // Fallback: the package's debug build folder.
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug")
    }()

    static func executable(_ name: String) -> URL { directory.appendingPathComponent(name) }

    struct Result {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `name` with `arguments` (standard input and output are not terminals), waiting for it.
    static func run(_ name: String, _ arguments: [String], environment extra: [String: String] = [:],
                    in directory: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        // No window unless a test asks for one: the examples fall back to files.
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment["COLUMNS"] = "100"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out"), err = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      output: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                      errors: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
