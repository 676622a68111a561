import Foundation

/// An easing curve: a cubic Bézier from (0, 0) to (1, 1) with two control points, mapping
/// elapsed fraction of time to fraction of change (Core Animation's CAMediaTimingFunction).
public struct TimingFunction: Hashable, Sendable {
    /// The curve's first control point.
    public let c1: CGPoint
    /// The curve's second control point.
    public let c2: CGPoint

    /// Core Animation's named curves.
    public enum Name: String, Sendable, CaseIterable {
        /// Constant speed: (0, 0) (1, 1).
        case linear
        /// Slow at first: (0.42, 0) (1, 1).
        case easeIn
        /// Slow at the end: (0, 0) (0.58, 1).
        case easeOut
        /// Slow at both ends: (0.42, 0) (0.58, 1).
        case easeInEaseOut
        /// The curve of implicit animations, (0.25, 0.1) (0.25, 1).
        case `default`
    }

    /// A named curve with Core Animation's control points.
    public init(name: Name) {
        // Exact decimal values, not their Float roundings.
        switch name {
        case .linear: (c1, c2) = (CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 1))
        case .easeIn: (c1, c2) = (CGPoint(x: 0.42, y: 0), CGPoint(x: 1, y: 1))
        case .easeOut: (c1, c2) = (CGPoint(x: 0, y: 0), CGPoint(x: 0.58, y: 1))
        case .easeInEaseOut: (c1, c2) = (CGPoint(x: 0.42, y: 0), CGPoint(x: 0.58, y: 1))
        case .default: (c1, c2) = (CGPoint(x: 0.25, y: 0.1), CGPoint(x: 0.25, y: 1))
        }
    }

    /// A custom curve. The x coordinates are clamped to 0…1 so that time never runs backwards
    /// (as CSS requires); y may overshoot for anticipation and bounce.
    public init(controlPoints x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        func unit(_ v: Double) -> CGFloat { v.isFinite ? CGFloat(min(max(v, 0), 1)) : 0 }
        func finite(_ v: Double) -> CGFloat { v.isFinite ? CGFloat(v) : 0 }
        c1 = CGPoint(x: unit(x1), y: finite(y1))
        c2 = CGPoint(x: unit(x2), y: finite(y2))
    }

    /// Constant speed.
    public static let linear = TimingFunction(name: .linear)
    /// Slow at first.
    public static let easeIn = TimingFunction(name: .easeIn)
    /// Slow at the end.
    public static let easeOut = TimingFunction(name: .easeOut)
    /// Slow at both ends.
    public static let easeInEaseOut = TimingFunction(name: .easeInEaseOut)
    /// Core Animation's default curve for implicit animations.
    public static let `default` = TimingFunction(name: .default)

    /// The control point at `index` 0…3 (0 is (0, 0), 3 is (1, 1)), as CAMediaTimingFunction's
    /// `getControlPoint(at:values:)`.
    public func controlPoint(at index: Int) -> CGPoint {
        switch index {
        case 0: .zero
        case 1: c1
        case 2: c2
        default: CGPoint(x: 1, y: 1)
        }
    }

    /// The eased fraction at time fraction `x` (0…1; values outside are clamped).
    public func value(at x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        if c1.x == c1.y, c2.x == c2.y { return x }   // linear
        return sampleY(solveT(forX: x))
    }

    // Bézier in power form: B(t) = ((a·t + b)·t + c)·t for each axis.
    private var ax: Double { 1 + 3 * Double(c1.x) - 3 * Double(c2.x) }
    private var bx: Double { 3 * Double(c2.x) - 6 * Double(c1.x) }
    private var cx: Double { 3 * Double(c1.x) }
    private var ay: Double { 1 + 3 * Double(c1.y) - 3 * Double(c2.y) }
    private var by: Double { 3 * Double(c2.y) - 6 * Double(c1.y) }
    private var cy: Double { 3 * Double(c1.y) }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter whose x is `x`: a few Newton steps from a good guess, with bisection
    /// as the fallback where the slope vanishes. x(t) is monotonic because the x control
    /// coordinates lie in 0…1, so bisection always converges.
    private func solveT(forX x: Double) -> Double {
        // Newton converges quadratically where the curve is not flat in x.
        var t = x
        for _ in 0..<8 {
            let error = sampleX(t) - x
            if abs(error) < 1e-15 { return t }
            let slope = slopeX(t)
            if abs(slope) < 1e-6 { break }
            t -= error / slope
            if t < 0 || t > 1 { break }   // left the curve: a root of the cubic elsewhere
        }
        // Where x is nearly flat (a vertical tangent in the easing), a small error in x is a
        // large one in y: bisect on t down to the precision of a Double instead.
        var low = 0.0, high = 1.0
        for _ in 0..<64 {
            let mid = (low + high) / 2
            if sampleX(mid) < x { low = mid } else { high = mid }
            if high - low < 1e-16 { break }
        }
        return (low + high) / 2
    }
}

extension TimingFunction: CustomStringConvertible {
    /// The control points.
    public var description: String { "TimingFunction(\(c1.x), \(c1.y), \(c2.x), \(c2.y))" }
}
