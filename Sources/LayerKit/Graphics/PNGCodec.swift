import CPNG
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thin wrapper over libpng. Decoding runs in the C shim (libpng's longjmp error handling
/// must stay in C): every color type, bit depth and interlace becomes 8-bit straight-alpha
/// pixels, samples taken as stored (sRGB; gAMA and iCCP are not applied, as in most image
/// libraries). Encoding uses libpng's simplified writer, which handles errors itself.
enum PNGCodec {
    /// The signature every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Straight-alpha 32-bit words in a8r8g8b8 bit layout, as libpng names their byte order.
    #if _endian(little)
    static let nativeFormat = lk_png_format_bgra
    static let nativeOpaqueFormat = lk_png_format_bgra & ~UInt32(PNG_FORMAT_FLAG_ALPHA)
    #else
    static let nativeFormat = lk_png_format_argb
    static let nativeOpaqueFormat = lk_png_format_argb & ~UInt32(PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_AFIRST)
    #endif

    /// Decodes to premultiplied pixels in memory from `calloc`, owned by the caller.
    static func decode(_ data: Data, source: String, options: PNGDecodingOptions = PNGDecodingOptions()) throws(PNGError)
        -> (pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        guard data.count >= signature.count, data.prefix(signature.count).elementsEqual(signature) else {
            throw .notPNG(source: source)
        }
        var state = lk_png_source()
        var pixels: UnsafeMutablePointer<UInt32>? = nil
        var width: UInt32 = 0, height: UInt32 = 0
        let status = data.withUnsafeBytes { bytes in
            state.data = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            state.size = bytes.count
            // The options cannot ask for more than a bitmap holds, even when built field by field.
            let side = min(max(options.maximumDimension, 0), Bitmap.maximumDimension)
            let count = min(max(options.maximumPixelCount, 0), Bitmap.maximumPixelCount)
            // 0 would mean "no limit" to libpng: the smallest limit is one byte.
            let chunkBytes = max(options.maximumAncillaryChunkBytes, 1)
            return lk_png_decode(&state, UInt32(side), count, chunkBytes, &pixels, &width, &height)
        }
        switch Int(status) {
        case LK_PNG_OK:
            guard let pixels else { throw .corrupt(source: source, detail: "no pixels") }
            for i in 0..<Int(width) * Int(height) { pixels[i] = premultiplied(pixels[i]) }
            return (pixels, Int(width), Int(height))
        case LK_PNG_TOO_LARGE:
            let w = Int(width), h = Int(height)
            if w > Bitmap.maximumDimension || h > Bitmap.maximumDimension || w * h > Bitmap.maximumPixelCount {
                throw .tooLarge(source: source, width: w, height: h)
            }
            throw .overDecodingLimit(source: source, width: w, height: h,
                                     maximumPixelCount: min(max(options.maximumPixelCount, 0), Bitmap.maximumPixelCount),
                                     maximumDimension: min(max(options.maximumDimension, 0), Bitmap.maximumDimension))
        case LK_PNG_NO_MEMORY:
            throw .corrupt(source: source, detail: "out of memory while decoding")
        default:
            let detail = withUnsafeBytes(of: &state.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw .corrupt(source: source, detail: detail.isEmpty ? "libpng gave no reason" : detail)
        }
    }

    /// Encodes to `stream`; opaque bitmaps are written without an alpha channel.
    static func encode(_ bitmap: Bitmap, to stream: UnsafeMutablePointer<FILE>) throws(PNGError) {
        let isOpaque = bitmap.withUnsafePixels { $0.allSatisfy { $0 >> 24 == 0xFF } }
        var image = png_image()
        image.version = lk_png_image_version
        image.width = UInt32(bitmap.width)
        image.height = UInt32(bitmap.height)
        defer { png_image_free(&image) }
        let ok: Bool
        if isOpaque {
            // Three bytes a pixel, in the order libpng's format names.
            image.format = nativeOpaqueFormat
            var packed = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 3)
            bitmap.withUnsafePixels { pixels in
                for (i, p) in pixels.enumerated() {
                    #if _endian(little)
                    (packed[3 * i], packed[3 * i + 1], packed[3 * i + 2]) = (UInt8(p & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p >> 16 & 0xFF))
                    #else
                    (packed[3 * i], packed[3 * i + 1], packed[3 * i + 2]) = (UInt8(p >> 16 & 0xFF), UInt8(p >> 8 & 0xFF), UInt8(p & 0xFF))
                    #endif
                }
            }
            ok = png_image_write_to_stdio(&image, stream, 0, packed, Int32(bitmap.width * 3), nil) != 0
        } else {
            image.format = nativeFormat
            let straight = bitmap.withUnsafePixels { $0.map(unpremultiplied) }
            ok = png_image_write_to_stdio(&image, stream, 0, straight, Int32(bitmap.bytesPerRow), nil) != 0
        }
        guard ok else { throw .encodingFailed(detail: message(of: &image)) }
    }

    static func premultiplied(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 0xFF { return p }
        if a == 0 { return 0 }
        // x·a/255 rounded to nearest, exactly, without a division.
        func mul(_ shift: UInt32) -> UInt32 {
            let t = (p >> shift & 0xFF) * a + 128
            return ((t + (t >> 8)) >> 8) << shift
        }
        return a << 24 | mul(16) | mul(8) | mul(0)
    }

    static func unpremultiplied(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 0xFF { return p }
        if a == 0 { return 0 }
        func div(_ shift: UInt32) -> UInt32 { min(255, ((p >> shift & 0xFF) * 255 + a / 2) / a) << shift }
        return a << 24 | div(16) | div(8) | div(0)
    }

    private static func message(of image: inout png_image) -> String {
        let text = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return text.isEmpty ? "libpng gave no reason" : text
    }
}
