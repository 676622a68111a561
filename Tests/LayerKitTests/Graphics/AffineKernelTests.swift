import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// The affine kernels draw exactly what pixman 0.42 draws through the same fixed-point map.
@Suite struct AffineKernelTests {
    /// Thousands of random turned, scaled, mirrored, sheared and nearly flat maps, bilinear and
    /// nearest, over and source, with opacities, clips and targets of every size up to a few
    /// hundred pixels: every variant's pixels equal pixman's.
    @Test func randomMapsMatchPixmanPixelForPixel() throws {
        var g = SeededGenerator(seed: 12)
        var compared = 0, skipped = 0
        for trial in 0..<2000 {
            let sw = Int.random(in: 1...(trial % 5 == 0 ? 3 : 50), using: &g)
            let sh = Int.random(in: 1...(trial % 7 == 0 ? 3 : 50), using: &g)
            let dw = Int.random(in: 1...(trial % 19 == 0 ? 300 : 60), using: &g), dh = Int.random(in: 1...60, using: &g)
            let source = try KernelFixtures.bitmap(width: sw, height: sh, &g)
            let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
            let transform = KernelFixtures.affineMap(source: sw, sh, target: dw, dh, &g)
            let op: CompositeOperator = Bool.random(using: &g) ? .over : .source
            let filter: ImageFilter = Bool.random(using: &g) ? .bilinear : .nearest
            let clip = KernelFixtures.clip(width: dw, height: dh, &g), opacity = KernelFixtures.opacity(&g)
            guard try expectSamePixels(source, onto: target, op, transform, filter, clip, opacity,
                                       "trial \(trial): \(sw)x\(sh) onto \(dw)x\(dh) through \(transform)") else {
                skipped += 1
                continue
            }
            compared += 1
        }
        // Left out: sources placed off the target (nothing to draw), and maps pixman refuses or
        // cannot hold (a target pixel mapping beyond ±32768 source pixels).
        #expect(compared > 1500, "only \(compared) compared, \(skipped) skipped")
    }

    /// Sources from 1x1 to 4096 pixels wide (and tall), onto targets up to 4096 wide.
    @Test func sizesFromOnePixelTo4096Wide() throws {
        var g = SeededGenerator(seed: 4096)
        let sizes = [(1, 1), (1, 7), (7, 1), (2, 2), (4096, 2), (2, 4096), (4096, 3), (257, 129)]
        for (sw, sh) in sizes {
            for (dw, dh) in [(1, 1), (3, 2), (4096, 4), (64, 64)] {
                let source = try KernelFixtures.bitmap(width: sw, height: sh, &g)
                let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
                for _ in 0..<6 {
                    let transform = KernelFixtures.affineMap(source: sw, sh, target: dw, dh, &g)
                    for filter in [ImageFilter.bilinear, .nearest] {
                        _ = try expectSamePixels(source, onto: target, .over, transform, filter, nil, 1,
                                                 "\(sw)x\(sh) onto \(dw)x\(dh) through \(transform)")
                    }
                }
            }
        }
    }

    /// A source placed across each edge and corner of the target, and touching it from outside,
    /// by whole and fractional pixels, turned a little and not at all.
    @Test func sourcesAcrossEveryEdge() throws {
        var g = SeededGenerator(seed: 7)
        let source = try KernelFixtures.bitmap(width: 23, height: 17, &g)
        let target = try KernelFixtures.bitmap(width: 40, height: 30, &g)
        for x in [-23.0, -22.5, -11.25, -0.5, 0.25, 17.5, 39.0, 39.75, 40.0] {
            for y in [-17.0, -16.5, -3.125, 0.5, 13.0, 29.5, 30.0] {
                for angle in [0.0, 0.01, -0.3, .pi] {
                    let transform = Homography(CGAffineTransform(rotationAngle: angle)
                        .concatenating(CGAffineTransform(translationX: x, y: y)))
                    for filter in [ImageFilter.bilinear, .nearest] {
                        for op in [CompositeOperator.over, .source] {
                            _ = try expectSamePixels(source, onto: target, op, transform, filter, nil, 0.75,
                                                     "at (\(x), \(y)) turned \(angle)")
                        }
                    }
                }
            }
        }
    }

