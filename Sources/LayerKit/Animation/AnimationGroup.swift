import Foundation

/// Animations run together on one timeline (Core Animation's CAAnimationGroup).
///
/// Each member's timing is relative to the group: its begin time counts from the group's
/// start, and the group's duration cuts members that run longer.
open class AnimationGroup: Animation {
    /// The members, applied in order.
    public var animations: [Animation]?

    /// Creates a copy that holds the same member objects, as Core Animation's copy of a group
    /// does. (A layer runs a deep copy: see `Layer.add(_:forKey:)`.)
    public required init(copying other: Animation) {
        if let other = other as? AnimationGroup {
            animations = other.animations
        }
        super.init(copying: other)
    }

    override func runningCopy() -> Animation {
        let running = copy()
        running.animations = animations?.map { $0.runningCopy() }
        return running
    }

    /// Creates an empty group.
    public override init() {
        super.init()
    }

    override func validate(target: any AnimationTarget) throws(AnimationError) {
        try super.validate(target: target)
        for animation in animations ?? [] { try animation.validate(target: target) }
    }

    override func apply(at time: TimeInterval, to presentation: any AnimationTarget) -> (active: Bool, ended: Bool) {
        let ended = hasEnded(at: time)
        guard let raw = timing.progress(atParentTime: time) else { return (false, ended) }
        // The group's own time within its iteration, eased by the group's curve.
        let eased = timingFunction?.value(at: raw.fraction) ?? raw.fraction
        let local = eased * timing.simpleDuration
        var any = false
        for member in animations ?? [] {
            any = member.apply(at: local, to: presentation).active || any
        }
        return (any, ended)
    }
}
