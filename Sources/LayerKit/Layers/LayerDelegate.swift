import Foundation

/// What a property change does instead of, or as, its implicit animation (Core Animation's
/// `CAAction`, with its two special answers as cases of their own).
///
/// Core Animation tells "no action" from "no answer" by returning `NSNull` or `nil`. Here the
/// three answers are cases of one non-optional type, so that a delegate's `return .none`
/// means no animation (with an optional return type it would silently mean Optional's
/// `none`, and the default animation would run).
public enum LayerAction {
    /// No animation: the change shows at once (Core Animation's `NSNull`).
    case none
    /// This animation runs (a copy; its key path is set to the property's, and when it is a
    /// basic animation without values it animates from the old value to the new).
    case animation(Animation)
    /// No answer here: the search goes on — after the delegate, the layer's `actions`; after
    /// those, the implicit animation of the current transaction (Core Animation's `nil`).
    case `default`
}

/// Supplies a layer's actions and custom drawing (Core Animation's CALayerDelegate).
public protocol LayerDelegate: AnyObject {
    /// The action for a change of the property named `key`: `.none` to show it at once,
    /// `.animation(_:)` to run an animation of your own, `.default` to leave it to the layer's
    /// `actions` and then to the implicit animation.
    func action(for layer: Layer, forKey key: String) -> LayerAction
    /// Draws the layer's content (called after `setNeedsDisplay()`, in the layer's bounds space).
    func draw(_ layer: Layer, in context: GraphicsContext)
}

extension LayerDelegate {
    /// No answer of its own: `.default`.
    public func action(for layer: Layer, forKey key: String) -> LayerAction { .default }
    /// Draws nothing.
    public func draw(_ layer: Layer, in context: GraphicsContext) {}
}
