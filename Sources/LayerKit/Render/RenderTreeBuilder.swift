import Foundation

/// Snapshots a model layer tree into render nodes: resolves geometry into homographies,
/// flattens each layer's subtree into its plane (except under transform layers), culls what
/// cannot be seen, and decides which subtrees need an offscreen group.
///
/// Runs on the model's isolation domain; what it produces is immutable and Sendable.
final class RenderTreeBuilder {
    /// Device pixels per point.
    let deviceScale: CGFloat
    /// The device pixels that matter (the frame); geometry outside only costs nothing.
    let viewport: PixelRect
    /// Animation start and stop handlers found while snapshotting, run once the frame is done
    /// (so that user code never changes the tree while it is being read).
    private(set) var callbacks: [() -> Void] = []

    init(deviceScale: CGFloat, viewport: PixelRect) {
        self.deviceScale = deviceScale
        self.viewport = viewport
    }

    /// Backing stores are never larger than this many pixels a side; a bigger layer is
    /// rasterized at a lower scale or only where it is visible.
    static let maximumStoreSide: CGFloat = 4096
    /// Deeper trees are cut here so that pathological nesting cannot exhaust the stack.
    static let maximumDepth = Layer.maximumDrawingDepth

    /// The root is drawn in its own bounds space (its position, transform and opacity are the
    /// frame of reference, as in Core Animation's `render(in:)`), scaled to device pixels.
    /// Snapshots the tree of `root` at tree time `time`: every layer is read through its
    /// presentation at its own local time (the layer time hierarchy), and the tree's current
    /// time becomes `time`.
    func snapshot(root: Layer, at time: TimeInterval) -> RenderNode? {
        root.treeTime = time
        let rootTime = root.localTime(fromParent: time)
        let presented = present(root, at: rootTime)
        let rootToDevice = Transform3D(translationX: -presented.bounds.minX, y: -presented.bounds.minY)
            .concatenating(Transform3D(scaleX: deviceScale, y: deviceScale))
        return node(for: root, presented: presented, localTime: rootTime, toTarget: rootToDevice, opacity: 1,
                    isRoot: true, targetArea: viewport.cgRect, depth: 0)
    }

    /// The layer as shown at its local time: its presentation copy when animations run.
    private func present(_ layer: Layer, at localTime: TimeInterval, notify: Bool = true) -> Layer {
        layer.hasBeenRendered = true
        layer.displayIfNeeded()
        if !notify { return layer.presentationCopy(atLocalTime: localTime, notify: false) ?? layer }
        return layer.presentationCopy(atLocalTime: localTime, notify: true, callbacks: &callbacks) ?? layer
    }

    /// A sublayer about to become a node: its model, presentation, local time, map into its
    /// superlayer's space, and (under replicators) which instance it is and its tint.
    struct Sublayer {
        let model: Layer
        let presented: Layer
        let time: TimeInterval
        let toParent: Transform3D
        var instance: Int = 0
        var tint: Color? = nil
    }

    /// The sublayers of `model` (shown as `presented`) with their presentations and local
    /// times, in drawing order (by presented zPosition, ties in array order). A replicator's
    /// sublayers come once per instance.
    private func presentedSublayers(of model: Layer, presented: Layer, localTime: TimeInterval,
                                    instance: Int, tint: Color?) -> [Sublayer] {
        let space = presented.sublayerSpaceTransform
        var result = model.sublayerStorage.map { child -> Sublayer in
            let time = child.localTime(fromParent: localTime)
            let p = present(child, at: time)
            return Sublayer(model: child, presented: p, time: time, toParent: p.transformToSuperlayer(sublayerSpace: space),
                            instance: instance, tint: tint)
        }
        if result.contains(where: { $0.presented.zPosition != 0 }) {
            result = result.enumerated()
                .sorted { ($0.element.presented.zPosition, $0.offset) < ($1.element.presented.zPosition, $1.offset) }
                .map(\.element)
        }
        if let replicator = presented as? ReplicatorLayer {
            result = replicate(result, by: replicator, model: model, localTime: localTime)
        }
        return result
    }

