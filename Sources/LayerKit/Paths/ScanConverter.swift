import Foundation

/// Anti-aliased coverage of polygons under the non-zero or even-odd rule: in every pixel, the
/// area of the region the rule fills, as 8-bit coverage.
///
/// Edges add their signed area to an accumulation row (as font-rs and FreeType do), which is
/// exact wherever no point is inside two polygons at once. Where the winding number reaches 2
/// (a stroke's outline crossing itself, overlapping glyph contours, self-intersecting shapes),
/// summed areas would cover such pixels twice; so the edges are gathered, as they are added,
/// into y-monotone chains (an outline between two of its turning points in y), and in each
/// pixel row only the chains where the rule's inside begins or ends add their area: the union
/// is covered exactly once. A row is cut into bands only where a chain begins or ends inside
/// it, or where two chains cross (both are polylines, so a crossing is found exactly); the
/// vertices inside a chain cost no cut. See `RowSweep`.
///
/// Nothing is clipped: edges above or below the target rows are cut where they cross them, and
/// parts left of the target add their full height to its first column. Buffers are reused from
/// one fill to the next; take a converter with `withConverter` (one per thread at a time).
final class ScanConverter {
    /// The edges added so far, gathered into monotone chains.
    private var outline = EdgeChains()

    // Scratch reused between fills.
    private let scan = ScanScratch()
    /// The coverage of the last `renderMask`.
    private var mask: [UInt8] = []
    /// Points of the subpath being flattened.
    private var points: [CGPoint] = []
    /// Flags of the subpath being flattened for a stroke (see `Path.flatten`).
    var smoothness: [Bool] = []
    /// Builds stroke outlines for this converter's fills.
    private(set) lazy var stroker = Stroker()
    /// `ColorBlendSink`'s tables of levels, and the colors whose entries they hold: kept from
    /// fill to fill, so that fills of one color work each level out once, even between fills of
    /// others (a shape's fill and stroke alternate; its stroke color is often every shape's).
    private var blendTables = (ScratchBuffer<UInt64>(), ScratchBuffer<UInt64>())
    private var blendTableColors: (UInt32?, UInt32?)

    /// Forgets the edges of the previous fill.
    func reset() { outline.reset() }

    /// Whether no edge has been added.
    var isEmpty: Bool { outline.edges.isEmpty }

    /// The edges added so far.
    var edgeCount: Int { outline.edges.count }

    /// The monotone chains the edges form (the open one included).
    var chainCount: Int { outline.chainCount }

    /// The smallest rectangle holding every edge (nil when there are none).
    var boundingBox: CGRect? { outline.boundingBox }

    /// Adds a polygon (closed implicitly) in device pixels. Points must be finite.
    func addPolygon(_ points: UnsafeBufferPointer<CGPoint>) { outline.addPolygon(points) }

    /// Adds one edge in device pixels. Points must be finite. Consecutive edges that continue
    /// one another in the same vertical direction join one chain.
    func addEdge(from a: CGPoint, to b: CGPoint) { outline.addEdge(from: a, to: b) }

    /// Runs `body` with the converter's point buffer (reused from fill to fill).
    func withPointBuffer<R>(_ body: (inout [CGPoint]) throws -> R) rethrows -> R {
        var buffer = points
        points = []
        defer { points = buffer }
        return try body(&buffer)
    }

    /// Runs `body` with the converter's table for `ColorBlendSink` (`ColorBlendSink.tableSize`
    /// entries) and whether it holds `color`'s entries already; afterwards it is taken to hold
    /// them (a sink fills a table that does not).
    func withBlendTable<R>(for color: UInt32, _ body: (UnsafeMutablePointer<UInt64>, _ holdsColor: Bool) -> R) -> R {
        // The table of this color, else the one used less recently: the first is the last used.
        let colors = blendTableColors
        if colors.1 == color {
            blendTableColors = (colors.1, colors.0)
            blendTables = (blendTables.1, blendTables.0)
        } else if colors.0 != color {
            blendTableColors = (nil, colors.0)
            blendTables = (blendTables.1, blendTables.0)
        }
        let table = blendTables.0.reserve(ColorBlendSink.tableSize)
        let holds = blendTableColors.0 == color
        blendTableColors.0 = color
        return body(table, holds)
    }

