import Foundation

/// What a property change does instead of its default implicit animation.
public enum LayerAction {
    /// Nothing: the change shows at once.
    case none
    /// This animation runs (a copy; its key path is set to the property's, and when it is a basic
    /// animation without values it animates from the old value to the new).
    case animation(Animation)
}

/// Supplies a layer's actions and custom drawing (Core Animation's CALayerDelegate).
public protocol LayerDelegate: AnyObject {
    /// The action for a property change, or nil for the layer's default.
    func action(for layer: Layer, forKey key: String) -> LayerAction?
    /// Draws the layer's content (called after `setNeedsDisplay()`, in the layer's bounds space).
    func draw(_ layer: Layer, in context: GraphicsContext)
}

extension LayerDelegate {
    /// No action of its own: the layer's default applies.
    public func action(for layer: Layer, forKey key: String) -> LayerAction? { nil }
    /// Draws nothing.
    public func draw(_ layer: Layer, in context: GraphicsContext) {}
}
