import CPixman
import Foundation

extension Bitmap {
    /// Sets every pixel to `color` (no blending).
    public func clear(to color: Color = .clear) {
        fill(bounds, with: color, operator: .source)
    }

    /// Combines a solid color into the pixels of `rect` (cut to the bitmap and to `clip`).
    public func fill(_ rect: PixelRect, with color: Color, operator op: CompositeOperator = .over, clip: Region? = nil) {
        var area = Region(rect.intersection(bounds))
        if let clip { area.formIntersection(clip) }
        var boxes = area.rects.map(pixman_box32_t.init)
        guard !boxes.isEmpty else { return }
        var pixmanColor = Self.pixmanColor(premultiplied: color.premultipliedARGB32)
        _ = pixman_image_fill_boxes(op.pixmanOperator, image, &pixmanColor, Int32(boxes.count), &boxes)
    }

    /// Composites `source` with its top-left pixel at (`x`, `y`): whole-pixel placement, which
    /// copies pixels without filtering and so is always exact.
    ///
    /// - Parameters:
    ///   - op: how source and destination combine (`.over` by default).
    ///   - clip: when given, only these pixels of `self` change.
    ///   - opacity: multiplies the source's alpha (0…1).
    public func composite(_ source: Bitmap, atX x: Int, y: Int, operator op: CompositeOperator = .over,
                          clip: Region? = nil, opacity: Double = 1) {
        let placed = PixelRect(x: x, y: y, width: source.width, height: source.height)
        guard let area = compositeArea(op, sourceExtent: placed, clip: clip, opacity: opacity) else { return }
        let sourceImage = source.makeSourceImage()
        defer { pixman_image_unref(sourceImage) }
        let mask = Self.opacityMask(opacity)
        defer { if let mask { pixman_image_unref(mask) } }
        for r in area.rects {
            pixman_image_composite32(op.pixmanOperator, sourceImage, mask, image,
                                     Int32(r.x - x), Int32(r.y - y), 0, 0,
                                     Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
    }

    /// Composites `source` through a transform that maps its pixel coordinates to this
    /// bitmap's: a translation, any affine map, or a perspective homography.
    ///
    /// The cheapest exact pixman path is chosen from `transform.kind`: whole-pixel offsets copy
    /// without filtering, other maps sample with `filter`. Under perspective only the part of
    /// the source in front of the eye (w > 0) is drawn, even when the source plane crosses it.
    ///
    /// - Throws: `BitmapError.transformNotInvertible` for a singular or non-finite transform
    ///   (an edge-on plane), `.transformOutOfRange` when pixman's fixed point cannot hold it.
    public func composite(_ source: Bitmap, operator op: CompositeOperator = .over,
                          transform: Homography = .identity, filter: ImageFilter = .bilinear,
                          clip: Region? = nil, opacity: Double = 1) throws(BitmapError) {
        switch transform.kind {
        case .degenerate:
            throw .transformNotInvertible(transform)
        case let .integerTranslation(x, y):
            composite(source, atX: x, y: y, operator: op, clip: clip, opacity: opacity)
        case .affine, .projective:
            try compositeTransformed(source, op, transform, filter, clip, opacity)
        }
    }

    private func compositeTransformed(_ source: Bitmap, _ op: CompositeOperator, _ transform: Homography,
                                      _ filter: ImageFilter, _ clip: Region?, _ opacity: Double) throws(BitmapError) {
        guard let inverse = transform.inverted() else { throw .transformNotInvertible(transform) }
        let sourceRect = source.bounds.cgRect
        // A filter reaches half a source pixel past the edge pixels' centres, which under
        // magnification is more than the projected edge: take that margin into the area.
        let reach = filter == .bilinear ? sourceRect.insetBy(dx: -0.5, dy: -0.5) : sourceRect
        let polygon = transform.projectedPolygon(of: reach)
        guard let projected = CGRect(boundingPoints: polygon) else { return }
        guard let area = compositeArea(op, sourceExtent: PixelRect(covering: projected), clip: clip, opacity: opacity)
        else { return }
        // Only now that the source is known to overlap the bitmap: far-away placements are
        // nothing to draw, not an error.
        var pixmanTransform = pixman_transform()
        guard Self.pixmanTransform(inverse, kind: transform.kind, into: &pixmanTransform) else {
            throw .transformOutOfRange(transform)
        }

        let sourceImage = source.makeSourceImage()
        defer { pixman_image_unref(sourceImage) }
        _ = pixman_image_set_transform(sourceImage, &pixmanTransform)
        _ = pixman_image_set_filter(sourceImage, filter.pixmanFilter, nil, 0)

        // A plane that crosses the eye has a part behind it whose image, divided by a negative w,
        // lands mirrored on screen; pixman cannot tell, so that side of the vanishing line is
        // masked away. Otherwise the opacity alone is the mask.
        let crossesEye = [CGPoint(x: sourceRect.minX, y: sourceRect.minY), CGPoint(x: sourceRect.maxX, y: sourceRect.minY),
                          CGPoint(x: sourceRect.maxX, y: sourceRect.maxY), CGPoint(x: sourceRect.minX, y: sourceRect.maxY)]
            .contains { transform.homogeneous($0).w <= Homography.defaultEpsilon }
        let maskOrigin = area.extents
        let mask = crossesEye ? Self.frontHalfPlaneMask(inverse, over: maskOrigin, opacity: opacity)
                              : Self.opacityMask(opacity)
        defer { if let mask { pixman_image_unref(mask) } }
        for r in area.rects {
            pixman_image_composite32(op.pixmanOperator, sourceImage, mask, image,
                                     Int32(r.x), Int32(r.y),
                                     crossesEye ? Int32(r.x - maskOrigin.x) : 0, crossesEye ? Int32(r.y - maskOrigin.y) : 0,
                                     Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
        }
    }

    /// The pixels a composite may change: the source's extent for operators that leave the
    /// destination alone where the source is clear, all of it otherwise; cut to the bitmap and
    /// the clip. Nil when there is nothing to do.
    private func compositeArea(_ op: CompositeOperator, sourceExtent: PixelRect, clip: Region?, opacity: Double) -> Region? {
        if op.isBoundedBySource, !(Color.unit(opacity) > 0) { return nil }
        var area = Region(op.isBoundedBySource ? sourceExtent.intersection(bounds) : bounds)
        if let clip { area.formIntersection(clip) }
        return area.isEmpty ? nil : area
    }

    /// A solid mask carrying the opacity, or nil for full opacity. Quantized to 8 bits (exactly
    /// as pixman applies it to 8-bit pixels) so that results do not depend on the path taken.
    static func opacityMask(_ opacity: Double) -> OpaquePointer? {
        let alpha8 = UInt32((Color.unit(opacity) * 255).rounded())
        guard alpha8 < 255 else { return nil }
        var color = pixmanColor(premultiplied: alpha8 << 24)
        return pixman_image_create_solid_fill(&color)
    }

    /// An a8 mask over `rect` (in destination pixels) that is `opacity` where the inverse
    /// homography gives w > 0, the side of the vanishing line that is in front of the eye.
    private static func frontHalfPlaneMask(_ inverse: Homography, over rect: PixelRect, opacity: Double) -> OpaquePointer? {
        guard let mask = pixman_image_create_bits(PIXMAN_a8, Int32(rect.width), Int32(rect.height), nil, 0) else {
            return nil
        }
        // (X, Y, 1) · inverse has w = 1 / W, W being the source point's w: positive in front.
        let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                       CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
        let side = { (p: CGPoint) in p.x * inverse.m13 + p.y * inverse.m23 + inverse.m33 }
        var front: [CGPoint] = []
        for (i, p) in corners.enumerated() {
            let q = corners[(i + 1) % corners.count]
            let sp = side(p), sq = side(q)
            if sp > 0 { front.append(p) }
            if (sp > 0) != (sq > 0) {
                let t = sp / (sp - sq)
                front.append(CGPoint(x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y)))
            }
        }
        if front.count >= 3 {
            func fixed(_ p: CGPoint) -> pixman_point_fixed_t {
                pixman_point_fixed_t(x: pixman_fixed_t((p.x - CGFloat(rect.x)) * 65536),
                                     y: pixman_fixed_t((p.y - CGFloat(rect.y)) * 65536))
            }
            var triangles = (1..<front.count - 1).map {
                pixman_triangle_t(p1: fixed(front[0]), p2: fixed(front[$0]), p3: fixed(front[$0 + 1]))
            }
            pixman_add_triangles(mask, 0, 0, Int32(triangles.count), &triangles)
        }
        if let opacityMask = opacityMask(opacity) {
            pixman_image_composite32(PIXMAN_OP_IN, opacityMask, nil, mask, 0, 0, 0, 0, 0, 0,
                                     Int32(rect.width), Int32(rect.height))
            pixman_image_unref(opacityMask)
        }
        return mask
    }

    /// Fills pixman's fixed-point source transform, which maps destination to source in the
    /// column-vector convention: the transpose of our row-vector inverse.
    private static func pixmanTransform(_ inverse: Homography, kind: TransformKind,
                                        into result: inout pixman_transform) -> Bool {
        var m = inverse
        if kind == .affine {
            // pixman's affine fast paths need a last row of exactly (0, 0, 1).
            m.m13 = 0; m.m23 = 0
            let w = m.m33
            m = Homography(m11: m.m11 / w, m12: m.m12 / w, m13: 0, m21: m.m21 / w, m22: m.m22 / w, m23: 0,
                           m31: m.m31 / w, m32: m.m32 / w, m33: 1)
        } else {
            // The matrix is homogeneous: scale it so its largest entry is 2¹⁴, which gives the
            // small perspective terms the most of the 16 fraction bits while keeping pixman's
            // 64-bit products clear of overflow.
            let largest = [m.m11, m.m12, m.m13, m.m21, m.m22, m.m23, m.m31, m.m32, m.m33].map(abs).max() ?? 1
            let k = 16384 / largest
            m = Homography(m11: m.m11 * k, m12: m.m12 * k, m13: m.m13 * k, m21: m.m21 * k, m22: m.m22 * k,
                           m23: m.m23 * k, m31: m.m31 * k, m32: m.m32 * k, m33: m.m33 * k)
        }
        var f = pixman_f_transform()
        f.m = ((Double(m.m11), Double(m.m21), Double(m.m31)),
               (Double(m.m12), Double(m.m22), Double(m.m32)),
               (Double(m.m13), Double(m.m23), Double(m.m33)))
        return pixman_transform_from_pixman_f_transform(&result, &f) != 0
    }

    /// Multiplies every pixel by a color (a tint): channels by its components, alpha by its alpha.
    public func multiply(by tint: Color) {
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
