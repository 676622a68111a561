import Foundation

/// Turns a layer tree at a time into pixels.
///
/// A renderer keeps what it built for the last frame — a retained object per drawn layer with
/// its paint items, the backing stores they draw from, and a cached picture of the frame's
/// unchanging bottom — and each frame revisits only the layers that changed or animate: frame
/// cost follows what changed, and a frame in which nothing changed costs almost nothing. Each
/// frame goes: update (presentations, geometry, items) → content pass (stores whose content
/// changed are rasterized, in parallel) → damage → painting in bands across cores. Frames depend
/// only on the tree and the time, and are identical bit for bit whether painted whole or
/// through damage, on one core or many, with the cache or without.
///
/// A renderer and the tree it renders belong to one isolation domain (neither is `Sendable`):
/// render from the thread or actor that owns the tree. To render in the background, build the
/// tree and its renderer inside that task; the frames they return can be handed back.
public final class Renderer {
    /// Device pixels per point.
    public var scale: CGFloat { didSet { if scale != oldValue { forgetPreviousFrame() } } }
    /// The color behind everything (transparent by default).
    public var backgroundColor: Color { didSet { if backgroundColor != oldValue { forgetPreviousFrame() } } }
    /// How many threads paint a frame (its horizontal bands) and rasterize its stores; 1 works on
    /// the calling thread.
    public var threadCount: Int {
        // The helper threads of the old count end now, not at the next frame.
        didSet {
            if threadCount != oldValue {
                waitUntilPainted()
                helpers = nil
            }
        }
    }
    /// The most bytes kept in pictures of frames' unchanging bottoms (the raster cache; 64 MiB by
    /// default). A picture costs a frame's pixels; 0 turns the cache off (frames are the same
    /// either way, only slower).
    public var rasterCacheBudget: Int {
        get { rasterCache.budget }
        set { rasterCache.budget = max(0, newValue) }
    }

    /// Bounds on what a frame may draw (replicated copies, path sizes); the defaults keep any
    /// tree's frame within a few hundred megabytes. Changing them rebuilds the next frame.
    public var limits = RenderLimits()

    private let cache = BackingStoreCache()
    private let rasterCache: RasterCache
    private var tree: RenderTree?
    /// The bitmap the last frame left complete, and how big it was: the next frame into it paints
    /// only the damage.
    private var lastTarget: (serial: UInt64, width: Int, height: Int)?
    /// Damage left unpainted by a frame drawn with a region of interest.
    private var pendingDamage = Region()
    /// Frames whose painting was planned while helpers drew their stores (for tests).
    private(set) var paintsPlannedAhead = 0
    /// Layers visited by earlier trees (see `visitCount`).
    private var retiredVisits = 0
    /// Trees replaced this frame, released after the new one is built.
    private var retiring: [RenderTree] = []
    /// The buffer a frame gathers its paint items in, kept empty between frames: gathered into a
    /// new array, a board's hundred items grew it seven times, each a move and a free.
    private(set) var itemBuffer: [PaintItem] = []
    /// The helper threads frames on more than one thread share (`threadCount - 1` of them,
    /// started at the first such frame; ended when the renderer is released or its thread count
    /// changes).
    private(set) var helpers: Crew?

    /// Helper threads for a frame on `threadCount` threads (kept while the count is the same:
    /// changing it drops them).
    private var crew: Crew {
        if let helpers { return helpers }
        let crew = Crew(helpers: max(1, threadCount) - 1)
        helpers = crew
        return crew
    }

    /// Creates a renderer.
    ///
    /// - Parameters:
    ///   - scale: device pixels per point (2 for a HiDPI display).
    ///   - backgroundColor: what uncovered pixels show.
    ///   - threadCount: threads per frame; defaults to the active cores.
    public init(scale: CGFloat = 1, backgroundColor: Color = .clear,
                threadCount: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.scale = scale.isFinite && scale > 0 ? scale : 1
        self.backgroundColor = backgroundColor
        self.threadCount = max(1, threadCount)
        self.rasterCache = RasterCache(budget: 64 << 20)
    }

    deinit { waitUntilPainted() }

