import CKernels
import CPixman

/// LayerKit's SIMD sampling kernels (the CKernels target); the only Swift code that calls them.
///
/// A kernel composites a source — a bitmap's premultiplied pixels, or a mask's coverage times a
/// color — through an affine map, pixel for pixel as pixman 0.42 draws it from the same 16.16
/// transform, or through a perspective map sampled in double precision; over or source, with an
/// 8-bit opacity (pixman's solid mask), into the rectangles of a region, walking each row's
/// exact span. Which composites come here is decided by `CompositePath`.
enum Kernels {
    /// How target pixels map to source pixels.
    enum Map {
        /// pixman's fixed-point affine source transform (see `Bitmap.pixmanTransform`).
        case affine(pixman_transform)
        /// A perspective map from target to source (row-vector convention); pixels whose w is
        /// `epsilon` or less lie on or behind the eye and stay transparent.
        case projective(Homography, epsilon: Double)
        /// The source placed with its pixel (0, 0) at target pixel (`x`, `y`).
        case offset(x: Int, y: Int)
    }

    /// Pixels a kernel writes: part of a target whose top-left pixel is (`originX`, `originY`)
    /// in the coordinates that the map and the area use.
    struct Target {
        let pixels: UnsafeMutablePointer<UInt32>
        let originX: Int, originY: Int
        let width: Int, height: Int
        let bytesPerRow: Int

        init(_ bitmap: Bitmap) {
            self.init(pixels: bitmap.pixels, originX: 0, originY: 0, width: bitmap.width, height: bitmap.height,
                      bytesPerRow: bitmap.bytesPerRow)
        }

        /// The pixels of `rect` (within the bitmap, not empty) of `bitmap`: composites into it
        /// write nothing outside the rectangle, whatever their area.
        init(_ bitmap: Bitmap, within rect: PixelRect) {
            precondition(!rect.isEmpty && bitmap.bounds.contains(rect), "\(rect) is not a part of the bitmap")
            self.init(pixels: bitmap.pixels + rect.y * (bitmap.bytesPerRow / 4) + rect.x, originX: rect.x, originY: rect.y,
                      width: rect.width, height: rect.height, bytesPerRow: bitmap.bytesPerRow)
        }

        init(pixels: UnsafeMutablePointer<UInt32>, originX: Int, originY: Int, width: Int, height: Int, bytesPerRow: Int) {
            self.pixels = pixels
            self.originX = originX; self.originY = originY
            self.width = width; self.height = height
            self.bytesPerRow = bytesPerRow
        }
    }

    /// What a kernel reads: premultiplied a8r8g8b8 pixels, or 8-bit coverage. It does not keep
    /// its memory alive: callers hold the bitmap or mask for the composite's duration.
    struct Source {
        let pixels: UnsafeRawPointer
        let width: Int, height: Int
        let bytesPerRow: Int
        let isCoverage: Bool
        /// Coverage's vertical pairs (`AlphaMask.verticalPairs()`), from which bilinear rows
        /// read a pixel's texels in one load; nil: none.
        var pairs: (pointer: UnsafeRawPointer, bytesPerRow: Int)? = nil
        /// The box outside which the source is clear at a faint level (`lk_job.texels` and
        /// `texels_faint`), when known; nil: each affine composite peels its own. A box found
        /// at a level above the composite's own is not used.
        var notClear: (box: lk_box, faint: UInt32)?

        init(_ bitmap: Bitmap) {
            self.init(pixels: UnsafeRawPointer(bitmap.pixels), width: bitmap.width, height: bitmap.height,
                      bytesPerRow: bitmap.bytesPerRow, isCoverage: false)
        }

        /// A mask's coverage; `pairs`: with its vertical pairs, for turned or scaled bilinear
        /// composites (the pairs are made once per change of the mask and then kept).
        init(_ mask: AlphaMask, pairs: Bool = false) {
            self.init(pixels: UnsafeRawPointer(mask.pixels), width: mask.width, height: mask.height,
                      bytesPerRow: mask.bytesPerRow, isCoverage: true)
            if pairs { self.pairs = mask.verticalPairs() }
        }

