import Foundation

/// Turns one render object's node into the paint items it contributes to its target (the frame,
/// or a group's offscreen bitmap), making or reusing the backing stores they draw from.
///
/// This is the content pass's front half: stores whose fingerprint changed are handed out at
/// once and queued for drawing (`BackingStoreCache`), so that painting may start only after the
/// content pass has drawn them.
struct ItemEmitter {
    let cache: BackingStoreCache
    /// The target pixels that exist.
    let targetArea: PixelRect
    /// The store keys the emitted items draw from, each once, in the order first used (a few:
    /// an array is cheaper to build and compare than a set).
    var storeKeys: [PaintItem.Key] { keysMatched == keys.count ? keys : Array(keys.prefix(keysMatched)) }
    /// While the keys used so far are the first `keysMatched` of the object's last keys, those
    /// (`keys` is then that array, shared, not a copy): an object drawing from the stores it
    /// drew from makes no array. Otherwise `keys` holds the keys used and `keysMatched` counts
    /// them all.
    private var keys: [PaintItem.Key]
    private var keysMatched = 0
    /// The items the object had, emitted into the same target area: an item placed as one of
    /// them was (same key, transform, clip and source size) takes its footprint as it is.
    private let previous: [PaintItem]
    /// The tree update the items are emitted in (counted from 1; 0 when not known).
    let update: UInt64

    /// An emitter into `targetArea`; `previous` and `previousKeys` are the items and store keys
    /// the object had (which are likely to be emitted again).
    init(cache: BackingStoreCache, targetArea: PixelRect, previous: [PaintItem] = [], previousKeys: [PaintItem.Key] = [],
         update: UInt64 = 0) {
        self.cache = cache
        self.targetArea = targetArea
        self.previous = previous
        self.update = update
        keys = previousKeys
    }

    /// Notes that an emitted item draws from the store of `key`.
    private mutating func use(_ key: PaintItem.Key) {
        if keysMatched < keys.count, keys[keysMatched] == key {
            keysMatched += 1
            return
        }
        guard !keys.prefix(keysMatched).contains(key) else { return }
        if keysMatched < keys.count { keys = Array(keys.prefix(keysMatched)) }
        keys.append(key)
        keysMatched += 1
    }

    /// Sets the object's items from its node (for a group: after its children are up to date).
    mutating func emit(_ object: RenderObject) {
        switch object.kind {
        case .transformLayer:
            object.before = []
            object.after = []
        case .plain:
            let node = object.node
            let clip = object.inputs.clip
            var before: [PaintItem] = []
            if let shadow = node.shadow,
               let source = shadow.path.map({ shadowPathSource($0, node: node) }) ?? ownPaintSource(of: node) {
                emitShadow(shadow, of: node, source: source, clip: clip, into: &before)
            }
            let childClip = object.childPlacement.clip
            if let content = node.content { emitContent(content, of: node, clip: childClip, into: &before) }
            var after: [PaintItem] = []
            if let border = node.border { emitBorder(border, of: node, clip: childClip, into: &after) }
            object.before = before
            object.after = after
        case .group:
            emitGroup(object)
        }
    }

    // MARK: Groups

