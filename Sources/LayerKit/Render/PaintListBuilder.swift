import Foundation

/// Turns a render tree into the ordered paint items of one target (the frame, or a group's
/// offscreen bitmap), making or reusing the backing stores the items draw from.
///
/// This is the content pass: every bitmap an item refers to is complete when `items` is read,
/// so the painting pass only composites and can run across threads.
struct PaintListBuilder {
    let cache: BackingStoreCache
    /// The target pixels that exist.
    let targetArea: PixelRect
    private(set) var items: [PaintItem] = []

    init(cache: BackingStoreCache, targetArea: PixelRect) {
        self.cache = cache
        self.targetArea = targetArea
    }

    /// Emits a node and its subtree, clipped to `clip` (target pixels).
    mutating func emit(_ node: RenderNode, clip: PixelRect?) {
        if node.group != nil {
            guard let store = groupStore(node) else { return }
            if let shadow = node.shadow {
                let bitmap = store.entry.bitmap
                let own = ShadowSource(area: store.area, scale: store.scale, identity: store.entry.generation) { bitmap }
                if let source = shadow.path.map({ shadowPathSource($0, node: node) }) ?? own {
                    emitShadow(shadow, of: node, source: source, clip: clip)
                }
            }
            let storeToBounds = Homography(scaleX: 1 / store.scale, y: 1 / store.scale)
                .concatenating(Homography(translationX: store.area.minX, y: store.area.minY))
            if let item = PaintItem(key: node.key(.group), source: store.entry.bitmap,
                                    sourceIdentity: store.entry.generation, transform: storeToBounds.concatenating(node.transform),
                                    opacity: node.opacity, filter: .bilinear, clip: clip, targetArea: targetArea,
                                    index: items.count) {
                items.append(item)
            }
            return
        }
        if let shadow = node.shadow, let source = shadow.path.map({ shadowPathSource($0, node: node) }) ?? ownPaintSource(of: node) {
            emitShadow(shadow, of: node, source: source, clip: clip)
        }
        let childClip = node.childClip.map { c in clip.map { $0.intersection(c) } ?? c } ?? clip
        if let content = node.content {
            emitContent(content, of: node, clip: childClip)
        }
        for child in node.children { emit(child, clip: childClip) }
        if let border = node.border { emitBorder(border, of: node, clip: childClip) }
    }

    // MARK: Content and border

    private mutating func emitContent(_ content: ContentDescription, of node: RenderNode, clip: PixelRect?) {
        let key = node.key(.content)
        if content.isContentsOnly, node.tint == nil, let contents = content.contents {
            emitContentsImage(contents, content: content, node: node, key: key, clip: clip)
            return
        }
        let area = Self.contentArea(content, of: node)
        guard let (storeArea, scale) = storeGeometry(area, node: node) else { return }
        guard let store = tintedStore(node, .content, .content(content, area: storeArea, scale: scale), make: {
            try ContentRasterizer.rasterizeContent(content, area: storeArea, scale: scale)
        }) else { return }
        append(key: key, store: store, area: storeArea, scale: scale, node: node, opacity: node.opacity, clip: clip)
    }

    /// The part of bounds space a layer's content store covers: its bounds, and without a clip
    /// also what contents (aspect fill, gravity) and shapes (strokes, caps) draw beyond them.
    /// The content and the shadow cast by it use the same area, so they share one store.
    private static func contentArea(_ content: ContentDescription, of node: RenderNode) -> CGRect {
        var area = content.bounds
        if node.childClip == nil {
            if let contents = content.contents { area = area.union(ContentRasterizer.contentsFrame(contents, in: content.bounds)) }
            if let shape = content.shape {
                let extent = shape.extent
                if RenderTreeBuilder.isSane(extent) { area = area.width > 0 && area.height > 0 ? area.union(extent) : extent }
            }
        }
        return area
    }

