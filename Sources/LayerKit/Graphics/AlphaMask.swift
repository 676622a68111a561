import CKernels
import CPixman
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An owned buffer of 8-bit coverage (pixman's A8 pixels, 0 transparent … 255 opaque): a shape's
/// alpha without its color, a quarter of a bitmap's bytes.
///
/// Composited as a solid color through its coverage with
/// `Bitmap.composite(_:color:transform:filter:clip:opacity:)`, which is what a shadow is. Rows
/// are padded to four bytes, as pixman requires. A reference type, like `Bitmap`: created with
/// checked sizes, freed with the mask. Internal to LayerKit's rendering (shadows); SPI so that
/// the kernel benchmark can draw one.
@_spi(Kernels) public final class AlphaMask {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bytes from one row to the next: the width rounded up to four.
    public let bytesPerRow: Int
    let pixels: UnsafeMutablePointer<UInt8>

    /// The pixels outside which every coverage is zero, when known; nil when anything may have
    /// coverage. A new mask has none. Writing through `withUnsafeMutableBytes` forgets it, and
    /// a writer that knows where it wrote says so afterwards. Painting skips what lies outside,
    /// and clearing a store for reuse clears only what lies inside.
    var inkBounds: PixelRect? = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// Bumped by every write that goes through the mask's API (for copies made of it).
    private(set) var version = 0

    /// The coverage in vertical pairs (`lk_job.pairs`) and the version they were made from:
    /// made on first use after a change, under `pairsLock`, since the bands of a frame sample
    /// one mask from several threads.
    private var pairs: UnsafeMutableRawPointer?
    private var pairsVersion = -1
    private let pairsLock = NSLock()
    /// The box outside which coverage is faint (`notClearBox(faint:)`), the level it was found
    /// for and the version it was found in (under `pairsLock`).
    private var notClear = lk_box()
    private var notClearFaint: UInt32 = 0
    private var notClearVersion = -1

    /// Notes a write of the pixels.
    func pixelsChanged() { version &+= 1 }

    /// Creates a mask of zero coverage.
    ///
    /// - Throws: `BitmapError` for the sizes a `Bitmap` refuses, or when memory cannot be had.
    public init(width: Int, height: Int) throws(BitmapError) {
        try Bitmap.checkSize(width: width, height: height)
        let bytesPerRow = (width + 3) & ~3
        guard let raw = calloc(height, bytesPerRow) else { throw .outOfMemory(bytes: height * bytesPerRow) }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.pixels = raw.bindMemory(to: UInt8.self, capacity: height * bytesPerRow)
    }

    deinit {
        free(pixels)
        free(pairs)
    }

    /// Bytes per row of the vertical pairs: two a texel and a clear pair either side, rounded
    /// up to 16.
    private var pairsBytesPerRow: Int { (2 * (width + 2) + 15) & ~15 }

    /// The bytes the vertical pairs hold, once made.
    var pairsByteCount: Int { pairsLock.withLock { pairs == nil ? 0 : pairsBytesPerRow * (height + 1) } }

    /// The coverage in vertical pairs, for the kernels' bilinear rows (`lk_job.pairs`): the
    /// pointer is pair (0, 0), and row y holds, for every x, the coverage at (x, y) then at
    /// (x, y + 1), so that a sample's 2x2 texels are one 32-bit load rather than two 16-bit ones
    /// (the turned shadows of a clock's hands sample a quarter faster). Around them is a clear
    /// border: pairs x = −1 and x = width, and rows y = −1 and y = height − 1, read zero for
    /// texels outside, so that samples at the mask's edges need no checks (a turned hand whose
    /// coverage reaches its store's edges). Made when first asked for after the pixels changed
    /// and kept while they do not (about twice the mask's bytes); nil for masks under 2x2 or
    /// without memory for them. Safe to call from several threads at once, while nothing writes
    /// the pixels.
    func verticalPairs() -> (pointer: UnsafeRawPointer, bytesPerRow: Int)? {
        guard width >= 2, height >= 2 else { return nil }
        let stride = pairsBytesPerRow
        return pairsLock.withLock {
            if pairs == nil { pairs = malloc(stride * (height + 1)) }
            guard let pairs else { return nil }
            if pairsVersion != version {
                guard lk_a8_pairs(pixels, Int32(width), Int32(height), Int32(bytesPerRow), pairs, Int32(stride)) == LK_OK
                else { return nil }
                pairsVersion = version
            }
            return (UnsafeRawPointer(pairs + stride + 2), stride)
        }
    }

    /// The box of texels outside which every coverage is at most `faint` (`lk_job.texels`):
    /// where a turned composite's samples can draw something. Found when first asked for after
    /// the pixels changed (or for another level), in one pass over the rows and their ends,
    /// and kept while they do not: a clock hand's shadow is peeled once, not at every tick.
    /// Safe to call from several threads at once, while nothing writes the pixels.
    func notClearBox(faint: UInt32) -> lk_box {
        pairsLock.withLock {
            if notClearVersion != version || notClearFaint != faint {
                if lk_texels_not_clear_box(pixels, Int32(width), Int32(height), Int32(bytesPerRow), LK_FORMAT_A8, faint,
                                           &notClear) != LK_OK {
                    notClear = lk_box(x1: 0, y1: 0, x2: Int32(width), y2: Int32(height))
                }
                notClearFaint = faint
                notClearVersion = version
            }
            return notClear
        }
    }

    /// The whole mask as a pixel rectangle at the origin.
    public var bounds: PixelRect { PixelRect(x: 0, y: 0, width: width, height: height) }

    /// The coverage at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> UInt8 {
        get {
            precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) is outside the \(width)x\(height) mask")
            return pixels[y * bytesPerRow + x]
        }
        set {
            precondition(bounds.contains(x: x, y: y), "pixel (\(x), \(y)) is outside the \(width)x\(height) mask")
            pixels[y * bytesPerRow + x] = newValue
            // Coverage set outside the known ink widens it (painting skips what lies outside).
            if newValue != 0, let ink = inkBounds, !ink.contains(x: x, y: y) {
                inkBounds = ink.union(PixelRect(x: x, y: y, width: 1, height: 1))
            }
            pixelsChanged()
        }
    }

    /// Lends the coverage for writing: rows top to bottom, `bytesPerRow` apart.
    public func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        inkBounds = nil
        pixelsChanged()
        return try body(UnsafeMutableBufferPointer(start: pixels, count: height * bytesPerRow))
    }

    /// A new pixman A8 image over the coverage, for use as a mask: each composite gets its own,
    /// so that setting a transform or filter never changes what another thread reads.
    func makeMaskImage() -> OpaquePointer {
        // pixman only reads a mask: the bytes are not written through this pointer.
        let bits = UnsafeMutableRawPointer(pixels).assumingMemoryBound(to: UInt32.self)
        guard let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), bits, Int32(bytesPerRow)) else {
            fatalError("pixman could not allocate an image header")
        }
        return image
    }
}

@_spi(Kernels) extension AlphaMask: CustomStringConvertible {
    /// The mask's size, as `AlphaMask(WxH)`.
    public var description: String { "AlphaMask(\(width)x\(height))" }
}