    /// A group: its own content and border inside its offscreen bitmap, the bitmap (from the
    /// cache while nothing inside it changed), its shadow, and the bitmap's composite.
    private mutating func emitGroup(_ object: RenderObject) {
        let node = object.node
        guard let group = node.group, let inner = object.inner else { return }
        let size = ContentRasterizer.storeSize(area: group.area, scale: group.scale)
        var offscreen = ItemEmitter(cache: cache, targetArea: PixelRect(x: 0, y: 0, width: size.width, height: size.height))
        var innerBefore: [PaintItem] = [], innerAfter: [PaintItem] = []
        if let content = inner.content { offscreen.emitContent(content, of: inner, clip: nil, into: &innerBefore) }
        if let border = inner.border { offscreen.emitBorder(border, of: inner, clip: nil, into: &innerAfter) }
        for key in offscreen.storeKeys { use(key) }
        object.innerBefore = innerBefore
        object.innerAfter = innerAfter

        let items = object.innerItems()
        var maskItems: [PaintItem] = []
        object.mask?.appendItems(to: &maskItems)
        var hasher = Hasher()
        for item in items { item.combineSignature(into: &hasher) }
        hasher.combine(object.mask != nil)
        for item in maskItems { item.combineSignature(into: &hasher) }
        hasher.combine(group.clipsToBounds)
        hasher.combine(group.cornerRadius)
        hasher.combine(group.maskedCorners.rawValue)
        hasher.combine(node.bounds)
        let fingerprint = BackingStoreCache.Fingerprint.group(signature: hasher.finalize(), area: group.area, scale: group.scale)
        let level = 1 + (items + maskItems).reduce(-1) { max($0, cache.pendingLevel(of: $1.source.object) ?? -1) }
        let bounds = node.bounds
        let redraw = object.groupRedraw ?? GroupRedraw()
        object.groupRedraw = redraw
        let rounding = group.clipsToBounds ? redraw.clipCoverage(bounds: bounds, group, width: size.width, height: size.height) : nil
        // Decided before the drawing is queued: a group whose items are all drawn already is
        // drawn at the first level, which helper threads may start at once.
        let bottom: BottomPicture?
        if !cache.holds(node.storeKey(.group), fingerprint: node.tint.map { .tinted(fingerprint, $0) } ?? fingerprint) {
            let start = redraw.bottomPicture(for: items, update: update)
            bottom = start?.picture
            cache.noteGroupItemsPainted(start.map { $0.isNew ? items.count : items.count - $0.picture.items.count } ?? items.count)
        } else {
            bottom = nil
        }
        guard let store = tintedStore(node, .group, fingerprint, width: size.width, height: size.height, level: level, draw: { offscreen in
            Self.drawGroup(bounds: bounds, group, inner: items, from: bottom, mask: object.mask == nil ? nil : maskItems,
                           clip: rounding, into: offscreen)
        }) else {
            object.before = []
            object.after = []
            return
        }
        var before: [PaintItem] = []
        let clip = object.inputs.clip
        if let shadow = node.shadow {
            let bitmap = store.bitmap
            let own = ShadowSource(area: group.area, scale: group.scale, identity: store.generation,
                                   width: bitmap.width, height: bitmap.height, level: cache.pendingLevel(of: bitmap) ?? -1) { bitmap }
            if let source = shadow.path.map({ shadowPathSource($0, node: node) }) ?? own {
                emitShadow(shadow, of: node, source: source, clip: clip, into: &before)
            }
        }
        let storeToBounds = Homography(scaleX: 1 / group.scale, y: 1 / group.scale)
            .concatenating(Homography(translationX: group.area.minX, y: group.area.minY))
        if let item = PaintItem(key: node.key(.group), source: store.bitmap, sourceIdentity: store.generation,
                                transform: storeToBounds.concatenating(node.transform), opacity: node.opacity,
                                filter: .bilinear, clip: clip, targetArea: targetArea) {
            before.append(item)
        }
        object.before = before
        object.after = []
    }

    /// The coverage that cuts a group's `width` x `height` offscreen bitmap to its (rounded)
    /// bounds: each pixel times the coverage of the bounds' outline. Only where that coverage
    /// can be below one — the rows and columns the bounds' edges cross and the corners' squares
    /// — is it rasterized (and later multiplied in, `multiply(_:by:)`), a small bitmap a box;
    /// the rest is inside, and times one stays as it is. (A card animating inside rounded
    /// bounds redraws its group every frame: the full-size coverage was most of that redraw;
    /// `ClipCoverage` now keeps these boxes while the bounds stay the same.)
    static func clipCoverage(bounds: CGRect, _ group: GroupDescription, width: Int, height: Int) -> [(box: PixelRect, coverage: Bitmap)] {
        let outline = ContentRasterizer.outline(bounds, radius: group.cornerRadius, corners: group.maskedCorners,
                                                within: group.area, scale: group.scale)
        let toOffscreen = ContentRasterizer.boundsToStore(area: group.area, scale: group.scale)
        return partlyCovered(bounds: bounds, radius: group.cornerRadius, area: group.area, scale: group.scale,
                             width: width, height: height).rects.compactMap { box in
            guard let coverage = try? Bitmap(width: box.width, height: box.height) else { return nil }
            coverage.fill(outline, with: .white,
                          transform: toOffscreen.concatenating(CGAffineTransform(translationX: CGFloat(-box.x), y: CGFloat(-box.y))))
            return (box, coverage)
        }
    }

