import CCairoOracle
import Foundation

/// A soft shadow as a cairo program makes one, since cairo has no blur: the shape drawn into an
/// A8 surface, blurred there by three box passes, and painted in the shadow's color through that
/// surface with `cairo_mask_surface`. Everything is done again for each shadow of each frame.
public enum CairoShadow {
    /// Paints the blurred shadow of a shape onto `cr`.
    ///
    /// - Parameters:
    ///   - bounds: the shape's bounding box in device pixels (before blurring).
    ///   - sigma: the blur's standard deviation in device pixels.
    ///   - color: the shadow's color, its alpha included (premultiplied by cairo).
    ///   - shape: draws the shape with opaque ink on the `cairo_t` it is given, whose user space is
    ///     device space.
    public static func paint(on cr: OpaquePointer, bounds: CGRect, sigma: Double,
                             color: (red: Double, green: Double, blue: Double, alpha: Double),
                             shape: (OpaquePointer) -> Void) {
        let blur = AlmostGaussianBlur(sigma: sigma)
        let pad = blur.spread + 1
        let x = Int(bounds.minX.rounded(.down)) - pad, y = Int(bounds.minY.rounded(.down)) - pad
        let width = Int(bounds.maxX.rounded(.up)) + pad - x, height = Int(bounds.maxY.rounded(.up)) + pad - y
        guard width > 0, height > 0, let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height))
        else { return }
        defer { cairo_surface_destroy(surface) }
        let ink = cairo_create(surface)!
        cairo_translate(ink, Double(-x), Double(-y))
        cairo_set_source_rgba(ink, 0, 0, 0, 1)
        shape(ink)
        cairo_destroy(ink)
        cairo_surface_flush(surface)
        blur.apply(to: cairo_image_surface_get_data(surface), width: width, height: height,
                   stride: Int(cairo_image_surface_get_stride(surface)))
        cairo_surface_mark_dirty(surface)
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
        cairo_mask_surface(cr, surface, Double(x), Double(y))
        cairo_restore(cr)
    }
}

/// An almost-Gaussian blur of an 8-bit plane: three successive box blurs, each a running sum, so
/// the cost per pixel does not grow with the radius.
///
/// The box widths follow Kovesi's "Fast almost-Gaussian filtering" (three boxes whose combined
/// variance is closest to σ²), the standard recipe; LayerKit's shadows use the same widths, so the
/// pictures agree.
public struct AlmostGaussianBlur {
    /// The radii of the three boxes.
    public let radii: [Int]

