import Foundation

/// Turns a layer tree at a time into pixels.
///
/// Each frame goes snapshot → render tree → content pass (backing stores, rasterized only when
/// their content changed) → damage (what differs from the previous frame into the same bitmap)
/// → painting in bands across cores. A renderer keeps its backing stores between frames, so
/// reuse one renderer for the frames of one tree. Frames depend only on the tree and the time.
public final class Renderer {
    /// Device pixels per point.
    public var scale: CGFloat { didSet { if scale != oldValue { forgetPreviousFrame() } } }
    /// The color behind everything (transparent by default).
    public var backgroundColor: Color { didSet { if backgroundColor != oldValue { forgetPreviousFrame() } } }
    /// How many threads paint a frame (its horizontal bands); 1 paints on the calling thread.
    public var threadCount: Int

    private let cache = BackingStoreCache()
    private var previous: PreviousFrame?

    private struct PreviousFrame {
        let target: UInt64
        let width: Int, height: Int
        let items: [PaintItem.Key: (signature: Int, extent: PixelRect, footprint: [PixelRect])]
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
    }

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
    /// - Parameter regionOfInterest: when given, only these pixels are painted (and the next
    ///   frame repaints the rest as needed).
    /// - Returns: the pixels that were repainted.
    @discardableResult
    public func render(_ layer: Layer, at time: TimeInterval = 0, into bitmap: Bitmap,
                       regionOfInterest: Region? = nil) -> Region {
        let (items, callbacks) = paintItems(for: layer, at: time, target: bitmap.bounds)
        var damage = damage(to: bitmap, items: items)
        if let regionOfInterest { damage.formIntersection(regionOfInterest) }
        Painter.paint(items, into: bitmap, damage: damage, background: backgroundColor, threads: threadCount)
        if regionOfInterest == nil {
            remember(items, target: bitmap)
        } else {
            // Pixels outside the region of interest were left stale: the next frame repaints.
            previous = nil
        }
        cache.endFrame()
        // Animation start and stop handlers run after the frame, when they may change the tree.
        for callback in callbacks { callback() }
        return damage
    }

    /// Makes the next frame repaint every pixel of its target, as the first frame into a bitmap
    /// does: for when something other than this renderer changed the target's pixels.
    public func invalidate() { forgetPreviousFrame() }

    /// The composites a frame of `layer` at time `t` is painted with, in painter's order: what
    /// `render` issues to pixman over a cleared target of `width`×`height` pixels.
    ///
    /// Content is rasterized as for a frame (and cached), but nothing is painted, the damage
    /// history is untouched and animations' start and stop handlers do not run. (Content
    /// rasterized anew for another time than the last frame's counts as changed in the next
    /// frame's damage.) For inspecting a frame, and for measuring what the framework costs above
    /// the composites it issues.
    public func composites(for layer: Layer, at time: TimeInterval = 0, width: Int, height: Int) -> [Composite] {
        let target = PixelRect(x: 0, y: 0, width: max(0, width), height: max(0, height))
        let (items, _) = paintItems(for: layer, at: time, target: target)
        cache.endFrame()
        return items.map {
            Composite(source: $0.source, transform: $0.transform, opacity: $0.opacity, filter: $0.filter,
                      clip: $0.clip, extent: $0.extent, footprint: $0.footprint)
        }
    }

    /// One composite of a frame: a source bitmap drawn with the `over` operator through a
    /// homography into the target.
    public struct Composite {
        /// The pixels drawn: a backing store, an image, a blurred shadow or an offscreen group.
        /// Shared with the renderer's cache: read it, do not change it.
        public let source: Bitmap
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

    /// Backing-store rasterizations since the renderer was made (for tests and profiling).
    public var rasterizationCount: Int { cache.rasterizations }

    /// Backing stores currently held.
    public var cachedStoreCount: Int { cache.count }

    // MARK: Internals

    func paintItems(for layer: Layer, at time: TimeInterval, target: PixelRect) -> ([PaintItem], [() -> Void]) {
        let builder = RenderTreeBuilder(deviceScale: scale, viewport: target)
        guard let root = builder.snapshot(root: layer, at: time) else { return ([], builder.callbacks) }
        var list = PaintListBuilder(cache: cache, targetArea: target)
        list.emit(root, clip: nil)
        return (list.items, builder.callbacks)
    }

    /// Old and new extents of every item that appeared, disappeared or changed.
    private func damage(to bitmap: Bitmap, items: [PaintItem]) -> Region {
        guard let previous, previous.target == bitmap.serial,
              previous.width == bitmap.width, previous.height == bitmap.height else {
            return Region(bitmap.bounds)
        }
        var rects: [PixelRect] = []
        var seen = Set<PaintItem.Key>()
        for item in items {
            seen.insert(item.key)
            if let old = previous.items[item.key] {
                if old.signature != item.signature || old.extent != item.extent {
                    rects.append(contentsOf: old.footprint)
                    rects.append(contentsOf: item.footprint)
                }
            } else {
                rects.append(contentsOf: item.footprint)
            }
        }
        for (key, old) in previous.items where !seen.contains(key) { rects.append(contentsOf: old.footprint) }
        return Region(rects).intersection(Region(bitmap.bounds))
    }

    private func remember(_ items: [PaintItem], target: Bitmap) {
        var map: [PaintItem.Key: (signature: Int, extent: PixelRect, footprint: [PixelRect])] = [:]
        for item in items { map[item.key] = (item.signature, item.extent, item.footprint) }
        previous = PreviousFrame(target: target.serial, width: target.width, height: target.height, items: map)
    }

    private func forgetPreviousFrame() { previous = nil }
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
