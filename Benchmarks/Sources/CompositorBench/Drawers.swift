import CPixman
import Foundation
import LayerKit

/// Something that draws a scene's frames into its own frame buffer.
public protocol Drawer: AnyObject {
    /// Draws frame `i` (frames cycle through the scene's distinct frames).
    func draw(frame i: Int)
    /// The last frame drawn, as premultiplied ARGB32 rows of `width` pixels (nil when the drawer
    /// makes no picture, as the memcpy floor does not).
    func pixels() -> [UInt32]?
    /// Returns once the last frame drawn is complete: a drawer that leaves a frame's painting to
    /// other threads while it prepares the next (`Renderer.submit`) waits for it here.
    func finish()
}

extension Drawer {
    public func finish() {}
}

/// Why a drawer cannot draw a scene.
public struct Unsupported: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

// MARK: - LayerKit

/// The library itself: the layer tree rendered by a `Renderer` into one reused bitmap.
public final class LayerKitDrawer: Drawer {
    public let scene: Scene
    public let mode: Scene.Mode
    /// Whether frames are submitted back to back (`Renderer.submit`): each frame's painting goes
    /// on while the next is prepared and updated, and `finish()` waits for the last. Otherwise
    /// each is rendered and waited for (`Renderer.render`).
    public let submits: Bool
    public let renderer: Renderer
    public let target: Bitmap
    /// What the last frame repainted.
    public private(set) var lastDamage: Region?

    /// - Parameters:
    ///   - mode: how frames are drawn; the scene's own mode by default.
    ///   - submits: frames are submitted back to back rather than rendered one by one.
    public init(_ scene: Scene, threads: Int, mode: Scene.Mode? = nil, submits: Bool = false) throws {
        self.scene = scene
        self.mode = mode ?? scene.mode
        self.submits = submits
        renderer = Renderer(threadCount: threads)
        target = try Bitmap(width: scene.width, height: scene.height)
    }

    public func draw(frame i: Int) {
        scene.prepare?(i)
        if mode == .fullFrame { renderer.invalidate() }
        let time = scene.time(ofFrame: i)
        lastDamage = submits ? renderer.submit(scene.root, at: time, into: target) : renderer.render(scene.root, at: time, into: target)
    }

    public func finish() { renderer.waitUntilPainted() }

    public func pixels() -> [UInt32]? {
        finish()
        return target.withUnsafePixels { Array($0) }
    }
}

// MARK: - The composites of a frame, for the baselines

/// One composite of a frame, with its source pixels copied out of LayerKit.
struct CopiedComposite {
    let source: Int  // index into the frame's sources
    /// Set for a shadow: this color is drawn through the source's alpha.
    let color: Color?
    let transform: Homography
    let kind: TransformKind
    let opacity: Double
    let filter: ImageFilter
    let extent: PixelRect
    let footprint: [PixelRect]
    let clip: PixelRect?
}

/// Each distinct frame of a scene as a list of composites over copies of their source pixels:
/// the same composites LayerKit issues, listed once, outside any timing.
struct FrameComposites {
    struct Source { let width: Int, height: Int; let pixels: [UInt32] }
    let sources: [Source]
    let composites: [CopiedComposite]

    static func list(_ scene: Scene) -> [FrameComposites] {
        let renderer = Renderer(threadCount: 1)
        return (0..<scene.cycle).map { k in
            scene.prepare?(k)
            var index: [ObjectIdentifier: Int] = [:]
            var sources: [Source] = []
            let composites = renderer.composites(for: scene.root, at: scene.time(ofFrame: k),
                                                 width: scene.width, height: scene.height).map { c in
                let id = ObjectIdentifier(c.source)
                let source = index[id] ?? {
                    // Copied now: a backing store is redrawn in place when its content changes.
                    sources.append(Source(width: c.source.width, height: c.source.height,
                                          pixels: c.source.withUnsafePixels { Array($0) }))
                    index[id] = sources.count - 1
                    return sources.count - 1
                }()
                return CopiedComposite(source: source, color: c.color, transform: c.transform, kind: c.transform.kind,
                                       opacity: c.opacity, filter: c.filter, extent: c.extent,
                                       footprint: c.footprint, clip: c.clip)
            }
            return FrameComposites(sources: sources, composites: composites)
        }
    }
}

// MARK: - Raw pixman

/// How a composite samples its source, from cheapest to dearest.
public enum CompositeCategory: String, CaseIterable, Codable, Sendable {
    /// A whole-pixel offset: a copy (blended), no filtering.
    case wholePixel = "whole-pixel copies"
    /// Not turned, but at a fractional offset or scaled: bilinear through pixman's scaled paths.
    case offsetOrScale = "fractional offsets and scales"
    /// Turned (an affine map with shear or rotation): pixman's general affine bilinear fetcher.
    case turned = "turned"
    /// A true perspective map.
    case perspective = "perspective"