    /// Multiplies each box of `offscreen` by its coverage.
    static func multiply(_ offscreen: Bitmap, by coverage: [(box: PixelRect, coverage: Bitmap)]) {
        for (box, bitmap) in coverage {
            offscreen.composite(bitmap, atX: box.x, y: box.y, operator: .destinationIn, clip: Region(box))
        }
    }

    /// The pixels of a `width` x `height` offscreen bitmap (over `area` at `scale`) that the
    /// outline of `bounds` with corners of `radius` may cover only in part: all of them but
    /// those surely inside, the rows between the corners and the columns between them, a
    /// pixel short of the corners' squares and of any edge that falls inside a pixel.
    static func partlyCovered(bounds: CGRect, radius: CGFloat, area: CGRect, scale: CGFloat, width: Int, height: Int) -> Region {
        let all = PixelRect(x: 0, y: 0, width: width, height: height)
        let x0 = (bounds.minX - area.minX) * scale, x1 = (bounds.maxX - area.minX) * scale
        let y0 = (bounds.minY - area.minY) * scale, y1 = (bounds.maxY - area.minY) * scale
        let r = max(ContentRasterizer.cornerRadius(radius, of: bounds), 0) * scale
        // Far outside Int's range, or not numbers: nothing is surely inside.
        let limit = CGFloat(1 << 40)
        guard [x0, x1, y0, y1, r].allSatisfy({ $0.isFinite && abs($0) < limit }) else { return Region(all) }
        func span(_ a: CGFloat, _ b: CGFloat) -> (Int, Int) { (Int(a.rounded(.up)), Int(b.rounded(.down))) }
        // A pixel of margin beside each corner: the arcs are flattened and their points moved
        // out by up to the tolerance.
        let corner = r > 0 ? r + 1 : 0
        let (cx0, cx1) = span(x0, x1), (cy0, cy1) = span(y0, y1)
        let (rx0, rx1) = span(x0 + corner, x1 - corner), (ry0, ry1) = span(y0 + corner, y1 - corner)
        let rows = PixelRect(x: cx0, y: ry0, width: cx1 - cx0, height: ry1 - ry0).intersection(all)
        let columns = PixelRect(x: rx0, y: cy0, width: rx1 - rx0, height: cy1 - cy0).intersection(all)
        return Region(all).subtracting(Region([rows, columns].filter { !$0.isEmpty }))
    }

    /// Paints a group offscreen — over a copy of its bottom picture when it has one — then cuts
    /// it to its rounded bounds and its mask's alpha.
    private static func drawGroup(bounds: CGRect, _ group: GroupDescription, inner: [PaintItem], from bottom: BottomPicture?,
                                  mask maskItems: [PaintItem]?, clip: ClipCoverage?, into offscreen: Bitmap) {
        // One band on this thread, as `Painter.paint` paints with one thread; sampling as it
        // would choose for all the items, in the picture too.
        let pairs = Painter.samplesPairs(inner), all = Region(offscreen.bounds), rows = 0..<offscreen.height
        if let bottom, let picture = bottom.pixels(width: offscreen.width, height: offscreen.height, pairs: pairs) {
            Painter.paintBand(Array(inner[bottom.items.count...]), into: offscreen, rows: rows, damage: all, base: .bitmap(picture),
                              pairs: pairs)
        } else {
            Painter.paintBand(inner, into: offscreen, rows: rows, damage: all, base: .solid(Color.clear.premultipliedARGB32), pairs: pairs)
        }
        if let clip { clip.cut(offscreen, bounds: bounds, group) }
        if let maskItems, let mask = try? Bitmap(width: offscreen.width, height: offscreen.height) {
            Painter.paint(maskItems, into: mask, damage: Region(mask.bounds), background: .clear, threads: 1)
            offscreen.composite(mask, atX: 0, y: 0, operator: .destinationIn)
        }
    }

    // MARK: Content and border

    private mutating func emitContent(_ content: ContentDescription, of node: RenderNode, clip: PixelRect?,
                                      into items: inout [PaintItem]) {
        let key = node.key(.content)
        if content.isContentsOnly, node.tint == nil, let contents = content.contents {
            emitContentsImage(contents, content: content, node: node, key: key, clip: clip, into: &items)
            return
        }
        emitStoredContent(content, node: node, key: key, clip: clip, into: &items)
    }

