import Foundation

/// Makes a shadow bitmap: the alpha of a source, padded, blurred and filled with the shadow's
/// color (its own alpha included; the shadow opacity is applied when it is composited).
enum ShadowRasterizer {
    /// Draws the shadow of `source` into `result`, a cleared bitmap `padding` pixels larger than
    /// the source on every side.
    static func drawShadow(of source: Bitmap, padding: Int, blur: BoxBlur, color: Color, into result: Bitmap) {
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
        let tint = color.premultipliedARGB32
        let channels = [tint >> 24 & 0xFF, tint >> 16 & 0xFF, tint >> 8 & 0xFF, tint & 0xFF]
        result.withUnsafeMutablePixels { pixels in
            for i in 0..<width * height where plane[i] != 0 {
                let a = UInt32(plane[i])
                // Each premultiplied channel scaled by the coverage, rounded exactly.
                pixels[i] = channels.reduce(0) { word, c in
                    let t = c * a + 128
                    return word << 8 | ((t + (t >> 8)) >> 8)
                }
            }
        }
    }
}
