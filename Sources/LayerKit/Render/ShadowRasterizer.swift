import Foundation

/// Makes a shadow's coverage: the alpha of a source, padded and blurred.
enum ShadowRasterizer {
    /// The widest blur, in pixels of standard deviation, made at its source's own scale. A
    /// wider one has no detail finer than a few of its pixels: it is made at a fraction of the
    /// scale that brings it back within this, and composited scaled up (bilinear), so that its
    /// store and its cost stay bounded whatever the radius.
    static let widestBlurAtFullScale: Double = 64

    /// The integer factor by which a shadow blurred by `sigma` pixels is made smaller (1: none).
    static func reduction(sigma: Double) -> Int {
        guard sigma > widestBlurAtFullScale else { return 1 }
        return Int((min(sigma, BoxBlur.maximumSigma) / widestBlurAtFullScale).rounded(.up))
    }

    /// Pixels of a side of `count` pixels at 1 / `factor` of the scale (whole blocks, rounded up).
    static func reduced(_ count: Int, by factor: Int) -> Int { (count + factor - 1) / max(factor, 1) }

    /// Draws the coverage of the shadow of `source` into `result`, a cleared mask `padding`
    /// pixels larger than the source on every side: the source's alpha, blurred. The shadow's
    /// color and opacity are applied when it is composited.
    ///
    /// With a `reduction` above 1 the source's alpha is first averaged over blocks of
    /// `reduction` × `reduction` pixels (the last ones cut short by the edges, counting the
    /// pixels beyond as clear): the shadow is made at that fraction of the source's scale.
    static func drawShadow(of source: Bitmap, reduction: Int = 1, padding: Int, blur: BoxBlur, into result: AlphaMask) {
        let f = max(reduction, 1)
        let sourceWidth = reduced(source.width, by: f), sourceHeight = reduced(source.height, by: f)
        let width = sourceWidth + 2 * padding, height = sourceHeight + 2 * padding
        precondition(result.width == width && result.height == height, "shadow store of the wrong size")
        var plane = [UInt8](repeating: 0, count: width * height)
        source.withUnsafePixels { pixels in
            if f == 1 {
                for y in 0..<source.height {
                    let row = (y + padding) * width + padding
                    for x in 0..<source.width { plane[row + x] = UInt8(pixels[y * source.width + x] >> 24) }
                }
                return
            }
            let block = UInt32(f * f)
            var sums = [UInt32](repeating: 0, count: sourceWidth)
            for by in 0..<sourceHeight {
                for i in sums.indices { sums[i] = 0 }
                for y in (by * f)..<min(by * f + f, source.height) {
                    let line = y * source.width
                    for x in 0..<source.width { sums[x / f] += pixels[line + x] >> 24 }
                }
                let row = (by + padding) * width + padding
                for i in sums.indices { plane[row + i] = UInt8((sums[i] + block / 2) / block) }
            }
        }
        blur.apply(to: &plane, width: width, height: height)
        let stride = result.bytesPerRow
        result.withUnsafeMutableBytes { out in
            plane.withUnsafeBufferPointer { blurred in
                for y in 0..<height {
                    guard let to = out.baseAddress, let from = blurred.baseAddress else { return }
                    (to + y * stride).update(from: from + y * width, count: width)
                }
            }
        }
    }
}
