import Foundation

/// Receives an animation's start and stop (Core Animation's CAAnimationDelegate).
public protocol AnimationDelegate: AnyObject {
    /// The animation became active.
    func animationDidStart(_ animation: Animation)
    /// The animation ended: `finished` is false when it was removed before its end.
    func animationDidStop(_ animation: Animation, finished: Bool)
}

extension AnimationDelegate {
    /// Does nothing.
    public func animationDidStart(_ animation: Animation) {}
    /// Does nothing.
    public func animationDidStop(_ animation: Animation, finished: Bool) {}
}

/// The base of all animations: timing (Core Animation's CAAnimation and CAMediaTiming).
///
/// An animation changes what a layer shows — its presentation — over time, never its model
/// values. Adding one to a layer copies it, so later changes to the object you hold do not
/// affect what runs.
open class Animation {
    /// When the animation starts, in the layer's time; 0 means when it is added.
    public var beginTime: TimeInterval = 0
    /// One iteration's length; 0 means 0.25 s.
    public var duration: TimeInterval = 0
    /// How fast time runs for the animation relative to its layer.
    public var speed: Float = 1
    /// Where in its cycles the animation starts.
    public var timeOffset: TimeInterval = 0
    /// How many iterations (fractional allowed; `.infinity` for ever).
    public var repeatCount: Float = 0
    /// How long to repeat, instead of a count.
    public var repeatDuration: TimeInterval = 0
    /// Whether each iteration plays forwards and then backwards.
    public var autoreverses = false
    /// What shows outside the active time.
    public var fillMode: FillMode = .removed
    /// The easing of each iteration (linear when nil).
    public var timingFunction: TimingFunction?
    /// Whether the animation leaves its layer when it ends (true, as in Core Animation).
    public var isRemovedOnCompletion = true
    /// Told when the animation starts and stops (held strongly while the animation runs, as
    /// Core Animation does).
    public var delegate: (any AnimationDelegate)?
    /// Called when the animation starts.
    public var onStart: (() -> Void)?
    /// Called when the animation stops; the argument says whether it reached its end.
    public var onStop: ((_ finished: Bool) -> Void)?

    /// Creates an animation with Core Animation's defaults.
    public init() {}

    /// Creates a copy (`add(_:forKey:)` runs a copy).
    public required init(copying other: Animation) {
        beginTime = other.beginTime; duration = other.duration; speed = other.speed
        timeOffset = other.timeOffset; repeatCount = other.repeatCount; repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses; fillMode = other.fillMode; timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion; delegate = other.delegate
        onStart = other.onStart; onStop = other.onStop
    }

    /// A copy of this animation (Core Animation's `copy()`: a group's copy holds the same
    /// member objects).
    public func copy() -> Self { Self(copying: self) }

    /// The copy a layer runs: deep, so that nothing the caller still holds is shared with it.
    func runningCopy() -> Animation { copy() }

    /// The timing parameters as a value.
    public var timing: TimingParameters {
        var t = TimingParameters()
        t.beginTime = beginTime; t.duration = duration; t.speed = speed; t.timeOffset = timeOffset
        t.repeatCount = repeatCount; t.repeatDuration = repeatDuration; t.autoreverses = autoreverses
        t.fillMode = fillMode
        return t
    }

    /// Checks that the animation can run on `target`: finite timing, known key paths, values of
    /// the right types and finite, keyframe arrays that match (`validate(for:)` on a layer).
    /// Subclasses check their own parts after calling this.
    ///
    /// - Throws: `AnimationError` naming the animation, the key path and what is wrong.
    func validate(target: any AnimationTarget) throws(AnimationError) {
        try validateTiming()
    }

    /// Refuses timing that places the animation nowhere in time: a NaN or infinite begin time,
    /// duration, speed or time offset, or a NaN repeat count or duration (+∞ repeats for ever).
    /// Speed 0 pauses, a negative speed runs backwards, huge values end at once: those run.
    func validateTiming() throws(AnimationError) {
        let numbers: [(String, Double)] = [("beginTime", beginTime), ("duration", duration), ("speed", Double(speed)),
                                           ("timeOffset", timeOffset), ("repeatCount", Double(repeatCount)),
                                           ("repeatDuration", repeatDuration)]
        for (role, value) in numbers where value.isNaN || (!value.isFinite && role != "repeatCount" && role != "repeatDuration") {
            throw .notFinite(animation: debugName, role: role, value: "\(value)")
        }
    }

    /// Writes the animation's effect at `time` (the target's local time) into `presentation`.
    /// Returns whether the animation is in effect; sets `ended` once its active time is over.
    func apply(at time: TimeInterval, to presentation: any AnimationTarget) -> (active: Bool, ended: Bool) {
        (false, true)
    }

    /// The eased fraction of an iteration at parent time `time`, with the iteration and whether
    /// the active time has ended; nil when the animation has no effect.
    func easedProgress(at time: TimeInterval) -> (fraction: Double, iteration: Int, ended: Bool)? {
        let timing = self.timing
        let ended = (time - timing.beginTime) * Double(timing.speed) >= timing.activeDuration
        guard let p = timing.progress(atParentTime: time) else { return nil }
        return (timingFunction?.value(at: p.fraction) ?? p.fraction, p.iteration, ended)
    }

    /// Whether the active time is over at `time`.
    func hasEnded(at time: TimeInterval) -> Bool {
        let timing = self.timing
        return (time - timing.beginTime) * Double(timing.speed) >= timing.activeDuration
    }

