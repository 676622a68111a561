import CPixman
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An owned buffer of premultiplied `a8r8g8b8` pixels (alpha in the top byte of each native
/// 32-bit word), blended in sRGB-encoded space, and the pixman image that draws into it.
///
/// A reference type: a bitmap is a resource that layers, caches and presenters share.
/// Creating one checks its size against `maximumDimension` and `maximumPixelCount` and throws
/// instead of allocating without bound.
public final class Bitmap {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next.
    public let bytesPerRow: Int

    /// The largest width or height: pixman's 16.16 fixed-point coordinates end at 32767.
    public static let maximumDimension = 32767
    /// The largest pixel count, 2²⁸ (1 GiB of pixels): above it an allocation is a bug, not a frame.
    public static let maximumPixelCount = 1 << 28

    let pixels: UnsafeMutablePointer<UInt32>
    /// The pixman image over `pixels`, used as the destination of drawing into this bitmap.
    let image: OpaquePointer
    /// Unique for the process's lifetime (unlike an object's address, which memory reuses).
    let serial = BitmapSerial.next()
    /// For a view of another bitmap: that bitmap, kept alive; nil when this bitmap owns its pixels.
    private let viewed: Bitmap?
    /// The one value every pixel has, when the drawing of a backing store found that they all
    /// have one (`uniformPixel()`); nil when that is not known. Set only by the jobs that draw
    /// stores, and reset when a store is cleared to be drawn again (`clearPixels()`): a store's
    /// pixels change in its jobs alone, so the value never outlives the pixels it describes.
    /// Painting then fills that value rather than reading the store: a layer showing only an
    /// opaque background color, the whole frame's for a root layer.
    var knownUniformPixel: UInt32?
    /// Whether a renderer submitted a frame into this bitmap and has not been waited for
    /// (`Renderer.submit`): reading or drawing into it then traps. Set and read by the thread
    /// that owns the renderer and the bitmap (band views, which the helpers paint through, are
    /// other objects).
    var isBeingPainted = false

    /// Traps when a renderer may still be painting this bitmap: a read would see a frame half
    /// painted, a write would race with the painting.
    @inline(__always) func checkNotBeingPainted() {
        precondition(!isBeingPainted, "\(self) is a submitted frame still being painted: call waitUntilPainted() on its renderer before reading or drawing into it")
    }

    /// Creates a bitmap of transparent black pixels.
    ///
    /// - Throws: `BitmapError` when a side is not 1…`maximumDimension`, the pixel count is over
    ///   `maximumPixelCount`, or the memory cannot be had.
    public convenience init(width: Int, height: Int) throws(BitmapError) {
        let pixels = try Self.allocatePixels(width: width, height: height)
        self.init(adopting: pixels, width: width, height: height)
    }

    /// Wraps zeroed or filled pixel memory from `allocatePixels`, which the bitmap now owns.
    init(adopting pixels: UnsafeMutablePointer<UInt32>, width: Int, height: Int) {
        let bytesPerRow = width * 4
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                                                   pixels, Int32(bytesPerRow)) else {
            fatalError("pixman could not allocate an image header")
        }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = pixels
        self.image = image
        self.viewed = nil
    }

    /// A bitmap over the same pixels as `bitmap`, with its own pixman image: drawing into it
    /// draws into `bitmap`. Views may be drawn into from different threads at once as long as
    /// they write disjoint pixels (each composite confined to its own rows, say), because no
    /// pixman object is shared between them.
    init(sharingPixelsOf bitmap: Bitmap) {
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(bitmap.width), Int32(bitmap.height),
                                                   bitmap.pixels, Int32(bitmap.bytesPerRow)) else {
            fatalError("pixman could not allocate an image header")
        }
        self.width = bitmap.width
        self.height = bitmap.height
        self.bytesPerRow = bitmap.bytesPerRow
        self.pixels = bitmap.pixels
        self.image = image
        self.viewed = bitmap
    }

    /// Checks the size and allocates zeroed pixel memory for it, to be adopted by a bitmap.
    static func allocatePixels(width: Int, height: Int) throws(BitmapError) -> UnsafeMutablePointer<UInt32> {
        try checkSize(width: width, height: height)
        // calloc: zeroed pages come lazily from the kernel, and failure is an answer, not a trap.
        guard let raw = calloc(height, width * 4) else { throw .outOfMemory(bytes: height * width * 4) }
        return raw.bindMemory(to: UInt32.self, capacity: width * height)
    }

    /// Creates a bitmap filled with one color.
    public convenience init(width: Int, height: Int, color: Color) throws(BitmapError) {
        try self.init(width: width, height: height)
        clear(to: color)
    }

    deinit {
        pixman_image_unref(image)
        if viewed == nil { free(pixels) }
    }

    static func checkSize(width: Int, height: Int) throws(BitmapError) {
        guard (1...maximumDimension).contains(width), (1...maximumDimension).contains(height) else {
            throw .invalidSize(width: width, height: height)
        }
        guard width * height <= maximumPixelCount else { throw .tooLarge(width: width, height: height) }
    }

    /// The whole bitmap as a pixel rectangle at the origin.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    // MARK: Pixels

    /// The premultiplied `a8r8g8b8` word at column `x`, row `y`.
    public func premultipliedPixel(x: Int, y: Int) -> UInt32 {
        checkNotBeingPainted()
        precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) is outside the \(width)x\(height) bitmap")
        return pixels[y * width + x]
    }

    /// The value of every pixel when they are all equal, else nil.
    func uniformPixel() -> UInt32? {
        withUnsafePixels { pixels -> UInt32? in
            guard let first = pixels.first else { return nil }
            // Or-ing the differences keeps the scan branch-free (and vectorized); rows are
            // checked one at a time so that a busy bitmap is given up early (a rounded
            // rectangle's at its first row).
            for row in 0..<height {
                var differs: UInt32 = 0
                for x in (row * width)..<(row * width + width) { differs |= pixels[x] ^ first }
                if differs != 0 { return nil }
            }
            return first
        }
    }

    /// The color at column `x`, row `y`, un-premultiplied and rounded to 8 bits per channel.
    public func pixel(x: Int, y: Int) -> Color {
        Color(premultipliedARGB32: premultipliedPixel(x: x, y: y))
    }

    /// Sets one pixel (no blending).
    public func setPixel(x: Int, y: Int, to color: Color) {
        checkNotBeingPainted()
        precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) is outside the \(width)x\(height) bitmap")
        pixels[y * width + x] = color.premultipliedARGB32
    }

    /// Lends the pixel memory, rows top to bottom, `bytesPerRow` apart, for reading.
    public func withUnsafePixels<R>(_ body: (UnsafeBufferPointer<UInt32>) throws -> R) rethrows -> R {
        checkNotBeingPainted()
        return try body(UnsafeBufferPointer(start: pixels, count: width * height))
    }

    /// Lends the pixel memory for writing; values must stay valid premultiplied pixels
    /// (no channel above alpha).
    public func withUnsafeMutablePixels<R>(_ body: (UnsafeMutableBufferPointer<UInt32>) throws -> R) rethrows -> R {
        checkNotBeingPainted()
        return try body(UnsafeMutableBufferPointer(start: pixels, count: width * height))
    }

    /// Whether two bitmaps have the same size and the same pixels, bit for bit.
    public func hasSamePixels(as other: Bitmap) -> Bool {
        checkNotBeingPainted()
        other.checkNotBeingPainted()
        return width == other.width && height == other.height &&
            memcmp(pixels, other.pixels, height * bytesPerRow) == 0
    }

    /// An independent copy of the pixels.
    public func copy() throws(BitmapError) -> Bitmap {
        checkNotBeingPainted()
        let copy = try Bitmap(width: width, height: height)
        memcpy(copy.pixels, pixels, height * bytesPerRow)
        return copy
    }

    /// A new pixman image over the same pixels, for use as a source: sources get their own
    /// transform, filter and repeat, so the bitmap's own image is never changed by reading it.
    func makeSourceImage() -> OpaquePointer {
        guard let view = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                                                  pixels, Int32(bytesPerRow)) else {
            fatalError("pixman could not allocate an image header")
        }
        return view
    }
}

/// Serial numbers for bitmaps.
enum BitmapSerial {
    private static let counter = Atomic<UInt64>(0)
    static func next() -> UInt64 { counter.wrappingAdd(1, ordering: .relaxed).newValue }
}

extension Bitmap: CustomStringConvertible {
    public var description: String { "Bitmap(\(width)x\(height))" }
}
