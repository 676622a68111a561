import CKernels
import CPixman
import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// How the affine kernels walk a composite: spans solved from the texels that are not clear,
/// rows shared by the boxes of a band, runs split into inner and edge parts. Whatever the walk,
/// the pixels are pixman's.
@Suite struct KernelSpanTests {
    /// Sources inside clear frames of 0 to 10 texels a side (a blurred shadow has several), some
    /// wholly clear or with one texel that is not: the spans shrink to the texels that are not
    /// clear, and every variant still draws pixman's pixels, over and source, in any clip.
    @Test func clearBordersDrawPixmansPixels() throws {
        var g = SeededGenerator(seed: 31)
        var compared = 0
        for trial in 0..<600 {
            let sw = Int.random(in: 1...(trial % 4 == 0 ? 6 : 40), using: &g), sh = Int.random(in: 1...40, using: &g)
            let dw = Int.random(in: 1...60, using: &g), dh = Int.random(in: 1...60, using: &g)
            let frame = KernelSpanFixtures.frame(&g)
            let source = try KernelFixtures.bitmap(width: sw, height: sh, &g)
            source.withUnsafeMutablePixels { pixels in
                for y in 0..<sh {
                    for x in 0..<sw where !frame.keeps(x, y, sw, sh) { pixels[y * sw + x] = 0 }
                }
            }
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            for y in 0..<sh {
                for x in 0..<sw where !frame.keeps(x, y, sw, sh) { mask[x, y] = 0 }
            }
            let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
            let transform = KernelFixtures.affineMap(source: sw, sh, target: dw, dh, &g)
            let op: CompositeOperator = Bool.random(using: &g) ? .over : .source
            let filter: ImageFilter = Bool.random(using: &g) ? .bilinear : .nearest
            let clip = KernelFixtures.clip(width: dw, height: dh, &g), opacity = KernelFixtures.opacity(&g)
            let color = Color(premultipliedARGB32: KernelFixtures.pixel(&g))
            let what = "trial \(trial): \(sw)x\(sh) in a frame \(frame) through \(transform), \(filter)"
            if try KernelSpanFixtures.expectPixmansPixels(on: target, from: source.bounds, op, transform, filter, clip, what, {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(source, operator: op, transform: transform, filter: filter, clip: clip, opacity: opacity)
            }) { compared += 1 }
            if try KernelSpanFixtures.expectPixmansPixels(on: target, from: mask.bounds, .over, transform, filter, clip, what + ", A8", {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(mask, color: color, transform: transform, filter: filter, clip: clip, opacity: opacity)
            }) { compared += 1 }
        }
        #expect(compared > 800, "only \(compared) compared")
    }

    /// A8 sources inside frames of faint coverage, as a blurred shadow's tails are: coverage the
    /// color (times opacity) draws as nothing is peeled like zero, and coverage a level above
    /// it is not. The frames' texels straddle that level (the largest coverage t with
    /// c·t <= 127 for the color's largest channel c), for faint and strong colors, so peeling
    /// a level too far, or counting a drawn level as clear, draws other pixels than pixman's.
    @Test func faintBordersDrawPixmansPixels() throws {
        var g = SeededGenerator(seed: 47)
        var compared = 0
        for trial in 0..<500 {
            let sw = Int.random(in: 2...40, using: &g), sh = Int.random(in: 2...40, using: &g)
            let dw = Int.random(in: 1...60, using: &g), dh = Int.random(in: 1...60, using: &g)
            let frame = KernelSpanFixtures.frame(&g)
            // Mostly faint colors (a shadow's alpha), where several levels draw nothing.
            let alpha = trial % 3 == 0 ? Int.random(in: 1...255, using: &g) : Int.random(in: 1...40, using: &g)
            let channels = (0..<3).map { _ in UInt32(Int.random(in: 0...alpha, using: &g)) }
            let color = Color(premultipliedARGB32: UInt32(alpha) << 24 | channels[0] << 16 | channels[1] << 8 | channels[2])
            let opacity = KernelFixtures.opacity(&g)
            let strongest = max(1, Int((Double(alpha) * opacity).rounded()))
            let faint = 127 / strongest
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            for y in 0..<sh {
                for x in 0..<sw where !frame.keeps(x, y, sw, sh) {
                    mask[x, y] = UInt8(min(255, Int.random(in: 0...3, using: &g) == 0
                        ? Int.random(in: 0...(faint + 1), using: &g) : faint + Int.random(in: 0...1, using: &g)))
                }
            }
            let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
            let transform = KernelFixtures.affineMap(source: sw, sh, target: dw, dh, &g)
            let filter: ImageFilter = trial % 4 == 0 ? .nearest : .bilinear
            let clip = KernelFixtures.clip(width: dw, height: dh, &g)
            let what = "trial \(trial): \(sw)x\(sh) A8 in a frame \(frame) at most \(faint + 1), \(color) x \(opacity), \(filter)"
            if try KernelSpanFixtures.expectPixmansPixels(on: target, from: mask.bounds, .over, transform, filter, clip, what, {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(mask, color: color, transform: transform, filter: filter, clip: clip, opacity: opacity)
            }) { compared += 1 }
        }
        #expect(compared > 250, "only \(compared) compared")
    }

