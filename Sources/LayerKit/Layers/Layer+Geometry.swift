import Foundation

extension Layer {
    /// The anchor point in bounds coordinates.
    public var anchorPointInBounds: CGPoint {
        CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// The layer's rectangle in its superlayer's space: the bounding box of the bounds placed by
    /// `position`, `anchorPoint` and `transform` (the superlayer's `sublayerTransform` is not
    /// part of it, as in Core Animation, where `frame` derives from the layer's own geometry).
    ///
    /// Setting it sets `bounds.size` and `position` as Core Animation does under a transform:
    /// the size is the frame's size mapped through the inverse of the transform's affine part
    /// (under a 0.5 scale a 100x100 frame gives 200x200 bounds), and the position is chosen so
    /// that the transformed bounds are centred on the frame (a translation in `transform` is
    /// taken off). Under a scale, a translation or quarter turns the frame reads back as set;
    /// under other rotations it reads back as the bounding box of the turned bounds, as on a
    /// device (Apple: do not set the frame under such a rotation). A singular transform keeps
    /// the frame's size as the bounds' size.
    public var frame: CGRect {
        get {
            Homography(Self.flattened(transformToSuperlayer(sublayerSpace: .identity))).projectedBounds(of: bounds) ?? .null
        }
        set {
            guard !newValue.isNull else { return }
            let r = newValue.standardized
            // The plane's map without depth: the transform's affine part, with the anchor's z
            // pushed through it (a 3D turn about an anchor off the plane also moves it).
            let t = transform
            let linear = CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: 0, ty: 0)
            let shift = CGPoint(x: t.m41 - anchorPointZ * t.m31, y: t.m42 - anchorPointZ * t.m32)
            let determinant = linear.a * linear.d - linear.b * linear.c
            var size = r.size
            if determinant != 0, determinant.isFinite, !linear.isIdentity {
                // CGSizeApplyAffineTransform(frame.size, inverse), as measured on a device: a
                // 100x100 frame under a 0.1 rad turn gives a 117.87 x 100 frame back.
                let mapped = r.size.applying(linear.inverted())
                size = CGSize(width: abs(mapped.width), height: abs(mapped.height))
            }
            // The centre of the transformed bounds is position + shift + L·((½ − anchor)·size).
            let offset = CGPoint(x: (0.5 - anchorPoint.x) * size.width, y: (0.5 - anchorPoint.y) * size.height)
                .applying(determinant != 0 && determinant.isFinite ? linear : .identity)
            position = CGPoint(x: r.midX - offset.x - shift.x, y: r.midY - offset.y - shift.y)
            bounds.size = size
        }
    }

    /// The transform as a 2D affine transform (Core Animation's `affineTransform()`): its
    /// fields that act in the plane, without depth or perspective.
    public func affineTransform() -> CGAffineTransform { transform.affineTransform }

    /// Sets the transform to a 2D affine transform (Core Animation's `setAffineTransform(_:)`).
    public func setAffineTransform(_ transform: CGAffineTransform) { self.transform = Transform3D(transform) }

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

    /// The homography from this layer's bounds space to `ancestor`'s, through each flattened
    /// plane; with no ancestor, to the space the root of the tree sits in (through the root's
    /// own position, anchor point and transform), which is what Core Animation converts
    /// through when layers share no superlayer.
    func homography(toAncestor ancestor: Layer?) -> Homography {
        var h = Homography.identity
        var layer = self
        while layer !== ancestor {
            h = h.concatenating(Homography(layer.transformToSuperlayerPlane()))
            guard let parent = layer.superlayer ?? layer.maskOwner else { break }
            layer = parent
        }
        return h
    }

    /// The nearest layer that is `self` or an ancestor of it and `layer` or an ancestor of it;
    /// nil when the two are in different trees.
    func nearestCommonAncestor(with layer: Layer) -> Layer? {
        var mine = Set<ObjectIdentifier>()
        var current: Layer? = self
        while let l = current {
            mine.insert(ObjectIdentifier(l))
            current = l.superlayer ?? l.maskOwner
        }
        current = layer
        while let l = current {
            if mine.contains(ObjectIdentifier(l)) { return l }
            current = l.superlayer ?? l.maskOwner
        }
        return nil
    }

