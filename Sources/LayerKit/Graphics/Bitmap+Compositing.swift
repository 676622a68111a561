import CKernels
import CPixman
import Foundation

extension Bitmap {
    /// Sets every pixel to `color` (no blending).
    public func clear(to color: Color = .clear) {
        fill(bounds, with: color, operator: .source)
    }

    /// Combines a solid color into the pixels of `rect` (cut to the bitmap and to `clip`).
    public func fill(_ rect: PixelRect, with color: Color, operator op: CompositeOperator = .over, clip: Region? = nil) {
        checkNotBeingPainted()
        fill(rect, premultiplied: color.premultipliedARGB32, operator: op, clip: clip)
    }

    /// `fill(_:with:operator:clip:)` with a premultiplied `a8r8g8b8` pixel, exactly.
    ///
    /// Where the result is the pixel itself (`.source`; `.clear`, a store of 0; `.over` of an
    /// opaque pixel) the kernels store it (`lk_fill`, AVX2's stores against pixman's SSE2 fill's
    /// for a painter's background), unless the composite engine is `.pixman`; pixman blends the
    /// rest. Either way pixman's pixels.
    func fill(_ rect: PixelRect, premultiplied pixel: UInt32, operator op: CompositeOperator = .over, clip: Region? = nil) {
        var area = Region(rect.intersection(bounds))
        if let clip { area.formIntersection(clip) }
        if let stored = Self.storedPixel(pixel, op) {
            let engine = Self.compositeEngine
            if engine != .pixman {
                let variant: KernelVariant? = if case let .kernels(v) = engine { v } else { nil }
                Kernels.fill(Kernels.Target(self), pixel: stored, area: area, variant: variant)
                return
            }
        }
        var boxes = area.rects.map(pixman_box32_t.init)
        guard !boxes.isEmpty else { return }
        var pixmanColor = Self.pixmanColor(premultiplied: pixel)
        _ = pixman_image_fill_boxes(op.pixmanOperator, image, &pixmanColor, Int32(boxes.count), &boxes)
    }

    /// Composites `source` with its top-left pixel at (`x`, `y`): whole-pixel placement, which
    /// copies pixels without filtering and so is always exact.
    ///
    /// - Parameters:
    ///   - source: the pixels drawn.
    ///   - x: the column of the source's left edge.
    ///   - y: the row of the source's top edge.
    ///   - op: how source and destination combine (`.over` by default).
    ///   - clip: when given, only these pixels of `self` change.
    ///   - opacity: multiplies the source's alpha (0…1).
    public func composite(_ source: Bitmap, atX x: Int, y: Int, operator op: CompositeOperator = .over,
                          clip: Region? = nil, opacity: Double = 1) {
        checkNotBeingPainted()
        source.checkNotBeingPainted()
        let placed = PixelRect(x: x, y: y, width: source.width, height: source.height)
        guard let area = compositeArea(op, sourceExtent: placed, clip: clip, opacity: opacity) else { return }
        let sourceImage = source.makeSourceImage()
        defer { pixman_image_unref(sourceImage) }
        let mask = Self.opacityMask(opacity)
        defer { if let mask { pixman_image_unref(mask) } }
        compositeOnce(op.pixmanOperator, sourceImage, mask, over: area, sourceOffset: (-x, -y))
    }

    /// Composites `source` through a transform that maps its pixel coordinates to this
    /// bitmap's: a translation, any affine map, or a perspective homography.
    ///
    /// The path is chosen from `transform.kind` (see `CompositePath`): whole-pixel offsets copy
    /// without filtering; other maps sample with `filter`, turned and scaled ones through
    /// LayerKit's kernels with exactly pixman's pixels. Under perspective only the part of the
    /// source in front of the eye (w > 0) is drawn, even when the source plane crosses it.
    ///
    /// - Throws: `BitmapError.transformNotInvertible` for a singular or non-finite transform
    ///   (an edge-on plane), `.transformOutOfRange` when pixman's fixed point cannot hold it.
    public func composite(_ source: Bitmap, operator op: CompositeOperator = .over,
                          transform: Homography = .identity, filter: ImageFilter = .bilinear,
                          clip: Region? = nil, opacity: Double = 1) throws(BitmapError) {
        checkNotBeingPainted()
        source.checkNotBeingPainted()
        try composite(source, operator: op, transform: transform, filter: filter, clip: clip, opacity: opacity, peelsWhole: false)
    }