    /// A mask's border is peeled once and kept (`AlphaMask.notClearBox(faint:)`): it is found
    /// again when the pixels change, and for a color that draws other levels as nothing, so
    /// coverage written outside the last box, or faint for one color and not another, is drawn.
    @Test func aKeptBorderFollowsThePixelsAndTheColor() throws {
        let mask = try AlphaMask(width: 40, height: 30)
        for y in 12..<18 { for x in 15..<25 { mask[x, y] = 200 } }
        let map = Homography(CGAffineTransform(translationX: -20, y: -15).concatenating(CGAffineTransform(rotationAngle: 0.3))
            .concatenating(CGAffineTransform(translationX: 30.4, y: 29.7)))
        let faint = Color(premultipliedARGB32: 0x2000_0000), strong = Color(premultipliedARGB32: 0xff20_4060)
        var g = SeededGenerator(seed: 5)
        let target = try KernelFixtures.bitmap(width: 60, height: 60, &g)
        func expectPixmans(_ color: Color, _ what: String) throws {
            #expect(try KernelSpanFixtures.expectPixmansPixels(on: target, from: mask.bounds, .over, map, .bilinear, nil, what, {
                (b: Bitmap) throws(BitmapError) in try b.composite(mask, color: color, transform: map)
            }), "pixman compared: \(what)")
        }
        try expectPixmans(faint, "ink in the middle")
        // Full coverage in a corner, outside the box found first.
        for y in 0..<3 { for x in 0..<4 { mask[x, y] = 255 } }
        try expectPixmans(faint, "ink written in a corner")
        // Coverage 3 along the bottom: nothing for the faint color (alpha 32: 127 / 32 = 3),
        // something for the strong one.
        for x in 0..<40 { mask[x, 29] = 3 }
        try expectPixmans(faint, "faint row, faint color")
        try expectPixmans(strong, "faint row, strong color")
    }

    /// A kept box found at a fainter level than a composite's own (`lk_job.texels_faint`) is not
    /// used: the box of a shadow's ink for a faint color leaves out its tails, which a strong
    /// color draws. Said to be found at the composite's level, the same box drops them (the
    /// check's reason); said as it was found, the composite peels its own and draws what it
    /// draws with no box, in every variant.
    @Test func aBoxFoundForAFainterColorIsNotUsed() throws {
        let mask = try AlphaMask(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<40 { mask[x, y] = 3 } }
        for y in 12..<18 { for x in 15..<25 { mask[x, y] = 200 } }
        let transform = Homography(CGAffineTransform(translationX: -20, y: -15).concatenating(CGAffineTransform(rotationAngle: 0.3))
            .concatenating(CGAffineTransform(translationX: 30.4, y: 29.7)))
        var g = SeededGenerator(seed: 6)
        let target = try KernelFixtures.bitmap(width: 60, height: 60, &g)
        let (inverse, area) = try #require(try target.transformedArea(mask.bounds, transform.kind, transform, .bilinear, .over, nil, 1))
        let map = try Bitmap.kernelMap(inverse, transform.kind, transform)
        let strong: UInt32 = 0xff20_4060, faintLevel: UInt32 = 127 / 0x20
        #expect(lk_faint_coverage(strong) == 0 && faintLevel >= 3)
        let box = mask.notClearBox(faint: faintLevel)
        #expect(box.y1 == 12 && box.y2 == 18 && box.x1 > 0 && box.x2 < 40, "the faint color's box leaves out the tails")
        for variant in KernelVariant.available {
            func drawn(_ notClear: (box: lk_box, faint: UInt32)?) throws -> Bitmap {
                let copy = try target.copy()
                var source = Kernels.Source(mask)
                source.notClear = notClear
                withExtendedLifetime(mask) {
                    Kernels.composite(source, color: strong, into: Kernels.Target(copy), map: map, filter: .bilinear, opacity: 255,
                                      area: area, variant: variant)
                }
                return copy
            }
            let reference = try drawn(nil)
            #expect(!(try drawn((box, 0))).hasSamePixels(as: reference), "\(variant): the box drops the tails")
            #expect(try drawn((box, faintLevel)).hasSamePixels(as: reference), "\(variant)")
        }
    }

    /// A source whose clear frame is too wide to peel within the budget (a large source behind a
    /// tiny clip) draws the same pixels as one peeled all the way (behind a large clip).
    @Test func peelingStopsAtItsBudgetWithTheSamePixels() throws {
        let mask = try AlphaMask(width: 300, height: 300)
        for y in 140..<160 { for x in 100..<200 { mask[x, y] = UInt8((x * 7 + y) % 256) } }
        let map = Homography(CGAffineTransform(translationX: -150, y: -150)
            .concatenating(CGAffineTransform(rotationAngle: 0.4))
            .concatenating(CGAffineTransform(translationX: 150.3, y: 149.6)))
        for clip in [PixelRect(x: 140, y: 140, width: 3, height: 2), PixelRect(x: 120, y: 130, width: 60, height: 40)] {
            let whole = try Bitmap(width: 300, height: 300, color: Color(white: 0.5, alpha: 1))
            let clipped = try whole.copy()
            try whole.composite(mask, color: .black, transform: map, filter: .bilinear)
            try clipped.composite(mask, color: .black, transform: map, filter: .bilinear, clip: Region(clip))
            for y in clip.minY..<clip.maxY {
                for x in clip.minX..<clip.maxX {
                    #expect(clipped.premultipliedPixel(x: x, y: y) == whole.premultipliedPixel(x: x, y: y), "at (\(x), \(y))")
                }
            }
        }
    }

    /// Clips that cut every row into pieces: combs of 1-pixel columns, rows and checkers, whose
    /// boxes share bands, over sources that fill the target (spans touching every edge) and thin
    /// slivers (spans a pixel wide).
    @Test func clipsCuttingRowsDrawPixmansPixels() throws {
        var g = SeededGenerator(seed: 77)
        let dw = 41, dh = 37
        let combs: [(String, [PixelRect])] = [
            ("columns", stride(from: 0, to: dw, by: 2).map { PixelRect(x: $0, y: 0, width: 1, height: dh) }),
            ("rows", stride(from: 1, to: dh, by: 3).map { PixelRect(x: 0, y: $0, width: dw, height: 1) }),
            ("checkers", stride(from: 0, to: dh, by: 3).flatMap { y in
                stride(from: y % 2, to: dw, by: 4).map { PixelRect(x: $0, y: y, width: 2, height: 2) }
            }),
            ("one pixel", [PixelRect(x: 20, y: 18, width: 1, height: 1)]),
            ("edges", [PixelRect(x: 0, y: 0, width: dw, height: 1), PixelRect(x: 0, y: dh - 1, width: dw, height: 1),
                       PixelRect(x: 0, y: 0, width: 1, height: dh), PixelRect(x: dw - 1, y: 0, width: 1, height: dh)]),
        ]
        let sources: [(String, Int, Int, CGAffineTransform)] = [
            ("filling the target", 9, 8, CGAffineTransform(translationX: -4.5, y: -4)
                .concatenating(CGAffineTransform(a: 7, b: 1.2, c: -1.2, d: 7, tx: 0, ty: 0))
                .concatenating(CGAffineTransform(translationX: 20.3, y: 18.7))),
            ("a sliver a pixel wide", 1, 60, CGAffineTransform(translationX: -0.5, y: -30)
                .concatenating(CGAffineTransform(rotationAngle: 0.05))
                .concatenating(CGAffineTransform(translationX: 20.25, y: 18.5))),
            ("a thin hand", 3, 50, CGAffineTransform(translationX: -1.5, y: -25)
                .concatenating(CGAffineTransform(rotationAngle: 2.2))
                .concatenating(CGAffineTransform(translationX: 19.6, y: 18.1))),
        ]
        for (name, w, h, map) in sources {
            let transform = Homography(map)
            let source = try KernelFixtures.bitmap(width: w, height: h, &g)
            let mask = try KernelFixtures.mask(width: w, height: h, &g)
            for (combName, rects) in combs {
                let clip = Region(rects)
                let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
                for filter in [ImageFilter.bilinear, .nearest] {
                    let what = "\(name) through \(combName), \(filter)"
                    for op in [CompositeOperator.over, .source] {
                        try KernelSpanFixtures.expectPixmansPixels(on: target, from: source.bounds, op, transform, filter, clip, "\(what), \(op)") {
                            (b: Bitmap) throws(BitmapError) in
                            try b.composite(source, operator: op, transform: transform, filter: filter, clip: clip, opacity: 0.8)
                        }
                    }
                    try KernelSpanFixtures.expectPixmansPixels(on: target, from: mask.bounds, .over, transform, filter, clip, "\(what), A8") {
                        (b: Bitmap) throws(BitmapError) in
                        try b.composite(mask, color: .red, transform: transform, filter: filter, clip: clip, opacity: 0.8)
                    }
                }
            }
        }
    }

    /// A coverage composite given a window (the painter's item rectangle) draws what the same
    /// composite clipped to the clip cut to the window draws, whatever the window cuts off.
    @Test func aWindowDrawsWhatTheClipCutToItDraws() throws {
        var g = SeededGenerator(seed: 12)
        let mask = try KernelFixtures.mask(width: 23, height: 61, &g)
        let transform = Homography(CGAffineTransform(translationX: -11.5, y: -50)
            .concatenating(CGAffineTransform(rotationAngle: 2.4))
            .concatenating(CGAffineTransform(translationX: 40.3, y: 35.6)))
        let clip = Region([PixelRect(x: 3, y: 2, width: 60, height: 20), PixelRect(x: 10, y: 22, width: 30, height: 40),
                           PixelRect(x: 45, y: 30, width: 30, height: 9)])
        let windows = [PixelRect(x: 0, y: 0, width: 80, height: 80), PixelRect(x: 20, y: 10, width: 31, height: 45),
                       PixelRect(x: 41, y: 36, width: 1, height: 1), PixelRect(x: 70, y: 0, width: 10, height: 10),
                       PixelRect(x: -5, y: 60, width: 100, height: 40)]
        for window in windows {
            for filter in [ImageFilter.bilinear, .nearest] {
                let windowed = try KernelFixtures.bitmap(width: 80, height: 80, &g), cut = try windowed.copy()
                try windowed.composite(mask, color: .red, transform: transform, filter: filter, clip: clip, opacity: 0.7,
                                       pairs: true, window: window)
                try cut.composite(mask, color: .red, transform: transform, filter: filter,
                                  clip: clip.intersection(Region(window)), opacity: 0.7, pairs: true)
                #expect(windowed.hasSamePixels(as: cut), "window \(window), \(filter)")
            }
        }
    }

    /// Boxes in any order (not a pixman region's bands: rows going back up, far apart, boxes of
    /// one band apart) draw what each box drawn alone draws.
    @Test func boxesInAnyOrderDrawWhatEachDrawsAlone() throws {
        var g = SeededGenerator(seed: 5)
        let source = try KernelFixtures.bitmap(width: 20, height: 90, &g)
        let boxes = [lk_box(x1: 0, y1: 150, x2: 60, y2: 160), lk_box(x1: 70, y1: 150, x2: 120, y2: 160),
                     lk_box(x1: 10, y1: 3, x2: 110, y2: 40), lk_box(x1: 0, y1: 40, x2: 120, y2: 41),
                     lk_box(x1: 30, y1: 60, x2: 31, y2: 150), lk_box(x1: 5, y1: 41, x2: 25, y2: 60)]
        var matrix: [Int32] = [Int32(0.6 * 65536), Int32(-0.35 * 65536), Int32(10 * 65536),
                               Int32(0.35 * 65536), Int32(0.6 * 65536), Int32(-20 * 65536)]
        for variant in KernelVariant.available {
            for filter in [LK_FILTER_BILINEAR, LK_FILTER_NEAREST] {
                let together = try Bitmap(width: 120, height: 170), alone = try Bitmap(width: 120, height: 170)
                func draw(into target: Bitmap, _ boxes: [lk_box]) {
                    var job = lk_job()
                    job.dst = target.pixels
                    job.dst_width = 120; job.dst_height = 170; job.dst_stride = Int32(target.bytesPerRow)
                    job.src = UnsafeRawPointer(source.pixels)
                    job.src_width = 20; job.src_height = 90; job.src_stride = Int32(source.bytesPerRow)
                    job.format = LK_FORMAT_ARGB32; job.op = LK_OP_OVER; job.filter = filter; job.opacity = 255
                    job.variant = switch variant {
                    case .scalar: LK_VARIANT_SCALAR
                    case .sse2: LK_VARIANT_SSE2
                    case .avx2: LK_VARIANT_AVX2
                    case .avx512: LK_VARIANT_AVX512
                    }
                    boxes.withUnsafeBufferPointer { b in
                        job.boxes = b.baseAddress
                        job.box_count = Int32(b.count)
                        #expect(lk_composite_affine(&job, &matrix) == LK_OK)
                    }
                }
                withExtendedLifetime(source) {
                    draw(into: together, boxes)
                    for box in boxes { draw(into: alone, [box]) }
                }
                #expect(together.hasSamePixels(as: alone), "\(variant), filter \(filter.rawValue)")
                #expect(together.withUnsafePixels { $0.contains { $0 != 0 } }, "something was drawn")
            }
        }
    }
}