    private mutating func emitStoredContent(_ content: ContentDescription, node: RenderNode, key: PaintItem.Key,
                                            clip: PixelRect?, into items: inout [PaintItem]) {
        guard let stored = contentStore(content, of: node) else { return }
        append(key: key, store: stored.store, color: stored.color, area: stored.area, scale: stored.scale, node: node,
               opacity: node.opacity, clip: clip, into: &items)
    }

    /// A layer's content store, made or reused: 8-bit coverage painted in `color` for content
    /// that is one color's coverage (text), a bitmap (`color` nil) for anything else. The
    /// content's item and the shadow it casts share it.
    private mutating func contentStore(_ content: ContentDescription, of node: RenderNode)
        -> (store: BackingStoreCache.Entry, color: Color?, area: CGRect, scale: CGFloat)? {
        guard let (area, scale) = storeGeometry(Self.contentArea(content, of: node), node: node) else { return nil }
        let fingerprint = BackingStoreCache.Fingerprint.content(content, area: area, scale: scale)
        guard let color = content.coverageColor else {
            let size = ContentRasterizer.storeSize(area: area, scale: scale)
            guard let store = tintedStore(node, .content, fingerprint, width: size.width, height: size.height, level: 0,
                                          notesUniformPixel: content.mayBeOneColor, draw: { store in
                ContentRasterizer.drawContent(content, area: area, scale: scale, into: store)
            }) else { return nil }
            return (store, nil, area, scale)
        }
        use(Self.coverageKey(of: node.id))
        guard let store = Self.coverageStore(content, id: node.id, area: area, scale: scale,
                                             size: ContentRasterizer.storeSize(area: area, scale: scale), fingerprint: fingerprint,
                                             cache: cache)
        else { return nil }
        return (store, node.tint.map { color.tinted(by: $0) } ?? color, area, scale)
    }

    /// The key of a node's content store when it is coverage. A replicator instance's tint
    /// colors the coverage as it is painted: every instance shares the one store.
    private static func coverageKey(of id: LayerID) -> PaintItem.Key { PaintItem.Key(layer: id, part: .content) }

    /// The content store of the node of layer `id` as coverage (`content.coverageColor` is not
    /// nil), of `size` (`ContentRasterizer.storeSize(area:scale:)`), made or reused.
    private static func coverageStore(_ content: ContentDescription, id: LayerID, area: CGRect, scale: CGFloat,
                                      size: (width: Int, height: Int), fingerprint: consuming BackingStoreCache.Fingerprint,
                                      cache: BackingStoreCache) -> BackingStoreCache.Entry? {
        cache.store(for: coverageKey(of: id), fingerprint: consume fingerprint, width: size.width, height: size.height, level: 0,
                    as: AlphaMask.self, job: { _ in .coverage(content, area: area, scale: scale) })
    }

    /// What `redrawSoleCoverage` did to an object's item.
    enum SoleCoverageRedraw {
        /// The store was as it is (its fingerprint unchanged): the item too.
        case unchanged
        /// The item draws the store's new pixels, everything else about it as it was.
        case redrawn
        /// The store could not be made: the object has no item now.
        case gone
    }

