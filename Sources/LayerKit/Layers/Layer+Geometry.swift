import Foundation

extension Layer {
    /// The anchor point in bounds coordinates.
    public var anchorPointInBounds: CGPoint {
        CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// The layer's rectangle in its superlayer's space: the bounding box of the transformed
    /// bounds. Setting it sets `position` and `bounds.size` as Core Animation does (exact when
    /// `transform` is the identity, which is when a frame is meaningful).
    public var frame: CGRect {
        get {
            Homography(transformToSuperlayerPlane()).projectedBounds(of: bounds) ?? .null
        }
        set {
            guard !newValue.isNull else { return }
            let r = newValue.standardized
            position = CGPoint(x: r.minX + anchorPoint.x * r.width, y: r.minY + anchorPoint.y * r.height)
            bounds.size = r.size
        }
    }

    /// The map from this layer's bounds space to its superlayer's (or, for a mask, its owner's),
    /// in 3D: translate(−anchor), transform, translate(position), then the superlayer's
    /// sublayer transform.
    public func transformToSuperlayer() -> Transform3D {
        transformToSuperlayer(sublayerSpace: superlayer?.sublayerSpaceTransform ?? .identity)
    }

    /// The map to the superlayer's space given what the superlayer applies to its sublayers
    /// (the renderer passes the superlayer's presentation values).
    func transformToSuperlayer(sublayerSpace: Transform3D) -> Transform3D {
        let a = anchorPointInBounds
        var t = Transform3D(translationX: -a.x, y: -a.y, z: -anchorPointZ)
            .concatenating(transform)
            .concatenating(Transform3D(translationX: position.x, y: position.y))
        if !sublayerSpace.isIdentity { t = t.concatenating(sublayerSpace) }
        return t
    }

    /// As `transformToSuperlayer()`, but with depth dropped once the layer lands in its
    /// superlayer's plane: the layer is flattened into it, as every non-transform layer is.
    func transformToSuperlayerPlane() -> Transform3D {
        Self.flattened(transformToSuperlayer())
    }

    /// What this layer applies to its sublayers' geometry: the vertical flip of
    /// `isGeometryFlipped`, then `sublayerTransform` about the anchor point.
    var sublayerSpaceTransform: Transform3D {
        var t = Transform3D.identity
        if isGeometryFlipped {
            t = Transform3D(scaleX: 1, y: -1).concatenating(Transform3D(translationX: 0, y: bounds.minY + bounds.maxY))
        }
        if !sublayerTransform.isIdentity {
            let a = anchorPointInBounds
            t = t.concatenating(Transform3D(translationX: -a.x, y: -a.y, z: -anchorPointZ))
                .concatenating(sublayerTransform)
                .concatenating(Transform3D(translationX: a.x, y: a.y, z: anchorPointZ))
        }
        return t
    }

    /// Projects onto the z = 0 plane (zeroes the z column), which is what flattening a
    /// sublayer into its superlayer's plane does.
    static func flattened(_ t: Transform3D) -> Transform3D {
        var f = t
        f.m13 = 0; f.m23 = 0; f.m33 = 1; f.m43 = 0
        return f
    }

    /// The homography from this layer's bounds space to the root of its tree (the topmost
    /// ancestor's bounds space), through each flattened plane.
    func homographyToRoot() -> Homography {
        var h = Homography.identity
        var layer: Layer? = self
        while let current = layer {
            guard let parent = current.superlayer ?? current.maskOwner else { break }
            h = h.concatenating(Homography(current.transformToSuperlayerPlane()))
            layer = parent
        }
        return h
    }

    /// Converts a point from `layer`'s bounds space (the root's when nil) to this layer's.
    /// Nil-free like Core Animation: a point that cannot be mapped (the layers are edge-on, or
    /// the point lies behind the eye) comes back as (nan, nan).
    public func convert(_ point: CGPoint, from layer: Layer?) -> CGPoint {
        let root = (layer?.homographyToRoot() ?? .identity).apply(to: point)
        guard let root, let inverse = homographyToRoot().inverted(), let p = inverse.apply(to: root) else {
            return CGPoint(x: CGFloat.nan, y: .nan)
        }
        return p
    }

    /// Converts a point from this layer's bounds space to `layer`'s (the root's when nil).
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint {
        (layer ?? rootLayer).convert(point, from: self)
    }

    /// Converts a rectangle from `layer`'s bounds space: the bounding box of its image.
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect {
        let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                       CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
        return CGRect(boundingPoints: corners.map { convert($0, from: layer) }) ?? .null
    }

    /// Converts a rectangle from this layer's bounds space to `layer`'s.
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect {
        (layer ?? rootLayer).convert(rect, from: self)
    }

    /// The topmost ancestor (self when there is none).
    var rootLayer: Layer {
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner { layer = parent }
        return layer
    }

    /// The deepest visible layer of this subtree containing `point`, given in the superlayer's
    /// space (this layer's own space when it has no superlayer); topmost sublayers first.
    /// A point outside this layer's bounds finds nothing, as in UIKit.
    public func hitTest(_ point: CGPoint) -> Layer? {
        hitTest(point, depth: 0)
    }

    private func hitTest(_ point: CGPoint, depth: Int) -> Layer? {
        guard !isHidden, opacity > 0, depth < Layer.maximumDrawingDepth else { return nil }
        let local: CGPoint
        if superlayer == nil {
            local = point
        } else {
            guard let inverse = Homography(transformToSuperlayerPlane()).inverted(),
                  let p = inverse.apply(to: point) else { return nil }
            local = p
        }
        guard contains(local) else { return nil }
        for layer in sublayersInDrawingOrder.reversed() {
            if let hit = layer.hitTest(local, depth: depth + 1) { return hit }
        }
        return self
    }

    /// The sublayers in the order they draw: by `zPosition`, ties in array order.
    var sublayersInDrawingOrder: [Layer] {
        guard sublayerStorage.contains(where: { $0.zPosition != 0 }) else { return sublayerStorage }
        return sublayerStorage.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }
}