enum KernelSpanFixtures {
    /// Clear texels around a source: so many columns or rows on each side, or all of it but one
    /// texel, or all of it.
    struct Frame: CustomStringConvertible {
        var left = 0, top = 0, right = 0, bottom = 0
        var onlyOne: (Int, Int)?
        var allClear = false

        func keeps(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Bool {
            if allClear { return false }
            if let (fx, fy) = onlyOne { return x == fx % width && y == fy % height }
            return x >= left && y >= top && x < width - right && y < height - bottom
        }

        var description: String {
            allClear ? "all clear" : onlyOne.map { "one texel at \($0)" } ?? "\(left), \(top), \(right), \(bottom)"
        }
    }

    static func frame(_ g: inout SeededGenerator) -> Frame {
        switch Int.random(in: 0..<12, using: &g) {
        case 0: return Frame(allClear: true)
        case 1: return Frame(onlyOne: (Int.random(in: 0..<40, using: &g), Int.random(in: 0..<40, using: &g)))
        default:
            // Up to 4 a side, or up to 10: wider than the eight bytes a row's ends are read in.
            let most = Bool.random(using: &g) ? 4 : 10
            return Frame(left: Int.random(in: 0...most, using: &g), top: Int.random(in: 0...most, using: &g),
                         right: Int.random(in: 0...most, using: &g), bottom: Int.random(in: 0...most, using: &g))
        }
    }