    /// Renders a new frame of `layer`'s bounds (at `scale`) at time `t`.
    ///
    /// The layer is drawn in its own bounds space: its own position and transform place it in
    /// a superlayer, which a frame does not have.
    ///
    /// - Throws: `RenderError.invalidSize` when the bounds give no valid bitmap size.
    public func render(_ layer: Layer, at time: TimeInterval = 0) throws(RenderError) -> Bitmap {
        let size = layer.bounds.size
        let w = (size.width * scale).rounded(.up), h = (size.height * scale).rounded(.up)
        guard w.isFinite, h.isFinite, w >= 1, h >= 1, w <= CGFloat(Bitmap.maximumDimension),
              h <= CGFloat(Bitmap.maximumDimension) else {
            throw .invalidSize(width: Double(size.width), height: Double(size.height), scale: Double(scale))
        }
        let bitmap: Bitmap
        do {
            bitmap = try Bitmap(width: Int(w), height: Int(h))
        } catch {
            throw .bitmap(error)
        }
        render(layer, at: time, into: bitmap)
        return bitmap
    }

    /// Renders `layer` at time `t` into `bitmap`, repainting only the pixels that differ from the
    /// last frame this renderer drew into that same bitmap (all of them the first time).
    ///
    /// When nothing in the tree changed since the last frame, and nothing animates or the time
    /// is the last frame's, this returns at once with empty damage, without looking at a layer.
    ///
    /// - Parameters:
    ///   - layer: the root of the tree; its bounds are the frame.
    ///   - time: the tree's time of the frame, in seconds.
    ///   - bitmap: the frame painted into; its pixels outside the damage are kept.
    ///   - regionOfInterest: when given, only these pixels are painted (and the next frame
    ///     repaints the rest as needed).
    /// - Returns: the pixels that were repainted.
    @discardableResult
    public func render(_ layer: Layer, at time: TimeInterval = 0, into bitmap: Bitmap,
                       regionOfInterest: Region? = nil) -> Region {
        let damage = frame(of: layer, at: time, into: bitmap, regionOfInterest: regionOfInterest, leavingPaint: false)
        waitUntilPainted()
        return damage
    }

    /// Renders `layer` at time `t` into `bitmap` as `render(_:at:into:regionOfInterest:)` does,
    /// but returns once the frame's painting is under way on the renderer's helper threads,
    /// instead of once it is done: the calling thread can change the tree and submit the next
    /// frame while this one paints. On two cores, frames submitted back to back overlap one
    /// frame's painting with the next one's update and stores, where `render` leaves a core idle
    /// while the tree is changed and updated.
    ///
    /// `bitmap` is the renderer's until the frame is painted: call `waitUntilPainted()` before
    /// reading or drawing into it (reading it before traps, whether or not the painting has
    /// ended, and so does another renderer's frame into it). The next frame this renderer
    /// renders, submits or inspects waits for the painting itself, as late as it can: after the
    /// tree's update, before the first store is redrawn (the painting reads the stores). Frames are the same bit for bit as `render`'s. With one
    /// thread, or damage too small to split, the frame is painted before this returns.
    ///
    /// - Returns: the pixels that are being repainted.
    @discardableResult
    public func submit(_ layer: Layer, at time: TimeInterval = 0, into bitmap: Bitmap, regionOfInterest: Region? = nil) -> Region {
        let damage = frame(of: layer, at: time, into: bitmap, regionOfInterest: regionOfInterest, leavingPaint: true)
        if !damage.isEmpty {
            bitmap.isBeingPainted = true
            submitted = bitmap
        }
        return damage
    }

    /// Returns once the last submitted frame is painted: its bitmap may then be read.
    public func waitUntilPainted() {
        if let items = painting {
            painting = nil
            helpers?.join()
            recycle(items)
        }
        if let submitted {
            submitted.isBeingPainted = false
            self.submitted = nil
        }
    }

    /// Whether a submitted frame's bitmap is still the renderer's: `waitUntilPainted()` has not
    /// been called since (nor has another frame been rendered, which waits for it).
    public var isPainting: Bool { submitted != nil }

    /// The items of the frame whose bands were left to the crew: the helpers may still composite
    /// them (the buffer is reused only once they are done).
    private var painting: [PaintItem]?
    /// The target of the last frame submitted, until it is waited for.
    private var submitted: Bitmap?