    /// What `emit` does for a plain object whose node paints only its content, as one color's
    /// coverage — no shadow, border or tint (a line of text) — and whose one item, drawn from
    /// that store alone, lands where it did: its store is asked for again (redrawn when its
    /// fingerprint changed) and the item is changed in place to draw it. Done without an
    /// emitter, new arrays or a new item: a line whose string changes every frame comes here
    /// every frame, and those cost more than asking for the store. Nil, having changed
    /// nothing, when the object paints anything else or its item would land elsewhere (its
    /// store's size or place changed): then `emit` must make its items.
    static func redrawSoleCoverage(of object: RenderObject, cache: BackingStoreCache, targetArea: PixelRect) -> SoleCoverageRedraw? {
        guard object.kind == .plain, object.after.isEmpty, object.before.count == 1, object.storeKeys.count == 1 else { return nil }
        // The node's fields are read where they are: `let node = object.node` copied the node,
        // retaining (and then releasing) its content, shadow and group.
        // (`case .none`: comparing the shadow with nil copied it, path and all.)
        guard case .none = object.node.shadow, object.node.border == nil, object.node.tint == nil, let content = object.node.content,
              let color = content.coverageColor, object.storeKeys[0] == coverageKey(of: object.node.id)
        else { return nil }
        let transform = object.node.transform
        guard let (area, scale) = storeGeometry(contentArea(content, clipped: object.node.childClip != nil),
                                                rasterScale: object.node.rasterScale, transform: transform,
                                                isAtRest: object.node.isAtRest, targetArea: targetArea)
        else { return nil }
        // Where `append` would place the item: the old one's transform, clip, opacity and
        // source size mean the same extent and footprint (as `PaintItem(placedAmong:)` reuses).
        let size = ContentRasterizer.storeSize(area: area, scale: scale)
        guard object.before[0].key == object.node.key(.content),
              object.before[0].transform == storeToBounds(area: area, scale: scale, then: transform),
              object.before[0].clip == object.childPlacement.clip, object.before[0].opacity == object.node.opacity,
              object.before[0].filter == .bilinear, case .coverage = object.before[0].source,
              object.before[0].source.width == size.width, object.before[0].source.height == size.height
        else { return nil }
        guard let store = coverageStore(content, id: object.node.id, area: area, scale: scale, size: size,
                                        fingerprint: .content(content, area: area, scale: scale), cache: cache)
        else { return .gone }
        if store.generation == object.before[0].sourceIdentity, case let .coverage(_, painted) = object.before[0].source,
           painted == color {
            return .unchanged
        }
        object.before[0].redraw(from: .coverage(store.mask, color), identity: store.generation)
        return .redrawn
    }

    /// Store pixels → bounds space, for a store over `area` at `scale`.
    private static func storeToBounds(area: CGRect, scale: CGFloat) -> Homography {
        Homography(scaleX: 1 / scale, y: 1 / scale).concatenating(Homography(translationX: area.minX, y: area.minY))
    }

    /// `storeToBounds(area:scale:)` then `transform` (store pixels → the node's target), asked
    /// for by every line of text whose string changes, every frame. The store's map only scales
    /// and translates, so the product is `transform`'s first two rows scaled and its last row
    /// moved by the offset: what the two general products give for finite values (their other
    /// terms are products with zero, which add nothing; a zero may differ in sign), in a third
    /// of their arithmetic. Anything infinite or NaN takes the general products.
    private static func storeToBounds(area: CGRect, scale: CGFloat, then t: Homography) -> Homography {
        let s = 1 / scale, x = area.minX, y = area.minY
        // Zero exactly when every term is finite (and their sum does not overflow).
        guard (s + x + y + t.m11 + t.m12 + t.m13 + t.m21 + t.m22 + t.m23 + t.m31 + t.m32 + t.m33) * 0 == 0 else {
            return storeToBounds(area: area, scale: scale).concatenating(t)
        }
        return Homography(m11: s * t.m11, m12: s * t.m12, m13: s * t.m13,
                          m21: s * t.m21, m22: s * t.m22, m23: s * t.m23,
                          m31: x * t.m11 + y * t.m21 + t.m31, m32: x * t.m12 + y * t.m22 + t.m32,
                          m33: x * t.m13 + y * t.m23 + t.m33)
    }

    /// The part of bounds space a layer's content store covers: its bounds, and without a clip
    /// also what contents (aspect fill, gravity) and shapes (strokes, caps) draw beyond them.
    /// The content and the shadow cast by it use the same area, so they share one store.
    private static func contentArea(_ content: ContentDescription, of node: RenderNode) -> CGRect {
        contentArea(content, clipped: node.childClip != nil)
    }

    /// `contentArea(_:of:)` for a node that clips its sublayers (`childClip`) or not.
    private static func contentArea(_ content: ContentDescription, clipped: Bool) -> CGRect {
        var area = content.bounds
        if !clipped {
            if let contents = content.contents { area = area.union(ContentRasterizer.contentsFrame(contents, in: content.bounds)) }
            if let shape = content.shape {
                let extent = shape.extent
                if RenderLimits.isSane(extent) { area = area.width > 0 && area.height > 0 ? area.union(extent) : extent }
            }
        }
        return area
    }

