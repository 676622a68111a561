import Foundation

/// Makes a shadow's coverage: the alpha of a source, padded and blurred.
enum ShadowRasterizer {
    /// Draws the coverage of the shadow of `source` into `result`, a cleared mask `padding`
    /// pixels larger than the source on every side: the source's alpha, blurred. The shadow's
    /// color and opacity are applied when it is composited.
    static func drawShadow(of source: Bitmap, padding: Int, blur: BoxBlur, into result: AlphaMask) {
        let width = source.width + 2 * padding, height = source.height + 2 * padding
        precondition(result.width == width && result.height == height, "shadow store of the wrong size")
        var plane = [UInt8](repeating: 0, count: width * height)
        source.withUnsafePixels { pixels in
            for y in 0..<source.height {
                let row = (y + padding) * width + padding
                for x in 0..<source.width { plane[row + x] = UInt8(pixels[y * source.width + x] >> 24) }
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
