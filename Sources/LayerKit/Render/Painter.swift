import Foundation

/// The painting pass: composites paint items, in order, into the damaged pixels of a target.
///
/// Frames are painted in horizontal bands, one per thread. Each band draws through its own view
/// of the target (its own pixman image) into its own rows, and items' source bitmaps are only
/// read, each composite taking its own pixman source image; so bands share no mutable state. Every pixel is computed
/// from the same inputs whatever band or damage rectangle it falls in, so banded, single-threaded,
/// full and incremental frames are identical bit for bit.
enum Painter {
    /// Bands are at least this many rows, so that thin frames are not split into slivers whose
    /// set-up costs more than their pixels.
    static let minimumBandHeight = 32

    /// Bands per painting thread, so that threads that finish early take more.
    static let bandsPerThread = 4

    static func paint(_ items: [PaintItem], into target: Bitmap, damage: Region, background: Color, threads: Int) {
        guard !damage.isEmpty else { return }
        let extents = damage.extents
        // Several bands a thread, taken in turn by whichever thread is free: the cost of a frame
        // is seldom even across its rows (a turning card is all in the upper half).
        let bandCount = max(1, min(threads == 1 ? 1 : threads * bandsPerThread, extents.height / minimumBandHeight))
        if bandCount == 1 {
            paintBand(items, into: target, rows: 0..<target.height, damage: damage, background: background)
            return
        }
        let job = BandJob(items: items, target: target, damage: damage, background: background)
        let rowsPerBand = (extents.height + bandCount - 1) / bandCount
        DispatchQueue.concurrentPerform(iterations: bandCount) { band in
            let y0 = extents.minY + band * rowsPerBand
            let y1 = min(extents.maxY, y0 + rowsPerBand)
            guard y1 > y0 else { return }
            job.paint(rows: y0..<y1)
        }
    }

    /// Paints the damaged pixels within `rows`.
    ///
    /// The band draws through its own view of the whole target, in the target's coordinates:
    /// shifting the transforms to band-local coordinates would round their fixed-point
    /// translations differently from band to band, and bilinear samples would differ in the last
    /// bit. The composite rectangles (the damage cut to the band) keep the writes in its rows.
    static func paintBand(_ items: [PaintItem], into target: Bitmap, rows: Range<Int>, damage: Region, background: Color) {
        let band = Region(PixelRect(x: 0, y: rows.lowerBound, width: target.width, height: rows.count))
        let area = damage.intersection(band)
        guard !area.isEmpty else { return }
        let view = Bitmap(sharingPixelsOf: target)
        view.fill(view.bounds, with: background, operator: .source, clip: area)
        for item in items {
            let reach = Region(item.footprint).intersection(area)
            guard !reach.isEmpty else { continue }
            try? view.composite(item.source, transform: item.transform, filter: item.filter, clip: reach, opacity: item.opacity)
        }
    }
}

/// What every band of one frame reads.
///
/// `@unchecked Sendable` is safe here: during `concurrentPerform` the items, their source
/// bitmaps, the damage region and the color are only read (composites take their own pixman
/// source images), and each band writes only its own rows of `target` (every composite is
/// clipped to them) through its own pixman image (`Bitmap(sharingPixelsOf:)`), so no two
/// threads write the same memory or the same pixman object.
private final class BandJob: @unchecked Sendable {
    let items: [PaintItem]
    let target: Bitmap
    let damage: Region
    let background: Color

    init(items: [PaintItem], target: Bitmap, damage: Region, background: Color) {
        self.items = items
        self.target = target
        self.damage = damage
        self.background = background
    }

    func paint(rows: Range<Int>) {
        Painter.paintBand(items, into: target, rows: rows, damage: damage, background: background)
    }
}
