import Foundation

/// Encodes frames to a video with the ffmpeg command-line tool: raw frames are piped to it.
///
/// The format follows the file name: `.mp4` (H.264), `.webm` (VP9), `.gif` (with a palette
/// generated from the frames) or `.apng`/`.png` (animated PNG). A missing ffmpeg, or ffmpeg
/// failing or exiting early, is a `DisplayError` with its last words — never a hang or a crash.
/// Once ffmpeg has failed the presenter stays failed: the partial file is removed, and every
/// later `present` and `finish` throws the same error (no new ffmpeg starts over the output).
public final class VideoPresenter: Presenter {
    /// The file formats ffmpeg is asked to write.
    public enum Format: String, Sendable, CaseIterable {
        /// H.264 in MP4.
        case mp4
        /// VP9 in WebM.
        case webm
        /// An animated GIF with a palette generated from the frames.
        case gif
        /// An animated PNG.
        case apng
    }

    /// The file written.
    public let path: String
    /// The format, from the file name's extension.
    public let format: Format
    /// Frames per second of the video.
    public let fps: Double
    /// The ffmpeg executable (found on PATH by default).
    public let executable: String

    private var process: Process?
    private var input: FileHandle?
    private var errors: Pipe?
    private var size: (width: Int, height: Int)?
    /// Why encoding stopped, once it has: every later call throws it.
    private var failure: DisplayError?
    /// How many frames have been handed to ffmpeg.
    public private(set) var framesWritten = 0

    /// - Throws: `DisplayError.unsupportedFormat` for an unknown extension, `.invalidRate` for a
    ///   bad frame rate.
    public init(path: String, fps: Double, executable: String = "ffmpeg") throws(DisplayError) {
        let ext = (path as NSString).pathExtension.lowercased()
        guard let format = Format(rawValue: ext == "png" ? "apng" : ext) else { throw .unsupportedFormat(path: path) }
        guard fps.isFinite, fps > 0, fps <= 1000 else { throw .invalidRate(fps) }
        self.path = path
        self.format = format
        self.fps = fps
        self.executable = executable
    }

    /// The ffmpeg arguments for frames of `width`x`height`.
    func arguments(width: Int, height: Int) -> [String] {
        #if _endian(little)
        let pixelFormat = "bgra"
        #else
        let pixelFormat = "argb"
        #endif
        var args = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y",
                    "-f", "rawvideo", "-pix_fmt", pixelFormat, "-s", "\(width)x\(height)",
                    "-r", String(fps), "-i", "-"]
        switch format {
        case .mp4:
            // H.264 in 4:2:0 needs even sides.
            args += ["-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                     "-crf", "18", "-movflags", "+faststart"]
        case .webm:
            args += ["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "30", "-pix_fmt", "yuva420p"]
        case .gif:
            args += ["-filter_complex", "[0:v]split[a][b];[a]palettegen=reserve_transparent=1:stats_mode=full[p];[b][p]paletteuse=dither=sierra2_4a",
                     "-loop", "0"]
        case .apng:
            args += ["-f", "apng", "-plays", "0"]
        }
        return args + [path]
    }

    public func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        if let failure { throw failure }
        if process == nil { try start(width: frame.width, height: frame.height) }
        guard let size, size.width == frame.width, size.height == frame.height else {
            throw .toolFailed(executable, status: -1, detail: "frame size changed from \(size.map { "\($0.width)x\($0.height)" } ?? "?") to \(frame.width)x\(frame.height)")
        }
        // ffmpeg reads straight alpha; frames are premultiplied.
        let data = frame.withUnsafePixels { pixels -> Data in
            var straight = [UInt32](repeating: 0, count: pixels.count)
            for i in pixels.indices { straight[i] = PNGCodec.unpremultiplied(pixels[i]) }
            return straight.withUnsafeBytes { Data($0) }
        }
        do {
            guard process?.isRunning == true else { throw CocoaError(.fileWriteUnknown) }
            try input?.write(contentsOf: data)
        } catch {
            // ffmpeg is gone (it failed, or was killed): say why.
            let detail = finishProcess()
            throw fail(status: detail.status, message: detail.message.isEmpty ? "it stopped reading frames after \(framesWritten)" : detail.message)
        }
        framesWritten += 1
    }

    public func finish() throws(DisplayError) {
        if let failure { throw failure }
        guard process != nil else { return }
        let result = finishProcess()
        guard result.status == 0 else { throw fail(status: result.status, message: result.message) }
    }

    /// Records that encoding failed, removes the partial file, and returns the error to throw.
    private func fail(status: Int32, message: String) -> DisplayError {
        var detail = message
        if FileManager.default.fileExists(atPath: path) {
            let removed = (try? FileManager.default.removeItem(atPath: path)) != nil
            detail += removed ? "; the partial \(path) was removed" : "; the partial \(path) could not be removed"
        }
        let error = DisplayError.toolFailed(executable, status: status, detail: detail)
        failure = error
        return error
    }

    private func start(width: Int, height: Int) throws(DisplayError) {
        // Said before ffmpeg starts, and in words rather than in ffmpeg's.
        if let problem = fileProblem(at: path) { throw .cannotWrite(path: path, reason: problem) }
        // A write to a pipe whose reader died must fail, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
        } else {
            guard let found = Self.find(executable) else {
                throw .toolMissing(executable, hint: "install it, e.g. apt-get install ffmpeg, or choose another output")
            }
            process.executableURL = found
        }
        process.arguments = arguments(width: width, height: height)
        let stdin = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardError = stderr
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .toolMissing(executable, hint: (error as NSError).localizedDescription)
        }
        self.process = process
        input = stdin.fileHandleForWriting
        errors = stderr
        size = (width, height)
    }

    /// Closes ffmpeg's input, waits for it and returns its status and the end of its messages.
    private func finishProcess() -> (status: Int32, message: String) {
        try? input?.close()
        input = nil
        guard let process else { return (0, "") }
        let message = errors.flatMap { try? $0.fileHandleForReading.readToEnd() }.map { String(decoding: $0, as: UTF8.self) } ?? ""
        process.waitUntilExit()
        self.process = nil
        let tail = message.split(separator: "\n").suffix(3).joined(separator: "; ")
        return (process.terminationStatus, tail)
    }

    /// The executable's path on PATH.
    package static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
