import Foundation

/// What an animation reads and writes: an object whose animatable key paths are found by Core
/// Animation's names ("opacity", "position.x", "transform.rotation.z").
///
/// Layers are the targets. The animation engine knows values, time and this protocol, and
/// nothing of layers (DESIGN.md's arrows: Animation ← Layers).
protocol AnimationTarget: AnyObject {
    /// The animatable property at `keyPath`, or nil when the target has none there.
    func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty?

    /// The Core Animation name of a typed key path into the target's class, or nil: resolves a
    /// key path that was unknown when its animation was made.
    func keyPathName(for keyPath: AnyKeyPath) -> String?
}

/// How an animation reads and writes one animatable key path of a target. Built once per key
/// path and target class; `get` and `set` must be given targets of that class.
struct AnimatableProperty: Sendable {
    /// The form values of this key path take.
    let kind: AnimatableValue.Kind
    /// Reads the value.
    let get: @Sendable (any AnimationTarget) -> AnimatableValue
    /// Writes a value of `kind` (values of another kind are ignored).
    let set: @Sendable (any AnimationTarget, AnimatableValue) -> Void
}