    /// `composite(_:operator:transform:filter:clip:opacity:)`; with `peelsWhole`, a turned or
    /// scaled composite of the kernels first finds the whole box of `source`'s texels that are
    /// not clear (`notClearBox()`) and samples only within it, where it would otherwise peel its
    /// source's clear border itself as far as its clip's size affords (a sprite's piece cut by
    /// a band's edge affords little). Any such box gives the same pixels.
    func composite(_ source: Bitmap, operator op: CompositeOperator = .over, transform: Homography, filter: ImageFilter,
                   clip: Region?, opacity: Double, peelsWhole: Bool) throws(BitmapError) {
        let kind = transform.kind
        switch CompositePath(transform, kind: kind, operator: op, engine: Self.compositeEngine) {
        case .none:
            throw .transformNotInvertible(transform)
        case let .pixmanCopy(x, y):
            composite(source, atX: x, y: y, operator: op, clip: clip, opacity: opacity)
        case let .kernelOffset(x, y, variant):
            let placed = PixelRect(x: x, y: y, width: source.width, height: source.height)
            guard let area = compositeArea(op, sourceExtent: placed, clip: clip, opacity: opacity) else { return }
            withExtendedLifetime(source) {
                Kernels.composite(Kernels.Source(source), into: Kernels.Target(self), map: .offset(x: x, y: y), filter: filter,
                                  operator: op, opacity: Self.opacity8(opacity), area: area, variant: variant)
            }
        case .pixman:
            guard let (inverse, area) = try transformedArea(source.bounds, kind, transform, filter, op, clip, opacity)
            else { return }
            let sourceImage = source.makeSourceImage()
            defer { pixman_image_unref(sourceImage) }
            try Self.setTransform(inverse, filter, of: sourceImage, for: transform)
            let mask = Self.opacityMask(opacity)
            defer { if let mask { pixman_image_unref(mask) } }
            compositeOnce(op.pixmanOperator, sourceImage, mask, over: area, sourceOffset: (0, 0))
        case let .kernel(variant):
            guard let (inverse, area) = try transformedArea(source.bounds, kind, transform, filter, op, clip, opacity)
            else { return }
            let map = try Self.kernelMap(inverse, kind, transform)
            var pixels = Kernels.Source(source)
            if peelsWhole { pixels.notClear = (source.notClearBox(), 0) }
            withExtendedLifetime(source) {
                Kernels.composite(pixels, into: Kernels.Target(self), map: map, filter: filter,
                                  operator: op, opacity: Self.opacity8(opacity), area: area, variant: variant)
            }
        case let .kernelSamples(variant):
            guard let (inverse, area) = try transformedArea(source.bounds, kind, transform, filter, op, clip, opacity)
            else { return }
            compositeSampled(source, op, map: try Self.kernelMap(inverse, kind, transform), filter: filter, area: area,
                             opacity: opacity, variant: variant)
        }
    }

    /// The box of texels outside which every pixel is clear (`lk_job.texels`), in one
    /// pass over the clear rows at the top and bottom and the ends of the rows between. Read while
    /// nothing writes the pixels.
    func notClearBox() -> lk_box {
        var box = lk_box(x1: 0, y1: 0, x2: Int32(width), y2: Int32(height))
        if lk_texels_not_clear_box(pixels, Int32(width), Int32(height), Int32(bytesPerRow), LK_FORMAT_ARGB32, 0, &box) != LK_OK {
            box = lk_box(x1: 0, y1: 0, x2: Int32(width), y2: Int32(height))
        }
        return box
    }

    /// The inverse of a transformed composite's map and the pixels it may change (the projected
    /// source, cut by the clip and the bitmap); nil when there is nothing to draw.
    func transformedArea(_ sourceRect: PixelRect, _ kind: TransformKind, _ transform: Homography, _ filter: ImageFilter,
                         _ op: CompositeOperator, _ clip: Region?, _ opacity: Double) throws(BitmapError)
        -> (Homography, Region)? {
        guard let (inverse, extent) = try transformedExtent(sourceRect, transform, filter),
              let area = compositeArea(op, sourceExtent: extent, clip: clip, opacity: opacity)
        else { return nil }
        return (inverse, area)
    }

