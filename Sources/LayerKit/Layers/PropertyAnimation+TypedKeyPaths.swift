import Foundation

/// Typed key paths for animations, beside Core Animation's strings:
/// `BasicAnimation(keyPath: \Layer.opacity)` is `BasicAnimation(keyPath: "opacity")`, and the
/// compiler checks the property exists. Names come from the properties' declarations, parts
/// included (`\Layer.position.x` is "position.x", `\Layer.bounds.size.width`
/// "bounds.size.width").
extension PropertyAnimation {
    /// The Core Animation name of a typed key path to a declared layer property or one of its
    /// parts, or nil. Key paths into a subclass declared outside LayerKit are known once a
    /// layer of that class has been made.
    public static func name<Root: Layer, Value>(of keyPath: KeyPath<Root, Value>) -> String? {
        LayerPropertyTable.name(of: keyPath)
    }

    /// An animation of a typed key path. A property that does not animate gives an animation
    /// whose validation reports it, as an unknown string would; a key path whose class no layer
    /// has been made of yet is resolved when the animation is added to one.
    public convenience init<Root: Layer, Value>(keyPath: KeyPath<Root, Value>) {
        let name = Self.name(of: keyPath)
        self.init(keyPath: name ?? "\(keyPath)")
        if name == nil { unresolvedKeyPath = SendableKeyPath(keyPath) }
    }
}
