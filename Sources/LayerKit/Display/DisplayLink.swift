import Foundation

/// Calls back once per frame at a target rate, on absolute deadlines `t0 + k / fps` of a
/// monotonic clock: a late frame never delays the ones after it, and a run of hours does not
/// drift. When a callback overruns by whole frames those frames are skipped and reported.
///
/// A callback may also say that nothing is due before a later time (`Next.notBefore`): the
/// link then sleeps until the first frame at or after it, through a `wait` that may return
/// early — a presenter's events (a key, a resize) — in which case the next frame comes at once.
public final class DisplayLink {
    /// Frames per second.
    public let fps: Double
    /// The clock the deadlines are on.
    public let clock: any MonotonicClock
    private var stopped = false

    /// Frames skipped so far in the current run because callbacks came late (frames skipped on
    /// request, by `Next.notBefore`, are not counted).
    public private(set) var totalDroppedFrames = 0

    /// When a run wants its next frame.
    public enum Next: Equatable, Sendable {
        /// At the next frame of the rate.
        case nextFrame
        /// At the first frame at or after this time (in the run's frame times), or sooner if
        /// the run's `wait` returns early.
        case notBefore(TimeInterval)
        /// No more frames.
        case stop
    }

    /// - Throws: `DisplayError.invalidRate` for a non-positive or non-finite rate.
    public init(fps: Double, clock: any MonotonicClock = SystemClock()) throws(DisplayError) {
        guard fps.isFinite, fps > 0, fps <= 1000 else { throw .invalidRate(fps) }
        self.fps = fps
        self.clock = clock
    }

    /// Stops the run after the current callback.
    public func stop() { stopped = true }

    /// Runs frames until `callback` returns false, `stop()` is called, or `duration` seconds
    /// have passed. Each frame's time is measured from the run's start (0 for the first frame)
    /// plus `startTime`.
    public func run(startTime: TimeInterval = 0, duration: TimeInterval = .infinity,
                    _ callback: (FrameTime) throws -> Bool) rethrows {
        try run(startTime: startTime, duration: duration, wait: nil) { frame in try callback(frame) ? .nextFrame : .stop }
    }

    /// Runs frames until `callback` returns `.stop`, `stop()` is called, or `duration` seconds
    /// have passed; between frames the link sleeps as `callback` asks.
    ///
    /// - Parameters:
    ///   - startTime: the time of the first frame; later frames add the time since the start.
    ///   - duration: how long to run, in seconds (for ever by default).
    ///   - wait: blocks until a deadline (seconds on `clock`) or until something happens that
    ///     the next frame should see; sleeping on `clock` when nil.
    ///   - callback: called for each frame; says when the next one is due, or to stop.
    public func run(startTime: TimeInterval = 0, duration: TimeInterval = .infinity,
                    wait: ((TimeInterval) -> Void)?, _ callback: (FrameTime) throws -> Next) rethrows {
        stopped = false
        totalDroppedFrames = 0
        let t0 = clock.now()
        let wait = wait ?? { [clock] in clock.sleep(until: $0) }
        // Frames past this one are beyond the run (a huge or infinite duration: none).
        let lastIndex = duration.isFinite ? min((duration * fps).rounded(.up), Double(Int.max / 4)) : Double(Int.max / 4)
        var index = 0
        var dropped = 0
        while !stopped {
            let elapsed = Double(index) / fps
            guard elapsed < duration else { return }
            let next = try callback(FrameTime(index: index, time: startTime + elapsed, droppedFrames: dropped))
            switch next {
            case .stop:
                return
            case .nextFrame:
                // The next deadline, skipping any that already passed.
                var target = index + 1
                let now = clock.now() - t0
                let due = Int((now * fps).rounded(.down)) + 1
                dropped = max(0, due - target)
                target += dropped
                totalDroppedFrames += dropped
                index = target
                clock.sleep(until: t0 + Double(index) / fps)
            case let .notBefore(time):
                dropped = 0
                let first = ((time - startTime) * fps).rounded(.up)
                let target = Int(min(max(first.isNaN ? 0 : first, Double(index + 1)), lastIndex))
                wait(t0 + Double(target) / fps)
                // Woken early, the next frame is the current one (not before the one after this).
                let current = Int(min(((clock.now() - t0) * fps).rounded(.down), lastIndex))
                index = max(index + 1, min(target, current))
                clock.sleep(until: t0 + Double(index) / fps)
            }
        }
    }
}

/// Why a display or presenter could not do what it was asked.
public enum DisplayError: Error, Equatable, CustomStringConvertible {
    /// A frame rate that is not a finite number of frames per second above 0 (and up to 1000).
    case invalidRate(Double)
    /// A duration or frame count that is negative, not finite or absurdly long.
    case invalidDuration(Double)
    /// A file or folder could not be written.
    case cannotWrite(path: String, reason: String)
    /// A tool the presenter needs is not installed.
    case toolMissing(String, hint: String)
    /// An external tool failed; `detail` is the end of what it printed.
    case toolFailed(String, status: Int32, detail: String)
    /// The output format cannot be told from the file name.
    case unsupportedFormat(path: String)
    /// Terminal output was asked for but standard output is not a terminal.
    case notATerminal

    public var description: String {
        switch self {
        case let .invalidRate(fps): "invalid frame rate \(fps): it must be a number of frames per second in (0, 1000]"
        case let .invalidDuration(d): "invalid duration \(d): it must be finite and not negative"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        case let .toolMissing(tool, hint): "\(tool) is not installed (\(hint))"
        case let .toolFailed(tool, status, detail): "\(tool) failed with status \(status): \(detail)"
        case .notATerminal:
            "standard output is not a terminal: write frames to a file instead (for example --output frame.png)"
        case let .unsupportedFormat(path):
            "cannot tell the video format of \(path): use a name ending in .mp4, .webm, .gif, .apng or .png"
        }
    }
}
