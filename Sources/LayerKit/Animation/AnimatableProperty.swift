import Foundation

/// How an animation reads and writes one animatable key path of a layer, such as `"opacity"`,
/// `"position.x"` or `"transform.rotation.z"`.
struct AnimatableProperty {
    let kind: AnimatableValue.Kind
    let get: (Layer) -> AnimatableValue
    let set: (Layer, AnimatableValue) -> Void

    /// The property for a key path of `layer`'s class, or nil when it is not animatable.
    static func forKeyPath(_ keyPath: String, of layer: Layer) -> AnimatableProperty? {
        type(of: layer).animatableProperty(forKeyPath: keyPath)
    }

    // MARK: Builders

    static func scalar(_ keyPath: ReferenceWritableKeyPath<Layer, CGFloat>) -> AnimatableProperty {
        AnimatableProperty(kind: .scalar, get: { .scalar(Double($0[keyPath: keyPath])) },
                           set: { layer, v in if let d = v.scalarValue { layer[keyPath: keyPath] = CGFloat(d) } })
    }

    static func float(_ keyPath: ReferenceWritableKeyPath<Layer, Float>) -> AnimatableProperty {
        AnimatableProperty(kind: .scalar, get: { .scalar(Double($0[keyPath: keyPath])) },
                           set: { layer, v in if let d = v.scalarValue { layer[keyPath: keyPath] = Float(d) } })
    }

    static func point(_ keyPath: ReferenceWritableKeyPath<Layer, CGPoint>) -> AnimatableProperty {
        AnimatableProperty(kind: .point, get: { .point($0[keyPath: keyPath]) },
                           set: { layer, v in if case let .point(p) = v { layer[keyPath: keyPath] = p } })
    }

    static func size(_ keyPath: ReferenceWritableKeyPath<Layer, CGSize>) -> AnimatableProperty {
        AnimatableProperty(kind: .size, get: { .size($0[keyPath: keyPath]) },
                           set: { layer, v in if case let .size(s) = v { layer[keyPath: keyPath] = s } })
    }

    static func rect(_ keyPath: ReferenceWritableKeyPath<Layer, CGRect>) -> AnimatableProperty {
        AnimatableProperty(kind: .rect, get: { .rect($0[keyPath: keyPath]) },
                           set: { layer, v in if case let .rect(r) = v { layer[keyPath: keyPath] = r } })
    }

    /// A color property; nil reads as clear, and animating to clear keeps the color clear.
    static func color(_ keyPath: ReferenceWritableKeyPath<Layer, Color?>) -> AnimatableProperty {
        AnimatableProperty(kind: .color, get: { .color($0[keyPath: keyPath] ?? .clear) },
                           set: { layer, v in if case let .color(c) = v { layer[keyPath: keyPath] = c } })
    }

    /// A component of a CGPoint, CGSize or CGRect property ("position.x", "bounds.size.width").
    static func component<Value>(_ keyPath: ReferenceWritableKeyPath<Layer, Value>,
                                 _ part: WritableKeyPath<Value, CGFloat>) -> AnimatableProperty {
        AnimatableProperty(kind: .scalar, get: { .scalar(Double($0[keyPath: keyPath][keyPath: part])) },
                           set: { layer, v in if let d = v.scalarValue { layer[keyPath: keyPath][keyPath: part] = CGFloat(d) } })
    }

    /// A whole transform or one of its named components ("transform.rotation.z",
    /// "transform.scale", "transform.translation.x", …), read from and written into the
    /// transform's decomposition so that the other components are kept.
    static func transform(_ keyPath: ReferenceWritableKeyPath<Layer, Transform3D>, component: String?) -> AnimatableProperty? {
        guard let component else {
            return AnimatableProperty(kind: .transform, get: { .transform($0[keyPath: keyPath]) },
                                      set: { layer, v in if case let .transform(t) = v { layer[keyPath: keyPath] = t } })
        }
        guard let field = TransformComponents.Field(keyPath: component) else { return nil }
        return AnimatableProperty(
            kind: field.kind,
            get: { layer in TransformComponents(layer[keyPath: keyPath]).value(of: field) },
            set: { layer, v in
                var components = TransformComponents(layer[keyPath: keyPath])
                components.set(field, to: v)
                layer[keyPath: keyPath] = components.transform
            })
    }
}

extension Layer {
    /// The animatable key paths every layer has.
    static func baseAnimatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        let parts = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
        let base = parts[0], rest = parts.count > 1 ? parts[1] : nil
        switch (base, rest) {
        case ("transform", let sub): return .transform(\.transform, component: sub)
        case ("sublayerTransform", let sub): return .transform(\.sublayerTransform, component: sub)
        case ("position", nil): return .point(\.position)
        case ("position", "x"): return .component(\.position, \.x)
        case ("position", "y"): return .component(\.position, \.y)
        case ("anchorPoint", nil): return .point(\.anchorPoint)
        case ("anchorPoint", "x"): return .component(\.anchorPoint, \.x)
        case ("anchorPoint", "y"): return .component(\.anchorPoint, \.y)
        case ("anchorPointZ", nil): return .scalar(\.anchorPointZ)
        case ("zPosition", nil): return .scalar(\.zPosition)
        case ("bounds", nil): return .rect(\.bounds)
        case ("bounds", "size"): return .size(\.bounds.size)
        case ("bounds", "size.width"): return .component(\.bounds, \.size.width)
        case ("bounds", "size.height"): return .component(\.bounds, \.size.height)
        case ("bounds", "origin"): return .point(\.bounds.origin)
        case ("bounds", "origin.x"): return .component(\.bounds, \.origin.x)
        case ("bounds", "origin.y"): return .component(\.bounds, \.origin.y)
        case ("opacity", nil): return .float(\.opacity)
        case ("cornerRadius", nil): return .scalar(\.cornerRadius)
        case ("borderWidth", nil): return .scalar(\.borderWidth)
        case ("borderColor", nil): return .color(\.borderColor)
        case ("backgroundColor", nil): return .color(\.backgroundColor)
        case ("shadowColor", nil): return .color(\.shadowColor)
        case ("shadowOpacity", nil): return .float(\.shadowOpacity)
        case ("shadowOffset", nil): return .size(\.shadowOffset)
        case ("shadowOffset", "width"): return .component(\.shadowOffset, \.width)
        case ("shadowOffset", "height"): return .component(\.shadowOffset, \.height)
        case ("shadowRadius", nil): return .scalar(\.shadowRadius)
        case ("contentsRect", nil): return .rect(\.contentsRect)
        case ("contentsCenter", nil): return .rect(\.contentsCenter)
        case ("rasterizationScale", nil): return .scalar(\.rasterizationScale)
        default: return nil
        }
    }
}

