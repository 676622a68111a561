import Foundation

/// Bounds on what decoding one PNG may cost, for data from outside: a file can claim any size
/// and carry any amount of data it does not need. The defaults are the most a `Bitmap` can
/// hold; lower them for untrusted input.
///
/// Whatever the options, decoding never reads past the image data it needs: compressed data
/// trailing the image and chunks after it are not inflated or parsed (only their headers are
/// checked, so that a cut-off file is still refused), and ancillary chunks that carry no pixels
/// — text, ICC profiles, suggested palettes, Exif, unknown chunks — are skipped without being
/// stored.
public struct PNGDecodingOptions: Hashable, Sendable {
    /// The most pixels an image may have (its declared width times height): a larger one is
    /// refused with `PNGError.tooLarge` before anything is allocated. At most, and by default,
    /// `Bitmap.maximumPixelCount` (a gigabyte of pixels).
    public var maximumPixelCount: Int

    /// The most pixels an image may have on a side. At most, and by default,
    /// `Bitmap.maximumDimension`.
    public var maximumDimension: Int

    /// The most bytes a chunk other than image data may have (libpng's chunk allocation
    /// limit); a file with a larger one is `PNGError.corrupt`, before anything is allocated for
    /// it. 1 MiB by default: the chunks a decode keeps (palette, transparency, gamma) are a few
    /// hundred bytes.
    public var maximumAncillaryChunkBytes: Int

    /// The defaults: the limits of a `Bitmap`, and 1 MiB for a chunk.
    public init() {
        self.init(maximumPixelCount: Bitmap.maximumPixelCount, maximumDimension: Bitmap.maximumDimension)
    }

    /// Options with the given limits; values above a bitmap's own limits count as those, and
    /// negative ones as 0.
    public init(maximumPixelCount: Int, maximumDimension: Int = Bitmap.maximumDimension,
                maximumAncillaryChunkBytes: Int = 1 << 20) {
        self.maximumPixelCount = min(max(maximumPixelCount, 0), Bitmap.maximumPixelCount)
        self.maximumDimension = min(max(maximumDimension, 0), Bitmap.maximumDimension)
        self.maximumAncillaryChunkBytes = max(maximumAncillaryChunkBytes, 0)
    }
}
