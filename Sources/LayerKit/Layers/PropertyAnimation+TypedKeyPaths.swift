import Foundation

/// Typed key paths for animations, beside Core Animation's strings:
/// `BasicAnimation(keyPath: \Layer.opacity)` is `BasicAnimation(keyPath: "opacity")`, and the
/// compiler checks the property exists.
extension PropertyAnimation {
    /// The Core Animation name of a typed key path, or nil when it is not animatable.
    public static func name<Root: Layer, Value>(of keyPath: KeyPath<Root, Value>) -> String? {
        typedNames[keyPath as AnyKeyPath]
    }

    /// An animation of a typed key path (a property that is not animatable gives an animation
    /// whose validation reports it, as an unknown string would).
    public convenience init<Root: Layer, Value>(keyPath: KeyPath<Root, Value>) {
        self.init(keyPath: Self.name(of: keyPath) ?? "\(keyPath)")
    }

    // Safe: an immutable dictionary, built once and only read; key paths are values.
    nonisolated(unsafe) private static let typedNames: [AnyKeyPath: String] = [
        \Layer.bounds: "bounds", \Layer.bounds.size: "bounds.size", \Layer.bounds.size.width: "bounds.size.width",
        \Layer.bounds.size.height: "bounds.size.height", \Layer.bounds.origin: "bounds.origin",
        \Layer.position: "position", \Layer.position.x: "position.x", \Layer.position.y: "position.y",
        \Layer.anchorPoint: "anchorPoint", \Layer.anchorPointZ: "anchorPointZ", \Layer.zPosition: "zPosition",
        \Layer.transform: "transform", \Layer.sublayerTransform: "sublayerTransform",
        \Layer.opacity: "opacity", \Layer.cornerRadius: "cornerRadius", \Layer.borderWidth: "borderWidth",
        \Layer.borderColor: "borderColor", \Layer.backgroundColor: "backgroundColor",
        \Layer.shadowColor: "shadowColor", \Layer.shadowOpacity: "shadowOpacity", \Layer.shadowOffset: "shadowOffset",
        \Layer.shadowRadius: "shadowRadius", \Layer.contentsRect: "contentsRect", \Layer.contentsCenter: "contentsCenter",
        \ShapeLayer.path: "path", \ShapeLayer.fillColor: "fillColor", \ShapeLayer.strokeColor: "strokeColor",
        \ShapeLayer.lineWidth: "lineWidth", \ShapeLayer.strokeStart: "strokeStart", \ShapeLayer.strokeEnd: "strokeEnd",
        \ShapeLayer.miterLimit: "miterLimit", \ShapeLayer.lineDashPhase: "lineDashPhase",
        \TextLayer.fontSize: "fontSize", \TextLayer.foregroundColor: "foregroundColor",
    ]
}