    /// Keeps `items`'s buffer, emptied, for the next frame's items, while the frames fill a fair
    /// share of it (it must not keep the items: they hold stores and masks).
    private func recycle(_ items: [PaintItem]) {
        var items = items
        guard items.capacity <= max(1024, 4 * items.count) else { return }
        items.removeAll(keepingCapacity: true)
        itemBuffer = items
    }

    /// A frame: everything `render` does, but the painting is only handed to the helpers when
    /// `leavingPaint` (and splits into bands); the frame is then kept in `painting`.
    private func frame(of layer: Layer, at time: TimeInterval, into bitmap: Bitmap, regionOfInterest: Region?,
                       leavingPaint: Bool) -> Region {
        // Another renderer's submitted frame: its helpers may still paint it.
        if bitmap !== submitted { bitmap.checkNotBeingPainted() }
        let tree = self.tree(for: layer, viewport: bitmap.bounds)
        let sameTarget = lastTarget.map { $0 == (bitmap.serial, bitmap.width, bitmap.height) } ?? false
        if sameTarget, pendingDamage.isEmpty, tree.isUpToDate(at: time) {
            layer.treeTime = time
            return Region()
        }
        let frame = FrameChanges(paintsDamage: sameTarget)
        let crew = self.crew
        let pass = ContentPass(threads: threadCount, crew: crew, afterPainting: painting != nil)
        cache.contentPass = pass
        tree.update(at: time, frame)
        discardRetiredTrees()
        nextAnimationChange = frame.nextAnimationChange
        let key = RasterCache.Key(tree: ObjectIdentifier(tree), background: backgroundColor)
        // While helpers still draw the frame's stores, this thread gathers the items to paint
        // (they hold the stores and never read their pixels), instead of leaving the helpers
        // idle after the stores; should nothing be painted, they are let go.
        let gathered = pass.drawsAhead ? paintItems(of: tree, key: key, firstChange: frame.firstChange) : nil
        // With every pixel to paint (the first frame into the bitmap, or after `invalidate()`),
        // the damage is known already, and so is how to paint it: worked out now too.
        let plan = gathered.flatMap { gathered in
            sameTarget || regionOfInterest != nil ? nil : Painter.plan(gathered.items, damage: Region(bitmap.bounds), threads: threadCount)
        }
        if plan != nil { paintsPlannedAhead += 1 }
        // The last frame's painting reads the stores the pass redraws (its first batch, offered
        // while updating, waited for it on the crew).
        waitUntilPainted()
        cache.finish(pass)
        frame.resolveInkedDamage()

        var damage = sameTarget ? Region(frame.damage).union(pendingDamage).intersection(Region(bitmap.bounds))
                                : Region(bitmap.bounds)
        pendingDamage = Region()
        if let regionOfInterest {
            pendingDamage = damage.subtracting(regionOfInterest)
            damage.formIntersection(regionOfInterest)
        }
        if !damage.isEmpty {
            let (picture, items) = gathered ?? paintItems(of: tree, key: key, firstChange: frame.firstChange)
            let left = Painter.paint(items, into: bitmap, damage: damage,
                                     base: picture?.base ?? .solid(backgroundColor.premultipliedARGB32), threads: threadCount,
                                     crew: crew, plan: plan, joining: !leavingPaint)
            if left {
                painting = items
            } else {
                recycle(items)
            }
        } else if let items = gathered?.items {
            recycle(items)
        } else if let firstChange = frame.firstChange {
            _ = rasterCache.picture(for: key, firstChange: firstChange)
        }
        lastTarget = (bitmap.serial, bitmap.width, bitmap.height)
        if let firstChange = frame.firstChange {
            rasterCache.frameDidChange(key, firstChange: firstChange, tree: tree, width: bitmap.width, height: bitmap.height,
                                       threads: threadCount, reusing: painting == nil)
        }
        // Animation start and stop handlers run after the frame, when they may change the tree.
        for callback in frame.callbacks { callback() }
        return damage
    }

