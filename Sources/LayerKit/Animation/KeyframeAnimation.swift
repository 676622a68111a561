import Foundation

/// How a keyframe animation moves between its values (Core Animation's calculation modes).
public enum CalculationMode: String, Hashable, Sendable {
    /// Straight lines between values at their key times.
    case linear
    /// Each value holds until the next key time; no interpolation.
    case discrete
    /// Constant speed along the values; key times and timing functions are ignored.
    case paced
    /// A smooth Catmull-Rom spline through the values at their key times.
    case cubic
    /// The spline at constant speed.
    case cubicPaced
}

/// Whether a layer moving along a keyframe path turns to follow it.
public enum RotationMode: String, Hashable, Sendable {
    /// Turn so the layer's x axis points along the path.
    case rotateAuto
    /// The same, turned half round.
    case rotateAutoReverse
}

/// An animation through a sequence of values (Core Animation's CAKeyframeAnimation).
open class KeyframeAnimation: PropertyAnimation {
    /// For point properties ("position"): a path to follow at constant speed instead of
    /// `values`.
    public var path: Path?
    /// Whether the layer turns with the path (nil: it keeps its orientation).
    public var rotationMode: RotationMode?
    /// The values passed through, in order.
    public var values: [Any]?
    /// When each value is reached, as fractions 0…1 of the duration, non-decreasing. Linear and
    /// cubic modes need one per value; discrete needs one per value, or one more (the last
    /// marking the end). Evenly spaced when nil.
    public var keyTimes: [Double]?
    /// The easing of each segment between values (one fewer than the values).
    public var timingFunctions: [TimingFunction]?
    /// How values are interpolated.
    public var calculationMode: CalculationMode = .linear

    /// Creates a copy, values and timing included.
    public required init(copying other: Animation) {
        if let other = other as? KeyframeAnimation {
            values = other.values
            keyTimes = other.keyTimes
            timingFunctions = other.timingFunctions
            calculationMode = other.calculationMode
            path = other.path
            rotationMode = other.rotationMode
        }
        super.init(copying: other)
    }

    /// Creates a keyframe animation of `keyPath`.
    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    override func validate(target: any AnimationTarget) throws(AnimationError) {
        try super.validate(target: target)
        let property = try property(of: target)
        if let path {
            guard path.isFiniteValue else {
                throw .notFinite(animation: debugName, role: "path", value: "a path of \(path.elements.count) elements")
            }
            guard property.kind == .point else {
                throw .keyframeMismatch(animation: debugName, detail: "a path can only animate a point property such as position")
            }
            return
        }
        _ = try resolved(for: property)
    }

