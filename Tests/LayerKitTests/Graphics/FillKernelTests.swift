import CKernels
import CPixman
import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lk_fill`, which stores a painter's background and clears, against pixman's fill of the same
/// boxes (`pixman_image_fill_boxes`), in every variant; and `Bitmap.fill`, which takes it for
/// the fills that are a store, against pixman for every operator.
@Suite struct FillKernelTests {
    static let variants = [LK_VARIANT_SCALAR, LK_VARIANT_SSE2, LK_VARIANT_AVX2, LK_VARIANT_AVX512, LK_VARIANT_AUTO]

    /// A box of a `width` × `height` destination: often flush with an edge or reaching past it,
    /// sometimes empty or inside out, widths 0 … 70 from any column (every alignment).
    static func box(width: Int, height: Int, _ g: inout SeededGenerator) -> lk_box {
        let w = Int.random(in: 0...70, using: &g), h = Int.random(in: 0...12, using: &g)
        var x = Int.random(in: -3...width, using: &g), y = Int.random(in: -3...height, using: &g)
        switch Int.random(in: 0..<6, using: &g) {
        case 0: x = 0
        case 1: x = width - w                                      // flush with the right edge
        case 2: y = height - h
        default: break
        }
        var b = lk_box(x1: Int32(x), y1: Int32(y), x2: Int32(x + w), y2: Int32(y + h))
        if Int.random(in: 0..<20, using: &g) == 0 { swap(&b.x1, &b.x2) }
        return b
    }

    /// Random destinations (rows padded or exact, holding anything), random pixels, up to six
    /// boxes each: every word, padding included, equals what pixman's fill of the boxes cut to
    /// the destination leaves. The destination is an allocation of exactly its rows, so that
    /// AddressSanitizer (scripts/asan-kernels) sees any store past it.
    @Test(arguments: variants)
    func fillsEqualPixmansFillOfTheBoxes(_ variant: lk_variant) throws {
        guard variant == LK_VARIANT_AUTO || lk_kernels_variant_is_available(variant) != 0 else { return }
        var g = SeededGenerator(seed: 61)
        for _ in 0..<1500 {
            let width = Int.random(in: 1...100, using: &g), height = Int.random(in: 1...24, using: &g)
            let stride = (width + [0, 0, 1, 3, 8].randomElement(using: &g)!) * 4
            let words = stride / 4 * height
            let pixel = Bool.random(using: &g) ? KernelFixtures.pixel(&g) : UInt32.random(in: 0...UInt32.max, using: &g)
            let boxes = (0..<Int.random(in: 0...6, using: &g)).map { _ in Self.box(width: width, height: height, &g) }
            // Starts at any word of a 64-byte line (the allocation's first word is 16-byte aligned).
            let skew = Int.random(in: 0..<16, using: &g)
            let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: words + skew)
            defer { storage.deallocate() }
            let kernel = storage + skew
            for i in 0..<words { kernel[i] = UInt32.random(in: 0...UInt32.max, using: &g) }
            var expected = Array(UnsafeBufferPointer(start: kernel, count: words))

            var cut = boxes.compactMap { b -> pixman_box32_t? in
                let c = pixman_box32_t(x1: max(b.x1, 0), y1: max(b.y1, 0), x2: min(b.x2, Int32(width)), y2: min(b.y2, Int32(height)))
                return c.x1 < c.x2 && c.y1 < c.y2 ? c : nil
            }
            expected.withUnsafeMutableBufferPointer { words in
                let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), words.baseAddress,
                                                     Int32(stride))
                defer { pixman_image_unref(image) }
                var color = Bitmap.pixmanColor(premultiplied: pixel)
                #expect(pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &color, Int32(cut.count), &cut) != 0)
            }

            let status = boxes.withUnsafeBufferPointer {
                lk_fill(kernel, Int32(width), Int32(height), Int32(stride), pixel, $0.baseAddress, Int32($0.count), variant)
            }
            #expect(status == LK_OK)
            let got = Array(UnsafeBufferPointer(start: kernel, count: words))
            if got != expected {
                let i = got.indices.first { got[$0] != expected[$0] }!
                Issue.record("variant \(variant.rawValue), \(width)x\(height) stride \(stride), boxes \(boxes): word \(i) (row \(i / (stride / 4)), column \(i % (stride / 4))) \(String(got[i], radix: 16)), pixman \(String(expected[i], radix: 16))")
                return
            }
        }
    }

    /// Arguments out of range are refused, and nothing is written.
    @Test func badArgumentsAreRefused() {
        let storage = UnsafeMutablePointer<UInt32>.allocate(capacity: 65)
        defer { storage.deallocate() }
        storage.initialize(repeating: 7, count: 65)
        var box = lk_box(x1: 0, y1: 0, x2: 8, y2: 8)
        let misaligned = UnsafeMutableRawPointer(storage).advanced(by: 2).assumingMemoryBound(to: UInt32.self)
        for variant in Self.variants {
            #expect(lk_fill(nil, 8, 8, 32, 1, &box, 1, variant) == LK_INVALID)
            #expect(lk_fill(misaligned, 8, 8, 32, 1, &box, 1, variant) == LK_INVALID)
            #expect(lk_fill(storage, -1, 8, 32, 1, &box, 1, variant) == LK_INVALID)
            #expect(lk_fill(storage, 8, -1, 32, 1, &box, 1, variant) == LK_INVALID)
            #expect(lk_fill(storage, 8, 8, 30, 1, &box, 1, variant) == LK_INVALID)       // a stride not of words
            #expect(lk_fill(storage, 8, 8, 28, 1, &box, 1, variant) == LK_INVALID)       // shorter than a row
            #expect(lk_fill(storage, 8, 8, -32, 1, &box, 1, variant) == LK_INVALID)
            #expect(lk_fill(storage, 8, 1 << 26, 1 << 6, 1, &box, 1, variant) == LK_INVALID)  // 2^32 bytes
            #expect(lk_fill(storage, 8, 8, 32, 1, &box, -1, variant) == LK_INVALID)
            #expect(lk_fill(storage, 8, 8, 32, 1, nil, 1, variant) == LK_INVALID)
            #expect((0..<65).allSatisfy { storage[$0] == 7 }, "nothing was written")
            // No boxes, or empty destinations: nothing to do, and nothing done.
            #expect(lk_fill(storage, 8, 8, 32, 1, nil, 0, variant) == LK_OK)
            #expect(lk_fill(storage, 0, 0, 0, 1, &box, 1, variant) == LK_OK)
            #expect((0..<65).allSatisfy { storage[$0] == 7 })
        }
    }

    /// `Bitmap.fill` with every operator, translucent, opaque and clear pixels, through random
    /// clips: the kernels' stores (any variant) and pixman's blends leave the pixels pixman
    /// alone leaves.
    @Test func bitmapFillsEqualPixmansForEveryOperator() throws {
        var g = SeededGenerator(seed: 67)
        for _ in 0..<200 {
            let width = Int.random(in: 1...80, using: &g), height = Int.random(in: 1...30, using: &g)
            let original = try KernelFixtures.bitmap(width: width, height: height, &g)
            let rect = PixelRect(x: Int.random(in: -5...width, using: &g), y: Int.random(in: -5...height, using: &g),
                                 width: Int.random(in: 0...width + 10, using: &g), height: Int.random(in: 0...height + 10, using: &g))
            let clip = KernelFixtures.clip(width: width, height: height, &g)
            let pixel: UInt32 = switch Int.random(in: 0..<3, using: &g) {
            case 0: 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g)
            case 1: 0
            default: KernelFixtures.pixel(&g)
            }
            let op = CompositeOperator.allCases.randomElement(using: &g)!
            let byPixman = try original.copy()
            Bitmap.withCompositeEngine(.pixman) { byPixman.fill(rect, premultiplied: pixel, operator: op, clip: clip) }
            for engine in [CompositeEngine.automatic] + KernelVariant.available.map(CompositeEngine.kernels) {
                let drawn = try original.copy()
                Bitmap.withCompositeEngine(engine) { drawn.fill(rect, premultiplied: pixel, operator: op, clip: clip) }
                let same = drawn.withUnsafePixels(Array.init) == byPixman.withUnsafePixels(Array.init)
                #expect(same, "\(op) of \(String(pixel, radix: 16)) over \(rect), engine \(engine)")
            }
        }
    }

    /// The fills that are a store, and only those, go to the kernels.
    @Test func onlyStoresAreStored() {
        #expect(Bitmap.storedPixel(0x8040_2010, .source) == 0x8040_2010)
        #expect(Bitmap.storedPixel(0x8040_2010, .clear) == 0)
        #expect(Bitmap.storedPixel(0xFF40_2010, .over) == 0xFF40_2010)
        #expect(Bitmap.storedPixel(0xFE40_2010, .over) == nil)
        for op in CompositeOperator.allCases where ![.source, .clear, .over].contains(op) {
            #expect(Bitmap.storedPixel(0xFF40_2010, op) == nil, "\(op)")
        }
    }

    /// A destination flush against inaccessible pages on either side, filled over its whole
    /// rows and boxes at its edges in every variant: a store outside it would crash. (ASan sees
    /// plain stores too; this sees every variant's vector stores whatever the build.)
    @Test func noVariantStoresOutsideItsDestination() throws {
        for (width, height) in [(1, 1), (3, 5), (7, 3), (9, 4), (17, 3), (90, 3), (33, 40)] {
            KernelFixtures.withGuardedBytes(width * 4 * height) { placement in
                let pixels = placement.assumingMemoryBound(to: UInt32.self)
                let w = Int32(width), h = Int32(height)
                let boxes = [lk_box(x1: -5, y1: -5, x2: w + 5, y2: h + 5), lk_box(x1: 0, y1: 0, x2: 1, y2: 1),
                             lk_box(x1: w - 1, y1: h - 1, x2: w, y2: h), lk_box(x1: w / 2, y1: 0, x2: w, y2: h),
                             lk_box(x1: 0, y1: h - 1, x2: w - 1, y2: h + 1)]
                for variant in Self.variants {
                    for (i, box) in boxes.enumerated() {
                        var b = box
                        let pixel = UInt32(0xFF00_0000) | UInt32(i) << 8 | variant.rawValue
                        #expect(lk_fill(pixels, w, h, w * 4, pixel, &b, 1, variant) == LK_OK)
                        let x = max(b.x1, 0), y = max(b.y1, 0)
                        if x < min(b.x2, w), y < min(b.y2, h) { #expect(pixels[Int(y) * width + Int(x)] == pixel) }
                    }
                }
            }
        }
    }
}