    /// A block of rows is drawn as one list of runs (`lk_runs_fn`), flushed when full: a clip
    /// of many narrow boxes a band (hundreds of runs a block of 32 rows, the list's 64 filled
    /// many times over, in every state of fullness at a block's end) over a turned source, color
    /// and coverage (with and without vertical pairs), draws pixman's pixels in every variant.
    @Test func blocksOfManyRunsMatchPixman() throws {
        var g = SeededGenerator(seed: 64)
        let target = try KernelFixtures.bitmap(width: 190, height: 150, &g)
        let source = try KernelFixtures.bitmap(width: 90, height: 70, &g)
        let mask = try KernelFixtures.mask(width: 90, height: 70, &g)
        for stripes in [1, 7, 21, 40] {
            // Stripes of 3 pixels, 4 apart, and a wide box of different rows below them.
            let rects = (0..<stripes).map { PixelRect(x: 4 * $0, y: 0, width: 3, height: 110) }
                + [PixelRect(x: 0, y: 110, width: 190, height: 40)]
            let clip = Region(rects)
            for angle in [0.3, -2.0] {
                let transform = Homography(CGAffineTransform(scaleX: 1.4, y: 1.2).rotated(by: angle)
                    .concatenating(CGAffineTransform(translationX: 95, y: 75)))
                _ = try expectSamePixels(source, onto: target, .over, transform, .bilinear, clip, 1,
                                         "\(stripes) stripes turned \(angle)")
                for pairs in [false, true] {
                    guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines, {
                        (b: Bitmap) throws(BitmapError) in
                        try b.composite(mask, color: Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.8), transform: transform,
                                        filter: .bilinear, clip: clip, opacity: 1, pairs: pairs)
                    }) else {
                        Issue.record("nothing drawn")
                        continue
                    }
                    for (variant, copy) in zip(KernelVariant.available, drawn.dropFirst()) {
                        #expect(copy.hasSamePixels(as: drawn[0]), "\(variant), coverage, pairs \(pairs): \(stripes) stripes turned \(angle)")
                    }
                }
            }
        }
    }

    /// Nearly singular, mirrored and hugely magnified or minified maps.
    @Test func extremeMaps() throws {
        var g = SeededGenerator(seed: 99)
        let source = try KernelFixtures.bitmap(width: 31, height: 9, &g)
        let target = try KernelFixtures.bitmap(width: 120, height: 90, &g)
        let maps: [CGAffineTransform] = [
            CGAffineTransform(a: 1, b: 0, c: 0, d: 1e-4, tx: 40, ty: 40),         // squashed to a line
            CGAffineTransform(a: 0.7, b: 0.7, c: 0.7001, d: 0.7, tx: 50, ty: 10),  // nearly singular shear
            CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: 60.5, ty: 20),          // mirrored
            CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 10, ty: 70.25),
            CGAffineTransform(a: -0.6, b: 0.8, c: 0.8, d: 0.6, tx: 70, ty: 30),    // turned and mirrored
            CGAffineTransform(a: 40, b: 3, c: -3, d: 40, tx: -300, ty: -60),       // magnified 40x
            CGAffineTransform(a: 250, b: 0, c: 0, d: 250, tx: -3900, ty: -1100),   // 250x: a texel's edges
            CGAffineTransform(a: 0.01, b: 0.002, c: -0.002, d: 0.01, tx: 60, ty: 45),  // minified 100x
            CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 10 + 1.0 / 65536, ty: 5 - 1.0 / 65536),  // sub-pixel
            CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 10.5, ty: 5.5),
        ]
        for (index, map) in maps.enumerated() {
            for filter in [ImageFilter.bilinear, .nearest] {
                for op in [CompositeOperator.over, .source] {
                    _ = try expectSamePixels(source, onto: target, op, Homography(map), filter, nil, 1, "map \(index)")
                }
            }
        }
    }

    /// A thin turned sliver whose bounding box maps far outside the source: pixman 0.42 refuses
    /// the whole composite (draws nothing); the kernels draw the sliver, pixel for pixel what
    /// pixman's own arithmetic gives where pixman does draw (checked by the scalar kernel,
    /// which the other variants equal).
    @Test func sliversPixmanRefusesAreDrawn() throws {
        var g = SeededGenerator(seed: 5)
        let source = try Bitmap(width: 200, height: 2, color: .red)
        let target = try KernelFixtures.bitmap(width: 300, height: 300, &g)
        let map = Homography(CGAffineTransform(translationX: -100, y: -1)
            .concatenating(CGAffineTransform(a: 1.4, b: 0, c: 0, d: 0.001, tx: 0, ty: 0))
            .concatenating(CGAffineTransform(rotationAngle: .pi / 4))
            .concatenating(CGAffineTransform(translationX: 150, y: 150)))
        let area = try #require(try target.transformedArea(source.bounds, map.kind, map, .bilinear, .over, nil, 1)?.1)
        #expect(!KernelFixtures.pixmanDraws(map, area: area))
        let drawn = try #require(try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines) {
            (b: Bitmap) throws(BitmapError) in try b.composite(source, transform: map, filter: .bilinear)
        })
        #expect(drawn[0].hasSamePixels(as: target), "pixman draws nothing")
        #expect(!drawn[1].hasSamePixels(as: target), "the kernels draw the sliver")
        for copy in drawn.dropFirst() { #expect(copy.hasSamePixels(as: drawn[1])) }
    }

    /// Composites `source` with pixman and with each kernel variant onto copies of `target`, and
    /// expects the same pixels; returns false (checking only that the variants agree) when
    /// pixman refuses the composite.
    @discardableResult
    func expectSamePixels(_ source: Bitmap, onto target: Bitmap, _ op: CompositeOperator, _ transform: Homography,
                          _ filter: ImageFilter, _ clip: Region?, _ opacity: Double, _ what: String,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> Bool {
        guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines, {
            (b: Bitmap) throws(BitmapError) in
            try b.composite(source, operator: op, transform: transform, filter: filter, clip: clip, opacity: opacity)
        }) else { return false }
        for (variant, copy) in zip(KernelVariant.available, drawn.dropFirst()) {
            #expect(copy.hasSamePixels(as: drawn[1]), "\(variant) differs from scalar: \(what)", sourceLocation: sourceLocation)
        }
        guard let area = try target.transformedArea(source.bounds, transform.kind, transform, filter, op, clip, opacity)?.1
        else {
            #expect(drawn.allSatisfy { $0.hasSamePixels(as: target) }, "nothing to draw, yet drawn: \(what)")
            return false
        }
        guard KernelFixtures.pixmanDraws(transform, area: area) else { return false }
        if !drawn[1].hasSamePixels(as: drawn[0]) {
            let first = firstDifference(drawn[0], drawn[1])
            Issue.record("kernels differ from pixman (\(op), \(filter), opacity \(opacity)): \(what); \(first)",
                         sourceLocation: sourceLocation)
        }
        return true
    }

    func firstDifference(_ a: Bitmap, _ b: Bitmap) -> String {
        for y in 0..<a.height {
            for x in 0..<a.width where a.premultipliedPixel(x: x, y: y) != b.premultipliedPixel(x: x, y: y) {
                return "first at (\(x), \(y)): pixman \(String(a.premultipliedPixel(x: x, y: y), radix: 16)), "
                    + "kernel \(String(b.premultipliedPixel(x: x, y: y), radix: 16))"
            }
        }
        return "no difference"
    }
}