    /// A layer showing only an image is composited from the image itself: one resampling.
    private mutating func emitContentsImage(_ contents: ContentsDescription, content: ContentDescription,
                                            node: RenderNode, key: PaintItem.Key, clip: PixelRect?, into items: inout [PaintItem]) {
        let frame = ContentRasterizer.contentsFrame(contents, in: content.bounds)
        guard let imageToBounds = ContentRasterizer.imageToBounds(contents, frame: frame) else { return }
        let imageToTarget = Homography(imageToBounds).concatenating(node.transform)
        let magnification = imageToTarget.largestScale(at: CGPoint(x: CGFloat(contents.image.width) / 2, y: CGFloat(contents.image.height) / 2))
        let filter = ContentRasterizer.filter(contents, magnification: magnification)
        let (source, sourceToImage) = ContentRasterizer.prefiltered(contents.image, magnification: magnification, filter: filter)
        let transform = Homography(sourceToImage).concatenating(imageToTarget)
        // At rest under a pure translation, an image that would be resampled every frame is
        // resampled once into a store on whole device pixels, and copied from then on.
        if node.isAtRest, !transform.kind.isIntegerTranslation,
           RenderTree.pixelAligned(content.bounds, scale: node.rasterScale, under: node.transform) != nil {
            emitStoredContent(content, node: node, key: key, clip: clip, into: &items)
            return
        }
        var itemClip = clip
        if contents.rect != CGRect(x: 0, y: 0, width: 1, height: 1) {
            // Only the contentsRect part shows: cut at the frame's image when it is pixel aligned,
            // otherwise draw through a store, which clips exactly.
            guard let frameClip = RenderTree.pixelAlignedImage(of: frame, under: node.transform) else {
                emitStoredContent(content, node: node, key: key, clip: clip, into: &items)
                return
            }
            itemClip = itemClip.map { $0.intersection(frameClip) } ?? frameClip
        }
        var hasher = Hasher()
        hasher.combine(ObjectIdentifier(source))
        hasher.combine(content.version)
        guard let item = PaintItem(key: key, source: source, sourceIdentity: hasher.finalize(),
                                   transform: transform, opacity: node.opacity,
                                   filter: filter == .nearest ? .nearest : .bilinear, clip: itemClip,
                                   targetArea: targetArea) else { return }
        items.append(item)
    }

    private mutating func emitBorder(_ border: BorderDescription, of node: RenderNode, clip: PixelRect?,
                                     into items: inout [PaintItem]) {
        guard let (storeArea, scale) = storeGeometry(border.bounds, node: node) else { return }
        let size = ContentRasterizer.storeSize(area: storeArea, scale: scale)
        guard let store = tintedStore(node, .border, .border(border, area: storeArea, scale: scale),
                                      width: size.width, height: size.height, level: 0, draw: { store in
            ContentRasterizer.drawBorder(border, area: storeArea, scale: scale, into: store)
        }) else { return }
        append(key: node.key(.border), store: store, area: storeArea, scale: scale, node: node, opacity: node.opacity,
               clip: clip, into: &items)
    }

    // MARK: Shadow

    private mutating func emitShadow(_ shadow: ShadowDescription, of node: RenderNode, source: ShadowSource, clip: PixelRect?,
                                     into items: inout [PaintItem]) {
        // A wide blur is made at a fraction of the source's scale (see `ShadowRasterizer`).
        let sigma = min(Double(shadow.radius * source.scale), BoxBlur.maximumSigma)
        let reduction = ShadowRasterizer.reduction(sigma: sigma)
        let scale = source.scale / CGFloat(reduction)
        let blur = BoxBlur(sigma: sigma / Double(reduction))
        let padding = blur.spread + 1
        let pad = CGFloat(padding) / scale
        let area = source.area.insetBy(dx: -pad, dy: -pad)
        let width = ShadowRasterizer.reduced(source.width, by: reduction) + 2 * padding
        let height = ShadowRasterizer.reduced(source.height, by: reduction) + 2 * padding
        let key = node.storeKey(.shadow)
        use(key)
        let make = source.make
        // The store is the blurred coverage alone: the color, the opacity and the offset are
        // applied when it is composited, so changing them blurs nothing again.
        guard let store = cache.store(for: key, fingerprint: .shadow(radius: shadow.radius, source: source.identity, area: area,
                                                                     scale: source.scale),
                                      width: width, height: height, level: source.level + 1, as: AlphaMask.self, draw: { result in
            ShadowRasterizer.drawShadow(of: make(), reduction: reduction, padding: padding, blur: blur, into: result)
        }) else { return }
        let storeToBounds = Homography(scaleX: 1 / scale, y: 1 / scale)
            .concatenating(Homography(translationX: area.minX + shadow.offset.width, y: area.minY + shadow.offset.height))
        guard let item = PaintItem(key: node.key(.shadow), source: .coverage(store.mask, shadow.color), sourceIdentity: store.generation,
                                   transform: storeToBounds.concatenating(node.transform),
                                   opacity: node.opacity * shadow.opacity, filter: .bilinear, clip: clip,
                                   targetArea: targetArea) else { return }
        items.append(item)
    }

