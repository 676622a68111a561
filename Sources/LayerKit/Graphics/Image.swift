import Foundation

/// An immutable picture: what a layer shows as its `contents`.
///
/// Unlike a `Bitmap`, an image never changes after it is made, so renderers may cache what
/// they build from it and share it across threads.
public final class Image: Sendable, CustomStringConvertible {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    // Safe to share: the bitmap is private, never written after init, and readers take their
    // own pixman source image over its pixels (Bitmap.makeSourceImage), so no pixman state is
    // shared between threads.
    nonisolated(unsafe) let bitmap: Bitmap

    /// An image of a copy of the bitmap's pixels (later changes to the bitmap do not show).
    public init(_ bitmap: Bitmap) throws(BitmapError) {
        self.bitmap = try bitmap.copy()
        width = bitmap.width
        height = bitmap.height
    }

    /// Reads a PNG file.
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - options: bounds on the decoding's cost (lower them for untrusted files).
    /// - Throws: `PNGError` naming the file and what is wrong with it.
    public init(pngAt path: String, options: PNGDecodingOptions = PNGDecodingOptions()) throws(PNGError) {
        bitmap = try Bitmap(pngAt: path, options: options)
        width = bitmap.width
        height = bitmap.height
    }

    /// Decodes PNG data.
    ///
    /// - Parameters:
    ///   - pngData: the PNG file's bytes.
    ///   - options: bounds on the decoding's cost (lower them for untrusted data).
    public init(pngData: Data, options: PNGDecodingOptions = PNGDecodingOptions()) throws(PNGError) {
        bitmap = try Bitmap(pngData: pngData, options: options)
        width = bitmap.width
        height = bitmap.height
    }

    /// Takes ownership of a bitmap nobody else holds.
    init(adopting bitmap: Bitmap) {
        self.bitmap = bitmap
        width = bitmap.width
        height = bitmap.height
    }

    /// The image's size in pixels.
    public var size: CGSize { CGSize(width: width, height: height) }

    /// The color of one pixel, un-premultiplied.
    public func pixel(x: Int, y: Int) -> Color { bitmap.pixel(x: x, y: y) }

    public var description: String { "Image(\(width)x\(height))" }
}
