import CPixman
import Foundation

extension Bitmap {
    /// Rows sampled per pass of a projective composite (the scratch buffer's height).
    private static let projectiveChunkRows = 16

    /// Composites `source` through a perspective map, sampling it here rather than in pixman.
    ///
    /// pixman's projective fetcher divides `(uint64_t)x << 16` by w: a source coordinate left of
    /// or above the source (negative) turns into a huge unsigned number, and the "pixel" it
    /// fetches is garbage that can land inside the source (stray streaks beside a turned card).
    /// Here every destination pixel centre is mapped in double precision, directly from its own
    /// coordinates (so pixels come out the same however the area is cut into damage and bands),
    /// sampled (bilinear with 8-bit weights, or nearest; transparent outside the source and
    /// behind the eye, w ≤ ε), and the sampled rows are combined with pixman's untransformed
    /// operator paths, opacity included.
    func compositeProjective(_ source: Bitmap, _ op: CompositeOperator, inverse m: Homography,
                             filter: ImageFilter, area: Region, opacity: Double) {
        let mask = Self.opacityMask(opacity)
        defer { if let mask { pixman_image_unref(mask) } }
        let rects = area.rects
        guard let widest = rects.map(\.width).max(), widest > 0 else { return }
        let chunkRows = Self.projectiveChunkRows
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: widest * chunkRows)
        defer { scratch.deallocate() }
        guard let scratchImage = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(widest), Int32(chunkRows),
                                                          scratch, Int32(widest * 4)) else { return }
        defer { pixman_image_unref(scratchImage) }

        let sourceRow = source.bytesPerRow / 4
        let width = source.width, height = source.height
        let epsilon = Homography.defaultEpsilon
        let bilinear = filter == .bilinear
        for rect in rects {
            var y0 = rect.minY
            while y0 < rect.maxY {
                let rows = min(chunkRows, rect.maxY - y0)
                for row in 0..<rows {
                    let py = CGFloat(y0 + row) + 0.5
                    let rowX = py * m.m21 + m.m31, rowY = py * m.m22 + m.m32, rowW = py * m.m23 + m.m33
                    let out = scratch + row * widest
                    for column in 0..<rect.width {
                        let px = CGFloat(rect.minX + column) + 0.5
                        let w = px * m.m13 + rowW
                        guard w > epsilon else { out[column] = 0; continue }
                        let sx = (px * m.m11 + rowX) / w, sy = (px * m.m12 + rowY) / w
                        out[column] = bilinear
                            ? Self.bilinearSample(source.pixels, sourceRow, width, height, sx, sy)
                            : Self.nearestSample(source.pixels, sourceRow, width, height, sx, sy)
                    }
                }
                pixman_image_composite32(op.pixmanOperator, scratchImage, mask, image, 0, 0, 0, 0,
                                         Int32(rect.minX), Int32(y0), Int32(rect.width), Int32(rows))
                y0 += rows
            }
        }
    }

    @inline(__always)
    private static func nearestSample(_ pixels: UnsafeMutablePointer<UInt32>, _ row: Int, _ width: Int, _ height: Int,
                                      _ sx: CGFloat, _ sy: CGFloat) -> UInt32 {
        guard sx >= 0, sy >= 0, sx < CGFloat(width), sy < CGFloat(height) else { return 0 }
        return pixels[Int(sy) * row + Int(sx)]
    }

    /// The four texels around (sx − ½, sy − ½), weighted by 8-bit fractions; texels outside
    /// the source are transparent.
    @inline(__always)
    private static func bilinearSample(_ pixels: UnsafeMutablePointer<UInt32>, _ row: Int, _ width: Int, _ height: Int,
                                       _ sx: CGFloat, _ sy: CGFloat) -> UInt32 {
        let u = sx - 0.5, v = sy - 0.5
        guard u > -1, v > -1, u < CGFloat(width), v < CGFloat(height) else { return 0 }
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let x0 = Int(fu), y0 = Int(fv)
        let wx = UInt32(((u - fu) * 256).rounded()), wy = UInt32(((v - fv) * 256).rounded())
        @inline(__always) func texel(_ x: Int, _ y: Int) -> UInt32 {
            x >= 0 && y >= 0 && x < width && y < height ? pixels[y * row + x] : 0
        }
        let p00 = texel(x0, y0), p10 = texel(x0 + 1, y0), p01 = texel(x0, y0 + 1), p11 = texel(x0 + 1, y0 + 1)
        let w00 = (256 - wx) * (256 - wy), w10 = wx * (256 - wy), w01 = (256 - wx) * wy, w11 = wx * wy
        // Two channels at a time: red and blue in one word, alpha and green in the other.
        @inline(__always) func blend(_ shift: UInt32) -> UInt32 {
            let c00 = (p00 >> shift) & 0x00FF_00FF, c10 = (p10 >> shift) & 0x00FF_00FF
            let c01 = (p01 >> shift) & 0x00FF_00FF, c11 = (p11 >> shift) & 0x00FF_00FF
            let lo = ((c00 & 0xFF) &* w00 &+ (c10 & 0xFF) &* w10 &+ (c01 & 0xFF) &* w01 &+ (c11 & 0xFF) &* w11 &+ 0x8000) >> 16
            let hi = ((c00 >> 16) &* w00 &+ (c10 >> 16) &* w10 &+ (c01 >> 16) &* w01 &+ (c11 >> 16) &* w11 &+ 0x8000) >> 16
            return (hi << 16 | lo) << shift
        }
        return blend(0) | blend(8)
    }
}