    /// Converts a point from `layer`'s bounds space to this layer's.
    ///
    /// As in Core Animation: within one tree the point goes through the nearest common
    /// ancestor; between layers of different trees (or from a detached layer) it goes through
    /// each root's own geometry into the space the roots sit in, as if they were sublayers of
    /// one common superlayer; `nil` names that space itself (for a root without a transform,
    /// the point minus the root's frame origin). A point that cannot be mapped (a layer on the
    /// way is edge-on, or the point lies behind the eye) comes back as (nan, nan).
    public func convert(_ point: CGPoint, from layer: Layer?) -> CGPoint {
        let common = layer.flatMap { nearestCommonAncestor(with: $0) }
        let forward = layer?.homography(toAncestor: common) ?? .identity
        guard let inverse = homography(toAncestor: common).inverted(),
              let p = forward.apply(to: point).flatMap({ inverse.apply(to: $0) }) else {
            return CGPoint(x: CGFloat.nan, y: .nan)
        }
        return p
    }

    /// Converts a point from this layer's bounds space to `layer`'s (with `nil`, to the space
    /// the root of the tree sits in; see `convert(_:from:)`).
    public func convert(_ point: CGPoint, to layer: Layer?) -> CGPoint {
        if let layer { return layer.convert(point, from: self) }
        return homography(toAncestor: nil).apply(to: point) ?? CGPoint(x: CGFloat.nan, y: .nan)
    }

    /// Converts a rectangle from `layer`'s bounds space: the bounding box of its image.
    public func convert(_ rect: CGRect, from layer: Layer?) -> CGRect {
        CGRect(boundingPoints: Self.corners(of: rect).map { convert($0, from: layer) }) ?? .null
    }

    /// Converts a rectangle from this layer's bounds space to `layer`'s: the bounding box of
    /// its image.
    public func convert(_ rect: CGRect, to layer: Layer?) -> CGRect {
        CGRect(boundingPoints: Self.corners(of: rect).map { convert($0, to: layer) }) ?? .null
    }

    private static func corners(of rect: CGRect) -> [CGPoint] {
        [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
         CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
    }

    /// The topmost ancestor (self when there is none).
    var rootLayer: Layer {
        var layer = self
        while let parent = layer.superlayer ?? layer.maskOwner { layer = parent }
        return layer
    }

    /// The farthest descendant of this layer (or the layer itself) containing `point`, given in
    /// the superlayer's space (for a root, the space it sits in, as `convert(_:from: nil)`);
    /// nil when there is none.
    ///
    /// Core Animation's rule, not UIKit's: a sublayer that hangs outside its superlayer's
    /// bounds is still found there, unless the superlayer `masksToBounds`. Sublayers are
    /// searched front to back (by `zPosition`, then array order); hidden and fully transparent
    /// layers, and their subtrees, are skipped.
    public func hitTest(_ point: CGPoint) -> Layer? {
        guard let local = Homography(transformToSuperlayerPlane()).inverted()?.apply(to: point) else { return nil }
        return hitTest(local: local, depth: 0)
    }

    /// `hitTest(_:)` with the point already in this layer's bounds space.
    private func hitTest(local point: CGPoint, depth: Int) -> Layer? {
        guard !isHidden, opacity > 0, depth < Layer.maximumDrawingDepth else { return nil }
        let inside = contains(point)
        if masksToBounds, !inside { return nil }
        for layer in sublayersInDrawingOrder.reversed() {
            guard let inverse = Homography(layer.transformToSuperlayerPlane()).inverted(),
                  let local = inverse.apply(to: point) else { continue }
            if let hit = layer.hitTest(local: local, depth: depth + 1) { return hit }
        }
        return inside ? self : nil
    }

    /// The sublayers in the order they draw: by `zPosition`, ties in array order.
    var sublayersInDrawingOrder: [Layer] {
        guard sublayerStorage.contains(where: { $0.zPosition != 0 }) else { return sublayerStorage }
        return sublayerStorage.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }
}
