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

/// Writes each presented frame to one PNG file (the last one stays).
public final class PNGPresenter: Presenter {
    public let path: String

    public init(path: String) { self.path = path }

    public func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        do {
            try frame.writePNG(to: path)
        } catch {
            throw .cannotWrite(path: path, reason: error.description)
        }
    }

    public func finish() throws(DisplayError) {}
}

/// Writes every frame as DIRECTORY/frame-0001.png, frame-0002.png, … (numbered from 1 in the
/// order presented, four digits at least).
public final class FrameSequencePresenter: Presenter {
    public let directory: String
    public private(set) var framesWritten = 0

    /// Creates the directory if needed.
    ///
    /// - Throws: `DisplayError.cannotWrite` when it cannot be created.
    public init(directory: String) throws(DisplayError) {
        self.directory = directory
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
            throw .cannotWrite(path: path, reason: error.description)
        }
        framesWritten += 1
    }

    public func finish() throws(DisplayError) {}
}