    /// The blur of a Gaussian of standard deviation `sigma` pixels (none below 0.2).
    public init(sigma: Double) {
        guard sigma > 0.2, sigma.isFinite else { radii = []; return }
        let ideal = (12 * sigma * sigma / 3 + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let l = Double(lower)
        // How many of the three boxes take the smaller width.
        let smaller = ((12 * sigma * sigma - 3 * l * l - 12 * l - 9) / (-4 * l - 4)).rounded()
        // Boxes up to 255 wide keep the running sums within 16 bits (σ up to about 70 pixels,
        // far beyond any shadow here); wider ones are cut to that.
        radii = (0..<3).map { i in min((Double(i) < smaller ? lower : lower + 2) / 2, Self.largestRadius) }
    }

    static let largestRadius = 127

    /// How far the blur spreads beyond the shape, in pixels.
    public var spread: Int { radii.reduce(0, +) }

    /// Blurs `height` rows of `width` bytes, `stride` bytes apart, in place (pixels beyond the
    /// edges count as 0). Every pass is a running sum down the columns, all columns at once, so
    /// it walks memory in order and vectorizes: three passes down, a transpose, three passes down
    /// what were the rows, and a transpose back.
    public func apply(to plane: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        let radii = radii.filter { $0 > 0 }
        guard !radii.isEmpty, width > 0, height > 0 else { return }
        let count = width * height
        let a = UnsafeMutablePointer<UInt8>.allocate(capacity: count), b = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        let sums = UnsafeMutablePointer<UInt16>.allocate(capacity: max(width, height))
        let zeros = UnsafeMutablePointer<UInt8>.allocate(capacity: max(width, height))
        zeros.initialize(repeating: 0, count: max(width, height))
        defer { a.deallocate(); b.deallocate(); sums.deallocate(); zeros.deallocate() }
        // Down the columns: plane → a → b → a.
        var source = (plane, stride), target = a
        for r in radii {
            Self.boxColumns(source.0, sourceStride: source.1, into: target, targetStride: width,
                            width: width, height: height, radius: r, sums: sums, zeros: zeros)
            source = (target, width)
            target = target == a ? b : a
        }
        // Across the rows, as columns of the transpose.
        Self.transpose(source.0, width: width, height: height, sourceStride: width, into: target, targetStride: height)
        var transposed = target, spare = target == a ? b : a
        for r in radii {
            Self.boxColumns(transposed, sourceStride: height, into: spare, targetStride: height,
                            width: height, height: width, radius: r, sums: sums, zeros: zeros)
            swap(&transposed, &spare)
        }
        Self.transpose(transposed, width: height, height: width, sourceStride: height, into: plane, targetStride: stride)
    }

    /// Rows of `width` bytes become columns, in tiles of 16 × 16 so both sides stay in cache.
    private static func transpose(_ input: UnsafeMutablePointer<UInt8>, width: Int, height: Int, sourceStride: Int,
                                  into out: UnsafeMutablePointer<UInt8>, targetStride: Int) {
        let tile = 16
        for y0 in Swift.stride(from: 0, to: height, by: tile) {
            let y1 = min(y0 &+ tile, height)
            for x0 in Swift.stride(from: 0, to: width, by: tile) {
                let x1 = min(x0 &+ tile, width)
                for y in y0..<y1 {
                    let row = input + y &* sourceStride
                    var target = out + (x0 &* targetStride &+ y)
                    for x in x0..<x1 {
                        target.pointee = row[x]
                        target += targetStride
                    }
                }
            }
        }
    }

    /// One box pass down every column at once: each output row is the running sum of the rows
    /// within `r` of it (rows beyond the edges are zero), updated by one row in and one row out.
    /// The sums fit 16 bits, so eight columns go through a vector at a time; the quotient is a
    /// high multiply, ((s + w/2) · ⌊2¹⁶/w⌋) >> 16: never above (s + w/2) / w, so never past 255,
    /// and less than one level below it.
    private static func boxColumns(_ input: UnsafeMutablePointer<UInt8>, sourceStride: Int,
                                   into out: UnsafeMutablePointer<UInt8>, targetStride: Int,
                                   width: Int, height: Int, radius r: Int, sums: UnsafeMutablePointer<UInt16>,
                                   zeros: UnsafeMutablePointer<UInt8>) {
        let w = 2 &* r &+ 1  // at most 255: 255 · w + w / 2 fits 16 bits
        let scale = UInt16((1 << 16) / w), half = UInt16(w / 2)
        sums.initialize(repeating: half, count: width)
        for row in 0..<min(r, height) {
            let p = input + row &* sourceStride
            for x in 0..<width { sums[x] &+= UInt16(p[x]) }
        }
        for row in 0..<height {
            let entering = row &+ r < height ? input + (row &+ r) &* sourceStride : zeros
            let leaving = row &- r &- 1 >= 0 ? input + (row &- r &- 1) &* sourceStride : zeros
            let o = out + row &* targetStride
            for x in 0..<width {
                let sum = sums[x] &+ UInt16(entering[x]) &- UInt16(leaving[x])
                sums[x] = sum
                o[x] = UInt8(truncatingIfNeeded: sum.multipliedFullWidth(by: scale).high)
            }
        }
    }
}
