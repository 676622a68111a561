import CKernels
import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Bitmaps placed at whole-pixel offsets (a shape's store at rest) go over through the kernels'
/// offset rows, which skip steps of clear pixels and copy steps of opaque ones: pixman's
/// over_8888_8888 pixels (over_8888_n_8888 under an opacity) in every variant.
@Suite struct OffsetKernelTests {
    /// Sources of clear, opaque, nearly clear or opaque and translucent stretches longer and shorter than a step (and
    /// some pixels that are not premultiplied, which pixman's saturating sums also take), any
    /// width (rows shorter than a step, tails shorter than one), offsets partly off the target,
    /// clips and opacities.
    @Test func offsetsOfBitmapsDrawPixmansPixelsInEveryVariant() throws {
        var g = SeededGenerator(seed: 5151)
        var compared = 0
        for trial in 0..<500 {
            let sw = Int.random(in: 1...(trial % 4 == 0 ? 9 : 90), using: &g), sh = Int.random(in: 1...30, using: &g)
            let source = try Bitmap(width: sw, height: sh)
            source.withUnsafeMutablePixels { pixels in
                for y in 0..<sh {
                    var x = 0
                    while x < sw {
                        let run = Int.random(in: 1...20, using: &g), kind = Int.random(in: 0..<7, using: &g)
                        for k in x..<min(sw, x + run) {
                            pixels[y * sw + k] = switch kind {
                            case 0, 1: 0
                            case 2: 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g)
                            // Nearly opaque and nearly clear: one lane off spoils a step's shortcut.
                            case 3: (Int.random(in: 0..<8, using: &g) == 0 ? 0xFE00_0000 : 0xFF00_0000) | 0x80_4020
                            case 4: Int.random(in: 0..<8, using: &g) == 0 ? UInt32(1) << UInt32.random(in: 0...31, using: &g) : 0
                            case 5: KernelFixtures.pixel(&g)
                            default: trial % 7 == 0 ? UInt32.random(in: 0...UInt32.max, using: &g) : KernelFixtures.pixel(&g)
                            }
                        }
                        x += run
                    }
                }
            }
            let target = try KernelFixtures.bitmap(width: 100, height: 50, &g)
            let transform = Homography(translationX: CGFloat(Int.random(in: -20...90, using: &g)),
                                       y: CGFloat(Int.random(in: -15...45, using: &g)))
            guard case let .integerTranslation(x, y) = transform.kind else { continue }
            #expect(CompositePath(transform, kind: transform.kind, operator: .over, engine: .automatic) == .kernelOffset(x: x, y: y, nil))
            #expect(CompositePath(transform, kind: transform.kind, operator: .source, engine: .automatic) == .pixmanCopy(x: x, y: y))
            let clip = KernelFixtures.clip(width: 100, height: 50, &g), opacity = trial % 3 == 0 ? 1 : KernelFixtures.opacity(&g)
            guard let drawn = try KernelFixtures.drawn(on: target, by: [.pixman] + KernelFixtures.kernelEngines, {
                (b: Bitmap) throws(BitmapError) in
                try b.composite(source, transform: transform, filter: .bilinear, clip: clip, opacity: opacity)
            }) else { continue }
            for (variant, copy) in zip(KernelVariant.available, drawn.dropFirst()) {
                #expect(copy.hasSamePixels(as: drawn[0]), "\(variant), trial \(trial): \(sw)x\(sh) at (\(x), \(y)), opacity \(opacity)")
            }
            compared += 1
        }
        #expect(compared > 450)
    }

    /// The kernels' offset rows take over and source; other operators are refused.
    @Test func offsetRowsRefuseOtherOperators() throws {
        let source = try Bitmap(width: 4, height: 4), target = try Bitmap(width: 4, height: 4)
        var box = lk_box(x1: 0, y1: 0, x2: 4, y2: 4)
        var job = lk_job()
        job.dst = target.pixels
        job.dst_width = 4; job.dst_height = 4; job.dst_stride = Int32(target.bytesPerRow)
        job.src = UnsafeRawPointer(source.pixels)
        job.src_width = 4; job.src_height = 4; job.src_stride = Int32(source.bytesPerRow)
        job.format = LK_FORMAT_ARGB32
        job.opacity = 255
        withUnsafePointer(to: &box) { boxes in
            job.boxes = boxes
            job.box_count = 1
            job.op = LK_OP_OVER
            #expect(lk_composite_argb_offset(&job, 0, 0) == LK_OK)
            job.op = LK_OP_SRC
            #expect(lk_composite_argb_offset(&job, 0, 0) == LK_OK)
            job.op = lk_operator(rawValue: 7)
            #expect(lk_composite_argb_offset(&job, 0, 0) == LK_INVALID)
            job.op = LK_OP_OVER
            job.format = LK_FORMAT_A8
            #expect(lk_composite_argb_offset(&job, 0, 0) == LK_INVALID)
        }
    }
}
