import Foundation

/// What an animation shows outside its active time (Core Animation's `fillMode`).
public enum FillMode: String, Hashable, Sendable {
    /// Nothing: the model value shows before and after.
    case removed
    /// The final value stays after the end (while the animation is not removed).
    case forwards
    /// The initial value shows before the begin time.
    case backwards
    /// Both.
    case both
}

/// The timing properties of animations and layers (Core Animation's CAMediaTiming).
///
/// Local time follows Core Animation's model: `t = (parentTime − beginTime) · speed + timeOffset`.
/// For an animation the active span is measured from its begin time, `(parentTime − beginTime) · speed`,
/// and lasts `repeatDuration`, or `repeatCount` cycles, or one cycle; a cycle is `duration`
/// (doubled by `autoreverses`). `timeOffset` shifts where in its cycles the animation starts,
/// wrapping around, so it still runs for its whole active span.
public struct TimingParameters: Hashable, Sendable {
    /// When the animation starts, in its parent's time.
    public var beginTime: TimeInterval = 0
    /// The length of one iteration; 0 means Core Animation's default of 0.25 s.
    public var duration: TimeInterval = 0
    /// How fast local time runs against the parent's.
    public var speed: Float = 1
    /// Where in its cycles the animation starts.
    public var timeOffset: TimeInterval = 0
    /// Iterations; fractional counts end mid-cycle, `.infinity` never ends. 0 means one.
    public var repeatCount: Float = 0
    /// Total active time; takes precedence over `repeatCount` when positive.
    public var repeatDuration: TimeInterval = 0
    /// Plays each iteration forwards then backwards.
    public var autoreverses = false
    /// What shows outside the active time.
    public var fillMode: FillMode = .removed

    /// The duration an animation of duration 0 gets.
    public static let defaultDuration: TimeInterval = 0.25

    /// Core Animation's defaults: one 0.25 s iteration from time 0.
    public init() {}

    /// The length of one iteration.
    public var simpleDuration: TimeInterval {
        duration > 0 && duration.isFinite ? duration : Self.defaultDuration
    }

    /// One iteration forwards (and back, when autoreversing).
    public var cycleDuration: TimeInterval { simpleDuration * (autoreverses ? 2 : 1) }

    /// How long the animation is active, in its own time (may be infinite).
    public var activeDuration: TimeInterval {
        if repeatDuration > 0 { return repeatDuration }
        if repeatCount > 0 { return Double(repeatCount) * cycleDuration }
        return cycleDuration
    }

    /// Where an animation is at parent time `t`: nil when it has no effect (before or after its
    /// active span without the matching fill, or when its timing is not finite), else the
    /// fraction of an iteration (0…1, before easing) and which iteration it is in.
    ///
    /// Total for any input: NaN or infinite times give nil, huge ones give a clamped iteration.
    public func progress(atParentTime t: TimeInterval) -> (fraction: Double, iteration: Int)? {
        guard t.isFinite, hasFiniteTiming else { return nil }
        let active = (t - beginTime) * Double(speed)
        guard !active.isNaN else { return nil }
        let span = activeDuration
        if active < 0 {
            guard fillMode == .backwards || fillMode == .both else { return nil }
            return position(atLocal: timeOffset, atEnd: false)
        }
        if active >= span {
            guard fillMode == .forwards || fillMode == .both else { return nil }
            return position(atLocal: span + timeOffset, atEnd: true)
        }
        return position(atLocal: active + timeOffset, atEnd: false)
    }

    /// Whether the numbers that place the animation in time are usable: begin time, speed and
    /// time offset finite, repeat count and duration not NaN (+∞ repeats for ever).
    /// `Animation.validate(for:)` refuses an animation without it; one changed to such values
    /// after it was added has no effect.
    public var hasFiniteTiming: Bool {
        beginTime.isFinite && speed.isFinite && timeOffset.isFinite && duration.isFinite &&
            !repeatCount.isNaN && !repeatDuration.isNaN
    }

    /// The earliest parent time from `t` on at which the animation's effect may change: `t`
    /// itself while it is active (it changes continuously), its begin time before it begins, nil
    /// once it has ended or when it is paused (its effect then stays as it is). A frame loop
    /// sleeps until then.
    public func nextChange(afterParentTime t: TimeInterval) -> TimeInterval? {
        guard t.isFinite, hasFiniteTiming, speed != 0 else { return nil }
        guard speed > 0 else { return t }   // running backwards: treated as always changing
        let active = (t - beginTime) * Double(speed)
        if active < 0 { return beginTime }
        return active < activeDuration ? t : nil
    }

    /// The iteration fraction at local time `local`. At the end of the active span a whole
    /// number of cycles means the end of the last one (fraction 1, or 0 when autoreversing),
    /// not the start of the next.
    private func position(atLocal local: TimeInterval, atEnd: Bool) -> (fraction: Double, iteration: Int)? {
        guard local.isFinite else { return nil }
        let d = simpleDuration, cycle = cycleDuration
        var time = local
        let span = activeDuration
        if span.isFinite, span > 0, !atEnd { time = time.truncatingRemainder(dividingBy: span) }
        if time < 0 {
            // Before the start of the cycles (a negative time offset): wrap into the span, or
            // into one cycle when the span never ends.
            time = span.isFinite && span > 0 ? time.truncatingRemainder(dividingBy: span) + span
                                             : time.truncatingRemainder(dividingBy: cycle) + cycle
        }
        let cycles = (time / cycle).rounded(.down)
        guard cycles.isFinite else { return nil }
        // Iterations beyond Int32 are counted as its maximum: only cumulative animations look.
        var iteration = Int(min(max(cycles, 0), Double(Int32.max)))
        var inCycle = time - cycles * cycle
        if atEnd, inCycle < 1e-12, iteration > 0 {
            iteration -= 1
            inCycle = cycle
        }
        let fraction: Double
        if autoreverses, inCycle > d {
            fraction = (cycle - inCycle) / d
        } else {
            fraction = inCycle / d
        }
        guard !fraction.isNaN else { return nil }
        return (min(max(fraction, 0), 1), iteration)
    }
}
