import Foundation

/// A basic animation whose progress follows a damped spring instead of a timing curve
/// (Core Animation's CASpringAnimation).
///
/// The progress is the position of a mass on a spring released at 0 towards 1:
/// m·x″ + c·x′ + k·(x − 1) = 0, x(0) = 0, x′(0) = `initialVelocity`, solved in closed form for
/// the under-, critically and over-damped cases. It overshoots when underdamped.
open class SpringAnimation: BasicAnimation {
    /// The mass on the spring (> 0).
    public var mass: Double = 1
    /// The spring constant (> 0).
    public var stiffness: Double = 100
    /// The damping coefficient (≥ 0).
    public var damping: Double = 10
    /// The initial velocity, in full distances per second, positive towards the target.
    public var initialVelocity: Double = 0

    /// Creates a copy, physics included.
    public required init(copying other: Animation) {
        if let other = other as? SpringAnimation {
            mass = other.mass; stiffness = other.stiffness; damping = other.damping
            initialVelocity = other.initialVelocity
        }
        super.init(copying: other)
    }

    /// Creates a spring animation of `keyPath` with Core Animation's physics.
    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    /// Creates a spring with the given physical parameters.
    public convenience init(keyPath: String?, mass: Double = 1, stiffness: Double = 100, damping: Double = 10,
                            initialVelocity: Double = 0) {
        self.init(keyPath: keyPath)
        self.mass = mass; self.stiffness = stiffness; self.damping = damping
        self.initialVelocity = initialVelocity
    }

    override func validate(target: any AnimationTarget) throws(AnimationError) {
        for (role, value) in [("mass", mass), ("stiffness", stiffness), ("damping", damping), ("initialVelocity", initialVelocity)]
        where !value.isFinite {
            throw .notFinite(animation: debugName, role: role, value: "\(value)")
        }
        try super.validate(target: target)
    }

    /// The time the spring takes to come to rest: after it, the distance from the target
    /// stays below 0.1% of the travel.
    public var settlingDuration: TimeInterval {
        let (m, k, c) = sanitized
        let omega0 = (k / m).squareRoot(), zeta = c / (2 * (k * m).squareRoot())
        let x0 = -1.0, v0 = initialVelocity
        let tolerance = 0.001
        guard zeta > 0 else { return .infinity }
        // Bound |x(t)| by an exponential envelope and solve envelope(t) = tolerance.
        let decay: Double, amplitude: Double
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            decay = zeta * omega0
            amplitude = (x0 * x0 + pow((v0 + zeta * omega0 * x0) / omegaD, 2)).squareRoot()
        } else if zeta == 1 {
            // (|x0| + |v0 + ω0·x0|·t)·e^(−ω0·t) ≤ A·e^(−ω0·t/2) with A covering the linear factor.
            decay = omega0 / 2
            amplitude = abs(x0) + 2 * abs(v0 + omega0 * x0) / (omega0 * M_E)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 * (zeta - root), r2 = -omega0 * (zeta + root)
            let c2 = (v0 - r1 * x0) / (r2 - r1), c1 = x0 - c2
            decay = -r1
            amplitude = abs(c1) + abs(c2)
        }
        guard amplitude > tolerance else { return 0 }
        return log(amplitude / tolerance) / decay
    }

    /// The spring's position (0 at rest at the start, 1 at the target) after `t` seconds.
    public func position(at t: TimeInterval) -> Double {
        let (m, k, c) = sanitized
        guard t > 0 else { return 0 }
        let omega0 = (k / m).squareRoot(), zeta = c / (2 * (k * m).squareRoot())
        let x0 = -1.0, v0 = initialVelocity
        let x: Double
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            x = exp(-zeta * omega0 * t) * (x0 * cos(omegaD * t) + (v0 + zeta * omega0 * x0) / omegaD * sin(omegaD * t))
        } else if zeta == 1 {
            x = (x0 + (v0 + omega0 * x0) * t) * exp(-omega0 * t)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 * (zeta - root), r2 = -omega0 * (zeta + root)
            let c2 = (v0 - r1 * x0) / (r2 - r1), c1 = x0 - c2
            x = c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
        return 1 + x
    }

    /// Physical parameters made safe: non-positive or non-finite mass and stiffness fall back to
    /// Core Animation's defaults, negative damping to none.
    private var sanitized: (Double, Double, Double) {
        (mass > 0 && mass.isFinite ? mass : 1,
         stiffness > 0 && stiffness.isFinite ? stiffness : 100,
         damping >= 0 && damping.isFinite ? damping : 0)
    }

    override func value(between from: AnimatableValue, and to: AnimatableValue, at fraction: Double,
                        elapsed: TimeInterval) -> AnimatableValue {
        // Interpolation with an unclamped fraction overshoots exactly as the spring does.
        AnimatableValue.interpolate(from, to, position(at: elapsed))
    }

    override func progressForValue(at time: TimeInterval) -> (fraction: Double, iteration: Int, elapsed: TimeInterval)? {
        // The spring runs on its own clock: no timing curve.
        guard let raw = timing.progress(atParentTime: time) else { return nil }
        return (raw.fraction, raw.iteration, raw.fraction * timing.simpleDuration)
    }
}
