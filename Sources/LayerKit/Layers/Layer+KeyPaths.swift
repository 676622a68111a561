import Foundation

extension Layer: AnimationTarget {
    func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        type(of: self).animatableProperty(forKeyPath: keyPath)
    }

    func keyPathName(for keyPath: AnyKeyPath) -> String? { nil }
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

extension AnimatableProperty {
    static func scalar(_ keyPath: ReferenceWritableKeyPath<Layer, CGFloat>) -> AnimatableProperty {
        AnimatableProperty(kind: .scalar, get: { .scalar(Double(($0 as! Layer)[keyPath: keyPath])) },
                           set: { layer, v in if let d = v.scalarValue { (layer as! Layer)[keyPath: keyPath] = CGFloat(d) } })
    }

    static func float(_ keyPath: ReferenceWritableKeyPath<Layer, Float>) -> AnimatableProperty {
        AnimatableProperty(kind: .scalar, get: { .scalar(Double(($0 as! Layer)[keyPath: keyPath])) },
                           set: { layer, v in if let d = v.scalarValue { (layer as! Layer)[keyPath: keyPath] = Float(d) } })
    }

    static func point(_ keyPath: ReferenceWritableKeyPath<Layer, CGPoint>) -> AnimatableProperty {
        AnimatableProperty(kind: .point, get: { .point(($0 as! Layer)[keyPath: keyPath]) },
                           set: { layer, v in if case let .point(p) = v { (layer as! Layer)[keyPath: keyPath] = p } })
    }

    static func size(_ keyPath: ReferenceWritableKeyPath<Layer, CGSize>) -> AnimatableProperty {
        AnimatableProperty(kind: .size, get: { .size(($0 as! Layer)[keyPath: keyPath]) },
                           set: { layer, v in if case let .size(s) = v { (layer as! Layer)[keyPath: keyPath] = s } })
    }

    static func rect(_ keyPath: ReferenceWritableKeyPath<Layer, CGRect>) -> AnimatableProperty {
        AnimatableProperty(kind: .rect, get: { .rect(($0 as! Layer)[keyPath: keyPath]) },
                           set: { layer, v in if case let .rect(r) = v { (layer as! Layer)[keyPath: keyPath] = r } })
    }

    static func color(_ keyPath: ReferenceWritableKeyPath<Layer, Color?>) -> AnimatableProperty {
        AnimatableProperty(kind: .color, get: { .color(($0 as! Layer)[keyPath: keyPath] ?? .clear) },
                           set: { layer, v in if case let .color(c) = v { (layer as! Layer)[keyPath: keyPath] = c } })
    }

    static func component<Value>(_ keyPath: ReferenceWritableKeyPath<Layer, Value>,
                                 _ part: WritableKeyPath<Value, CGFloat>) -> AnimatableProperty {
        AnimatableProperty(kind: .scalar, get: { .scalar(Double(($0 as! Layer)[keyPath: keyPath][keyPath: part])) },
                           set: { layer, v in if let d = v.scalarValue { (layer as! Layer)[keyPath: keyPath][keyPath: part] = CGFloat(d) } })
    }

    static func transform(_ keyPath: ReferenceWritableKeyPath<Layer, Transform3D>, component: String?) -> AnimatableProperty? {
        guard let component else {
            return AnimatableProperty(kind: .transform, get: { .transform(($0 as! Layer)[keyPath: keyPath]) },
                                      set: { layer, v in if case let .transform(t) = v { (layer as! Layer)[keyPath: keyPath] = t } })
        }
        guard let field = TransformComponents.Field(keyPath: component) else { return nil }
        return AnimatableProperty(
            kind: field.kind,
            get: { layer in TransformComponents((layer as! Layer)[keyPath: keyPath]).value(of: field) },
            set: { layer, v in
                var components = TransformComponents((layer as! Layer)[keyPath: keyPath])
                components.set(field, to: v)
                (layer as! Layer)[keyPath: keyPath] = components.transform
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