    /// Draws with pixman and with each kernel variant onto copies of `target`: the variants
    /// agree with the scalar kernel, and with pixman where pixman draws the composite. Returns
    /// whether pixman's pixels were compared.
    @discardableResult
    static func expectPixmansPixels(on target: Bitmap, from source: PixelRect, _ op: CompositeOperator,
                                    _ transform: Homography, _ filter: ImageFilter, _ clip: Region?, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                                    _ draw: (Bitmap) throws(BitmapError) -> Void) throws -> Bool {
        guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines, draw) else {
            return false
        }
        for (variant, copy) in zip(KernelVariant.available, drawn.dropFirst()) {
            #expect(copy.hasSamePixels(as: drawn[1]), "\(variant) differs from scalar: \(what)", sourceLocation: sourceLocation)
        }
        guard let area = try target.transformedArea(source, transform.kind, transform, filter, op, clip, 1)?.1,
              KernelFixtures.pixmanDraws(transform, area: area) else { return false }
        #expect(drawn[1].hasSamePixels(as: drawn[0]), "kernels differ from pixman: \(what)", sourceLocation: sourceLocation)
        return true
    }
}

/// `Kernels.rows(_:of:)`, which hands the kernels only the boxes of a composite's rows.
@Suite struct KernelBoxRangeTests {
    /// Random regions of up to 60 rectangles and random row ranges: every box left out misses
    /// the rows, and every box that reaches them is in the range.
    @Test func boxesOutsideTheRangeMissTheRows() {
        var g = SeededGenerator(seed: 91)
        var narrowed = 0
        for trial in 0..<500 {
            let rects = (0..<Int.random(in: 1...60, using: &g)).map { _ in
                PixelRect(x: Int.random(in: 0...300, using: &g), y: Int.random(in: 0...300, using: &g),
                          width: Int.random(in: 1...80, using: &g), height: Int.random(in: 1...40, using: &g))
            }
            let region = Region(rects)
            let top = Int.random(in: -20...340, using: &g), rows = top..<(top + Int.random(in: 0...120, using: &g))
            region.withPixmanRegion { region in
                var count: Int32 = 0
                guard let all = pixman_region32_rectangles(region, &count), count > 0 else { return }
                let boxes = UnsafeBufferPointer(start: all, count: Int(count))
                let (first, end) = Kernels.rows(rows, of: boxes)
                #expect(0 <= first && first <= end && end <= boxes.count, "trial \(trial)")
                for (i, box) in boxes.enumerated() {
                    let reaches = Int(box.y1) < rows.upperBound && Int(box.y2) > rows.lowerBound
                    if reaches { #expect(first <= i && i < end, "trial \(trial): box \(i) reaches rows \(rows) but is left out") }
                    if !(first..<end).contains(i) { #expect(!reaches) }
                }
                if end - first < boxes.count { narrowed += 1 }
            }
        }
        #expect(narrowed > 250, "too few trials left boxes out")
    }
}
