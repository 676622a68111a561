import CKernels
import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// A color through an A8 coverage mask: the kernels draw what pixman draws with the mask as a
/// transformed A8 mask of a solid source.
@Suite struct AlphaMaskKernelTests {
    @Test func affineMasksMatchPixmansMaskedComposite() throws {
        var g = SeededGenerator(seed: 8)
        var compared = 0
        for trial in 0..<800 {
            let sw = Int.random(in: 1...(trial % 6 == 0 ? 3 : 50), using: &g), sh = Int.random(in: 1...50, using: &g)
            let dw = Int.random(in: 1...70, using: &g), dh = Int.random(in: 1...70, using: &g)
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
            let transform = KernelFixtures.affineMap(source: sw, sh, target: dw, dh, &g)
            let color = Color(premultipliedARGB32: KernelFixtures.pixel(&g))
            let filter: ImageFilter = Bool.random(using: &g) ? .bilinear : .nearest
            let clip = KernelFixtures.clip(width: dw, height: dh, &g), opacity = KernelFixtures.opacity(&g)
            guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines, {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(mask, color: color, transform: transform, filter: filter, clip: clip, opacity: opacity)
            }) else { continue }
            for (variant, copy) in zip(KernelVariant.available, drawn.dropFirst()) {
                #expect(copy.hasSamePixels(as: drawn[1]), "\(variant) differs from scalar in trial \(trial)")
            }
            guard let area = try target.transformedArea(mask.bounds, transform.kind, transform, filter, .over, clip, 1)?.1,
                  KernelFixtures.pixmanDraws(transform, area: area) else { continue }
            #expect(drawn[1].hasSamePixels(as: drawn[0]), "trial \(trial): \(sw)x\(sh) through \(transform), \(filter)")
            compared += 1
        }
        #expect(compared > 500, "only \(compared) compared")
    }

    /// Coverage at whole-pixel offsets (text at rest) goes to the kernels' offset rows, which
    /// skip steps of clear coverage: pixman's over_n_8_8888 pixels in every variant, for masks
    /// of clear stretches longer and shorter than a step, any width (tails shorter than a step,
    /// rows shorter than one), offsets partly off the target, clips and opacities.
    @Test func offsetsOfCoverageDrawPixmansPixelsInEveryVariant() throws {
        var g = SeededGenerator(seed: 4040)
        var compared = 0
        for trial in 0..<400 {
            let sw = Int.random(in: 1...(trial % 4 == 0 ? 9 : 70), using: &g), sh = Int.random(in: 1...30, using: &g)
            let mask = try AlphaMask(width: sw, height: sh)
            for y in 0..<sh {
                var x = 0
                while x < sw {
                    let run = Int.random(in: 1...20, using: &g)
                    let kind = Int.random(in: 0..<4, using: &g)
                    for k in x..<min(sw, x + run) {
                        mask[k, y] = kind <= 1 ? 0 : kind == 2 ? 255 : UInt8.random(in: 0...255, using: &g)
                    }
                    x += run
                }
            }
            let target = try KernelFixtures.bitmap(width: 80, height: 50, &g)
            let transform = Homography(translationX: CGFloat(Int.random(in: -20...70, using: &g)),
                                       y: CGFloat(Int.random(in: -15...45, using: &g)))
            guard case let .integerTranslation(x, y) = transform.kind else { continue }
            #expect(CompositePath(transform, kind: transform.kind, operator: .over, engine: .automatic, coverage: true)
                    == .kernelOffset(x: x, y: y, nil))
            let color = trial % 5 == 0 ? Color(red: 0.9, green: 0.92, blue: 0.85) : Color(premultipliedARGB32: KernelFixtures.pixel(&g))
            let clip = KernelFixtures.clip(width: 80, height: 50, &g), opacity = trial % 3 == 0 ? 1 : KernelFixtures.opacity(&g)
            guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines, {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(mask, color: color, transform: transform, filter: .bilinear, clip: clip, opacity: opacity)
            }) else { continue }
            for (variant, copy) in zip(KernelVariant.available, drawn.dropFirst()) {
                #expect(copy.hasSamePixels(as: drawn[0]), "\(variant), trial \(trial): \(sw)x\(sh) at (\(x), \(y))")
            }
            compared += 1
        }
        #expect(compared > 350)
    }

    /// A coverage mask at a fractional offset or scaled along the axes (text stored as
    /// coverage inside a group, a label at a sub-pixel position) is sampled by the kernels,
    /// not by pixman's general fetcher, which bitmaps under the same maps avoid through its
    /// scaled paths: and the pixels are pixman's.
    @Test func axisScalesOfCoverageTakeTheKernelsAndDrawPixmansPixels() throws {
        var g = SeededGenerator(seed: 808)
        var compared = 0
        for trial in 0..<300 {
            let sw = Int.random(in: 1...60, using: &g), sh = Int.random(in: 1...40, using: &g)
            let scale = trial % 3 == 0 ? 1 : CGFloat.random(in: 0.3...3, using: &g)
            let map = CGAffineTransform(a: scale, b: 0, c: 0, d: trial % 2 == 0 ? scale : CGFloat.random(in: 0.5...2, using: &g),
                                        tx: CGFloat.random(in: -10...40, using: &g), ty: CGFloat.random(in: -10...40, using: &g))
            let transform = Homography(map)
            guard transform.isForwardAxisScale, case .affine = transform.kind else { continue }
            #expect(CompositePath(transform, kind: transform.kind, operator: .over, engine: .automatic) == .pixman)
            #expect(CompositePath(transform, kind: transform.kind, operator: .over, engine: .automatic, coverage: true) == .kernel(nil))
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            let target = try KernelFixtures.bitmap(width: 90, height: 90, &g)
            let color = Color(premultipliedARGB32: KernelFixtures.pixel(&g))
            let opacity = KernelFixtures.opacity(&g)
            guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman, .automatic], {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(mask, color: color, transform: transform, filter: .bilinear, opacity: opacity)
            }) else { continue }
            guard let area = try target.transformedArea(mask.bounds, transform.kind, transform, .bilinear, .over, nil, 1)?.1,
                  KernelFixtures.pixmanDraws(transform, area: area) else { continue }
            #expect(drawn[1].hasSamePixels(as: drawn[0]), "trial \(trial): \(sw)x\(sh) through \(transform)")
            compared += 1
        }
        #expect(compared > 150, "only \(compared) compared")
    }

    /// Black at any alpha and opacity (a shadow's usual color, which the SIMD rows multiply by
    /// the coverage in its alpha alone): pixman's pixels, and the variants agree.
    @Test func blackThroughCoverageMatchesPixman() throws {
        var g = SeededGenerator(seed: 81)
        var compared = 0
        for trial in 0..<300 {
            let sw = Int.random(in: 2...60, using: &g), sh = Int.random(in: 2...60, using: &g)
            let dw = Int.random(in: 1...80, using: &g), dh = Int.random(in: 1...80, using: &g)
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
            let transform = KernelFixtures.affineMap(source: sw, sh, target: dw, dh, &g)
            let alpha = [1, 0.35, 1.0 / 255, Double.random(in: 0...1, using: &g)][Int.random(in: 0..<4, using: &g)]
            let color = Color(red: 0, green: 0, blue: 0, alpha: alpha)
            let clip = KernelFixtures.clip(width: dw, height: dh, &g), opacity = KernelFixtures.opacity(&g)
            guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines, {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(mask, color: color, transform: transform, filter: .bilinear, clip: clip, opacity: opacity)
            }) else { continue }
            for (variant, copy) in zip(KernelVariant.available, drawn.dropFirst()) {
                #expect(copy.hasSamePixels(as: drawn[1]), "\(variant) differs from scalar in trial \(trial)")
            }
            guard let area = try target.transformedArea(mask.bounds, transform.kind, transform, .bilinear, .over, clip, 1)?.1,
                  KernelFixtures.pixmanDraws(transform, area: area) else { continue }
            #expect(drawn[1].hasSamePixels(as: drawn[0]), "trial \(trial): \(sw)x\(sh), alpha \(alpha) through \(transform)")
            compared += 1
        }
        #expect(compared > 150, "only \(compared) compared")
    }

    /// Turned and scaled bilinear coverage reads each pixel's 2x2 texels from the mask's vertical
    /// pairs (one load instead of two): drawn through the kernels directly with and without the
    /// pairs, in every variant, over masks with and without a clear border (edge rows), 2 wide or
    /// tall, black and colored, the pixels are the same bit for bit.
    @Test func verticalPairsDrawTheSamePixelsAsTheTexels() throws {
        var g = SeededGenerator(seed: 2222)
        var compared = 0, drew = 0
        for trial in 0..<300 {
            let sw = Int.random(in: 2...(trial % 5 == 0 ? 3 : 60), using: &g), sh = Int.random(in: 2...60, using: &g)
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            let target = try KernelFixtures.bitmap(width: 70, height: 70, &g)
            let transform = KernelFixtures.affineMap(source: sw, sh, target: 70, 70, &g)
            guard case .affine = transform.kind,
                  let (inverse, area) = try? target.transformedArea(mask.bounds, transform.kind, transform, .bilinear, .over,
                                                                     KernelFixtures.clip(width: 70, height: 70, &g), 1),
                  let map = try? Bitmap.kernelMap(inverse, transform.kind, transform) else { continue }
            let color = trial % 2 == 0 ? Color(red: 0, green: 0, blue: 0, alpha: 0.35).premultipliedARGB32 : KernelFixtures.pixel(&g)
            let opacity = UInt8.random(in: 1...255, using: &g)
            for variant in KernelVariant.available {
                let texels = try target.copy(), pairs = try target.copy()
                withExtendedLifetime(mask) {
                    Kernels.composite(Kernels.Source(mask), color: color, into: Kernels.Target(texels), map: map, filter: .bilinear,
                                      opacity: opacity, area: area, variant: variant)
                    let paired = Kernels.Source(mask, pairs: true)
                    #expect(paired.pairs != nil)
                    Kernels.composite(paired, color: color, into: Kernels.Target(pairs), map: map, filter: .bilinear,
                                      opacity: opacity, area: area, variant: variant)
                }
                #expect(pairs.hasSamePixels(as: texels), "\(variant), trial \(trial): \(sw)x\(sh) through \(transform)")
                if !pairs.hasSamePixels(as: target) { drew += 1 }
            }
            compared += 1
        }
        #expect(compared > 120, "only \(compared) compared")
        #expect(drew > 100 * KernelVariant.available.count, "only \(drew) composites changed a pixel")
    }

    /// The pairs' layout: row y holds (x, y), (x, y + 1) for every x, any width (the SIMD steps
    /// and the tail), inside a clear border (x = −1 and width, y = −1 and height − 1 read zero
    /// outside the mask); made again after the mask changes and kept while it does not; sizes
    /// and strides out of range are refused, writing nothing.
    @Test func verticalPairsHoldEachTexelAboveTheOneBelow() throws {
        var g = SeededGenerator(seed: 77)
        for (width, height) in [(2, 2), (5, 3), (16, 4), (37, 9), (64, 2)] {
            let mask = try KernelFixtures.mask(width: width, height: height, &g)
            func texel(_ x: Int, _ y: Int) -> UInt8 { mask.bounds.contains(x: x, y: y) ? mask[x, y] : 0 }
            for pass in 0..<2 {
                let pairs = try #require(mask.verticalPairs())
                #expect(pairs.bytesPerRow >= 2 * (width + 2))
                let bytes = pairs.pointer.assumingMemoryBound(to: UInt8.self)
                for y in -1..<height {
                    for x in -1...width {
                        #expect(bytes[y * pairs.bytesPerRow + 2 * x] == texel(x, y), "\(width)x\(height) pass \(pass) at (\(x), \(y))")
                        #expect(bytes[y * pairs.bytesPerRow + 2 * x + 1] == texel(x, y + 1), "\(width)x\(height) pass \(pass) at (\(x), \(y))")
                    }
                }
                #expect(mask.verticalPairs()?.pointer == pairs.pointer, "kept while the mask is unchanged")
                mask[width - 1, height - 1] = mask[width - 1, height - 1] &+ 1
            }
        }
        #expect(try AlphaMask(width: 1, height: 9).verticalPairs() == nil)
        #expect(try AlphaMask(width: 9, height: 1).verticalPairs() == nil)
        var source = [UInt8](repeating: 7, count: 64), out = [UInt8](repeating: 9, count: 256)
        #expect(lk_a8_pairs(&source, 8, 8, 8, &out, 19) == LK_INVALID, "a pairs row narrower than two bytes a texel and the border")
        #expect(lk_a8_pairs(&source, 8, 1, 8, &out, 20) == LK_INVALID)
        #expect(lk_a8_pairs(&source, 8, 8, 7, &out, 20) == LK_INVALID)
        #expect(out.allSatisfy { $0 == 9 })
        #expect(lk_a8_pairs(&source, 8, 8, 8, &out, 20) == LK_OK)
        // Nine rows of ten pairs: the border's bytes 0, the texels' 7, nothing written after.
        for r in 0...8 {
            for c in 0..<10 {
                let inside = (1...8).contains(c)
                #expect(out[r * 20 + 2 * c] == (inside && r > 0 ? 7 : 0), "row \(r), pair \(c)")
                #expect(out[r * 20 + 2 * c + 1] == (inside && r < 8 ? 7 : 0), "row \(r), pair \(c)")
            }
        }
        #expect(out[(20 * 9)...].allSatisfy { $0 == 9 })
    }

    /// The painter samples turned coverage from vertical pairs only while a frame's turned and
    /// scaled masks are few texels (`Painter.pairsBudget`): whole-pixel offsets do not count, and
    /// the frame is the same painted either way.
    @Test func thePainterSamplesPairsOnlyForFramesOfLittleTurnedCoverage() throws {
        var g = SeededGenerator(seed: 31)
        let small = try KernelFixtures.mask(width: 90, height: 120, &g), large = try AlphaMask(width: 600, height: 500)
        let target = try KernelFixtures.bitmap(width: 200, height: 160, &g)
        func item(_ mask: AlphaMask, _ transform: Homography) throws -> PaintItem {
            try #require(PaintItem(key: PaintItem.Key(layer: LayerID.next(), part: .shadow), source: .coverage(mask, .black),
                                   sourceIdentity: 1, transform: transform, opacity: 0.6, filter: .bilinear, clip: nil,
                                   targetArea: target.bounds))
        }
        let turned = Homography(CGAffineTransform(rotationAngle: 0.5).concatenating(CGAffineTransform(translationX: 90, y: -10)))
        let offset = Homography(translationX: 20, y: 10)
        #expect(Painter.samplesPairs([try item(small, turned), try item(large, offset)]))
        #expect(!Painter.samplesPairs([try item(small, turned), try item(large, turned)]))
        let items = [try item(small, turned), try item(small, Homography(scaleX: 1.3, y: 0.8))]
        let withPairs = try target.copy(), without = try target.copy()
        Painter.paintBand(items, into: withPairs, rows: 0..<160, damage: Region(target.bounds), base: .bitmap(target), pairs: true)
        Painter.paintBand(items, into: without, rows: 0..<160, damage: Region(target.bounds), base: .bitmap(target), pairs: false)
        #expect(withPairs.hasSamePixels(as: without))
        #expect(!withPairs.hasSamePixels(as: target))
    }

    /// Whole-pixel placements go to pixman's solid-through-A8 path: the color times each coverage.
    @Test func integerPlacementMultipliesTheColorByTheCoverage() throws {
        let mask = try AlphaMask(width: 3, height: 1)
        mask[0, 0] = 255; mask[1, 0] = 128; mask[2, 0] = 0
        let target = try Bitmap(width: 5, height: 2)
        try target.composite(mask, color: Color(red: 1, green: 0, blue: 0, alpha: 1), transform: Homography(translationX: 1, y: 1))
        #expect(target.premultipliedPixel(x: 1, y: 1) == 0xFFFF_0000)
        #expect(target.premultipliedPixel(x: 2, y: 1) == 0x8080_0000)
        #expect(target.premultipliedPixel(x: 3, y: 1) == 0)
        #expect(target.premultipliedPixel(x: 1, y: 0) == 0)
        // Opacity folds into the color first: 255 · 128/255 = 128, then · 128/255 = 64.
        try target.composite(mask, color: .blue, transform: Homography(translationX: 1, y: 0), opacity: 128.0 / 255)
        #expect(target.premultipliedPixel(x: 2, y: 0) == 0x4000_0040)
    }

    /// Perspective: the sampled coverage (drawn as opaque white onto clear, so every channel is
    /// the coverage) within 1 of the exact bilinear coverage.
    @Test func perspectiveCoverageWithinOneLevelOfExact() throws {
        var g = SeededGenerator(seed: 80)
        for trial in 0..<60 {
            let sw = Int.random(in: 1...60, using: &g), sh = Int.random(in: 1...60, using: &g)
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            let h = KernelFixtures.cardMap(source: sw, sh, target: 90, 90, &g)
            guard h.kind == .projective, let inverse = h.inverted() else { continue }
            for engine in KernelFixtures.kernelEngines {
                let drawn = try Bitmap(width: 90, height: 90)
                try Bitmap.withCompositeEngine(engine) { try drawn.composite(mask, color: .white, transform: h) }
                for y in 0..<90 {
                    for x in 0..<90 {
                        let exact = KernelFixtures.exactSample(inverse, x: x, y: y, width: sw, height: sh) {
                            UInt32(mask[$0, $1]) << 24
                        } >> 24
                        let p = drawn.premultipliedPixel(x: x, y: y)
                        #expect(p == (p & 0xFF) * 0x0101_0101, "white stays grey-free")
                        #expect(abs(Int(p >> 24) - Int(exact)) <= 1, "\(engine) trial \(trial) at (\(x), \(y))")
                    }
                }
            }
        }
    }
}