    /// The instances of a replicator's sublayers: instance i is turned by the instance transform
    /// i times (about the replicator's anchor point), runs `i · instanceDelay` behind, and is
    /// tinted by the instance color plus i times the offsets.
    private func replicate(_ sublayers: [Sublayer], by replicator: ReplicatorLayer, model: Layer,
                           localTime: TimeInterval) -> [Sublayer] {
        let count = min(max(replicator.instanceCount, 0), ReplicatorLayer.maximumInstanceCount)
        guard count != 1 else { return sublayers.map { var s = $0; s.tint = Self.combine(s.tint, replicator.instanceTint(0)); return s } }
        let a = replicator.anchorPointInBounds
        let step = Transform3D(translationX: -a.x, y: -a.y, z: -replicator.anchorPointZ)
            .concatenating(replicator.instanceTransform)
            .concatenating(Transform3D(translationX: a.x, y: a.y, z: replicator.anchorPointZ))
        var result: [Sublayer] = []
        var accumulated = Transform3D.identity
        for i in 0..<count {
            let delay = Double(i) * replicator.instanceDelay
            for sublayer in sublayers {
                let child = sublayer.model
                let time = sublayer.time - delay
                let p = i == 0 ? sublayer.presented : present(child, at: time, notify: false)
                var hasher = Hasher()
                hasher.combine(sublayer.instance)
                hasher.combine(i)
                result.append(Sublayer(model: child, presented: p, time: time,
                                       toParent: p.transformToSuperlayer(sublayerSpace: replicator.sublayerSpaceTransform)
                                           .concatenating(accumulated),
                                       instance: i == 0 ? sublayer.instance : hasher.finalize(),
                                       tint: Self.combine(sublayer.tint, replicator.instanceTint(i))))
            }
            accumulated = accumulated.concatenating(step)
        }
        return result
    }

    /// Two tints applied one after the other (nil is no tint).
    static func combine(_ a: Color?, _ b: Color?) -> Color? {
        guard let a else { return b }
        guard let b else { return a }
        return Color(red: a.red * b.red, green: a.green * b.green, blue: a.blue * b.blue, alpha: a.alpha * b.alpha)
    }

    /// - Parameters:
    ///   - toTarget: the layer's bounds space (3D) → target pixels.
    ///   - opacity: the product of the non-group opacities above.
    ///   - targetArea: the target pixels that can be seen, for sizing huge stores.
    private func node(for model: Layer, presented layer: Layer, localTime: TimeInterval, toTarget: Transform3D,
                      opacity inherited: Double, isRoot: Bool = false, targetArea: CGRect, depth: Int,
                      instance: Int = 0, tint: Color? = nil) -> RenderNode? {
        guard var result = untintedNode(for: model, presented: layer, localTime: localTime, toTarget: toTarget,
                                        opacity: inherited, isRoot: isRoot, targetArea: targetArea, depth: depth,
                                        instance: instance, tint: tint) else { return nil }
        result.instance = instance
        result.tint = tint
        if result.group != nil, !result.children.isEmpty {
            // A group's inner node is drawn inside the group's bitmap: it shares the identity.
            result.children[0].instance = instance
            result.children[0].tint = tint
        }
        return result
    }

