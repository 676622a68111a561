import Foundation

extension Layer: AnimationTarget {
    func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        LayerPropertyTable.of(self).entries[keyPath]?.animatable
    }

    func keyPathName(for keyPath: AnyKeyPath) -> String? {
        _ = LayerPropertyTable.of(self)   // this class's typed key paths are known from here on
        return LayerPropertyTable.name(of: keyPath)
    }
}

extension Layer {
    /// The value of a declared property or one of its parts ("opacity", "hidden",
    /// "position.x", "transform.rotation.z", …), as Core Animation's `value(forKeyPath:)` gives
    /// it: animatable values as animations carry them (numbers as `Double`, a missing color as
    /// clear), the others as they are. Nil for unknown key paths.
    public func value(forKeyPath keyPath: String) -> Any? {
        LayerPropertyTable.of(self).entries[keyPath]?.get(self)
    }

    /// Sets a declared property or one of its parts from a boxed value, with the implicit
    /// animation a direct change would have. Animatable key paths take any number type for
    /// numbers (as Core Animation does). Unknown key paths and values of the wrong type are
    /// reported to `AnimationDiagnostics.handler`, not set.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        guard let entry = LayerPropertyTable.of(self).entries[keyPath] else {
            AnimationDiagnostics.handler(.unknownKeyPath(keyPath, layer: "\(type(of: self))"))
            return
        }
        guard entry.set(self, value) else {
            AnimationDiagnostics.handler(.wrongValueType(animation: "setValue(_:forKeyPath: \"\(keyPath)\")", role: "value",
                                                         expected: entry.expectedType, got: value.map { "\(type(of: $0))" } ?? "nil"))
            return
        }
    }
}

extension Animation {
    /// Checks that the animation can run on `layer`: known key paths, values of the right
    /// types, keyframe arrays that match.
    ///
    /// - Throws: `AnimationError` naming the animation, the key path and what is wrong.
    public func validate(for layer: Layer) throws(AnimationError) {
        try validate(target: layer)
    }
}