    /// A name for messages.
    var debugName: String { "\(type(of: self))" }
}

/// An animation of one key path of a layer (Core Animation's CAPropertyAnimation).
open class PropertyAnimation: Animation {
    /// The animated key path, as Core Animation names it ("opacity", "position.x",
    /// "transform.rotation.z", "bounds.size.width", …).
    public var keyPath: String? { didSet { resolved = nil } }
    /// Whether the animated value is added to the value beneath it instead of replacing it.
    public var isAdditive = false
    /// Whether each iteration starts where the previous one ended.
    public var isCumulative = false
    /// A typed key path not yet known by name when the animation was made (its root class had
    /// not been seen): resolved against the first target, which knows its own class.
    var unresolvedKeyPath: SendableKeyPath?
    /// The property `keyPath` names in the class last asked about: a frame applies the
    /// animation to a presentation of the same layer every time.
    private var resolved: (targetClass: ObjectIdentifier, property: AnimatableProperty)?

    /// Creates an animation of `keyPath`.
    public init(keyPath: String?) {
        self.keyPath = keyPath
        super.init()
    }

    /// Creates an animation without a key path, to be set later or by the property whose
    /// action it is (Core Animation's `CABasicAnimation()`).
    public override convenience init() {
        self.init(keyPath: nil)
    }

    /// Creates a copy, key path and flags included.
    public required init(copying other: Animation) {
        if let other = other as? PropertyAnimation {
            keyPath = other.keyPath
            isAdditive = other.isAdditive
            isCumulative = other.isCumulative
            unresolvedKeyPath = other.unresolvedKeyPath
        }
        super.init(copying: other)
    }

    override var debugName: String { "\(type(of: self))(\"\(keyPath ?? "")\")" }

    /// The property animated, or the error that says why there is none.
    func property(of target: any AnimationTarget) throws(AnimationError) -> AnimatableProperty {
        if let typed = unresolvedKeyPath, let name = target.keyPathName(for: typed.keyPath) {
            keyPath = name
            unresolvedKeyPath = nil
        }
        guard let keyPath else { throw .missingKeyPath(animation: debugName) }
        let targetClass = ObjectIdentifier(type(of: target))
        if let resolved, resolved.targetClass == targetClass { return resolved.property }
        guard let property = target.animatableProperty(forKeyPath: keyPath) else {
            throw .unknownKeyPath(keyPath, layer: "\(type(of: target))")
        }
        resolved = (targetClass, property)
        return property
    }

    /// Converts a user value, or throws naming what was expected.
    func convert(_ value: Any?, _ role: String, for property: AnimatableProperty) throws(AnimationError) -> AnimatableValue? {
        guard let value else { return nil }
        guard let converted = AnimatableValue(value, as: property.kind) else {
            throw .wrongValueType(animation: debugName, role: role, expected: property.kind.rawValue,
                                  got: "\(type(of: value))")
        }
        guard converted.isFinite else {
            throw .notFinite(animation: debugName, role: role, value: FiniteValueText.short(value))
        }
        return converted
    }

    /// Writes `value` for this animation's key path, added to what is there when additive.
    func write(_ value: AnimatableValue, to presentation: any AnimationTarget, property: AnimatableProperty) {
        property.set(presentation, isAdditive ? AnimatableValue.add(property.get(presentation), value) : value)
    }
}

/// Why an animation cannot run.
public enum AnimationError: Error, Equatable, CustomStringConvertible {
    /// A property animation without a key path.
    case missingKeyPath(animation: String)
    /// The key path names no animatable property of the layer's class.
    case unknownKeyPath(String, layer: String)
    /// A value (`role`: "fromValue", "values[2]", …) is not of the type the property takes.
    case wrongValueType(animation: String, role: String, expected: String, got: String)
    /// Keyframe arrays that do not fit together (`keyTimes` and `values` of different
    /// lengths, times out of order, …).
    case keyframeMismatch(animation: String, detail: String)
    /// A number the animation needs (a timing property, a value, a spring constant) is NaN or
    /// infinite: the animation cannot run.
    case notFinite(animation: String, role: String, value: String)

    /// What is wrong, naming the animation and the key path.
    public var description: String {
        switch self {
        case let .missingKeyPath(animation):
            "\(animation) has no keyPath"
        case let .unknownKeyPath(keyPath, layer):
            "\"\(keyPath)\" is not an animatable key path of \(layer)"
        case let .wrongValueType(animation, role, expected, got):
            "\(animation): \(role) must be \(expected), not \(got)"
        case let .keyframeMismatch(animation, detail):
            "\(animation): \(detail)"
        case let .notFinite(animation, role, value):
            "\(animation): \(role) is not finite (\(value)); the animation cannot run"
        }
    }
}

/// Where refused animations are reported. By default the message goes to standard error.
public enum AnimationDiagnostics {
    /// The handler for animations that cannot run.
    public static var handler: @Sendable (AnimationError) -> Void {
        get { channel.current }
        set { channel.current = newValue }
    }

    private static let channel = DiagnosticHandler<AnimationError>()
}

extension Animation {
    func notifyStart() {
        onStart?()
        delegate?.animationDidStart(self)
    }

    func notifyStop(finished: Bool) {
        onStop?(finished)
        delegate?.animationDidStop(self, finished: finished)
    }
}