    private func untintedNode(for model: Layer, presented layer: Layer, localTime: TimeInterval, toTarget: Transform3D,
                              opacity inherited: Double, isRoot: Bool, targetArea: CGRect, depth: Int,
                              instance: Int, tint: Color?) -> RenderNode? {
        let layerOpacity = isRoot ? 1 : Double(layer.opacity)
        guard !layer.isHidden, layerOpacity > 0, depth < Self.maximumDepth, toTarget.isFinite else { return nil }
        let opacity = inherited * min(layerOpacity, 1)
        let transform = Homography(toTarget)

        let sublayers = presentedSublayers(of: model, presented: layer, localTime: localTime, instance: instance, tint: tint)
        if layer is TransformLayer {
            return transformLayerNode(layer, sublayers: sublayers, toTarget: toTarget, transform: transform, opacity: opacity,
                                      targetArea: targetArea, depth: depth)
        }

        let bounds = layer.bounds
        guard Self.isSane(bounds), transform.kind != .degenerate else { return nil }
        if !layer.isDoubleSided, isBackFacing(transform, bounds: bounds) { return nil }

        let rasterScale = Self.rasterScale(of: transform, at: CGPoint(x: bounds.midX, y: bounds.midY),
                                           deviceScale: deviceScale)
        let hasChildren = sublayers.contains { !$0.presented.isHidden && $0.presented.opacity > 0 }
        let clipIsPixelAligned = layer.masksToBounds && layer.cornerRadius <= 0 && Self.pixelAlignedImage(of: bounds, under: transform) != nil
        let needsGroup = layer.shouldRasterize || model.mask != nil ||
            (layer.shadowOpacity > 0 && layer.shadowPath == nil && hasChildren) ||
            (layer.masksToBounds && hasChildren && !clipIsPixelAligned) ||
            (layer.masksToBounds && layer.cornerRadius > 0 && layer.contents != nil) ||
            (opacity < 1 && layer.allowsGroupOpacity && hasChildren)

        let shadow = shadowDescription(of: layer)
        if needsGroup {
            return groupNode(model, presented: layer, localTime: localTime, sublayers: sublayers, transform: transform,
                             opacity: opacity, rasterScale: rasterScale, shadow: shadow, targetArea: targetArea, depth: depth)
        }

        let flattened = Layer.flattened(toTarget)
        let childClip = layer.masksToBounds ? Self.pixelAlignedImage(of: bounds, under: transform) : nil
        let children = childNodes(sublayers, parentToTarget: flattened, opacity: opacity,
                                  targetArea: childClip.map { $0.cgRect.intersection(targetArea) } ?? targetArea,
                                  depth: depth)
        return RenderNode(id: layer.id, transform: transform, bounds: bounds, opacity: opacity,
                          rasterScale: rasterScale, content: contentDescription(of: layer, scale: rasterScale),
                          border: borderDescription(of: layer), shadow: shadow, childClip: childClip,
                          group: nil, children: children)
    }

    private func childNodes(_ sublayers: [Sublayer],
                            parentToTarget: Transform3D, opacity: Double, targetArea: CGRect, depth: Int) -> [RenderNode] {
        sublayers.compactMap { child in
            node(for: child.model, presented: child.presented, localTime: child.time,
                 toTarget: child.toParent.concatenating(parentToTarget), opacity: opacity, targetArea: targetArea, depth: depth + 1,
                 instance: child.instance, tint: child.tint)
        }
    }

    /// A transform layer draws nothing itself; its sublayers keep their depth relative to it and
    /// are ordered back to front by the depth of their centres.
    private func transformLayerNode(_ layer: Layer,
                                    sublayers: [Sublayer],
                                    toTarget: Transform3D, transform: Homography, opacity: Double,
                                    targetArea: CGRect, depth: Int) -> RenderNode {
        var children: [(z: CGFloat, index: Int, node: RenderNode)] = []
        for (index, child) in sublayers.enumerated() {
            guard let node = node(for: child.model, presented: child.presented, localTime: child.time,
                                  toTarget: child.toParent.concatenating(toTarget), opacity: opacity,
                                  targetArea: targetArea, depth: depth + 1, instance: child.instance, tint: child.tint) else { continue }
            // Depth in the transform layer's own space, before projection: larger is nearer.
            let c = CGPoint(x: child.presented.bounds.midX, y: child.presented.bounds.midY)
            let z = child.toParent.apply(x: c.x, y: c.y, epsilon: -.infinity)?.z ?? 0
            children.append((z, index, node))
        }
        children.sort { ($0.z, $0.index) < ($1.z, $1.index) }
        return RenderNode(id: layer.id, transform: transform, bounds: layer.bounds, opacity: opacity,
                          rasterScale: deviceScale, content: nil, border: nil, shadow: nil, childClip: nil,
                          group: nil, children: children.map(\.node))
    }