    /// Bytes per coverage row: padded to 4, as pixman's a8 images want.
    static func rowBytes(_ width: Int) -> Int { (width + 3) / 4 * 4 }

    /// Writes the coverage of the edges over `area` (device pixels) into `output`: `area.height`
    /// rows of `stride` bytes, one byte per pixel of the area's width.
    ///
    /// With `summingAreas` every edge adds its signed area everywhere, as FreeType's rasterizer
    /// does: overlaps count twice (for tests that show where that happened).
    func render(rule: FillRule, area: PixelRect, into output: UnsafeMutablePointer<UInt8>, stride: Int,
                summingAreas: Bool = false) {
        var sink = MaskSink(output, stride: stride, width: area.width)
        render(rule: rule, area: area, into: &sink, summingAreas: summingAreas)
    }

    /// Hands the coverage of the edges over `area` (device pixels) to `sink`, row by row, in
    /// the area's coordinates. With `usesRowKernel` false, a sink with a kernel for whole rows
    /// (`CoverageSink.sweepRows`) is handed every row one by one instead (for tests that compare
    /// the two).
    func render<Sink: CoverageSink>(rule: FillRule, area: PixelRect, into sink: inout Sink, summingAreas: Bool = false,
                                    usesRowKernel: Bool = true) {
        guard !area.isEmpty else { return }
        outline.closeChain()
        outline.edges.withUnsafeBufferPointer { edges in
            outline.chains.withUnsafeBufferPointer { chains in scan.prepare(edges: edges, chains: chains, area: area) }
        }
        var sweep = RowSweep(scan, width: area.width, height: area.height, summingAreas: summingAreas,
                             usesRowKernel: usesRowKernel)
        sweep.run(rule: rule, into: &sink)
    }

    /// Renders into `mask` (grown as needed, rows padded to 4 bytes) and hands it to `body`.
    func renderMask<R>(rule: FillRule, area: PixelRect, _ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) -> R) -> R {
        let stride = Self.rowBytes(area.width)
        let count = stride * area.height
        if mask.count < count { mask = [UInt8](repeating: 0, count: max(count, mask.count * 2)) }
        return mask.withUnsafeMutableBufferPointer { buffer in
            render(rule: rule, area: area, into: buffer.baseAddress!, stride: stride)
            return body(buffer.baseAddress!, stride)
        }
    }

    /// Runs `body` with the converter's mask buffer cleared over `area`, rows padded to 4
    /// bytes (for callers that build coverage themselves, such as a line of glyphs).
    func withClearedMask<R>(for area: PixelRect, _ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) -> R) -> R {
        let stride = Self.rowBytes(area.width)
        let count = stride * area.height
        if mask.count < count { mask = [UInt8](repeating: 0, count: max(count, mask.count * 2)) }
        return mask.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.initialize(repeating: 0, count: count)
            return body(buffer.baseAddress!, stride)
        }
    }

    // MARK: A pool, one converter per thread at a time

    private static let pool = Locked<[PooledConverter]>([])
    /// Converters kept for reuse; more threads than this at once allocate their own.
    private static let poolLimit = 16
    /// A converter whose buffers grew beyond this many bytes (one huge fill) is not kept.
    private static let keptBytesLimit = 16 << 20

    /// Runs `body` with a converter no other thread uses meanwhile, reset, with the buffers of
    /// earlier fills.
    static func withConverter<R>(_ body: (ScanConverter) throws -> R) rethrows -> R {
        let converter = pool.withLock { $0.popLast() }?.converter ?? ScanConverter()
        defer {
            converter.reset()
            if converter.retainedBytes <= keptBytesLimit {
                let returned = PooledConverter(converter: converter)
                pool.withLock { if $0.count < poolLimit { $0.append(returned) } }
            }
        }
        converter.reset()
        return try body(converter)
    }

    private var retainedBytes: Int {
        outline.retainedBytes + mask.capacity
            + points.capacity * MemoryLayout<CGPoint>.stride + scan.retainedBytes + blendTables.0.bytes + blendTables.1.bytes
    }
}

/// A converter on its way into or out of the pool. Safe to send: a converter leaves the pool
/// for exactly one caller, which returns it only when done with it, so no two threads ever use
/// the same converter.
private struct PooledConverter: @unchecked Sendable {
    let converter: ScanConverter
}