    init(_ c: CopiedComposite) {
        switch c.kind {
        case .integerTranslation, .degenerate: self = .wholePixel
        case .affine: self = c.transform.m12 == 0 && c.transform.m21 == 0 ? .offsetOrScale : .turned
        case .projective: self = .perspective
        }
    }
}

/// The same composites issued straight to pixman, with no framework: no tree, no snapshot, no
/// damage, no cache, transforms converted beforehand. The floor for what LayerKit adds.
///
/// Given a damage region, it clears and composites only those pixels (each composite over its
/// footprint within the damage), and given a category, issues only the composites of that kind:
/// so it can time the painting of one frame's damage, part by part.
public final class PixmanFloor: Drawer {
    private struct Op {
        let source: OpaquePointer
        var transform: pixman_transform?
        let filter: pixman_filter_t
        let mask: OpaquePointer?
        /// For a shadow: the copied source is the mask (placed by `transform` and `offset`) and
        /// `source` is its solid color, the opacity folded in as LayerKit folds it.
        var masked = false
        /// Source pixel under the destination origin (whole-pixel offsets only).
        let offset: (x: Int, y: Int)
        /// The footprint's bounding box, and the footprint as a pixman region when it is more
        /// than that box (set as the target's clip for the one call, as LayerKit does).
        let box: PixelRect
        let region: UnsafeMutablePointer<pixman_region32_t>?
    }

    private let width: Int, height: Int
    private let buffer: UnsafeMutablePointer<UInt32>
    private let target: OpaquePointer
    private var images: [OpaquePointer] = []
    private var frames: [[Op]] = []
    private var sourceStorage: [UnsafeMutablePointer<UInt32>] = []
    /// What each frame clears before compositing: the damage, or the whole frame.
    private var clearBoxes: [pixman_box32_t]
    /// Composites issued per distinct frame.
    public var compositeCounts: [Int] { frames.map(\.count) }