    /// A subtree drawn into an offscreen bitmap in the layer's own space, then composited as
    /// one quad: group opacity, masks, non-rectilinear or rounded clips, `shouldRasterize`.
    private func groupNode(_ model: Layer, presented layer: Layer, localTime: TimeInterval,
                           sublayers: [Sublayer],
                           transform: Homography, opacity: Double, rasterScale: CGFloat,
                           shadow: ShadowDescription?, targetArea: CGRect, depth: Int) -> RenderNode? {
        var scale = layer.shouldRasterize ? max(layer.rasterizationScale, 1e-3) * deviceScale : rasterScale
        // The offscreen covers the bounds, or the part of them that can be seen.
        var area = layer.bounds
        if let inverse = transform.inverted(), let visible = inverse.projectedBounds(of: targetArea.insetBy(dx: -2, dy: -2)) {
            if area.width * scale > Self.maximumStoreSide || area.height * scale > Self.maximumStoreSide {
                area = area.intersection(visible)
            }
        }
        guard !area.isNull, area.width > 0, area.height > 0 else { return nil }
        let largest = max(area.width, area.height) * scale
        if largest > Self.maximumStoreSide { scale *= Self.maximumStoreSide / largest }

        let toOffscreen = Transform3D(translationX: -area.minX, y: -area.minY)
            .concatenating(Transform3D(scaleX: scale, y: scale))
        let offscreenArea = CGRect(x: 0, y: 0, width: (area.width * scale).rounded(.up), height: (area.height * scale).rounded(.up))
        let children = childNodes(sublayers, parentToTarget: toOffscreen, opacity: 1,
                                  targetArea: offscreenArea, depth: depth)
        let maskNode = model.mask.flatMap { mask -> RenderNode? in
            let time = mask.localTime(fromParent: localTime)
            let p = present(mask, at: time)
            return node(for: mask, presented: p, localTime: time,
                        toTarget: p.transformToSuperlayer(sublayerSpace: .identity).concatenating(toOffscreen), opacity: 1,
                        targetArea: offscreenArea, depth: depth + 1)
        }
        // The group's own content is drawn inside the offscreen at the group's scale.
        let inner = RenderNode(id: layer.id, transform: Homography(toOffscreen), bounds: layer.bounds, opacity: 1,
                               rasterScale: scale, content: contentDescription(of: layer, scale: scale),
                               border: borderDescription(of: layer), shadow: nil, childClip: nil, group: nil,
                               children: children)
        let group = GroupDescription(scale: scale, area: area, clipsToBounds: layer.masksToBounds,
                                     cornerRadius: layer.cornerRadius, maskedCorners: layer.maskedCorners,
                                     mask: maskNode.map { [$0] } ?? [], rasterize: layer.shouldRasterize)
        return RenderNode(id: layer.id, transform: transform, bounds: layer.bounds, opacity: opacity,
                          rasterScale: scale, content: nil, border: nil, shadow: shadow, childClip: nil,
                          group: group, children: [inner])
    }

    // MARK: Descriptions

