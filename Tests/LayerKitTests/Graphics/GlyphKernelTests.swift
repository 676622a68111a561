import CKernels
import Foundation
import Testing
@testable import LayerKit

/// `lk_a8_add_glyphs`, which adds a line's cached glyphs into its coverage store, against the
/// scalar definition it replaces (`CoverageOverSink.over`, glyph by glyph, in order).
@Suite struct GlyphKernelTests {
    /// One glyph: its rows in their own allocation of exactly `stride` × `height` bytes, so
    /// that AddressSanitizer (scripts/asan-kernels) sees any read past them.
    final class Glyph {
        let bytes: UnsafeMutablePointer<UInt8>
        let blit: lk_glyph_blit

        init(x: Int, y: Int, width: Int, height: Int, stride: Int, _ g: inout SeededGenerator) {
            bytes = .allocate(capacity: max(1, stride * height))
            for i in 0..<max(1, stride * height) {
                // Zeros, full coverage and everything between, as glyph edges have.
                let r = Int.random(in: 0..<8, using: &g)
                bytes[i] = r < 2 ? 0 : r < 4 ? 255 : UInt8.random(in: 0...255, using: &g)
            }
            blit = lk_glyph_blit(coverage: bytes, stride: Int32(stride), x: Int32(x), y: Int32(y), width: Int32(width),
                                 height: Int32(height))
        }

        deinit { bytes.deallocate() }
    }

    /// The definition: each glyph's pixels inside the mask (laid over (`maskX`, `maskY`)),
    /// `over` the mask, glyph after glyph; glyphs without coverage skipped. Returns the union of
    /// the glyphs' boxes inside the mask, in mask pixels (nil when none reaches it).
    @discardableResult
    static func reference(_ mask: inout [UInt8], maskX: Int = 0, maskY: Int = 0, width: Int, height: Int, stride: Int,
                          _ glyphs: [Glyph?]) -> PixelRect? {
        var inked: PixelRect?
        for case let glyph? in glyphs {
            let b = glyph.blit
            for row in 0..<Int(b.height) {
                for column in 0..<Int(b.width) {
                    let x = Int(b.x) - maskX + column, y = Int(b.y) - maskY + row
                    guard x >= 0, y >= 0, x < width, y < height else { continue }
                    mask[y * stride + x] = CoverageOverSink.over(mask[y * stride + x], glyph.bytes[row * Int(b.stride) + column])
                    let pixel = PixelRect(x: x, y: y, width: 1, height: 1)
                    inked = inked.map { $0.union(pixel) } ?? pixel
                }
            }
        }
        return inked
    }