    public init(_ scene: Scene, under damage: Region? = nil, only category: CompositeCategory? = nil) throws {
        clearBoxes = (damage?.rects ?? [PixelRect(x: 0, y: 0, width: scene.width, height: scene.height)]).map {
            pixman_box32_t(x1: Int32($0.minX), y1: Int32($0.minY), x2: Int32($0.maxX), y2: Int32($0.maxY))
        }
        width = scene.width
        height = scene.height
        buffer = .allocate(capacity: width * height)
        buffer.initialize(repeating: 0, count: width * height)
        target = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), buffer, Int32(width * 4))!
        var masks: [UInt32: OpaquePointer] = [:]
        for frame in FrameComposites.list(scene) {
            let sources = frame.sources.map { source in
                let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: max(1, source.pixels.count))
                storage.initialize(from: source.pixels, count: source.pixels.count)
                sourceStorage.append(storage)
                let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(source.width), Int32(source.height),
                                                     storage, Int32(source.width * 4))!
                images.append(image)
                return image
            }
            let composites = frame.composites.filter { c in category.map { CompositeCategory(c) == $0 } ?? true }
            frames.append(try composites.compactMap { c in
                let alpha = UInt32((min(max(c.opacity, 0), 1) * 255).rounded())
                guard let color = c.color else {
                    var mask: OpaquePointer?
                    if alpha < 255 {
                        mask = masks[alpha] ?? {
                            var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(alpha * 257))
                            let solid = pixman_image_create_solid_fill(&color)!
                            masks[alpha] = solid
                            return solid
                        }()
                    }
                    return try placed(c, frame, sources[c.source], mask: mask, damage: damage)
                }
                // A shadow: a solid color through the copied coverage, the opacity folded into
                // the color with pixman's rounding (x·a + 128, then (t + t/256) / 256 per channel),
                // as LayerKit folds it.
                let premultiplied = color.premultipliedARGB32
                var folded: UInt32 = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    let t = (premultiplied >> UInt32(shift) & 0xFF) * alpha + 0x80
                    folded |= ((t + (t >> 8)) >> 8) << UInt32(shift)
                }
                var solid = pixman_color_t(red: UInt16(folded >> 16 & 0xFF) * 257, green: UInt16(folded >> 8 & 0xFF) * 257,
                                           blue: UInt16(folded & 0xFF) * 257, alpha: UInt16(folded >> 24) * 257)
                let fill = pixman_image_create_solid_fill(&solid)!
                images.append(fill)
                guard let op = try placed(c, frame, sources[c.source], mask: nil, damage: damage) else { return nil }
                return Op(source: fill, transform: op.transform, filter: op.filter, mask: op.source, masked: true,
                          offset: op.offset, box: op.box, region: op.region)
            })
        }
        images.append(contentsOf: masks.values)
    }


    /// The op that places `c`'s source (`source`), with `mask`, over its footprint (within the
    /// damage); nil when nothing of it is damaged.
    private func placed(_ c: CopiedComposite, _ frame: FrameComposites, _ source: OpaquePointer, mask: OpaquePointer?,
                        damage: Region?) throws -> Op? {
        switch c.kind {
        case .degenerate:
            throw Unsupported("a degenerate composite")
        case let .integerTranslation(x, y):
            guard let (box, region) = makeRegion(c.footprint, under: damage) else { return nil }
            return Op(source: source, transform: nil, filter: PIXMAN_FILTER_NEAREST, mask: mask,
                      offset: (-x, -y), box: box, region: region)
        case .affine, .projective:
            let t = c.transform
            let w = FrameComposites.sourceCorners(c, frame).map { $0.x * t.m13 + $0.y * t.m23 + t.m33 }
            guard w.allSatisfy({ $0 > Homography.defaultEpsilon }) else {
                throw Unsupported("a composite whose plane crosses the eye (the floor has no front-half mask)")
            }
            guard let transform = pixmanTransform(c.transform, kind: c.kind, over: c.extent) else {
                throw Unsupported("a transform out of pixman's fixed-point range")
            }
            guard let (box, region) = makeRegion(c.footprint, under: damage) else { return nil }
            return Op(source: source, transform: transform,
                      filter: c.filter == .nearest ? PIXMAN_FILTER_NEAREST : PIXMAN_FILTER_BILINEAR,
                      mask: mask, offset: (0, 0), box: box, region: region)
        }
    }

    private var regions: [UnsafeMutablePointer<pixman_region32_t>] = []

    /// The footprint's bounding box, and a region for it when it has more than one band; within
    /// the damage when there is one (nil when nothing of it is damaged).
    private func makeRegion(_ footprint: [PixelRect], under damage: Region?) -> (PixelRect, UnsafeMutablePointer<pixman_region32_t>?)? {
        var footprint = footprint
        if let damage {
            footprint = Region(footprint).intersection(damage).rects
            guard !footprint.isEmpty else { return nil }
        }
        let x0 = footprint.map(\.minX).min() ?? 0, y0 = footprint.map(\.minY).min() ?? 0
        let x1 = footprint.map(\.maxX).max() ?? 0, y1 = footprint.map(\.maxY).max() ?? 0
        let box = PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        guard footprint.count > 1 else { return (box, nil) }
        var boxes = footprint.map { pixman_box32_t(x1: Int32($0.minX), y1: Int32($0.minY), x2: Int32($0.maxX), y2: Int32($0.maxY)) }
        let region = UnsafeMutablePointer<pixman_region32_t>.allocate(capacity: 1)
        pixman_region32_init_rects(region, &boxes, Int32(boxes.count))
        regions.append(region)
        return (box, region)
    }

    deinit {
        for region in regions { pixman_region32_fini(region); region.deallocate() }
        for image in images { pixman_image_unref(image) }
        pixman_image_unref(target)
        buffer.deallocate()
        for storage in sourceStorage { storage.deallocate() }
    }

    public func draw(frame i: Int) {
        var clear = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0)
        _ = pixman_image_fill_boxes(PIXMAN_OP_SRC, target, &clear, Int32(clearBoxes.count), &clearBoxes)
        for op in frames[i % frames.count] {
            // A shadow's copied coverage is the mask: it is what is placed.
            let placed = op.masked ? op.mask! : op.source
            if var transform = op.transform {
                _ = pixman_image_set_transform(placed, &transform)
                _ = pixman_image_set_filter(placed, op.filter, nil, 0)
            } else {
                _ = pixman_image_set_transform(placed, nil)
                _ = pixman_image_set_filter(placed, PIXMAN_FILTER_NEAREST, nil, 0)
            }
            let r = op.box
            if let region = op.region { _ = pixman_image_set_clip_region32(target, region) }
            let sourceAt = op.masked ? (0, 0) : (r.x + op.offset.x, r.y + op.offset.y)
            let maskAt = op.masked ? (r.x + op.offset.x, r.y + op.offset.y) : (0, 0)
            pixman_image_composite32(PIXMAN_OP_OVER, op.source, op.mask, target,
                                     Int32(sourceAt.0), Int32(sourceAt.1), Int32(maskAt.0), Int32(maskAt.1),
                                     Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
            if op.region != nil { _ = pixman_image_set_clip_region32(target, nil) }
        }
    }

    public func pixels() -> [UInt32]? { Array(UnsafeBufferPointer(start: buffer, count: width * height)) }

    /// pixman's destination → source fixed-point matrix (column vectors): the transpose of the
    /// row-vector inverse, normalized as LayerKit does for affine maps so that the floor samples
    /// the same pixels. Perspective maps go through pixman's own projective fetcher, scaled so
    /// its 16.16 products over `area` stay in range. (LayerKit samples those itself: pixman's
    /// fetcher garbles pixels that map left of or above the source, so the floor's perspective
    /// pixels differ at the edges; its cost is still pixman's.)
    private func pixmanTransform(_ transform: Homography, kind: TransformKind, over area: PixelRect) -> pixman_transform? {
        guard var m = transform.inverted() else { return nil }
        if kind == .affine {
            let w = m.m33
            m = Homography(m11: m.m11 / w, m12: m.m12 / w, m13: 0, m21: m.m21 / w, m22: m.m22 / w, m23: 0,
                           m31: m.m31 / w, m32: m.m32 / w, m33: 1)
        } else {
            var largest = [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33].map(abs).max() ?? 1
            for x in [CGFloat(area.minX), CGFloat(area.maxX)] {
                for y in [CGFloat(area.minY), CGFloat(area.maxY)] {
                    largest = max(largest, abs(x * m.m11 + y * m.m21 + m.m31), abs(x * m.m12 + y * m.m22 + m.m32),
                                  abs(x * m.m13 + y * m.m23 + m.m33))
                }
            }
            let k = 16384 / largest
            m = Homography(m11: m.m11 * k, m12: m.m12 * k, m13: m.m13 * k, m21: m.m21 * k, m22: m.m22 * k,
                           m23: m.m23 * k, m31: m.m31 * k, m32: m.m32 * k, m33: m.m33 * k)
        }
        var f = pixman_f_transform()
        f.m = ((Double(m.m11), Double(m.m21), Double(m.m31)),
               (Double(m.m12), Double(m.m22), Double(m.m32)),
               (Double(m.m13), Double(m.m23), Double(m.m33)))
        var result = pixman_transform()
        return pixman_transform_from_pixman_f_transform(&result, &f) != 0 ? result : nil
    }
}