    private func contentDescription(of layer: Layer, scale: CGFloat) -> ContentDescription? {
        let drawn = layer.model().drawnContent(scale: scale)
        let contents = layer.contents.map {
            ContentsDescription(image: $0, gravity: layer.contentsGravity, rect: layer.contentsRect,
                                center: layer.contentsCenter, scale: max(layer.contentsScale, 1e-3),
                                minificationFilter: layer.minificationFilter, magnificationFilter: layer.magnificationFilter)
        }
        let background = layer.backgroundColor.flatMap { $0.alpha > 0 ? $0 : nil }
        let shape = layer.shapeDescription, text = layer.textDescription, gradient = layer.gradientDescription
        // A shape draws even with empty bounds; everything else needs an area.
        guard shape != nil || ((background != nil || contents != nil || drawn != nil || text != nil || gradient != nil) &&
                               layer.bounds.width > 0 && layer.bounds.height > 0) else { return nil }
        return ContentDescription(bounds: layer.bounds, backgroundColor: background, cornerRadius: max(layer.cornerRadius, 0),
                                  maskedCorners: layer.maskedCorners, contents: contents, drawn: drawn, shape: shape, text: text, gradient: gradient,
                                  version: layer.contentVersion)
    }

    private func borderDescription(of layer: Layer) -> BorderDescription? {
        guard layer.borderWidth > 0, layer.borderWidth.isFinite, let color = layer.borderColor, color.alpha > 0,
              layer.bounds.width > 0, layer.bounds.height > 0 else { return nil }
        return BorderDescription(bounds: layer.bounds, width: layer.borderWidth, color: color,
                                 cornerRadius: max(layer.cornerRadius, 0), maskedCorners: layer.maskedCorners)
    }

    private func shadowDescription(of layer: Layer) -> ShadowDescription? {
        guard layer.shadowOpacity > 0, let color = layer.shadowColor, color.alpha > 0,
              layer.shadowRadius.isFinite, layer.shadowOffset.width.isFinite, layer.shadowOffset.height.isFinite
        else { return nil }
        return ShadowDescription(color: color, opacity: Double(min(layer.shadowOpacity, 1)), offset: layer.shadowOffset,
                                 radius: max(layer.shadowRadius, 0), path: layer.shadowPath)
    }

    // MARK: Geometry helpers

    /// Finite bounds of a size a frame could ever need (a 10⁹-point layer still qualifies: only
    /// its visible part is ever rasterized).
    static func isSane(_ r: CGRect) -> Bool {
        let limit: CGFloat = 1e12
        return !r.isNull && [r.minX, r.minY, r.width, r.height].allSatisfy { $0.isFinite && abs($0) < limit }
    }

    /// Whether the plane shows its back: its projected outline runs the other way round.
    private func isBackFacing(_ h: Homography, bounds: CGRect) -> Bool {
        let probe = bounds.width > 0 && bounds.height > 0 ? bounds : CGRect(x: bounds.minX, y: bounds.minY, width: 1, height: 1)
        let polygon = h.projectedPolygon(of: probe)
        return polygon.count >= 3 && signedArea(of: polygon) < 0
    }

    /// The device pixels exactly covered by `rect`, when the map is a pure scale and translation
    /// landing on whole pixels; nil otherwise.
    static func pixelAlignedImage(of rect: CGRect, under h: Homography) -> PixelRect? {
        guard h.m12 == 0, h.m21 == 0, h.m13 == 0, h.m23 == 0, h.m33 == 1, h.m11 > 0, h.m22 > 0,
              let image = h.projectedBounds(of: rect) else { return nil }
        let tolerance: CGFloat = 1e-6
        let edges = [image.minX, image.minY, image.maxX, image.maxY]
        guard edges.allSatisfy({ abs($0 - $0.rounded()) < tolerance }) else { return nil }
        return PixelRect(covering: image.insetBy(dx: tolerance, dy: tolerance))
    }

    /// The device pixels per point a layer is shown at, on a ladder of steps (√2 apart, anchored
    /// at the device scale) so that a scale animation re-rasterizes a few times, not every frame.
    static func rasterScale(of h: Homography, at point: CGPoint, deviceScale: CGFloat) -> CGFloat {
        let largest = h.largestScale(at: point)
        guard largest.isFinite, largest > 0 else { return deviceScale }
        let steps = (2 * log2(largest / deviceScale) - 1e-6).rounded(.up)   // rounding noise is not a zoom
        let clamped = min(max(steps, -12), 12)
        return deviceScale * pow(2, clamped / 2)
    }
}