    /// The point and tangent angle at fraction `f` of a path's length.
    static func point(along polyline: [CGPoint], at f: Double) -> (CGPoint, CGFloat)? {
        guard polyline.count > 1 else { return polyline.first.map { ($0, 0) } }
        let lengths = zip(polyline, polyline.dropFirst()).map { hypot($1.x - $0.x, $1.y - $0.y) }
        let total = lengths.reduce(0, +)
        guard total > 0 else { return (polyline[0], 0) }
        var remaining = CGFloat(min(max(f, 0), 1)) * total
        for (i, length) in lengths.enumerated() {
            let a = polyline[i], b = polyline[i + 1]
            if remaining <= length || i == lengths.count - 1 {
                let t = length > 0 ? min(remaining / length, 1) : 0
                return (CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
            }
            remaining -= length
        }
        return nil
    }

    /// The converted values and their key times, or the error that says what does not match.
    func resolved(for property: AnimatableProperty) throws(AnimationError) -> (values: [AnimatableValue], times: [Double]) {
        let raw = values ?? []
        var converted: [AnimatableValue] = []
        for (i, value) in raw.enumerated() {
            guard let v = try convert(value, "values[\(i)]", for: property) else { continue }
            converted.append(v)
        }
        guard !converted.isEmpty else { throw .keyframeMismatch(animation: debugName, detail: "values is empty") }
        let n = converted.count
        var times: [Double]
        switch calculationMode {
        case .paced, .cubicPaced:
            times = Self.pacedTimes(converted)
        default:
            if let keyTimes {
                let allowed = calculationMode == .discrete ? [n, n + 1] : [n]
                guard allowed.contains(keyTimes.count) else {
                    throw .keyframeMismatch(animation: debugName,
                                            detail: "keyTimes has \(keyTimes.count) entries for \(n) values (needs \(allowed.map(String.init).joined(separator: " or ")))")
                }
                guard keyTimes.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }),
                      zip(keyTimes, keyTimes.dropFirst()).allSatisfy({ $0 <= $1 }) else {
                    throw .keyframeMismatch(animation: debugName, detail: "keyTimes must be non-decreasing fractions in 0…1")
                }
                times = keyTimes
            } else {
                let segments = calculationMode == .discrete ? n : max(n - 1, 1)
                times = (0..<(calculationMode == .discrete ? n : n)).map { Double($0) / Double(segments) }
            }
        }
        if let functions = timingFunctions, calculationMode != .paced, calculationMode != .cubicPaced,
           functions.count != max(n - 1, 0), functions.count != 1 {
            throw .keyframeMismatch(animation: debugName,
                                    detail: "timingFunctions has \(functions.count) entries for \(n - 1) segments")
        }
        return (converted, times)
    }

    /// Key times proportional to the distance travelled.
    static func pacedTimes(_ values: [AnimatableValue]) -> [Double] {
        guard values.count > 1 else { return [0] }
        var cumulative = [0.0]
        for (a, b) in zip(values, values.dropFirst()) { cumulative.append(cumulative.last! + AnimatableValue.distance(a, b)) }
        let total = cumulative.last!
        guard total > 0 else { return values.indices.map { Double($0) / Double(values.count - 1) } }
        return cumulative.map { $0 / total }
    }

    override func apply(at time: TimeInterval, to presentation: any AnimationTarget) -> (active: Bool, ended: Bool) {
        if let path {
            guard let property = try? property(of: presentation), property.kind == .point else { return (false, true) }
            let ended = hasEnded(at: time)
            guard let progress = easedProgress(at: time) else { return (false, ended) }
            let polyline = path.flattened(tolerance: 0.05).flatMap(\.points)
            guard let (point, angle) = Self.point(along: polyline, at: progress.fraction) else { return (false, ended) }
            write(.point(point), to: presentation, property: property)
            if let rotationMode, let rotation = presentation.animatableProperty(forKeyPath: "transform.rotation.z") {
                rotation.set(presentation, .scalar(Double(angle + (rotationMode == .rotateAutoReverse ? .pi : 0))))
            }
            return (true, ended)
        }
        guard let property = try? property(of: presentation),
              let (values, times) = try? resolved(for: property) else { return (false, true) }
        let ended = hasEnded(at: time)
        // Keyframe segments carry their own easing: the animation-wide curve applies first.
        guard let progress = easedProgress(at: time) else { return (false, ended) }
        var value = self.value(at: progress.fraction, values: values, times: times)
        if isCumulative, progress.iteration > 0, let last = values.last,
           let step = AnimatableValue.subtract(last, values[0]) {
            value = AnimatableValue.add(AnimatableValue.scaled(step, by: progress.iteration), value)
        }
        write(value, to: presentation, property: property)
        return (true, ended)
    }

    /// The value at fraction `f` of the animation.
    func value(at f: Double, values: [AnimatableValue], times: [Double]) -> AnimatableValue {
        let n = values.count
        guard n > 1 else { return values[0] }
        if calculationMode == .discrete {
            // The last key time at or before f picks the value.
            var index = 0
            for (i, t) in times.enumerated() where i < n && t <= f { index = i }
            return values[index]
        }
        if f <= times[0] { return values[0] }
        if f >= times[n - 1] { return values[n - 1] }
        var segment = 0
        while segment < n - 2, f >= times[segment + 1] { segment += 1 }
        let span = times[segment + 1] - times[segment]
        var local = span > 0 ? (f - times[segment]) / span : 1
        if let functions = timingFunctions, calculationMode == .linear || calculationMode == .cubic, !functions.isEmpty {
            local = functions[min(segment, functions.count - 1)].value(at: local)
        }
        if calculationMode == .cubic || calculationMode == .cubicPaced {
            let p0 = values[max(segment - 1, 0)], p1 = values[segment]
            let p2 = values[segment + 1], p3 = values[min(segment + 2, n - 1)]
            if let spline = Self.catmullRom(p0, p1, p2, p3, local) { return spline }
        }
        return AnimatableValue.interpolate(values[segment], values[segment + 1], local)
    }

    /// The Catmull-Rom spline through p1 and p2 with tangents from their neighbours, for values
    /// with linear arithmetic; nil for the others (they interpolate linearly).
    static func catmullRom(_ p0: AnimatableValue, _ p1: AnimatableValue, _ p2: AnimatableValue,
                           _ p3: AnimatableValue, _ t: Double) -> AnimatableValue? {
        if case .transform = p1 { return nil }
        guard let d20 = AnimatableValue.subtract(p2, p0), let d31 = AnimatableValue.subtract(p3, p1),
              let d21 = AnimatableValue.subtract(p2, p1) else { return nil }
        // Hermite form: h00·p1 + h10·m1 + h01·p2 + h11·m2 with m = (next − previous) / 2.
        let t2 = t * t, t3 = t2 * t
        let h10 = t3 - 2 * t2 + t, h01 = -2 * t3 + 3 * t2, h11 = t3 - t2
        func scale(_ v: AnimatableValue, _ k: Double) -> AnimatableValue {
            AnimatableValue.interpolate(AnimatableValue.zero(like: v), v, k)
        }
        var result = p1
        result = AnimatableValue.add(result, scale(d21, h01))
        result = AnimatableValue.add(result, scale(d20, h10 / 2))
        result = AnimatableValue.add(result, scale(d31, h11 / 2))
        return result
    }
}
