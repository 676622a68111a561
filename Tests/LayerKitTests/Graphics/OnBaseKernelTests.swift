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
