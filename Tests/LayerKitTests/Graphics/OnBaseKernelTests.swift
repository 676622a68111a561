import CKernels
import CPixman
import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Coverage at a whole-pixel offset over pixels known to hold a base pixel (a painter's
/// background): the kernels write each covered pixel as the color through its coverage over the
/// base, reading none, and draw what pixman's fill of the base and over_n_8_8888 draw, in every
/// variant.
@Suite struct OnBaseKernelTests {
    /// Masks of clear stretches longer and shorter than a step, any width (rows shorter than a
    /// step, tails), offsets partly off the target, windows, clips of several boxes, colors
    /// (clear ones too), opacities and bases: every pixel the mask covers within the window and
    /// the clip is written, whatever it held (it is not read), and none outside.
    @Test func coverageOnABaseDrawsPixmansFillAndOver() throws {
        var g = SeededGenerator(seed: 4242)
        var compared = 0
        for trial in 0..<400 {
            let sw = Int.random(in: 1...(trial % 4 == 0 ? 9 : 70), using: &g), sh = Int.random(in: 1...30, using: &g)
            let mask = try AlphaMask(width: sw, height: sh)
            for y in 0..<sh {
                var x = 0
                while x < sw {
                    let run = Int.random(in: 1...20, using: &g), kind = Int.random(in: 0..<4, using: &g)
                    for k in x..<min(sw, x + run) {
                        mask[k, y] = kind <= 1 ? 0 : kind == 2 ? 255 : UInt8.random(in: 0...255, using: &g)
                    }
                    x += run
                }
            }
            let (x, y) = (Int.random(in: -20...70, using: &g), Int.random(in: -15...45, using: &g))
            let base = trial % 9 == 0 ? UInt32.random(in: 0...UInt32.max, using: &g) : KernelFixtures.pixel(&g)
            let color = trial % 5 == 0 ? Color(red: 0.9, green: 0.92, blue: 0.85) : Color(premultipliedARGB32: KernelFixtures.pixel(&g))
            let opacity = trial % 3 == 0 ? 1 : KernelFixtures.opacity(&g)
            let clip = KernelFixtures.clip(width: 80, height: 50, &g) ?? Region(PixelRect(x: 0, y: 0, width: 80, height: 50))
            // The whole target, or a rectangle about the mask cutting it or not.
            let window = trial % 4 == 0 ? PixelRect(x: -5, y: -5, width: 100, height: 100)
                : PixelRect(x: x + Int.random(in: -3...sw / 2, using: &g), y: y + Int.random(in: -3...sh / 2, using: &g),
                            width: Int.random(in: 1...sw + 6, using: &g), height: Int.random(in: 1...sh + 6, using: &g))
            let placed = PixelRect(x: x, y: y, width: sw, height: sh)
            let written = clip.intersection(Region(placed.intersection(window)))
            let garbage = try KernelFixtures.bitmap(width: 80, height: 50, &g), expected = try garbage.copy()
            expected.fill(expected.bounds, premultiplied: base, operator: .source, clip: written)
            try Bitmap.withCompositeEngine(.pixman) {
                try expected.composite(mask, color: color, transform: Homography(translationX: CGFloat(x), y: CGFloat(y)),
                                       filter: .bilinear, clip: written, opacity: opacity)
            }
            for variant in KernelVariant.available {
                let drawn = try garbage.copy()
                drawn.composite(mask, color: color, atX: x, y: y, opacity: opacity, onBase: base, clip: clip, window: window,
                                variant: variant)
                #expect(drawn.hasSamePixels(as: expected), "\(variant), trial \(trial): \(sw)x\(sh) at (\(x), \(y)), window \(window)")
            }
            if !written.isEmpty { compared += 1 }
        }
        #expect(compared > 180, "only \(compared) wrote a pixel")
    }

    /// Every coverage 0 … 255 in one row, over bases clear, opaque, translucent and not
    /// premultiplied, with colors and opacities: pixman's pixels in every variant.
    @Test func everyCoverageOnEveryKindOfBaseIsPixmans() throws {
        var g = SeededGenerator(seed: 2424)
        let ramp = try AlphaMask(width: 256, height: 1)
        for t in 0..<256 { ramp[t, 0] = UInt8(t) }
        let bounds = PixelRect(x: 0, y: 0, width: 256, height: 1)
        for trial in 0..<200 {
            let base = trial % 9 == 0 ? UInt32.random(in: 0...UInt32.max, using: &g) : KernelFixtures.pixel(&g)
            let color = trial % 5 == 0 ? Color(red: 0.9, green: 0.92, blue: 0.85) : Color(premultipliedARGB32: KernelFixtures.pixel(&g))
            let opacity = trial % 3 == 0 ? 1 : KernelFixtures.opacity(&g)
            let expected = try Bitmap(width: 256, height: 1)
            expected.fill(bounds, premultiplied: base, operator: .source)
            try Bitmap.withCompositeEngine(.pixman) {
                try expected.composite(ramp, color: color, transform: .identity, filter: .nearest, opacity: opacity)
            }
            for variant in KernelVariant.available {
                let drawn = try Bitmap(width: 256, height: 1)
                drawn.composite(ramp, color: color, atX: 0, y: 0, opacity: opacity, onBase: base, clip: Region(bounds), window: bounds,
                                variant: variant)
                #expect(drawn.hasSamePixels(as: expected), "\(variant), trial \(trial): \(color), opacity \(opacity), base \(base)")
            }
        }
    }

    /// Rows of every length 0 … 200 (tails on both sides of AVX-512's steps of 64 pixels), with
    /// clear stretches longer than a step, opaque ones and ramps, each in a (color, base) pair
    /// drawn from more pairs than a thread keeps palettes for, so that palettes are evicted and
    /// built again: pixman's fill and over in every variant, and the scalar variant's pixels.
    @Test func rowsOfEveryLengthThroughChangingPalettesArePixmans() throws {
        var g = SeededGenerator(seed: 6464)
        let pairs: [(color: Color, opacity: Double, base: UInt32)] = (0..<7).map { k in
            (Color(premultipliedARGB32: k == 0 ? 0 : k == 1 ? 0xFF10_2030 : KernelFixtures.pixel(&g)),
             k % 3 == 2 ? KernelFixtures.opacity(&g) : 1,
             k == 3 ? UInt32.random(in: 0...UInt32.max, using: &g) : k == 4 ? 0 : KernelFixtures.pixel(&g))
        }
        let width = 216, height = 3
        for length in 0...200 {
            let mask = try AlphaMask(width: max(length, 1), height: height)
            for y in 0..<height {
                var x = 0
                while x < length {
                    let kind = Int.random(in: 0..<4, using: &g)
                    let run = kind == 0 ? Int.random(in: 1...140, using: &g) : Int.random(in: 1...40, using: &g)
                    let start = Int.random(in: 0...255, using: &g)
                    for k in x..<min(length, x + run) {
                        mask[k, y] = kind == 0 ? 0 : kind == 1 ? 255 : kind == 2 ? UInt8((start + k - x) % 256)
                            : UInt8.random(in: 0...255, using: &g)
                    }
                    x += run
                }
            }
            for round in 0..<3 {
                let pair = pairs[Int.random(in: 0..<pairs.count, using: &g)]
                let x = Int.random(in: 0...width - 200, using: &g) + (round == 2 ? 0 : Int.random(in: 0...10, using: &g))
                let window = PixelRect(x: x, y: 0, width: max(length, 1), height: height)
                let clip = Region(PixelRect(x: 0, y: 0, width: width, height: height))
                let written = length == 0 ? Region() : Region(window)
                let garbage = try KernelFixtures.bitmap(width: width, height: height, &g), expected = try garbage.copy()
                expected.fill(expected.bounds, premultiplied: pair.base, operator: .source, clip: written)
                try Bitmap.withCompositeEngine(.pixman) {
                    try expected.composite(mask, color: pair.color, transform: Homography(translationX: CGFloat(x), y: 0),
                                           filter: .nearest, clip: written, opacity: pair.opacity)
                }
                let drawings = try KernelVariant.available.map { variant in
                    let drawn = try garbage.copy()
                    if length > 0 {
                        drawn.composite(mask, color: pair.color, atX: x, y: 0, opacity: pair.opacity, onBase: pair.base, clip: clip,
                                        window: window, variant: variant)
                    }
                    return drawn
                }
                for (variant, drawn) in zip(KernelVariant.available, drawings) {
                    #expect(drawn.hasSamePixels(as: expected), "\(variant), length \(length), round \(round): \(pair)")
                    #expect(drawn.hasSamePixels(as: drawings[0]), "\(variant) differs from scalar, length \(length)")
                }
            }
        }
    }

    /// Two threads drawing rows at once, each in colors and over bases of its own, changing from
    /// row to row (two and three: together more than a thread keeps palettes for, so that a
    /// cache the threads shared would have palettes rebuilt under the other's rows): every row
    /// is pixman's.
    @Test func threadsDrawingInColorsOfTheirOwnAtOnceArePixmans() throws {
        var g = SeededGenerator(seed: 8080)
        let width = 256
        let coverage = (0..<width).map { k in k < 256 ? UInt8(k) : UInt8.random(in: 0...255, using: &g) }
        let pairs: [(color: UInt32, base: UInt32)] = [(0xFF20_4060, 0xFFF0_F0F0), (0x8040_2010, 0xFF00_0000),
                                                      (0xFF10_2030, 0xFFF0_F0F0), (0xFFFF_FFFF, 0xFF30_3030),
                                                      (0x4020_1008, 0x8080_8080)]
        let mask = try AlphaMask(width: width, height: 1)
        for k in 0..<width { mask[k, 0] = coverage[k] }
        let bounds = PixelRect(x: 0, y: 0, width: width, height: 1)
        let expected: [[UInt32]] = try pairs.map { pair in
            let row = try Bitmap(width: width, height: 1)
            row.fill(bounds, premultiplied: pair.base, operator: .source)
            try Bitmap.withCompositeEngine(.pixman) {
                try row.composite(mask, color: Color(premultipliedARGB32: pair.color), transform: .identity, filter: .nearest,
                                  opacity: 1)
            }
            return (0..<width).map { row.premultipliedPixel(x: $0, y: 0) }
        }
        let colors = pairs.map(\.color), bases = pairs.map(\.base)
        let wrong = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            do {
                let mask = try AlphaMask(width: width, height: 1), row = try Bitmap(width: width, height: 1)
                for k in 0..<width { mask[k, 0] = coverage[k] }
                let clip = Region(bounds)
                for round in 0..<10000 {
                    let pair = thread == 0 ? round % 2 : 2 + round % 3
                    for variant in KernelVariant.available {
                        row.composite(mask, color: Color(premultipliedARGB32: colors[pair]), atX: 0, y: 0, opacity: 1,
                                      onBase: bases[pair], clip: clip, window: bounds, variant: variant)
                        if expected[pair].withUnsafeBytes({ memcmp(row.pixels, $0.baseAddress!, 4 * width) }) != 0 {
                            wrong.withLock { $0.append("thread \(thread), round \(round), \(variant)") }
                        }
                    }
                }
            } catch {
                wrong.withLock { $0.append("thread \(thread): \(error)") }
            }
        }
        #expect(wrong.withLock { $0 }.isEmpty, "\(wrong.withLock { $0.prefix(5) })")
    }

    /// The kernel takes A8 jobs only.
    @Test func onBaseJobsOfPixelsAreRefused() throws {
        let target = try Bitmap(width: 4, height: 4)
        let coverage = [UInt8](repeating: 255, count: 64)
        var box = lk_box(x1: 0, y1: 0, x2: 4, y2: 4)
        var job = lk_job()
        job.dst = target.pixels
        job.dst_width = 4; job.dst_height = 4; job.dst_stride = Int32(target.bytesPerRow)
        job.src_width = 4; job.src_height = 4; job.src_stride = 16
        job.format = LK_FORMAT_ARGB32
        job.op = LK_OP_OVER
        job.opacity = 255
        job.color = 0xFF00_0000
        coverage.withUnsafeBytes { bytes in
            job.src = bytes.baseAddress
            withUnsafePointer(to: &box) { boxes in
                job.boxes = boxes
                job.box_count = 1
                #expect(lk_composite_a8_on_base(&job, 0, 0, 0xFF80_4020) == LK_INVALID)
                #expect(target.premultipliedPixel(x: 1, y: 1) == 0)
                job.format = LK_FORMAT_A8
                job.src_stride = 4
                #expect(lk_composite_a8_on_base(&job, 0, 0, 0xFF80_4020) == LK_OK)
            }
        }
        #expect(target.premultipliedPixel(x: 1, y: 1) == 0xFF00_0000)
    }
}