        init(pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int, isCoverage: Bool) {
            self.pixels = pixels
            self.width = width; self.height = height
            self.bytesPerRow = bytesPerRow
            self.isCoverage = isCoverage
        }
    }

    /// The range of `boxes` (a region's, in pixman's y-x banded order) that may reach `rows`:
    /// from the first box whose bottom is below the rows' top to the first whose top is at or
    /// below their bottom. Boxes between may still miss the rows' columns.
    static func rows(_ rows: Range<Int>, of boxes: UnsafeBufferPointer<pixman_box32_t>) -> (first: Int, end: Int) {
        // Bands are sorted by top and do not overlap, so bottoms are sorted too.
        var lo = 0, hi = boxes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(boxes[mid].y2) <= rows.lowerBound { lo = mid + 1 } else { hi = mid }
        }
        let first = lo
        hi = boxes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if Int(boxes[mid].y1) < rows.upperBound { lo = mid + 1 } else { hi = mid }
        }
        return (first, lo)
    }

    /// Composites `source` into `target` within `area`: pixels over or source (the only
    /// operators here), or coverage times the premultiplied `color`, over.
    static func composite(_ source: Source, color: UInt32 = 0, into target: Target, map: Map, filter: ImageFilter,
                          operator op: CompositeOperator = .over, opacity: UInt8, area: Region, variant: KernelVariant?) {
        precondition(op == .over || op == .source && !source.isCoverage,
                     "the kernels combine pixels over or source, and coverage over; not \(op)")
        var job = Self.job(from: source, into: target)
        job.format = source.isCoverage ? LK_FORMAT_A8 : LK_FORMAT_ARGB32
        job.op = op == .over ? LK_OP_OVER : LK_OP_SRC
        job.filter = filter == .bilinear ? LK_FILTER_BILINEAR : LK_FILTER_NEAREST
        job.opacity = opacity
        job.color = color
        job.variant = variant?.cVariant ?? LK_VARIANT_AUTO
        if let pairs = source.pairs {
            job.pairs = pairs.pointer
            job.pairs_stride = Int32(pairs.bytesPerRow)
        }
        var texels = source.notClear?.box ?? lk_box()
        withUnsafePointer(to: &texels) { texelsPointer in
            if let notClear = source.notClear {
                job.texels = texelsPointer
                job.texels_faint = notClear.faint
            }
            withBoxes(of: area, reaching: target) { boxes, count in
                job.boxes = boxes
                job.box_count = count
                let status: lk_status
                switch map {
                case let .affine(t):
                    let m = t.matrix
                    let fixed: (Int32, Int32, Int32, Int32, Int32, Int32) = (m.0.0, m.0.1, m.0.2, m.1.0, m.1.1, m.1.2)
                    status = withUnsafePointer(to: fixed) {
                        $0.withMemoryRebound(to: Int32.self, capacity: 6) { lk_composite_affine(&job, $0) }
                    }
                case let .projective(h, epsilon):
                    let m = [h.m11, h.m12, h.m13, h.m21, h.m22, h.m23, h.m31, h.m32, h.m33].map(Double.init)
                    status = lk_composite_projective(&job, m, epsilon)
                case let .offset(x, y):
                    status = source.isCoverage ? lk_composite_a8_offset(&job, Int32(x), Int32(y))
                                               : lk_composite_argb_offset(&job, Int32(x), Int32(y))
                }
                assert(status == LK_OK, "a kernel refused its job: \(job)")
            }
        }
    }

    /// A job's target and source fields.
    private static func job(from source: Source, into target: Target) -> lk_job {
        var job = lk_job()
        job.dst = target.pixels
        job.origin_x = Int32(target.originX)
        job.origin_y = Int32(target.originY)
        job.dst_width = Int32(target.width)
        job.dst_height = Int32(target.height)
        job.dst_stride = Int32(target.bytesPerRow)
        job.src = source.pixels
        job.src_width = Int32(source.width)
        job.src_height = Int32(source.height)
        job.src_stride = Int32(source.bytesPerRow)
        return job
    }

    /// Lends `body` the boxes of `area` that may reach the target's rows (none: not called).
    ///
    /// Only the boxes of the target's rows: a region's boxes are sorted by their top row, in
    /// bands of one top and bottom (pixman's y-x banded order), so both ends are found by
    /// bisection. A small item under a damage of many rectangles (a text board's lines) would
    /// otherwise have the kernel walk them all.
    private static func withBoxes(of area: Region, reaching target: Target,
                                  _ body: (UnsafePointer<lk_box>, Int32) -> Void) {
        area.withPixmanRegion { region in
            var count: Int32 = 0
            guard let all = pixman_region32_rectangles(region, &count), count > 0 else { return }
            let (first, end) = Self.rows(Int(target.originY)..<Int(target.originY) + target.height,
                                         of: UnsafeBufferPointer(start: all, count: Int(count)))
            guard first < end else { return }
            // pixman_box32_t and lk_box are both four int32_t: x1, y1, x2, y2.
            (all + first).withMemoryRebound(to: lk_box.self, capacity: end - first) { boxes in
                body(UnsafePointer(boxes), Int32(end - first))
            }
        }
    }

    /// The offset composite of `color` times `opacity` through the coverage `source` placed
    /// with its pixel (0, 0) at (`x`, `y`), into `target` within `area`, where every pixel it
    /// covers holds `base`: each is written (as `base` where the coverage is 0), none read.
    static func composite(_ source: Source, color: UInt32, opacity: UInt8, onBase base: UInt32, into target: Target,
                          atX x: Int, y: Int, area: Region, variant: KernelVariant?) {
        precondition(source.isCoverage, "only coverage is drawn over a base")
        var job = Self.job(from: source, into: target)
        job.format = LK_FORMAT_A8
        job.op = LK_OP_OVER
        job.filter = LK_FILTER_NEAREST
        job.opacity = opacity
        job.color = color
        job.variant = variant?.cVariant ?? LK_VARIANT_AUTO
        withBoxes(of: area, reaching: target) { boxes, count in
            job.boxes = boxes
            job.box_count = count
            let status = lk_composite_a8_on_base(&job, Int32(x), Int32(y), base)
            assert(status == LK_OK, "a kernel refused its job: \(job)")
        }
    }

    /// Stores `pixel` into every pixel of `area` in `target` (a whole bitmap's pixels, origin
    /// (0, 0)): what pixman's fill of the same boxes stores.
    static func fill(_ target: Target, pixel: UInt32, area: Region, variant: KernelVariant?) {
        precondition(target.originX == 0 && target.originY == 0, "fills take a whole bitmap's pixels")
        withBoxes(of: area, reaching: target) { boxes, count in
            let status = lk_fill(target.pixels, Int32(target.width), Int32(target.height), Int32(target.bytesPerRow),
                                 pixel, boxes, count, variant?.cVariant ?? LK_VARIANT_AUTO)
            assert(status == LK_OK, "lk_fill refused its fill of \(target)")
        }
    }

    /// A premultiplied color times an 8-bit opacity, rounded as pixman multiplies by a mask: the
    /// color that a mask's coverage multiplies, whichever path draws it.
    static func color(_ color: UInt32, timesOpacity opacity: UInt8) -> UInt32 {
        lk_color_times_opacity(color, opacity)
    }

    static func isAvailable(_ variant: KernelVariant) -> Bool {
        lk_kernels_variant_is_available(variant.cVariant) != 0
    }

    static var processDefault: KernelVariant {
        switch lk_kernels_variant() {
        case LK_VARIANT_AVX512: .avx512
        case LK_VARIANT_AVX2: .avx2
        case LK_VARIANT_SSE2: .sse2
        default: .scalar
        }
    }
}

extension KernelVariant {
    fileprivate var cVariant: lk_variant {
        switch self {
        case .scalar: LK_VARIANT_SCALAR
        case .sse2: LK_VARIANT_SSE2
        case .avx2: LK_VARIANT_AVX2
        case .avx512: LK_VARIANT_AVX512
        }
    }
}