    /// The picture of the frame's unchanging bottom to paint over, if one holds, and the items to
    /// paint over it (all of them without one), in the kept buffer.
    private func paintItems(of tree: RenderTree, key: RasterCache.Key, firstChange: PaintPosition?)
        -> (picture: RasterCache.Picture?, items: [PaintItem]) {
        let picture = rasterCache.picture(for: key, firstChange: firstChange)
        var items = itemBuffer
        itemBuffer = []
        if let picture {
            tree.rootObject?.appendItems(from: picture.boundary.path[...], to: &items)
        } else {
            tree.rootObject?.appendItems(to: &items)
        }
        return (picture, items)
    }

    /// Makes the next frame repaint every pixel of its target, as the first frame into a bitmap
    /// does: for when something other than this renderer changed the target's pixels.
    public func invalidate() { forgetPreviousFrame() }

    /// The composites a frame of `layer` at time `t` is painted with, in painter's order: what
    /// `render` issues to pixman over a cleared target of `width`×`height` pixels.
    ///
    /// Content is rasterized as for a frame (and cached), but nothing is painted and animations'
    /// start and stop handlers do not run. What differs from the last painted frame is kept as
    /// damage for the next one, so damage tracking is undisturbed. For inspecting a frame, and
    /// for measuring what the framework costs above the composites it issues.
    public func composites(for layer: Layer, at time: TimeInterval = 0, width: Int, height: Int) -> [Composite] {
        waitUntilPainted()
        let target = PixelRect(x: 0, y: 0, width: max(0, width), height: max(0, height))
        let tree = self.tree(for: layer, viewport: target)
        let frame = FrameChanges(paintsDamage: lastTarget != nil)
        let pass = ContentPass(threads: threadCount, crew: crew)
        cache.contentPass = pass
        tree.update(at: time, frame)
        discardRetiredTrees()
        cache.finish(pass)
        frame.resolveInkedDamage()
        if lastTarget != nil { pendingDamage.formUnion(Region(frame.damage)) }
        let key = RasterCache.Key(tree: ObjectIdentifier(tree), background: backgroundColor)
        _ = rasterCache.picture(for: key, firstChange: frame.firstChange)
        // Coverage is handed out as bitmaps: each mask's copy is kept while the mask is unchanged
        // and still in the frame, so that asking every frame does not convert every mask again.
        var converted: [ObjectIdentifier: CoverageCopy] = [:]
        defer { coverageCopies = converted }
        return tree.allItems().map { item in
            let (source, color): (Bitmap, Color?)
            switch item.source {
            case let .bitmap(bitmap): (source, color) = (bitmap, nil)
            case let .coverage(mask, shadowColor):
                let id = ObjectIdentifier(mask)
                let copy = converted[id] ?? coverageCopies[id].flatMap { $0.mask === mask && $0.version == mask.version ? $0 : nil }
                    ?? CoverageCopy(mask: mask, version: mask.version, bitmap: Self.coverageBitmap(mask))
                converted[id] = copy
                (source, color) = (copy.bitmap, shadowColor)
            }
            return Composite(source: source, color: color, transform: item.transform, opacity: item.opacity, filter: item.filter,
                             clip: item.clip, extent: item.extent, footprint: item.footprint)
        }
    }

    private struct CoverageCopy {
        let mask: AlphaMask
        let version: Int
        let bitmap: Bitmap
    }

    /// The bitmaps `composites(for:…)` last handed out for coverage masks.
    private var coverageCopies: [ObjectIdentifier: CoverageCopy] = [:]

    /// A coverage mask as a bitmap whose every channel is the coverage (white, premultiplied).
    private static func coverageBitmap(_ mask: AlphaMask) -> Bitmap {
        guard let bitmap = try? Bitmap(width: mask.width, height: mask.height) else { preconditionFailure("a mask that exists fits a bitmap") }
        bitmap.withUnsafeMutablePixels { pixels in
            for y in 0..<mask.height {
                for x in 0..<mask.width {
                    let a = UInt32(mask[x, y])
                    pixels[y * mask.width + x] = a << 24 | a << 16 | a << 8 | a
                }
            }
        }
        return bitmap
    }

