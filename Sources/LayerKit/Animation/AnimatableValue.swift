import Foundation

/// A value that animations accept in place of the LayerKit value it stands for: the
/// compatibility module's reference-type `CGPath` stands for a `Path`.
package protocol AnimatableValueConvertible {
    /// The LayerKit value (a `Path`, a `Color`, …) this value stands for.
    var animatableValue: Any { get }
}

/// A value an animation can carry and interpolate, converted from what users pass
/// (`fromValue = 0.0`, `toValue = CGPoint(...)`, `values = [Color.red, Color.blue]`).
enum AnimatableValue: Sendable, Equatable {
    case scalar(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    case transform(Transform3D)
    case color(Color)
    case colors([Color])
    case numbers([Double])
    case path(Path)

    /// The kind of value, for type checks and messages.
    enum Kind: String, Sendable {
        case scalar = "a number", point = "a CGPoint", size = "a CGSize", rect = "a CGRect"
        case transform = "a Transform3D", color = "a Color", colors = "an array of Colors"
        case numbers = "an array of numbers"
        case path = "a Path"
    }

    var kind: Kind {
        switch self {
        case .scalar: .scalar
        case .point: .point
        case .size: .size
        case .rect: .rect
        case .transform: .transform
        case .color: .color
        case .colors: .colors
        case .numbers: .numbers
        case .path: .path
        }
    }

    /// Whether every number in the value is finite (colors are made safe where they are used).
    var isFinite: Bool {
        switch self {
        case let .scalar(v): v.isFinite
        case let .point(p): p.isFiniteValue
        case let .size(s): s.isFiniteValue
        case let .rect(r): r.isFiniteValue
        case let .transform(t): t.isFinite
        case .color, .colors: true
        case let .numbers(v): v.allSatisfy(\.isFinite)
        case let .path(p): p.isFiniteValue
        }
    }

    /// Converts a user value to the kind a property needs; nil when it cannot be.
    init?(_ value: Any?, as kind: Kind) {
        guard let value else { return nil }
        // Another spelling of a LayerKit value (the compatibility module's CGPath) stands for it.
        let any = (value as? any AnimatableValueConvertible)?.animatableValue ?? value
        switch kind {
        case .scalar:
            guard let v = Self.number(any) else { return nil }
            self = .scalar(v)
        case .point:
            guard let v = any as? CGPoint else { return nil }
            self = .point(v)
        case .size:
            guard let v = any as? CGSize else { return nil }
            self = .size(v)
        case .rect:
            guard let v = any as? CGRect else { return nil }
            self = .rect(v)
        case .transform:
            if let v = any as? Transform3D { self = .transform(v) }
            else if let v = any as? CGAffineTransform { self = .transform(Transform3D(v)) }
            else { return nil }
        case .color:
            guard let v = any as? Color else { return nil }
            self = .color(v)
        case .colors:
            guard let v = any as? [Color] else { return nil }
            self = .colors(v)
        case .path:
            guard let v = any as? Path else { return nil }
            self = .path(v)
        case .numbers:
            guard let array = any as? [Any] else { return nil }
            let numbers = array.compactMap(Self.number)
            guard numbers.count == array.count else { return nil }
            self = .numbers(numbers)
        }
    }

    private static func number(_ any: Any) -> Double? {
        switch any {
        case let v as Double: v
        case let v as CGFloat: Double(v)
        case let v as Float: Double(v)
        case let v as Int: Double(v)
        default: nil
        }
    }

    /// The value as users see it (`presentation().value(forKeyPath:)`).
    var boxed: Any {
        switch self {
        case let .scalar(v): v
        case let .point(v): v
        case let .size(v): v
        case let .rect(v): v
        case let .transform(v): v
        case let .color(v): v
        case let .colors(v): v
        case let .numbers(v): v
        case let .path(v): v
        }
    }

    // MARK: Arithmetic for interpolation, by-values and additive/cumulative animations

    /// `a + (b − a)·t`. Transforms interpolate through decomposition; arrays of different
    /// lengths switch halfway.
    static func interpolate(_ a: AnimatableValue, _ b: AnimatableValue, _ t: Double) -> AnimatableValue {
        let f = CGFloat(t)
        func mix(_ u: CGFloat, _ v: CGFloat) -> CGFloat { u + (v - u) * f }
        switch (a, b) {
        case let (.scalar(u), .scalar(v)): return .scalar(u + (v - u) * t)
        case let (.point(u), .point(v)): return .point(CGPoint(x: mix(u.x, v.x), y: mix(u.y, v.y)))
        case let (.size(u), .size(v)): return .size(CGSize(width: mix(u.width, v.width), height: mix(u.height, v.height)))
        case let (.rect(u), .rect(v)):
            return .rect(CGRect(x: mix(u.minX, v.minX), y: mix(u.minY, v.minY),
                                width: mix(u.width, v.width), height: mix(u.height, v.height)))
        case let (.transform(u), .transform(v)): return .transform(u.interpolated(to: v, fraction: f))
        case let (.color(u), .color(v)): return .color(mixColor(u, v, t))
        case let (.colors(u), .colors(v)) where u.count == v.count:
            return .colors(zip(u, v).map { mixColor($0, $1, t) })
        case let (.numbers(u), .numbers(v)) where u.count == v.count:
            return .numbers(zip(u, v).map { $0 + ($1 - $0) * t })
        case let (.path(u), .path(v)):
            return u.interpolated(to: v, fraction: f).map { .path($0) } ?? (t < 0.5 ? a : b)
        default:
            return t < 0.5 ? a : b
        }
    }

    /// Colors blend component-wise in sRGB with straight alpha (as Core Animation does).
    private static func mixColor(_ u: Color, _ v: Color, _ t: Double) -> Color {
        Color(red: u.red + (v.red - u.red) * t, green: u.green + (v.green - u.green) * t,
              blue: u.blue + (v.blue - u.blue) * t, alpha: u.alpha + (v.alpha - u.alpha) * t)
    }

    /// `a + b` (transforms concatenate: `b` applied after `a`).
    static func add(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue {
        switch (a, b) {
        case let (.scalar(u), .scalar(v)): .scalar(u + v)
        case let (.point(u), .point(v)): .point(CGPoint(x: u.x + v.x, y: u.y + v.y))
        case let (.size(u), .size(v)): .size(CGSize(width: u.width + v.width, height: u.height + v.height))
        case let (.rect(u), .rect(v)):
            .rect(CGRect(x: u.minX + v.minX, y: u.minY + v.minY, width: u.width + v.width, height: u.height + v.height))
        case let (.transform(u), .transform(v)): .transform(u.concatenating(v))
        case let (.color(u), .color(v)):
            .color(Color(red: u.red + v.red, green: u.green + v.green, blue: u.blue + v.blue, alpha: u.alpha + v.alpha))
        case let (.numbers(u), .numbers(v)) where u.count == v.count: .numbers(zip(u, v).map(+))
        default: b
        }
    }

    /// `a − b`, where it means something (for by-values and paced keyframes).
    static func subtract(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        switch (a, b) {
        case let (.scalar(u), .scalar(v)): .scalar(u - v)
        case let (.point(u), .point(v)): .point(CGPoint(x: u.x - v.x, y: u.y - v.y))
        case let (.size(u), .size(v)): .size(CGSize(width: u.width - v.width, height: u.height - v.height))
        case let (.rect(u), .rect(v)):
            .rect(CGRect(x: u.minX - v.minX, y: u.minY - v.minY, width: u.width - v.width, height: u.height - v.height))
        case let (.transform(u), .transform(v)): v.inverted().map { .transform(u.concatenating($0)) }
        case let (.color(u), .color(v)):
            .color(Color(red: u.red - v.red, green: u.green - v.green, blue: u.blue - v.blue, alpha: u.alpha - v.alpha))
        case let (.numbers(u), .numbers(v)) where u.count == v.count: .numbers(zip(u, v).map(-))
        default: nil
        }
    }

    /// `a` repeated `n` times (for cumulative animations).
    static func scaled(_ a: AnimatableValue, by n: Int) -> AnimatableValue {
        guard n > 0 else { return zero(like: a) }
        var result = a
        if case let .transform(t) = a {
            for _ in 1..<min(n, 10_000) { result = .transform(t.concatenating(result.transformValue)) }
            return result
        }
        return scaledLinear(a, Double(n))
    }

    private static func scaledLinear(_ a: AnimatableValue, _ k: Double) -> AnimatableValue {
        let f = CGFloat(k)
        switch a {
        case let .scalar(v): return .scalar(v * k)
        case let .point(v): return .point(CGPoint(x: v.x * f, y: v.y * f))
        case let .size(v): return .size(CGSize(width: v.width * f, height: v.height * f))
        case let .rect(v): return .rect(CGRect(x: v.minX * f, y: v.minY * f, width: v.width * f, height: v.height * f))
        case let .color(v): return .color(Color(red: v.red * k, green: v.green * k, blue: v.blue * k, alpha: v.alpha * k))
        case let .numbers(v): return .numbers(v.map { $0 * k })
        default: return a
        }
    }

    /// The additive identity of `a`'s kind.
    static func zero(like a: AnimatableValue) -> AnimatableValue {
        switch a {
        case .scalar: .scalar(0)
        case .point: .point(.zero)
        case .size: .size(.zero)
        case .rect: .rect(.zero)
        case .transform: .transform(.identity)
        case .color: .color(Color(red: 0, green: 0, blue: 0, alpha: 0))
        case let .colors(c): .colors(c.map { _ in Color(red: 0, green: 0, blue: 0, alpha: 0) })
        case let .numbers(n): .numbers(n.map { _ in 0 })
        case .path: .path(Path())
        }
    }

    /// The distance between two values, for paced keyframe timing.
    static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double {
        switch (a, b) {
        case let (.scalar(u), .scalar(v)): return abs(u - v)
        case let (.point(u), .point(v)): return Double(hypot(u.x - v.x, u.y - v.y))
        case let (.size(u), .size(v)): return Double(hypot(u.width - v.width, u.height - v.height))
        case let (.rect(u), .rect(v)):
            let d = [u.minX - v.minX, u.minY - v.minY, u.width - v.width, u.height - v.height]
            return Double(d.map { $0 * $0 }.reduce(0, +).squareRoot())
        case let (.color(u), .color(v)):
            let d = [u.red - v.red, u.green - v.green, u.blue - v.blue, u.alpha - v.alpha]
            return d.map { $0 * $0 }.reduce(0, +).squareRoot()
        case let (.numbers(u), .numbers(v)) where u.count == v.count:
            return zip(u, v).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot()
        case let (.transform(u), .transform(v)):
            return Double(zip(u.rows.joined(), v.rows.joined()).map { ($0 - $1) * ($0 - $1) }.reduce(0, +).squareRoot())
        default:
            return 1
        }
    }

    var transformValue: Transform3D {
        if case let .transform(t) = self { return t }
        return .identity
    }

    var scalarValue: Double? {
        if case let .scalar(v) = self { return v }
        return nil
    }
}