extension FrameComposites {
    static func sourceCorners(_ c: CopiedComposite, _ frame: FrameComposites) -> [CGPoint] {
        let s = frame.sources[c.source]
        return [CGPoint(x: 0, y: 0), CGPoint(x: s.width, y: 0), CGPoint(x: s.width, y: s.height), CGPoint(x: 0, y: s.height)]
    }
}

// MARK: - memcpy

/// Copying a finished frame: the memory-bandwidth floor for any frame of this size.
///
/// With more than one thread the rows are copied in bands taken in turn by the threads, as
/// LayerKit paints its bands, handed over by threads that stay awake between frames
/// (`SpinningBands`): what this machine's memory gives a frame's worth of traffic on several
/// cores, beside which the compositor's "all cores ÷ 1" can be read.
public final class MemcpyFloor: Drawer {
    private var from: [UInt32], to: [UInt32]
    private let threads: Int
    private let rowBytes: Int
    private let height: Int
    /// The helpers of a copy on more than one thread.
    private let bands: SpinningBands?

    public init(_ scene: Scene, threads: Int = 1) {
        from = [UInt32](repeating: 0xFF20_2020, count: scene.width * scene.height)
        to = [UInt32](repeating: 0, count: scene.width * scene.height)
        self.threads = max(1, threads)
        rowBytes = scene.width * 4
        height = scene.height
        bands = self.threads > 1 ? SpinningBands(threads: self.threads) : nil
    }

    deinit { bands?.stop() }

    public func draw(frame i: Int) {
        from.withUnsafeBytes { source in
            to.withUnsafeMutableBytes { target in
                guard let bands else {
                    _ = memcpy(target.baseAddress!, source.baseAddress!, source.count)
                    return
                }
                // Bands as LayerKit paints them: four a thread, taken by whichever is free.
                let count = threads * 4, rows = (height + count - 1) / count
                let (from, to, rowBytes, height) = (UInt(bitPattern: source.baseAddress!), UInt(bitPattern: target.baseAddress!),
                                                    rowBytes, height)
                bands.run(bands: count) { band in
                    let y0 = band * rows, y1 = min(height, y0 + rows)
                    guard y1 > y0 else { return }
                    _ = memcpy(UnsafeMutableRawPointer(bitPattern: to + UInt(y0 * rowBytes))!,
                               UnsafeRawPointer(bitPattern: from + UInt(y0 * rowBytes))!, (y1 - y0) * rowBytes)
                }
            }
        }
    }

    public func pixels() -> [UInt32]? { nil }
}