    /// One composite of a frame: a source bitmap drawn with the `over` operator through a
    /// homography into the target.
    public struct Composite {
        /// The pixels drawn: a backing store, an image, an offscreen group — or, when `color`
        /// is set, coverage (a shadow's, or text's or a shape's of one color) as the alpha of
        /// white pixels, a copy kept while that coverage is unchanged. Shared with the
        /// renderer's cache, which redraws a store in place when its content changes: read it
        /// (or copy it) now, do not change it.
        public let source: Bitmap
        /// When set, what is drawn is this color through `source`'s alpha (a shadow, or text or a
        /// shape of one color: its coverage is stored without its color, a quarter of the bytes); pixman draws
        /// the same with a solid source and `source` as the mask, the opacity folded into the
        /// color.
        public let color: Color?
        /// Source pixels → target pixels.
        public let transform: Homography
        /// Multiplies the source's alpha (0...1).
        public let opacity: Double
        /// How the source is sampled when `transform` is not a whole-pixel offset.
        public let filter: ImageFilter
        /// Target pixels outside which nothing may change (ancestors' `masksToBounds`).
        public let clip: PixelRect?
        /// Target pixels the composite may change: the projected source cut to the clip and target.
        public let extent: PixelRect
        /// The same pixels more tightly, as bands of rows each as wide as the projected source
        /// within them: what the renderer composites over (`[extent]` for rectilinear maps).
        public let footprint: [PixelRect]
    }

    /// The tree time at which the last rendered tree next changes by itself — an animation
    /// running (then the last frame's time: every frame differs) or about to begin — or nil
    /// when no animation will change it. A live loop with nothing else to do sleeps until then.
    public private(set) var nextAnimationChange: TimeInterval?

    /// Backing-store rasterizations since the renderer was made (for tests and profiling).
    public var rasterizationCount: Int { cache.rasterizations }

    /// Backing stores currently held.
    public var cachedStoreCount: Int { cache.count }

    /// Bytes of pixels held in backing stores and in the raster cache.
    public var cachedByteCount: Int { cache.byteCount + rasterCache.byteCount }

    // MARK: Internals

    /// Layers built or revisited since the renderer was made: an idle frame adds none.
    var visitCount: Int { retiredVisits + (tree?.visits ?? 0) }

    /// Items painted into group bitmaps since the renderer was made (see
    /// `BackingStoreCache.groupItemsPainted`).
    var groupItemsPainted: Int { cache.groupItemsPainted }

    /// Layers of the current tree brought up to date by a content-only refresh.
    var contentRefreshCount: Int { tree?.contentRefreshes ?? 0 }

    /// Bytes of pictures in the raster cache.
    var rasterCacheByteCount: Int { rasterCache.byteCount }

    /// Pictures the raster cache made since the renderer was made.
    var rasterCachePictures: Int { rasterCache.picturesMade }

    /// Pictures held whose pixels are all one value (frames start from a fill).
    var rasterCacheUniformPictures: Int { rasterCache.uniformPictures }

    /// The retained tree for `layer` at the current scale and `viewport`, made anew when any of
    /// them differs from the last frame's. The old tree's stores are released only after the new
    /// one has taken what it shares with it.
    private func tree(for layer: Layer, viewport: PixelRect) -> RenderTree {
        if let tree, tree.root === layer, tree.deviceScale == scale, tree.viewport == viewport, tree.limits == limits { return tree }
        let old = tree
        let made = RenderTree(root: layer, deviceScale: scale, viewport: viewport, cache: cache, limits: limits)
        tree = made
        forgetPreviousFrame()
        if let old {
            retiredVisits += old.visits
            rasterCache.removeAll(of: ObjectIdentifier(old))
            retiring.append(old)
        }
        return made
    }

    /// Lets replaced trees go, once the current one has been updated and so holds the stores it
    /// shares with them.
    private func discardRetiredTrees() {
        for old in retiring { old.discard() }
        retiring = []
    }

    private func forgetPreviousFrame() {
        lastTarget = nil
        pendingDamage = Region()
    }
}

/// Why a frame could not be rendered.
public enum RenderError: Error, Equatable, CustomStringConvertible {
    /// The root layer's bounds at this scale give no valid bitmap.
    case invalidSize(width: Double, height: Double, scale: Double)
    /// The frame's bitmap could not be made.
    case bitmap(BitmapError)

    public var description: String {
        switch self {
        case let .invalidSize(w, h, s):
            "cannot render a layer of \(w)x\(h) points at scale \(s): each side must be 1…\(Bitmap.maximumDimension) pixels"
        case let .bitmap(error): "cannot render: \(error)"
        }
    }
}