/// A transform split into the components Core Animation's transform key paths name:
/// translation, scale, rotation as Euler angles (about x, then y, then z), plus the skew and
/// perspective that are kept as they are.
struct TransformComponents {
    enum Field: Equatable {
        case rotationX, rotationY, rotationZ, scale, scaleX, scaleY, scaleZ
        case translation, translationX, translationY, translationZ

        init?(keyPath: String) {
            switch keyPath {
            case "rotation", "rotation.z": self = .rotationZ
            case "rotation.x": self = .rotationX
            case "rotation.y": self = .rotationY
            case "scale": self = .scale
            case "scale.x": self = .scaleX
            case "scale.y": self = .scaleY
            case "scale.z": self = .scaleZ
            case "translation": self = .translation
            case "translation.x": self = .translationX
            case "translation.y": self = .translationY
            case "translation.z": self = .translationZ
            default: return nil
            }
        }

        var kind: AnimatableValue.Kind { self == .translation ? .size : .scalar }
    }

    var decomposition: Transform3D.Decomposition
    var euler: (x: CGFloat, y: CGFloat, z: CGFloat)

    init(_ t: Transform3D) {
        decomposition = t.decomposed() ?? Transform3D.Decomposition(scale: (0, 0, 0))
        euler = Self.eulerAngles(of: decomposition.quaternion)
    }

    func value(of field: Field) -> AnimatableValue {
        let d = decomposition
        switch field {
        case .rotationX: return .scalar(Double(euler.x))
        case .rotationY: return .scalar(Double(euler.y))
        case .rotationZ: return .scalar(Double(euler.z))
        case .scale: return .scalar(Double(d.scale.x + d.scale.y + d.scale.z) / 3)
        case .scaleX: return .scalar(Double(d.scale.x))
        case .scaleY: return .scalar(Double(d.scale.y))
        case .scaleZ: return .scalar(Double(d.scale.z))
        case .translation: return .size(CGSize(width: d.translation.x, height: d.translation.y))
        case .translationX: return .scalar(Double(d.translation.x))
        case .translationY: return .scalar(Double(d.translation.y))
        case .translationZ: return .scalar(Double(d.translation.z))
        }
    }

    mutating func set(_ field: Field, to value: AnimatableValue) {
        if field == .translation {
            if case let .size(s) = value { decomposition.translation.x = s.width; decomposition.translation.y = s.height }
            return
        }
        guard let raw = value.scalarValue else { return }
        let v = CGFloat(raw)
        switch field {
        case .rotationX: euler.x = v
        case .rotationY: euler.y = v
        case .rotationZ: euler.z = v
        case .scale: decomposition.scale = (v, v, v)
        case .scaleX: decomposition.scale.x = v
        case .scaleY: decomposition.scale.y = v
        case .scaleZ: decomposition.scale.z = v
        case .translationX: decomposition.translation.x = v
        case .translationY: decomposition.translation.y = v
        case .translationZ: decomposition.translation.z = v
        case .translation: break
        }
    }

    /// The recomposed transform. The rotation is built from the Euler angles directly, so an
    /// angle of 2π is exactly a full turn and 3π/2 stays 3π/2, not −π/2.
    var transform: Transform3D {
        var d = decomposition
        d.quaternion = (0, 0, 0, 1)
        let rotation = Transform3D(rotationAngle: euler.x, x: 1, y: 0, z: 0)
            .concatenating(Transform3D(rotationAngle: euler.y, x: 0, y: 1, z: 0))
            .concatenating(Transform3D(rotationAngle: euler.z, x: 0, y: 0, z: 1))
        // The decomposition recomposes as scale · skew · rotation · translation · perspective;
        // put the rotation in its place.
        var s = d
        s.translation = (0, 0, 0)
        s.perspective = (0, 0, 0, 1)
        let scaleSkew = Transform3D(s)
        var tp = Transform3D.Decomposition()
        tp.translation = d.translation
        tp.perspective = d.perspective
        return scaleSkew.concatenating(rotation).concatenating(Transform3D(tp))
    }

    /// Euler angles of a rotation R = Rx · Ry · Rz (row vectors: x first).
    static func eulerAngles(of q: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat)) -> (x: CGFloat, y: CGFloat, z: CGFloat) {
        let m = Transform3D(Transform3D.Decomposition(quaternion: q))
        let sinY = -m.m13
        if abs(sinY) < 1 - 1e-12 {
            return (atan2(m.m23, m.m33), asin(sinY), atan2(m.m12, m.m11))
        }
        // Gimbal lock: the x and z rotations act about the same axis; put it all in z.
        return (0, sinY > 0 ? .pi / 2 : -.pi / 2, atan2(-m.m21, m.m22))
    }
}