    /// Random masks (rows padded or not, laid over random pixels), glyphs of every width around
    /// the 16-byte steps, with rows padded or exact, overlapping one another and the mask's
    /// edges, and glyphs without ink, into clear masks and masks holding anything (clear from
    /// a column on, said or not), in every variant: the mask equals the definition's byte for
    /// byte, the padding of its rows untouched, and the inked box is the union of the glyphs'
    /// pixels in the mask.
    @Test(arguments: [LK_VARIANT_SCALAR, LK_VARIANT_SSE2, LK_VARIANT_AVX2, LK_VARIANT_AVX512, LK_VARIANT_AUTO])
    func addedGlyphsEqualCoverageOverGlyphByGlyph(_ variant: lk_variant) throws {
        guard variant == LK_VARIANT_AUTO || lk_kernels_variant_is_available(variant) != 0 else { return }
        var g = SeededGenerator(seed: 57)
        var steps = 0, storable = (narrow: 0, wide: 0)
        for trial in 0..<600 {
            let width = Int.random(in: 1...90, using: &g) + (trial % 4 == 1 ? 60 : 0), height = Int.random(in: 1...40, using: &g)
            let stride = trial % 3 == 0 ? width : width + Int.random(in: 0...20, using: &g)
            let maskX = trial % 2 == 0 ? 0 : Int.random(in: -500...500, using: &g)
            let maskY = trial % 2 == 0 ? 0 : Int.random(in: -500...500, using: &g)
            var glyphs: [Glyph?] = []
            // Every fourth trial a line: glyphs of text's sizes left to right, now and then
            // overlapping the one before or stepping back, on a wider mask.
            let line = trial % 4 == 1
            var pen = Int.random(in: -8...8, using: &g)
            for _ in 0..<Int.random(in: 0...(line ? 20 : 12), using: &g) {
                if Int.random(in: 0..<6, using: &g) == 0 {
                    glyphs.append(nil)
                    continue
                }
                let w = Int.random(in: 0...(line ? 18 : 40), using: &g) + (line && Int.random(in: 0..<5, using: &g) == 0 ? 16 : 0)
                let h = Int.random(in: 0...(line ? min(height, 24) : 30), using: &g)
                // A line's glyphs are padded to whole 16-byte steps (as the glyph cache's are), or a little more.
                let pad = line ? (16 - w % 16) % 16 + Int.random(in: 0...4, using: &g) : Bool.random(using: &g) ? 0 : Int.random(in: 1...20, using: &g)
                let x = line ? pen : Int.random(in: -25...(width + 5), using: &g)
                let y = line ? Int.random(in: -1...max(0, height - h), using: &g) : Int.random(in: -20...(height + 5), using: &g)
                pen += line ? w + Int.random(in: -4...3, using: &g) : 0
                glyphs.append(Glyph(x: maskX + x, y: maskY + y, width: w, height: h, stride: w + pad, &g))
                if w + pad >= 16 { steps += 1 }
            }
            // A clear mask, as a line's store starts (where the kernel stores a glyph's coverage
            // as it is until glyphs overlap), or one holding anything.
            var before = trial % 4 == 1 ? [UInt8](repeating: 0, count: stride * height)
                : (0..<(stride * height)).map { _ in Int.random(in: 0..<3, using: &g) == 0 ? 0 : UInt8.random(in: 0...255, using: &g) }
            // Columns from `clearX` on clear in every row, and said to be (the padding keeps
            // whatever it holds); or nothing said (the mask's width or more).
            let clearX: Int
            switch trial % 8 {
            case 1, 5: clearX = trial % 8 == 1 ? 0 : Int.random(in: 0...width, using: &g)
            case 0, 2, 4: clearX = Int.random(in: 0...width, using: &g)
            case 6: clearX = Int(Int32.max)
            default: clearX = width + Int.random(in: 0...3, using: &g)
            }
            for row in 0..<height where clearX < width { for x in clearX..<width { before[row * stride + x] = 0 } }
            let stored = Self.storable(glyphs.map { $0?.blit }, maskX: maskX, maskY: maskY, width: width, height: height,
                                       clearX: clearX)
            storable = (storable.narrow + stored.narrow, storable.wide + stored.wide)
            var expected = before
            let expectedInk = Self.reference(&expected, maskX: maskX, maskY: maskY, width: width, height: height, stride: stride,
                                             glyphs)
            // The mask in an allocation of exactly its rows.
            let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
            defer { mask.deallocate() }
            mask.initialize(from: before, count: before.count)
            // A glyph without ink: null coverage, whatever its other fields say.
            let blits = glyphs.map { $0?.blit ?? lk_glyph_blit(coverage: nil, stride: 3, x: Int32(maskX), y: Int32(maskY), width: 9, height: 9) }
            var inked = lk_box(x1: -7, y1: -7, x2: -7, y2: -7)
            let status = withExtendedLifetime(glyphs) {
                lk_a8_add_glyphs(mask, Int32(maskX), Int32(maskY), Int32(width), Int32(height), Int32(stride),
                                 Int32(clamping: clearX), blits, Int32(blits.count), &inked, variant)
            }
            #expect(status == LK_OK)
            let ink = inked.x1 < inked.x2 && inked.y1 < inked.y2
                ? PixelRect(x: Int(inked.x1), y: Int(inked.y1), width: Int(inked.x2 - inked.x1), height: Int(inked.y2 - inked.y1)) : nil
            // The kernel reports boxes, the reference inked pixels: a glyph's box may hold zeros.
            if let expectedInk {
                #expect(ink.map { $0.union(expectedInk) == $0 } == true, "trial \(trial): inked \(String(describing: ink)) misses \(expectedInk)")
            }
            let boxes = glyphs.compactMap { $0 }.map {
                PixelRect(x: Int($0.blit.x) - maskX, y: Int($0.blit.y) - maskY, width: Int($0.blit.width), height: Int($0.blit.height))
                    .intersection(PixelRect(x: 0, y: 0, width: width, height: height))
            }.filter { !$0.isEmpty }
            let expectedBox = boxes.dropFirst().reduce(boxes.first) { union, box in union.map { $0.union(box) } }
            #expect(ink == expectedBox, "trial \(trial): inked \(String(describing: ink)), the glyphs' boxes \(String(describing: expectedBox))")
            let result = Array(UnsafeBufferPointer(start: mask, count: stride * height))
            if result != expected {
                let i = result.indices.first { result[$0] != expected[$0] }!
                Issue.record("\(variant) trial \(trial): \(width)x\(height) stride \(stride), byte (\(i % stride), \(i / stride)) is \(result[i]), not \(expected[i])")
                return
            }
        }
        #expect(steps > 1000, "too few glyph rows took the 16-byte steps")
        #expect(storable.narrow > 120, "too few glyphs were stored onto clear columns")
        #expect(storable.wide > 30, "too few glyphs wider than a step were stored onto clear columns")
    }

