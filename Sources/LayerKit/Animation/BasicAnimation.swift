import Foundation

/// An animation between two values of a key path (Core Animation's CABasicAnimation).
///
/// Which values it runs between follows Core Animation: from and to; from and from + by;
/// to − by and to; from and the value beneath; the value beneath and to; the value beneath and
/// itself + by. "The value beneath" is the model value with earlier animations applied.
open class BasicAnimation: PropertyAnimation {
    /// The value the animation starts at (nil: see the type's rules).
    public var fromValue: Any? { didSet { converted = nil } }
    /// The value the animation ends at.
    public var toValue: Any? { didSet { converted = nil } }
    /// The distance the animation travels, added to its start or taken from its end.
    public var byValue: Any? { didSet { converted = nil } }

    /// The three values converted for properties of one kind: every frame asks again.
    private var converted: (kind: AnimatableValue.Kind, from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)?

    /// Creates a copy, values included.
    public required init(copying other: Animation) {
        if let other = other as? BasicAnimation {
            fromValue = other.fromValue
            toValue = other.toValue
            byValue = other.byValue
        }
        super.init(copying: other)
    }

    /// Creates a basic animation of `keyPath`.
    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    override func validate(target: any AnimationTarget) throws(AnimationError) {
        try super.validate(target: target)
        let property = try property(of: target)
        _ = try convert(fromValue, "fromValue", for: property)
        _ = try convert(toValue, "toValue", for: property)
        _ = try convert(byValue, "byValue", for: property)
    }

    /// The start and end values over the value beneath (`base`).
    func endpoints(base: AnimatableValue, property: AnimatableProperty) -> (AnimatableValue, AnimatableValue)? {
        let from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?
        if let converted, converted.kind == property.kind {
            (from, to, by) = (converted.from, converted.to, converted.by)
        } else {
            do {
                from = try convert(fromValue, "fromValue", for: property)
                to = try convert(toValue, "toValue", for: property)
                by = try convert(byValue, "byValue", for: property)
            } catch {
                return nil
            }
            converted = (property.kind, from, to, by)
        }
        switch (from, to, by) {
        case let (f?, t?, _): return (f, t)
        case let (f?, nil, b?): return (f, AnimatableValue.add(f, b))
        case let (nil, t?, b?): return (AnimatableValue.subtract(t, b) ?? t, t)
        case let (f?, nil, nil): return (f, base)
        case let (nil, t?, nil): return (base, t)
        case let (nil, nil, b?): return (base, AnimatableValue.add(base, b))
        case (nil, nil, nil): return (base, base)
        }
    }

    /// The value at an eased fraction of an iteration (springs override this).
    func value(between from: AnimatableValue, and to: AnimatableValue, at fraction: Double, elapsed: TimeInterval) -> AnimatableValue {
        AnimatableValue.interpolate(from, to, fraction)
    }

    override func apply(at time: TimeInterval, to presentation: any AnimationTarget) -> (active: Bool, ended: Bool) {
        guard let property = try? property(of: presentation) else { return (false, true) }
        let ended = hasEnded(at: time)
        guard let progress = progressForValue(at: time) else { return (false, ended) }
        let base = property.get(presentation)
        guard let (from, to) = endpoints(base: base, property: property) else { return (false, ended) }
        var value = value(between: from, and: to, at: progress.fraction, elapsed: progress.elapsed)
        if isCumulative, progress.iteration > 0, let step = AnimatableValue.subtract(to, from) {
            value = AnimatableValue.add(AnimatableValue.scaled(step, by: progress.iteration), value)
        }
        write(value, to: presentation, property: property)
        return (true, ended)
    }

    /// The eased fraction (and, for physics, the elapsed time within the iteration).
    func progressForValue(at time: TimeInterval) -> (fraction: Double, iteration: Int, elapsed: TimeInterval)? {
        guard let p = easedProgress(at: time), let raw = timing.progress(atParentTime: time) else { return nil }
        return (p.fraction, p.iteration, raw.fraction * timing.simpleDuration)
    }
}