    /// The shadow path's shape as an opaque bitmap in bounds space, made only when the shadow
    /// is drawn.
    private func shadowPathSource(_ path: Path, node: RenderNode) -> ShadowSource? {
        let box = path.boundingBoxOfPath
        guard RenderLimits.isSane(box), box.width > 0, box.height > 0,
              let (area, scale) = storeGeometry(box.insetBy(dx: -1, dy: -1), node: node) else { return nil }
        var hasher = Hasher()
        hasher.combine(path)
        let size = ContentRasterizer.storeSize(area: area, scale: scale)
        return ShadowSource(area: area, scale: scale, identity: hasher.finalize(), width: size.width, height: size.height,
                            level: -1) {
            guard let bitmap = try? Bitmap(width: size.width, height: size.height) else { return Self.emptySource }
            bitmap.fill(path, with: .black, transform: ContentRasterizer.boundsToStore(area: area, scale: scale))
            return bitmap
        }
    }

    /// A stand-in source when a shadow's source cannot be made (it then casts nothing).
    private static var emptySource: Bitmap { try! Bitmap(width: 1, height: 1) }

    /// The layer's own content and border as one bitmap in bounds space: what a shadow without
    /// a path is cast by. Built from the same stores the layer paints with (same keys, same
    /// areas), so a shadow never makes the layer's own stores be drawn again.
    private mutating func ownPaintSource(of node: RenderNode) -> ShadowSource? {
        var parts: [(store: BackingStoreCache.Entry, color: Color?, area: CGRect, scale: CGFloat)] = []
        if let content = node.content, let stored = contentStore(content, of: node) { parts.append(stored) }
        if let border = node.border, let (area, scale) = storeGeometry(border.bounds, node: node) {
            let size = ContentRasterizer.storeSize(area: area, scale: scale)
            if let store = tintedStore(node, .border, .border(border, area: area, scale: scale), width: size.width,
                                       height: size.height, level: 0, draw: { store in
                ContentRasterizer.drawBorder(border, area: area, scale: scale, into: store)
            }) {
                parts.append((store, nil, area, scale))
            }
        }
        guard let first = parts.first else { return nil }
        var hasher = Hasher()
        for part in parts {
            hasher.combine(part.store.generation)
            hasher.combine(part.color?.alpha)
        }
        let area = parts.dropFirst().reduce(first.area) { $0.union($1.area) }
        let scale = first.scale
        let size = ContentRasterizer.storeSize(area: area, scale: scale)
        let level = parts.reduce(-1) { max($0, cache.pendingLevel(of: $1.store.surface) ?? -1) }
        return ShadowSource(area: area, scale: scale, identity: hasher.finalize(), width: size.width, height: size.height,
                            level: level) {
            if parts.count == 1, first.color == nil { return first.store.bitmap }
            guard let combined = try? Bitmap(width: size.width, height: size.height) else { return Self.emptySource }
            for part in parts {
                // Store pixels → the combined bitmap's pixels: a whole-pixel offset at equal scales
                // (store areas start on the scale's pixel grid).
                let offset = Homography(translationX: (part.area.minX - area.minX) * scale,
                                        y: (part.area.minY - area.minY) * scale)
                let placement = part.scale == scale ? offset
                    : Homography(scaleX: scale / part.scale, y: scale / part.scale).concatenating(offset)
                if let color = part.color {
                    try? combined.composite(part.store.mask, color: color, transform: placement)
                } else {
                    try? combined.composite(part.store.bitmap, transform: placement)
                }
            }
            return combined
        }
    }

    // MARK: Helpers

