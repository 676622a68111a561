import Foundation

/// Why a PNG could not be read or written. Every case names the file (or "PNG data" for bytes
/// in memory) and what was wrong.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case cannotRead(path: String, reason: String)
    /// The file could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// The bytes do not start with the PNG signature.
    case notPNG(source: String)
    /// The data is damaged or cut short; `detail` is libpng's own account.
    case corrupt(source: String, detail: String)
    /// The image is larger than a `Bitmap` may be.
    case tooLarge(source: String, width: Int, height: Int)
    /// The image is larger than the caller's `PNGDecodingOptions` allow.
    case overDecodingLimit(source: String, width: Int, height: Int, maximumPixelCount: Int, maximumDimension: Int)
    /// libpng refused to encode the bitmap.
    case encodingFailed(detail: String)

    public var description: String {
        switch self {
        case let .cannotRead(path, reason): "cannot read PNG file \(path): \(reason)"
        case let .cannotWrite(path, reason): "cannot write PNG file \(path): \(reason)"
        case let .notPNG(source): "\(source) is not a PNG image (the PNG signature is missing)"
        case let .corrupt(source, detail): "\(source) is a damaged or truncated PNG: \(detail)"
        case let .tooLarge(source, w, h):
            "\(source) is \(w)x\(h) pixels, over the limit of \(Bitmap.maximumDimension) per side and \(Bitmap.maximumPixelCount) in all"
        case let .overDecodingLimit(source, w, h, count, side):
            "\(source) is \(w)x\(h) pixels, over the decoding limit of \(side) per side and \(count) in all (PNGDecodingOptions)"
        case let .encodingFailed(detail): "PNG encoding failed: \(detail)"
        }
    }
}

extension PNGError: LocalizedError {
    public var errorDescription: String? { description }
}