    /// The inverse of a transformed composite's map and the rectangle its source reaches (before
    /// any clip); nil when the projection has no bounds.
    func transformedExtent(_ sourceRect: PixelRect, _ transform: Homography, _ filter: ImageFilter) throws(BitmapError)
        -> (Homography, PixelRect)? {
        guard let inverse = transform.inverted() else { throw .transformNotInvertible(transform) }
        // A filter reaches half a source pixel past the edge pixels' centres, which under
        // magnification is more than the projected edge: take that margin into the area.
        let reach = filter == .bilinear ? sourceRect.cgRect.insetBy(dx: -0.5, dy: -0.5) : sourceRect.cgRect
        guard let projected = CGRect(boundingPoints: transform.projectedPolygon(of: reach)) else { return nil }
        return (inverse, PixelRect(covering: projected))
    }

    /// A kernel's map for a composite's inverse: pixman's own fixed-point transform for affine
    /// maps (so that pixels match pixman's), the double-precision homography for perspective.
    static func kernelMap(_ inverse: Homography, _ kind: TransformKind, _ transform: Homography) throws(BitmapError)
        -> Kernels.Map {
        if kind == .projective { return .projective(inverse, epsilon: Homography.defaultEpsilon) }
        var fixed = pixman_transform()
        // Only now that the source is known to overlap the bitmap: far-away placements are
        // nothing to draw, not an error.
        guard pixmanTransform(inverse, into: &fixed) else { throw .transformOutOfRange(transform) }
        return .affine(fixed)
    }

    /// Gives a pixman source or mask image the fixed-point transform and filter of an affine map.
    static func setTransform(_ inverse: Homography, _ filter: ImageFilter, of image: OpaquePointer,
                             for transform: Homography) throws(BitmapError) {
        var fixed = pixman_transform()
        guard pixmanTransform(inverse, into: &fixed) else { throw .transformOutOfRange(transform) }
        _ = pixman_image_set_transform(image, &fixed)
        _ = pixman_image_set_filter(image, filter.pixmanFilter, nil, 0)
    }

