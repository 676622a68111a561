import Foundation

/// The Countdown's clock: the time left at any moment of a run, with pauses and restarts, and
/// how long the result page ("Time is over") stays before the run is finished.
///
/// Times are the run's elapsed seconds (a frame's time), so that a timer is a pure function of
/// the keys pressed and when: tests drive it at exact times.
public struct CountdownTimer: Sendable {
    /// Seconds counted down from.
    public let total: TimeInterval
    /// Seconds the result page stays before the run is finished; nil: until a key.
    public let endScreen: TimeInterval?
    /// When counting last (re)started.
    private var start: TimeInterval = 0
    /// Seconds spent paused since then.
    private var pausedFor: TimeInterval = 0
    /// When the current pause began.
    private var pausedAt: TimeInterval?
    /// A key was pressed on the result page.
    private var dismissed = false

    /// A countdown from `total` seconds, starting at elapsed time 0.
    public init(total: TimeInterval, endScreen: TimeInterval?) {
        self.total = total
        self.endScreen = endScreen
    }

    /// Seconds counted by `t`: elapsed time less pauses.
    private func counted(at t: TimeInterval) -> TimeInterval { (pausedAt ?? t) - start - pausedFor }

    /// Seconds left at `t` (never negative).
    public func remaining(at t: TimeInterval) -> TimeInterval { max(0, total - counted(at: t)) }

    /// Whether the count is paused.
    public var isPaused: Bool { pausedAt != nil }

    /// Whether zero was reached by `t`.
    public func isOver(at t: TimeInterval) -> Bool { counted(at: t) >= total }

    /// The elapsed time at which zero is (or was) reached, if not paused.
    public func zeroTime() -> TimeInterval? { isPaused ? nil : start + pausedFor + total }

    /// Whether the run is done at `t`: the result page has been shown for `endScreen` seconds,
    /// or a key dismissed it.
    public func isFinished(at t: TimeInterval) -> Bool {
        guard isOver(at: t) else { return false }
        if dismissed { return true }
        guard let endScreen else { return false }
        return counted(at: t) - total >= endScreen
    }

    /// Space: pauses, or goes on after a pause (nothing once the time is over).
    public mutating func togglePause(at t: TimeInterval) {
        guard !isOver(at: t) else { return }
        if let pausedAt {
            pausedFor += t - pausedAt
            self.pausedAt = nil
        } else {
            pausedAt = t
        }
    }

    /// `r`: counts down from the start again, running.
    public mutating func restart(at t: TimeInterval) {
        start = t
        pausedFor = 0
        pausedAt = nil
        dismissed = false
    }

    /// Any other key on the result page ends the run.
    public mutating func dismiss(at t: TimeInterval) {
        if isOver(at: t) { dismissed = true }
    }
}