    /// A layer showing only an image is composited from the image itself: one resampling.
    private mutating func emitContentsImage(_ contents: ContentsDescription, content: ContentDescription,
                                            node: RenderNode, key: PaintItem.Key, clip: PixelRect?) {
        let frame = ContentRasterizer.contentsFrame(contents, in: content.bounds)
        guard let imageToBounds = ContentRasterizer.imageToBounds(contents, frame: frame) else { return }
        let imageToTarget = Homography(imageToBounds).concatenating(node.transform)
        let magnification = imageToTarget.largestScale(at: CGPoint(x: CGFloat(contents.image.width) / 2, y: CGFloat(contents.image.height) / 2))
        let filter = ContentRasterizer.filter(contents, magnification: magnification)
        let (source, sourceToImage) = ContentRasterizer.prefiltered(contents.image, magnification: magnification, filter: filter)
        var itemClip = clip
        if contents.rect != CGRect(x: 0, y: 0, width: 1, height: 1) {
            // Only the contentsRect part shows: cut at the frame's image when it is pixel aligned,
            // otherwise draw through a store, which clips exactly.
            guard let frameClip = RenderTreeBuilder.pixelAlignedImage(of: frame, under: node.transform) else {
                emitStoredContents(content, node: node, key: key, clip: clip)
                return
            }
            itemClip = itemClip.map { $0.intersection(frameClip) } ?? frameClip
        }
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(source))
        hasher.combine(content.version)
        guard let item = PaintItem(key: key, source: source, sourceIdentity: hasher.finalize(),
                                   transform: Homography(sourceToImage).concatenating(imageToTarget), opacity: node.opacity,
                                   filter: filter == .nearest ? .nearest : .bilinear, clip: itemClip,
                                   targetArea: targetArea, index: items.count) else { return }
        items.append(item)
    }

    private mutating func emitStoredContents(_ content: ContentDescription, node: RenderNode, key: PaintItem.Key, clip: PixelRect?) {
        guard let (storeArea, scale) = storeGeometry(Self.contentArea(content, of: node), node: node) else { return }
        guard let store = tintedStore(node, .content, .content(content, area: storeArea, scale: scale), make: {
            try ContentRasterizer.rasterizeContent(content, area: storeArea, scale: scale)
        }) else { return }
        append(key: key, store: store, area: storeArea, scale: scale, node: node, opacity: node.opacity, clip: clip)
    }

    private mutating func emitBorder(_ border: BorderDescription, of node: RenderNode, clip: PixelRect?) {
        let key = node.key(.border)
        guard let (storeArea, scale) = storeGeometry(border.bounds, node: node) else { return }
        guard let store = tintedStore(node, .border, .border(border, area: storeArea, scale: scale), make: {
            try ContentRasterizer.rasterizeBorder(border, area: storeArea, scale: scale)
        }) else { return }
        append(key: key, store: store, area: storeArea, scale: scale, node: node, opacity: node.opacity, clip: clip)
    }

    // MARK: Shadow

    private mutating func emitShadow(_ shadow: ShadowDescription, of node: RenderNode, source: ShadowSource, clip: PixelRect?) {
        let key = node.key(.shadow)
        let blur = BoxBlur(sigma: Double(shadow.radius * source.scale))
        let padding = blur.spread + 1
        let pad = CGFloat(padding) / source.scale
        let area = source.area.insetBy(dx: -pad, dy: -pad)
        guard let store = cache.store(for: node.storeKey(.shadow), fingerprint: .shadow(shadow, source: source.identity, area: area, scale: source.scale), make: {
            try ShadowRasterizer.shadow(of: source.make(), padding: padding, blur: blur, color: shadow.color)
        }) else { return }
        let storeToBounds = Homography(scaleX: 1 / source.scale, y: 1 / source.scale)
            .concatenating(Homography(translationX: area.minX + shadow.offset.width, y: area.minY + shadow.offset.height))
        guard let item = PaintItem(key: key, source: store.bitmap, sourceIdentity: store.generation,
                                   transform: storeToBounds.concatenating(node.transform),
                                   opacity: node.opacity * shadow.opacity, filter: .bilinear, clip: clip,
                                   targetArea: targetArea, index: items.count) else { return }
        items.append(item)
    }

    /// The shadow path's shape as an opaque bitmap in bounds space, made only when the shadow
    /// is not cached already.
    private func shadowPathSource(_ path: Path, node: RenderNode) -> ShadowSource? {
        let box = path.boundingBoxOfPath
        guard RenderTreeBuilder.isSane(box), box.width > 0, box.height > 0,
              let (area, scale) = storeGeometry(box.insetBy(dx: -1, dy: -1), node: node) else { return nil }
        var hasher = Hasher()
        hasher.combine(path)
        return ShadowSource(area: area, scale: scale, identity: hasher.finalize()) { () throws(BitmapError) -> Bitmap in
            let size = ContentRasterizer.storeSize(area: area, scale: scale)
            let bitmap = try Bitmap(width: size.width, height: size.height)
            bitmap.fill(path, with: .black, transform: ContentRasterizer.boundsToStore(area: area, scale: scale))
            return bitmap
        }
    }

    /// The layer's own content and border as one bitmap in bounds space: what a shadow without
    /// a path is cast by. Built from the same cached stores the layer paints with (same keys,
    /// same areas), so a shadow never makes the layer's own stores be drawn again.
    private func ownPaintSource(of node: RenderNode) -> ShadowSource? {
        var parts: [(store: BackingStoreCache.Entry, area: CGRect, scale: CGFloat)] = []
        if let content = node.content, let (area, scale) = storeGeometry(Self.contentArea(content, of: node), node: node),
           let store = tintedStore(node, .content, .content(content, area: area, scale: scale),
                                   make: { try ContentRasterizer.rasterizeContent(content, area: area, scale: scale) }) {
            parts.append((store, area, scale))
        }
        if let border = node.border, let (area, scale) = storeGeometry(border.bounds, node: node),
           let store = tintedStore(node, .border, .border(border, area: area, scale: scale),
                                   make: { try ContentRasterizer.rasterizeBorder(border, area: area, scale: scale) }) {
            parts.append((store, area, scale))
        }
        guard let first = parts.first else { return nil }
        var hasher = Hasher()
        for part in parts { hasher.combine(part.store.generation) }
        let area = parts.dropFirst().reduce(first.area) { $0.union($1.area) }
        let scale = first.scale
        return ShadowSource(area: area, scale: scale, identity: hasher.finalize()) { () throws(BitmapError) -> Bitmap in
            guard parts.count > 1 else { return first.store.bitmap }
            let size = ContentRasterizer.storeSize(area: area, scale: scale)
            let combined = try Bitmap(width: size.width, height: size.height)
            for part in parts {
                // Store pixels → the combined bitmap's pixels: a whole-pixel offset at equal scales
                // (store areas start on the scale's pixel grid).
                let offset = Homography(translationX: (part.area.minX - area.minX) * scale,
                                        y: (part.area.minY - area.minY) * scale)
                let placement = part.scale == scale ? offset
                    : Homography(scaleX: scale / part.scale, y: scale / part.scale).concatenating(offset)
                try combined.composite(part.store.bitmap, transform: placement)
            }
            return combined
        }
    }

    // MARK: Groups

    /// The group's offscreen bitmap, from the cache while nothing inside it changed.
    private func groupStore(_ node: RenderNode) -> (entry: BackingStoreCache.Entry, area: CGRect, scale: CGFloat)? {
        guard let group = node.group else { return nil }
        let (inner, maskItems, signature) = groupPaintLists(node, group)
        let fingerprint = BackingStoreCache.Fingerprint.group(signature: signature, area: group.area, scale: group.scale)
        guard let entry = tintedStore(node, .group, fingerprint, make: {
            try renderGroup(node, group, inner: inner, maskItems: maskItems)
        }) else { return nil }
        return (entry, group.area, group.scale)
    }

    /// The paint lists of a group's subtree and mask in its offscreen space, and a signature of
    /// everything that goes into its pixels.
    private func groupPaintLists(_ node: RenderNode, _ group: GroupDescription) -> ([PaintItem], [PaintItem], Int) {
        let size = ContentRasterizer.storeSize(area: group.area, scale: group.scale)
        let offscreenArea = PixelRect(x: 0, y: 0, width: size.width, height: size.height)
        var inner = PaintListBuilder(cache: cache, targetArea: offscreenArea)
        for child in node.children { inner.emit(child, clip: nil) }
        var maskItems: [PaintItem] = []
        if let mask = group.mask.first {
            var maskBuilder = PaintListBuilder(cache: cache, targetArea: offscreenArea)
            maskBuilder.emit(mask, clip: nil)
            maskItems = maskBuilder.items
        }
        var hasher = Hasher()
        for item in inner.items { hasher.combine(item.signature) }
        hasher.combine(group.mask.count)
        for item in maskItems { hasher.combine(item.signature) }
        hasher.combine(group.clipsToBounds)
        hasher.combine(group.cornerRadius)
        hasher.combine(group.maskedCorners.rawValue)
        hasher.combine(node.bounds)
        return (inner.items, maskItems, hasher.finalize())
    }

    /// Paints a group offscreen, then cuts it to its rounded bounds and its mask's alpha.
    private func renderGroup(_ node: RenderNode, _ group: GroupDescription, inner: [PaintItem],
                             maskItems: [PaintItem]) throws(BitmapError) -> Bitmap {
        let size = ContentRasterizer.storeSize(area: group.area, scale: group.scale)
        let offscreen = try Bitmap(width: size.width, height: size.height)
        Painter.paint(inner, into: offscreen, damage: Region(offscreen.bounds), background: .clear, threads: 1)
        let toOffscreen = ContentRasterizer.boundsToStore(area: group.area, scale: group.scale)
        if group.clipsToBounds {
            let coverage = try Bitmap(width: size.width, height: size.height)
            coverage.fill(ContentRasterizer.outline(node.bounds, radius: group.cornerRadius, corners: group.maskedCorners,
                                                    within: group.area, scale: group.scale),
                          with: .white, transform: toOffscreen)
            offscreen.composite(coverage, atX: 0, y: 0, operator: .destinationIn)
        }
        if !group.mask.isEmpty {
            let mask = try Bitmap(width: size.width, height: size.height)
            Painter.paint(maskItems, into: mask, damage: Region(mask.bounds), background: .clear, threads: 1)
            offscreen.composite(mask, atX: 0, y: 0, operator: .destinationIn)
        }
        return offscreen
    }

    // MARK: Helpers

    /// A cached store, tinted by the node's replicator instance color when it has one.
    private func tintedStore(_ node: RenderNode, _ part: PaintItem.Part, _ fingerprint: BackingStoreCache.Fingerprint,
                             make: () throws -> Bitmap) -> BackingStoreCache.Entry? {
        guard let tint = node.tint else { return cache.store(for: node.storeKey(part), fingerprint: fingerprint, make: make) }
        return cache.store(for: node.storeKey(part), fingerprint: .tinted(fingerprint, tint)) {
            let bitmap = try make()
            let tinted = try bitmap.copy()
            tinted.multiply(by: tint)
            return tinted
        }
    }

    /// What a shadow is cast by: an opaque-where-solid bitmap over `area` of bounds space at
    /// `scale`, made only when the shadow must be rasterized; `identity` changes with its pixels.
    struct ShadowSource {
        let area: CGRect
        let scale: CGFloat
        let identity: Int
        let make: () throws(BitmapError) -> Bitmap
    }

    /// The part of `area` (bounds space) a store covers, and its scale: all of it at the node's
    /// raster scale, or, for huge layers, only what can be seen, at a scale that fits the cap.
    private func storeGeometry(_ area: CGRect, node: RenderNode) -> (CGRect, CGFloat)? {
        var storeArea = area
        var scale = node.rasterScale
        let limit = RenderTreeBuilder.maximumStoreSide
        if storeArea.width * scale > limit || storeArea.height * scale > limit {
            if let inverse = node.transform.inverted(),
               let visible = inverse.projectedBounds(of: targetArea.cgRect.insetBy(dx: -2, dy: -2)) {
                storeArea = storeArea.intersection(visible)
            }
            guard !storeArea.isNull, storeArea.width > 0, storeArea.height > 0 else { return nil }
            let largest = max(storeArea.width, storeArea.height) * scale
            if largest > limit { scale *= limit / largest }
        }
        guard storeArea.width > 0, storeArea.height > 0, scale > 0, scale.isFinite else { return nil }
        // Whole pixels at the store's scale, so that the store's grid lines up with the bounds.
        let x0 = (storeArea.minX * scale).rounded(.down) / scale, y0 = (storeArea.minY * scale).rounded(.down) / scale
        storeArea = CGRect(x: x0, y: y0, width: storeArea.maxX - x0, height: storeArea.maxY - y0)
        return (storeArea, scale)
    }

    private mutating func append(key: PaintItem.Key, store: BackingStoreCache.Entry, area: CGRect, scale: CGFloat,
                                 node: RenderNode, opacity: Double, clip: PixelRect?) {
        let storeToBounds = Homography(scaleX: 1 / scale, y: 1 / scale)
            .concatenating(Homography(translationX: area.minX, y: area.minY))
        guard let item = PaintItem(key: key, source: store.bitmap, sourceIdentity: store.generation,
                                   transform: storeToBounds.concatenating(node.transform), opacity: opacity,
                                   filter: .bilinear, clip: clip, targetArea: targetArea, index: items.count) else { return }
        items.append(item)
    }
}