    /// One pixman composite over every rectangle of `area`: the area is set as the target's
    /// clip for the call, so pixman picks its fast path once and walks the rectangles itself
    /// (a call per rectangle costs more than the pixels of a thin band).
    func compositeOnce(_ op: pixman_op_t, _ source: OpaquePointer, _ mask: OpaquePointer?, over area: Region,
                       sourceOffset: (x: Int, y: Int), maskOffset: (x: Int, y: Int) = (0, 0)) {
        let box = area.extents
        area.withPixmanRegion { _ = pixman_image_set_clip_region32(image, $0) }
        pixman_image_composite32(op, source, mask, image, Int32(box.x + sourceOffset.x), Int32(box.y + sourceOffset.y),
                                 Int32(box.x + maskOffset.x), Int32(box.y + maskOffset.y),
                                 Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
        _ = pixman_image_set_clip_region32(image, nil)
    }

    /// The pixels a composite may change: the source's extent for operators that leave the
    /// destination alone where the source is clear, all of it otherwise; cut to the bitmap and
    /// the clip. Nil when there is nothing to do.
    func compositeArea(_ op: CompositeOperator, sourceExtent: PixelRect, clip: Region?, opacity: Double) -> Region? {
        if op.isBoundedBySource, !(Color.unit(opacity) > 0) { return nil }
        let limit = op.isBoundedBySource ? sourceExtent.intersection(bounds) : bounds
        guard let clip else { return limit.isEmpty ? nil : Region(limit) }
        // A painter's clip usually lies within the source's extent already: no region to build.
        let e = clip.extents
        if e.minX >= limit.minX, e.minY >= limit.minY, e.maxX <= limit.maxX, e.maxY <= limit.maxY {
            return clip.isEmpty ? nil : clip
        }
        let area = Region(limit).intersection(clip)
        return area.isEmpty ? nil : area
    }

    /// A solid mask carrying the opacity, or nil for full opacity. Quantized to 8 bits (exactly
    /// as pixman applies it to 8-bit pixels) so that results do not depend on the path taken.
    static func opacityMask(_ opacity: Double) -> OpaquePointer? {
        let alpha8 = UInt32(opacity8(opacity))
        guard alpha8 < 255 else { return nil }
        var color = pixmanColor(premultiplied: alpha8 << 24)
        return pixman_image_create_solid_fill(&color)
    }

    /// An opacity as the 8-bit factor every path multiplies by.
    static func opacity8(_ opacity: Double) -> UInt8 {
        UInt8((Color.unit(opacity) * 255).rounded())
    }

    /// Fills pixman's fixed-point source transform for an affine map, which maps destination
    /// to source in the column-vector convention: the transpose of our row-vector inverse, with
    /// a last row of exactly (0, 0, 1) for pixman's affine fast paths. (Perspective maps go
    /// through the kernels instead.)
    static func pixmanTransform(_ inverse: Homography, into result: inout pixman_transform) -> Bool {
        let w = inverse.m33
        let m = Homography(m11: inverse.m11 / w, m12: inverse.m12 / w, m13: 0, m21: inverse.m21 / w, m22: inverse.m22 / w,
                           m23: 0, m31: inverse.m31 / w, m32: inverse.m32 / w, m33: 1)
        var f = pixman_f_transform()
        f.m = ((Double(m.m11), Double(m.m21), Double(m.m31)),
               (Double(m.m12), Double(m.m22), Double(m.m32)),
               (0, 0, 1))
        return pixman_transform_from_pixman_f_transform(&result, &f) != 0
    }

    /// Multiplies every pixel by a color (a tint): channels by its components, alpha by its alpha.
    public func multiply(by tint: Color) {
        checkNotBeingPainted()
        let factors = [Color.unit(tint.alpha), Color.unit(tint.red) * Color.unit(tint.alpha),
                       Color.unit(tint.green) * Color.unit(tint.alpha), Color.unit(tint.blue) * Color.unit(tint.alpha)]
        let scale = factors.map { UInt32(($0 * 256).rounded()) }   // 8.8 fixed point, rounded: exact for 0 and 1
        withUnsafeMutablePixels { pixels in
            for i in pixels.indices where pixels[i] != 0 {
                let p = pixels[i]
                // Parenthesized: in Swift a shift binds tighter than a multiplication.
                let a = ((p >> 24 & 0xFF) * scale[0] + 128) >> 8, r = ((p >> 16 & 0xFF) * scale[1] + 128) >> 8
                let g = ((p >> 8 & 0xFF) * scale[2] + 128) >> 8, b = ((p & 0xFF) * scale[3] + 128) >> 8
                pixels[i] = min(a, 255) << 24 | min(r, a) << 16 | min(g, a) << 8 | min(b, a)
            }
        }
    }

    /// The pixel a fill with `op` stores wherever it reaches, when that is all it does: the
    /// pixel for `.source`, 0 for `.clear`, an opaque pixel for `.over` (pixman's fill of the
    /// boxes too, `pixman_image_fill_boxes` making such fills `SRC`); nil otherwise.
    static func storedPixel(_ pixel: UInt32, _ op: CompositeOperator) -> UInt32? {
        switch op {
        case .source: pixel
        case .clear: 0
        case .over: pixel >> 24 == 0xFF ? pixel : nil
        default: nil
        }
    }

    /// pixman's 16-bit premultiplied color for an 8-bit premultiplied pixel (×257 keeps it exact).
    static func pixmanColor(premultiplied pixel: UInt32) -> pixman_color_t {
        func channel(_ shift: UInt32) -> UInt16 { UInt16(pixel >> shift & 0xFF) * 257 }
        return pixman_color_t(red: channel(16), green: channel(8), blue: channel(0), alpha: channel(24))
    }
}

extension pixman_box32_t {
    init(_ r: PixelRect) {
        self.init(x1: Int32(r.minX), y1: Int32(r.minY), x2: Int32(r.maxX), y2: Int32(r.maxY))
    }
}
