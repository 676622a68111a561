import ArgumentParser
import Foundation
import LayerKit

/// What one example's command line defaults to, so that its `--help` shows the real defaults.
public protocol ExampleDefaults {
    /// The scene's size in points for files and a new window.
    static var size: PointSize { get }
}

/// A size in points, written `WxH` on the command line (each side 16…4096).
public struct PointSize: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
    /// The width and height in points.
    public var width: Int, height: Int

    /// The accepted range of each side.
    public static let sides = 16...4096

    /// A size of `width` x `height` points.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Parses "480x200" (or "480X200").
    public init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              Self.sides.contains(w), Self.sides.contains(h) else { return nil }
        self.init(width: w, height: h)
    }

    /// "480x200".
    public var description: String { "\(width)x\(height)" }
    /// How help shows a default: "480x200".
    public var defaultValueDescription: String { description }
    /// The size as Core Graphics geometry.
    public var cgSize: CGSize { CGSize(width: width, height: height) }
}

/// A number on the command line, shown without a needless ".0" in help ("30", "2.5").
public struct Number: ExpressibleByArgument, Equatable, Sendable, CustomStringConvertible {
    /// The number.
    public var value: Double
    /// Wraps `value`.
    public init(_ value: Double) { self.value = value }
    /// Parses any number Double accepts (range checks are the options' own).
    public init?(argument: String) {
        guard let value = Double(argument) else { return nil }
        self.value = value
    }
    /// "30", "2.5".
    public var description: String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
    /// How help shows a default: as `description`.
    public var defaultValueDescription: String { description }
}

/// Where an example's frames go and how they are made: the options every example shares.
///
/// Without an output option the example runs live: in a window when a display can show one,
/// else in the terminal when standard output is one, else it writes one PNG.
public struct OutputOptions<Defaults: ExampleDefaults>: ParsableArguments {
    /// `--output`: one PNG frame.
    @Option(name: .customLong("output"), help: ArgumentHelp("Render one frame to a PNG file and exit.", valueName: "file.png"),
            completion: .file(extensions: ["png"]))
    public var png: String?

    /// `--frames`: a folder of numbered PNGs.
    @Option(help: ArgumentHelp("Render --duration seconds as dir/frame-0001.png, frame-0002.png, …", valueName: "dir"),
            completion: .directory)
    public var frames: String?

    /// `--video`: a video file through ffmpeg.
    @Option(help: ArgumentHelp("Render --duration seconds to a .mp4, .gif, .webm or .apng file (needs ffmpeg).", valueName: "file"),
            completion: .file(extensions: ["mp4", "gif", "webm", "apng"]))
    public var video: String?

    /// `--terminal`: live in the terminal.
    @Flag(help: "Show live in the terminal, even when a window could be opened.")
    public var terminal = false

    /// `--duration`: seconds to run; nil: until quit live, 5 s for files.
    @Option(help: ArgumentHelp("How long to run, in seconds (default: until quit when live, 5 s for --frames and --video).",
                               valueName: "seconds"))
    public var duration: Double?

    /// `--fps`.
    @Option(name: .customLong("fps"), help: ArgumentHelp("Frames per second, up to 240.", valueName: "n"))
    public var rate = Number(30)

    /// `--size`: points, for files and a new window.
    @Option(help: ArgumentHelp("The size in points of files and of a new window (a terminal is filled). Each side 16…4096.",
                               valueName: "WxH"))
    public var size: PointSize = Defaults.size

    /// `--scale`.
    @Option(name: .customLong("scale"), help: ArgumentHelp("Pixels per point in files, up to 8 (a window uses its display's, a terminal its cells).",
                                                          valueName: "n"))
    public var pixelsPerPoint = Number(2)

    /// Frames per second.
    public var fps: Double { rate.value }
    /// Pixels per point in files.
    public var scale: Double { pixelsPerPoint.value }

    /// The defaults (argument-parser fills in what the command line says).
    public init() {}

    /// Where the frames go.
    public enum Destination: Equatable, Sendable {
        /// A window, the terminal or a PNG, whichever can be shown.
        case live
        /// Live in the terminal.
        case terminal
        /// One PNG at this path.
        case png(String)
        /// Numbered PNGs in this folder.
        case frames(String)
        /// A video at this path.
        case video(String)
    }

    /// Where the options send the frames.
    public var destination: Destination {
        if let png { return .png(png) }
        if let frames { return .frames(frames) }
        if let video { return .video(video) }
        return terminal ? .terminal : .live
    }

    /// Whether frames go to files (a deterministic timeline) rather than to a person.
    public var writesFiles: Bool {
        switch destination {
        case .png, .frames, .video: true
        case .live, .terminal: false
        }
    }

    /// Refuses what cannot work, with a message that says why (the command exits 2).
    public mutating func validate() throws {
        let chosen = [png.map { _ in "--output" }, frames.map { _ in "--frames" }, video.map { _ in "--video" },
                      terminal ? "--terminal" : nil].compactMap { $0 }
        guard chosen.count <= 1 else {
            throw ValidationError("\(chosen.joined(separator: " and ")) were both given: choose one output")
        }
        if let duration, !(duration.isFinite && duration > 0 && duration <= 86400) {
            throw ValidationError("--duration needs seconds in (0, 86400], not \(Number(duration))")
        }
        guard fps.isFinite, fps > 0, fps <= 240 else { throw ValidationError("--fps needs a rate in (0, 240], not \(rate)") }
        guard scale.isFinite, scale > 0, scale <= 8 else { throw ValidationError("--scale needs a number in (0, 8], not \(pixelsPerPoint)") }
        if writesFiles {
            let width = (Double(size.width) * scale).rounded(.up), height = (Double(size.height) * scale).rounded(.up)
            guard width <= Double(Bitmap.maximumDimension), height <= Double(Bitmap.maximumDimension),
                  width * height <= Double(Bitmap.maximumPixelCount) else {
                throw ValidationError("--size \(size) at --scale \(pixelsPerPoint) makes \(Int(width))x\(Int(height)) pixels, "
                    + "more than a frame may have (\(Bitmap.maximumPixelCount / 1_000_000) megapixels, "
                    + "\(Bitmap.maximumDimension) on a side): lower --size or --scale")
            }
        }
        switch destination {
        case let .png(path):
            if let problem = fileProblem(at: path) { throw ValidationError("cannot write \(path): \(problem)") }
            guard path.lowercased().hasSuffix(".png") else {
                throw ValidationError("--output writes one PNG frame: give a name ending in .png, not \"\(path)\"")
            }
        case let .frames(directory):
            if let problem = fileProblem(at: directory, directory: true) { throw ValidationError("cannot write frames to \(directory): \(problem)") }
        case let .video(path):
            if let problem = fileProblem(at: path) { throw ValidationError("cannot write \(path): \(problem)") }
            guard VideoPresenter.Format(rawValue: (path as NSString).pathExtension.lowercased()) != nil else {
                throw ValidationError("--video needs a file ending in .mp4, .gif, .webm or .apng, not \"\(path)\"")
            }
            guard VideoPresenter.find("ffmpeg") != nil else {
                throw ValidationError("--video needs ffmpeg, which is not installed (apt-get install ffmpeg)")
            }
        case .terminal:
            guard isatty(STDOUT_FILENO) != 0 else {
                throw ValidationError("--terminal needs standard output to be a terminal, and it is a pipe or a file: "
                    + "write files instead (--output, --frames, --video)")
            }
        case .live:
            break
        }
    }
}
