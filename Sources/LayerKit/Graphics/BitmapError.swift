/// Why a bitmap could not be made or drawn into.
public enum BitmapError: Error, Equatable, CustomStringConvertible {
    /// A dimension was zero, negative or over `Bitmap.maximumDimension`.
    case invalidSize(width: Int, height: Int)
    /// The pixel count is over `Bitmap.maximumPixelCount`.
    case tooLarge(width: Int, height: Int)
    /// The system refused the pixel memory.
    case outOfMemory(bytes: Int)
    /// The transform is singular or not finite: the source would be seen edge-on.
    case transformNotInvertible(Homography)
    /// The transform's inverse does not fit pixman's 16.16 fixed-point range.
    case transformOutOfRange(Homography)

    public var description: String {
        switch self {
        case let .invalidSize(w, h):
            "invalid bitmap size \(w)x\(h): each side must be 1…\(Bitmap.maximumDimension) pixels"
        case let .tooLarge(w, h):
            "bitmap of \(w)x\(h) pixels is over the limit of \(Bitmap.maximumPixelCount) pixels"
        case let .outOfMemory(bytes):
            "could not allocate \(bytes) bytes of pixel memory"
        case let .transformNotInvertible(h):
            "cannot composite through a singular or non-finite transform \(h)"
        case let .transformOutOfRange(h):
            "cannot composite through \(h): its inverse is outside pixman's fixed-point range"
        }
    }
}