    /// A cached store, tinted by the node's replicator instance color when it has one.
    /// `notesUniformPixel`: once drawn, the store is checked for one value in every pixel
    /// (`Bitmap.knownUniformPixel`), which painting then fills instead of reading the store.
    private mutating func tintedStore(_ node: RenderNode, _ part: PaintItem.Part, _ fingerprint: BackingStoreCache.Fingerprint,
                                      width: Int, height: Int, level: Int, notesUniformPixel: Bool = false,
                                      draw: @escaping (Bitmap) -> Void) -> BackingStoreCache.Entry? {
        let key = node.storeKey(part)
        use(key)
        let drawn = notesUniformPixel ? { store in
            draw(store)
            store.knownUniformPixel = store.uniformPixel()
        } : draw
        guard let tint = node.tint else {
            return cache.store(for: key, fingerprint: fingerprint, width: width, height: height, level: level, draw: drawn)
        }
        return cache.store(for: key, fingerprint: .tinted(fingerprint, tint), width: width, height: height, level: level) { store in
            draw(store)
            store.multiply(by: tint)
            if notesUniformPixel { store.knownUniformPixel = store.uniformPixel() }
        }
    }

    /// What a shadow is cast by: an opaque-where-solid bitmap of `width`x`height` over `area` of
    /// bounds space at `scale`, made by `make` when the shadow is drawn (after every store of
    /// `level`); `identity` changes with its pixels.
    struct ShadowSource {
        let area: CGRect
        let scale: CGFloat
        let identity: Int
        let width: Int, height: Int
        let level: Int
        let make: () -> Bitmap
    }

    /// The part of `area` (bounds space) a store covers, and its scale: all of it at the node's
    /// raster scale, or, for huge layers, only what can be seen, at a scale that fits the cap.
    /// At rest under a pure translation the store starts on a device pixel (its content drawn
    /// at the layer's sub-pixel offset); otherwise on its own pixel grid in bounds space.
    private func storeGeometry(_ area: CGRect, node: RenderNode) -> (CGRect, CGFloat)? {
        Self.storeGeometry(area, rasterScale: node.rasterScale, transform: node.transform, isAtRest: node.isAtRest,
                           targetArea: targetArea)
    }

    /// `storeGeometry(_:node:)` for a node of `rasterScale`, `transform` and `isAtRest`.
    private static func storeGeometry(_ area: CGRect, rasterScale: CGFloat, transform: Homography, isAtRest: Bool,
                                      targetArea: PixelRect) -> (CGRect, CGFloat)? {
        var storeArea = area
        var scale = rasterScale
        let limit = RenderLimits.maximumStoreSide
        if storeArea.width * scale > limit || storeArea.height * scale > limit {
            if let inverse = transform.inverted(),
               let visible = inverse.projectedBounds(of: targetArea.cgRect.insetBy(dx: -2, dy: -2)) {
                storeArea = storeArea.intersection(visible)
            }
            guard !storeArea.isNull, storeArea.width > 0, storeArea.height > 0 else { return nil }
            let largest = max(storeArea.width, storeArea.height) * scale
            if largest > limit { scale *= limit / largest }
        }
        guard storeArea.width > 0, storeArea.height > 0, scale > 0, scale.isFinite else { return nil }
        if isAtRest, let aligned = RenderTree.pixelAligned(storeArea, scale: scale, under: transform) {
            return (aligned, scale)
        }
        // Whole pixels at the store's scale, so that the store's grid lines up with the bounds.
        let x0 = (storeArea.minX * scale).rounded(.down) / scale, y0 = (storeArea.minY * scale).rounded(.down) / scale
        storeArea = CGRect(x: x0, y: y0, width: storeArea.maxX - x0, height: storeArea.maxY - y0)
        return (storeArea, scale)
    }

    /// Appends the item painting `store` (a coverage store in `color`, or a bitmap when `color`
    /// is nil) over `area` of the node's bounds space.
    private func append(key: PaintItem.Key, store: BackingStoreCache.Entry, color: Color? = nil, area: CGRect, scale: CGFloat,
                        node: RenderNode, opacity: Double, clip: PixelRect?, into items: inout [PaintItem]) {
        let source: PaintItem.Source = color.map { .coverage(store.mask, $0) } ?? .bitmap(store.bitmap)
        guard let item = PaintItem(key: key, source: source, sourceIdentity: store.generation,
                                   transform: Self.storeToBounds(area: area, scale: scale, then: node.transform),
                                   opacity: opacity, filter: .bilinear, clip: clip, targetArea: targetArea,
                                   placedAmong: previous) else { return }
        items.append(item)
    }
}
