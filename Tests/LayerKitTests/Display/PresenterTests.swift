import Foundation
import Testing
@testable import LayerKit

@Suite struct PresenterTests {
    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-\(UUID().uuidString)-\(name)").path
    }

    /// A 64x48 scene whose colour says the time: a bar moving 1 point per frame at 10 fps.
    func scene() -> (Layer, Layer) {
        let root = rootLayer(64, 48)
        root.backgroundColor = .white
        let bar = solidLayer(CGRect(x: 0, y: 0, width: 8, height: 48), .blue, in: root)
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 4.0
        move.toValue = 60.0
        move.duration = 5.6
        move.timingFunction = .linear
        bar.add(move, forKey: "move")
        return (root, bar)
    }

    @Test func frameSequenceWritesNumberedPNGsAtExactTimes() throws {
        let directory = temporaryPath("frames")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (root, _) = scene()
        let presenter = try FrameSequencePresenter(directory: directory)
        try FrameLoop(layer: root, renderer: Renderer(threadCount: 1), presenter: presenter)
            .run(try OfflineClock(fps: 10, frameCount: 12))
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(files.count == 12 && files.first == "frame-0001.png" && files.last == "frame-0012.png")
        // Frame 11 (t = 1.0 s) shows the bar 10 points along: centred at x = 14.
        let frame = try Bitmap(pngAt: (directory as NSString).appendingPathComponent("frame-0011.png"))
        #expect(frame.pixel(x: 14, y: 24) == .blue && frame.pixel(x: 5, y: 24) == .white)
        // And it is the very frame the renderer makes for that time.
        let (again, _) = scene()
        #expect(frame.hasSamePixels(as: try Renderer(threadCount: 1).render(again, at: 1.0)))
    }

    @Test func pngPresenterWritesTheFrame() throws {
        let path = temporaryPath("one.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (root, _) = scene()
        try FrameLoop(layer: root, renderer: Renderer(), presenter: PNGPresenter(path: path)).run(try OfflineClock(fps: 1, frameCount: 1))
        #expect(try Bitmap(pngAt: path).pixel(x: 4, y: 10) == .blue)
        #expect(throws: DisplayError.self) {
            try PNGPresenter(path: "/nonexistent/dir/x.png").present(try Bitmap(width: 1, height: 1), damage: Region(), at: FrameTime(index: 0, time: 0))
        }
    }

    @Test func unknownVideoFormatAndMissingFFmpegAreClearErrors() throws {
        #expect(throws: DisplayError.unsupportedFormat(path: "out.avi")) { try VideoPresenter(path: "out.avi", fps: 30) }
        let presenter = try VideoPresenter(path: temporaryPath("x.mp4"), fps: 30, executable: "no-such-ffmpeg-\(UUID().uuidString)")
        let frame = try Bitmap(width: 4, height: 4)
        do {
            try presenter.present(frame, damage: Region(), at: FrameTime(index: 0, time: 0))
            Issue.record("expected an error")
        } catch {
            guard case .toolMissing = error else { Issue.record("wrong error \(error)"); return }
            #expect(error.description.contains("not installed"))
        }
    }

    @Test func encoderThatDiesIsReportedNotHung() throws {
        // `false` exits at once without reading: writing frames must fail with its status.
        let presenter = try VideoPresenter(path: temporaryPath("x.mp4"), fps: 30, executable: "/bin/false")
        let frame = try Bitmap(width: 256, height: 256)
        var caught: DisplayError?
        do {
            for i in 0..<50 { try presenter.present(frame, damage: Region(), at: FrameTime(index: i, time: 0)) }
            try presenter.finish()
        } catch {
            caught = error
        }
        guard case let .toolFailed(_, status, _)? = caught else { Issue.record("expected toolFailed, got \(String(describing: caught))"); return }
        #expect(status != 0)
    }

    /// An "encoder" that writes a partial output file, reads some of its input and exits 1:
    /// ffmpeg dying mid-stream. Started again, it would write the file again.
    func dyingEncoder() throws -> String {
        let script = temporaryPath("dying-encoder.sh")
        try """
            #!/bin/sh
            for last; do :; done
            printf partial > "$last"
            head -c 300000 > /dev/null
            echo "simulated encoder crash" >&2
            exit 1
            """.write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        return script
    }

    @Test func deadEncoderFailsEveryLaterFrameAndItsPartialFileIsRemoved() throws {
        let encoder = try dyingEncoder()
        let output = temporaryPath("dies.mp4")
        defer { try? FileManager.default.removeItem(atPath: encoder); try? FileManager.default.removeItem(atPath: output) }
        let presenter = try VideoPresenter(path: output, fps: 30, executable: encoder)
        let frame = try Bitmap(width: 256, height: 256)   // 256 KiB a frame: the encoder dies in the second
        var first: DisplayError?
        for i in 0..<20 {
            do {
                try presenter.present(frame, damage: Region(frame.bounds), at: FrameTime(index: i, time: 0))
            } catch {
                first = error
                break
            }
        }
        let failure = try #require(first, "the dead encoder was not noticed")
        guard case let .toolFailed(_, status, detail) = failure else { Issue.record("expected toolFailed, got \(failure)"); return }
        #expect(status == 1 && detail.contains("simulated encoder crash") && detail.contains("removed"), "\(detail)")
        #expect(!FileManager.default.fileExists(atPath: output))
        // The next frame is the same error, and no new encoder writes the file again.
        #expect(throws: failure) { try presenter.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 21, time: 0)) }
        #expect(throws: failure) { try presenter.finish() }
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func aPNGPathThatIsADirectorySaysSo() throws {
        let directory = FileManager.default.temporaryDirectory.path
        let frame = try Bitmap(width: 2, height: 2)
        do {
            try PNGPresenter(path: directory).present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
            Issue.record("expected an error")
        } catch {
            #expect(error == .cannotWrite(path: directory, reason: "is a directory"))
            #expect(error.description == "cannot write \(directory): is a directory")
        }
        let missing = "/nonexistent-\(UUID().uuidString)/x.png"
        #expect(throws: DisplayError.cannotWrite(path: missing, reason: "no such directory: \((missing as NSString).deletingLastPathComponent)")) {
            try PNGPresenter(path: missing).present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
        }
    }

    @Test func aVideoPathThatIsADirectoryIsRefusedBeforeFFmpegStarts() throws {
        let directory = temporaryPath("folder.mp4")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // The executable does not exist: the path is checked first.
        let presenter = try VideoPresenter(path: directory, fps: 30, executable: "no-such-ffmpeg-\(UUID().uuidString)")
        let frame = try Bitmap(width: 2, height: 2)
        #expect(throws: DisplayError.cannotWrite(path: directory, reason: "is a directory")) {
            try presenter.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
        }
    }

    @Test func aFrameFolderUnderAFileSaysSo() throws {
        let file = temporaryPath("plain-file")
        try Data().write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: DisplayError.cannotWrite(path: file + "/frames", reason: "not a directory: \(file)")) {
            try FrameSequencePresenter(directory: file + "/frames")
        }
    }

    @Test(.enabled(if: VideoPresenter.find("ffmpeg") != nil && VideoPresenter.find("ffprobe") != nil))
    func videoHasTheFramesSizeAndPixelsExpected() throws {
        for ext in ["mp4", "gif", "webm", "apng"] {
            let path = temporaryPath("clip.\(ext)")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (root, _) = scene()
            try FrameLoop(layer: root, renderer: Renderer(threadCount: 1), presenter: try VideoPresenter(path: path, fps: 10))
                .run(try OfflineClock(fps: 10, frameCount: 20))
            let probe = try run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                            "-show_entries", "stream=nb_read_frames,width,height", "-of", "csv=p=0", path])
            let fields = probe.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").map(String.init)
            #expect(fields == ["64", "48", "20"], "\(ext): \(probe)")
            // The last frame decodes to the scene at t = 1.9 s: the bar centred at x = 23.
            let last = temporaryPath("last.png")
            defer { try? FileManager.default.removeItem(atPath: last) }
            _ = try run("ffmpeg", ["-v", "error", "-i", path, "-vf", "select=eq(n\\,19)", "-frames:v", "1", "-y", last])
            let frame = try Bitmap(pngAt: last)
            let bar = frame.pixel(x: 23, y: 24), background = frame.pixel(x: 50, y: 24)
            #expect(bar.blue > 0.8 && bar.red < 0.2, "\(ext) bar \(bar)")
            #expect(background.red > 0.9 && background.blue > 0.9, "\(ext) background \(background)")
        }
    }

    /// Runs a tool and returns its standard output.
    func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = VideoPresenter.find(tool)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
