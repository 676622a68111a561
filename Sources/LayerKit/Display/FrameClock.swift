import Foundation

/// One frame of a timeline: its index, the time it shows, and how many frames were skipped
/// before it because the previous one came late.
public struct FrameTime: Hashable, Sendable {
    /// Frames since the start (skipped frames count).
    public let index: Int
    /// The time the frame shows: exactly `start + index / fps`.
    public let time: TimeInterval
    /// Frames skipped just before this one.
    public let droppedFrames: Int

    /// A frame of a timeline.
    public init(index: Int, time: TimeInterval, droppedFrames: Int = 0) {
        self.index = index
        self.time = time
        self.droppedFrames = droppedFrames
    }
}

/// A deterministic timeline for offline rendering: frame k shows exactly `start + k / fps`
/// (computed, not accumulated, so a long run never drifts), for `frameCount` frames.
public struct OfflineClock: Sequence, Sendable {
    /// The time of the first frame.
    public let start: TimeInterval
    /// Frames per second.
    public let fps: Double
    /// How many frames the timeline has.
    public let frameCount: Int

    /// A timeline of `frameCount` frames at `fps` from `start`.
    ///
    /// - Throws: `DisplayError.invalidRate` for a non-positive or non-finite rate, and
    ///   `.invalidDuration` for a negative frame count or a non-finite start.
    public init(start: TimeInterval = 0, fps: Double, frameCount: Int) throws(DisplayError) {
        guard fps.isFinite, fps > 0, fps <= 1000 else { throw .invalidRate(fps) }
        guard frameCount >= 0, start.isFinite else { throw .invalidDuration(Double(frameCount)) }
        self.start = start
        self.fps = fps
        self.frameCount = frameCount
    }

    /// A timeline covering `duration` seconds: `ceil(duration · fps)` frames (at least one).
    public init(start: TimeInterval = 0, fps: Double, duration: TimeInterval) throws(DisplayError) {
        guard duration.isFinite, duration >= 0, duration <= 366 * 86400 else { throw .invalidDuration(duration) }
        guard fps.isFinite, fps > 0, fps <= 1000 else { throw .invalidRate(fps) }
        try self.init(start: start, fps: fps, frameCount: Swift.max(1, Int((duration * fps - 1e-9).rounded(.up))))
    }

    /// The time of frame `index`.
    public func time(ofFrame index: Int) -> TimeInterval { start + Double(index) / fps }

    public func makeIterator() -> AnyIterator<FrameTime> {
        var index = 0
        return AnyIterator {
            guard index < frameCount else { return nil }
            defer { index += 1 }
            return FrameTime(index: index, time: time(ofFrame: index))
        }
    }
}

/// A source of monotonic time that can wait (the real one sleeps; tests use a manual one).
public protocol MonotonicClock: AnyObject {
    /// Seconds since an arbitrary fixed point; never goes backwards.
    func now() -> TimeInterval
    /// Returns once `now()` has reached `deadline`.
    func sleep(until deadline: TimeInterval)
}

/// The system's monotonic clock (CLOCK_MONOTONIC), unaffected by wall-clock changes.
public final class SystemClock: MonotonicClock, Sendable {
    /// The system's clock.
    public init() {}

    public func now() -> TimeInterval { currentMediaTime() }

    public func sleep(until deadline: TimeInterval) {
        guard !deadline.isNaN else { return }
        var remaining = deadline - now()
        while remaining > 0 {
            // At most a day a call, so that a far (or infinite) deadline stays a valid timespec.
            let chunk = min(remaining, 86_400)
            var request = timespec(tv_sec: Int(chunk), tv_nsec: Int((chunk - chunk.rounded(.down)) * 1e9))
            nanosleep(&request, nil)
            remaining = deadline - now()
        }
    }
}

/// Seconds on the system's monotonic clock (Core Animation's CACurrentMediaTime).
public func currentMediaTime() -> TimeInterval {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return TimeInterval(ts.tv_sec) + TimeInterval(ts.tv_nsec) / 1e9
}
