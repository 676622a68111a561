import Foundation

/// Receives rendered frames: a file, a frame sequence, a video, a terminal or a window.
public protocol Presenter: AnyObject {
    /// Shows a frame. `damage` is what changed since the previously presented frame (the whole
    /// frame the first time); presenters that can, update only that.
    func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError)
    /// Completes the output (closes files, waits for encoders).
    func finish() throws(DisplayError)
    /// Blocks until `deadline` (seconds on `clock`), or sooner when the presenter has something
    /// to report — a key press, a resize, a close request — so that a live frame loop which has
    /// nothing to draw can sleep without becoming deaf. Presenters without events just sleep
    /// (the default).
    func wait(until deadline: TimeInterval, on clock: any MonotonicClock)
}

extension Presenter {
    public func wait(until deadline: TimeInterval, on clock: any MonotonicClock) {
        clock.sleep(until: deadline)
    }
}

/// What a live presenter heard from the person watching it.
public enum PresenterEvent: Hashable, Sendable {
    /// A key: a character such as "r" or " " (space). The keys that quit (q, Escape, Ctrl-C)
    /// arrive as `quit` instead.
    case key(Character)
    /// The area frames are shown in is now `width` x `height` device pixels (see
    /// `InteractivePresenter.drawableSize`): render the next frame at that size.
    case resized(width: Int, height: Int)
    /// The person asked to stop: q, Escape or Ctrl-C, the window's close button, or a signal
    /// (SIGINT, SIGTERM or SIGHUP; its number) sent to the process.
    case quit(signal: Int32?)
}

/// A presenter that a person watches live (a window, a terminal): it has a size that can
/// change, and it hears keys and requests to quit.
///
/// A live loop asks for `takeEvents()` before each frame (and sleeps in `wait(until:on:)`,
/// which returns early when an event arrives), renders at `drawableSize`, and stops at `quit`.
public protocol InteractivePresenter: Presenter {
    /// The area frames are shown in, in device pixels: what a frame should measure.
    var drawableSize: (width: Int, height: Int) { get }
    /// Device pixels per point of the area (2 on a HiDPI window, 1 in a terminal).
    var drawableScale: CGFloat { get }
    /// The events heard since the last call, oldest first. Never blocks.
    func takeEvents() -> [PresenterEvent]
}

/// Words for why `path` cannot be written as a file (or, with `directory`, used as a folder to
/// write files in), or nil when nothing is visibly wrong: "is a directory", "permission
/// denied", "no such directory: /missing". For messages that name the cause (`cannot write
/// /tmp: is a directory`) instead of a framework's error code.
package func fileProblem(at path: String, directory: Bool = false) -> String? {
    var info = stat()
    if stat(path, &info) == 0 {
        let isDirectory = info.st_mode & S_IFMT == S_IFDIR
        if directory {
            guard isDirectory else { return "not a directory" }
            return access(path, W_OK | X_OK) == 0 ? nil : "permission denied"
        }
        if isDirectory { return "is a directory" }
        return access(path, W_OK) == 0 ? nil : "permission denied"
    }
    // It does not exist: its parent must be a writable folder. A folder is created with its
    // missing parents, so for one the nearest existing ancestor decides.
    var parent = (path as NSString).deletingLastPathComponent
    if parent.isEmpty { parent = "." }
    while directory, stat(parent, &info) != 0, parent != "/", parent != "." {
        let up = (parent as NSString).deletingLastPathComponent
        parent = up.isEmpty ? "." : up
    }
    guard stat(parent, &info) == 0 else { return "no such directory: \(parent)" }
    guard info.st_mode & S_IFMT == S_IFDIR else { return "not a directory: \(parent)" }
    return access(parent, W_OK | X_OK) == 0 ? nil : "permission denied in \(parent)"
}

/// Writes each presented frame to one PNG file (the last one stays).
public final class PNGPresenter: Presenter {
    /// The file written.
    public let path: String

    /// A presenter writing to the PNG file at `path`.
    public init(path: String) { self.path = path }

    public func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        do {
            try frame.writePNG(to: path)
        } catch {
            throw .cannotWrite(path: path, reason: fileProblem(at: path) ?? error.description)
        }
    }

    public func finish() throws(DisplayError) {}
}

/// Writes every frame as DIRECTORY/frame-0001.png, frame-0002.png, … (numbered from 1 in the
/// order presented, four digits at least).
public final class FrameSequencePresenter: Presenter {
    /// The folder the frames are written to.
    public let directory: String
    /// How many frames have been written.
    public private(set) var framesWritten = 0

    /// Creates the directory if needed.
    ///
    /// - Throws: `DisplayError.cannotWrite` when it cannot be created.
    public init(directory: String) throws(DisplayError) {
        self.directory = directory
        if let problem = fileProblem(at: directory, directory: true) { throw .cannotWrite(path: directory, reason: problem) }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: directory, reason: (error as NSError).localizedDescription)
        }
    }

    /// The file name of the n-th frame (from 1).
    public static func fileName(ofFrame n: Int) -> String { String(format: "frame-%04d.png", n) }

    public func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        let path = (directory as NSString).appendingPathComponent(Self.fileName(ofFrame: framesWritten + 1))
        do {
            try frame.writePNG(to: path)
        } catch {
            throw .cannotWrite(path: path, reason: fileProblem(at: path) ?? error.description)
        }
        framesWritten += 1
    }

    public func finish() throws(DisplayError) {}
}