    /// How many of `glyphs` (of one step a row, and wider) AVX2 may store as they are: inside
    /// the mask, their whole 16-byte steps within its width and their rows, starting right of
    /// `clearX` and of every glyph before.
    static func storable(_ glyphs: [lk_glyph_blit?], maskX: Int, maskY: Int, width: Int, height: Int,
                         clearX: Int) -> (narrow: Int, wide: Int) {
        var clear = max(clearX, 0), count = (narrow: 0, wide: 0)
        for case let b? in glyphs {
            let gx = Int(b.x) - maskX, gy = Int(b.y) - maskY, w = Int(b.width), h = Int(b.height), steps = (w + 15) / 16
            if gx >= clear, gy >= 0, gy + h <= height, w > 0, h > 0, Int(b.stride) >= 16 * steps, width - gx >= 16 * steps {
                if steps == 1 { count.narrow += 1 } else { count.wide += 1 }
            }
            let box = PixelRect(x: gx, y: gy, width: w, height: h).intersection(PixelRect(x: 0, y: 0, width: width, height: height))
            if !box.isEmpty { clear = max(clear, box.maxX) }
        }
        return count
    }

    @Test func badArgumentsAreRefusedAndWriteNothing() {
        var mask = [UInt8](repeating: 9, count: 64)
        let coverage = [UInt8](repeating: 200, count: 64)
        coverage.withUnsafeBufferPointer { c in
            let good = lk_glyph_blit(coverage: c.baseAddress, stride: 8, x: 0, y: 0, width: 8, height: 8)
            var narrow = good
            narrow.stride = 7
            var negative = good
            negative.height = -1
            for bad in [narrow, negative] {
                #expect(lk_a8_add_glyphs(&mask, 0, 0, 8, 8, 8, 8, [good, bad], 2, nil, LK_VARIANT_AUTO) == LK_INVALID)
            }
            #expect(lk_a8_add_glyphs(&mask, 0, 0, 8, 8, 7, 8, [good], 1, nil, LK_VARIANT_AUTO) == LK_INVALID, "a mask row shorter than its width")
            #expect(lk_a8_add_glyphs(nil, 0, 0, 8, 8, 8, 8, [good], 1, nil, LK_VARIANT_AUTO) == LK_INVALID)
            #expect(lk_a8_add_glyphs(&mask, 0, 0, 8, 8, 8, 8, nil, 1, nil, LK_VARIANT_AUTO) == LK_INVALID)
            #expect(mask.allSatisfy { $0 == 9 })
            // A glyph without coverage is one without ink, however odd its other fields.
            var empty = negative
            empty.coverage = nil
            var inked = lk_box(x1: 1, y1: 1, x2: 2, y2: 2)
            #expect(lk_a8_add_glyphs(&mask, 0, 0, 8, 8, 8, 8, [empty], 1, &inked, LK_VARIANT_AUTO) == LK_OK)
            #expect(mask.allSatisfy { $0 == 9 } && inked.x1 >= inked.x2, "nothing inked")
            #expect(lk_a8_add_glyphs(&mask, 0, 0, 8, 8, 8, 8, [empty, good], 2, &inked, LK_VARIANT_AUTO) == LK_OK)
            #expect(mask.allSatisfy { $0 == CoverageOverSink.over(9, 200) })
            #expect(inked.x1 == 0 && inked.y1 == 0 && inked.x2 == 8 && inked.y2 == 8)
        }
    }
}
