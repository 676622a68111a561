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

    /// The definition: each glyph's pixels inside the mask, `over` the mask, glyph after glyph.
    static func reference(_ mask: inout [UInt8], width: Int, height: Int, stride: Int, _ glyphs: [Glyph]) {
        for glyph in glyphs {
            let b = glyph.blit
            for row in 0..<Int(b.height) {
                for column in 0..<Int(b.width) {
                    let x = Int(b.x) + column, y = Int(b.y) + row
                    guard x >= 0, y >= 0, x < width, y < height else { continue }
                    mask[y * stride + x] = CoverageOverSink.over(mask[y * stride + x], glyph.bytes[row * Int(b.stride) + column])
                }
            }
        }
    }

    /// Random masks (rows padded or not), glyphs of every width around the 16-byte steps, with
    /// rows padded or exact, overlapping one another and the mask's edges: the mask equals the
    /// definition's byte for byte, the padding of its rows untouched.
    @Test func addedGlyphsEqualCoverageOverGlyphByGlyph() throws {
        var g = SeededGenerator(seed: 57)
        var steps = 0
        for trial in 0..<600 {
            let width = Int.random(in: 1...90, using: &g), height = Int.random(in: 1...40, using: &g)
            let stride = trial % 3 == 0 ? width : width + Int.random(in: 0...20, using: &g)
            var glyphs: [Glyph] = []
            for _ in 0..<Int.random(in: 0...12, using: &g) {
                let w = Int.random(in: 0...40, using: &g), h = Int.random(in: 0...30, using: &g)
                let pad = Bool.random(using: &g) ? 0 : Int.random(in: 1...20, using: &g)
                glyphs.append(Glyph(x: Int.random(in: -25...(width + 5), using: &g), y: Int.random(in: -20...(height + 5), using: &g),
                                    width: w, height: h, stride: w + pad, &g))
                if w + pad >= 16 { steps += 1 }
            }
            let before = (0..<(stride * height)).map { _ in Int.random(in: 0..<3, using: &g) == 0 ? 0 : UInt8.random(in: 0...255, using: &g) }
            var expected = before
            Self.reference(&expected, width: width, height: height, stride: stride, glyphs)
            // The mask in an allocation of exactly its rows.
            let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
            defer { mask.deallocate() }
            mask.initialize(from: before, count: before.count)
            let blits = glyphs.map(\.blit)
            let status = withExtendedLifetime(glyphs) {
                lk_a8_add_glyphs(mask, Int32(width), Int32(height), Int32(stride), blits, Int32(blits.count))
            }
            #expect(status == LK_OK)
            let result = Array(UnsafeBufferPointer(start: mask, count: stride * height))
            if result != expected {
                let i = result.indices.first { result[$0] != expected[$0] }!
                Issue.record("trial \(trial): \(width)x\(height) stride \(stride), byte (\(i % stride), \(i / stride)) is \(result[i]), not \(expected[i])")
                return
            }
        }
        #expect(steps > 1000, "too few glyph rows took the 16-byte steps")
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
            var null = good
            null.coverage = nil
            for bad in [narrow, negative, null] {
                #expect(lk_a8_add_glyphs(&mask, 8, 8, 8, [good, bad], 2) == LK_INVALID)
            }
            #expect(lk_a8_add_glyphs(&mask, 8, 8, 7, [good], 1) == LK_INVALID, "a mask row shorter than its width")
            #expect(lk_a8_add_glyphs(nil, 8, 8, 8, [good], 1) == LK_INVALID)
            #expect(lk_a8_add_glyphs(&mask, 8, 8, 8, nil, 1) == LK_INVALID)
            #expect(mask.allSatisfy { $0 == 9 })
            #expect(lk_a8_add_glyphs(&mask, 8, 8, 8, [good], 1) == LK_OK)
            #expect(mask.allSatisfy { $0 == CoverageOverSink.over(9, 200) })
        }
    }
}
