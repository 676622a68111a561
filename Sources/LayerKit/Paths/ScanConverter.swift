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
    /// An edge in device pixels, top to bottom.
    struct Edge {
        var x0: Double, y0: Double, x1: Double, y1: Double
    }

    /// Edges `first..<end` of the converter's edges, top to bottom, each starting where the one
    /// before it ends: a piece of an outline that runs down (+1) or up (−1) all along.
    struct Chain {
        var first: Int, end: Int
        var direction: Double
    }

    private var edges: [Edge] = []
    private var chains: [Chain] = []
    /// The chain being extended: where its edges start, its direction (0 when none is open),
    /// and the point its last edge ended at.
    private var openFirst = 0, openDirection = 0.0, openEnd = CGPoint.zero
    private var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)

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

    /// Forgets the edges of the previous fill.
    func reset() {
        edges.removeAll(keepingCapacity: true)
        chains.removeAll(keepingCapacity: true)
        openDirection = 0
        box = (.infinity, .infinity, -.infinity, -.infinity)
    }

    /// Whether no edge has been added.
    var isEmpty: Bool { edges.isEmpty }

    /// The edges added so far.
    var edgeCount: Int { edges.count }

    /// The monotone chains the edges form (the open one included).
    var chainCount: Int { chains.count + (openDirection != 0 ? 1 : 0) }

    /// The smallest rectangle holding every edge (nil when there are none).
    var boundingBox: CGRect? {
        guard box.minX <= box.maxX, box.minY <= box.maxY else { return nil }
        return CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
    }

    /// Adds a polygon (closed implicitly) in device pixels. Points must be finite.
    func addPolygon(_ points: UnsafeBufferPointer<CGPoint>) {
        let n = points.count
        guard n >= 2 else { return }
        // Start at a vertex where the outline turns in y (or meets a horizontal edge), so that
        // the chain running through the polygon's first point is not cut there.
        var start = 0
        var incoming = Self.direction(from: points[n - 1], to: points[0])
        for i in 0..<n {
            let outgoing = Self.direction(from: points[i], to: points[i + 1 < n ? i + 1 : 0])
            if outgoing != incoming || outgoing == 0 {
                start = i
                break
            }
            incoming = outgoing
        }
        closeChain()
        var previous = points[start]
        for k in 1...n {
            var i = start + k
            if i >= n { i -= n }
            let p = points[i]
            addEdge(from: previous, to: p)
            previous = p
        }
        closeChain()
    }

    /// +1 down, −1 up, 0 level (or no move at all).
    private static func direction(from a: CGPoint, to b: CGPoint) -> Int {
        a.y < b.y ? 1 : a.y > b.y ? -1 : 0
    }

    /// Adds one edge in device pixels. Points must be finite. Consecutive edges that continue
    /// one another in the same vertical direction join one chain.
    @inline(__always) func addEdge(from a: CGPoint, to b: CGPoint) {
        box.minX = min(box.minX, a.x, b.x); box.maxX = max(box.maxX, a.x, b.x)
        box.minY = min(box.minY, a.y, b.y); box.maxY = max(box.maxY, a.y, b.y)
        guard a.y != b.y else {
            // A level edge adds no area; a chain stops at it (its x would jump there).
            if a.x != b.x { closeChain() }
            return
        }
        let direction: Double = a.y < b.y ? 1 : -1
        if direction != openDirection || a != openEnd {
            closeChain()
            openFirst = edges.count
            openDirection = direction
        }
        edges.append(a.y < b.y ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y) : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y))
        openEnd = b
    }

    /// Ends the open chain, its edges put top to bottom.
    private func closeChain() {
        guard openDirection != 0 else { return }
        if openDirection < 0 { edges[openFirst..<edges.count].reverse() }
        chains.append(Chain(first: openFirst, end: edges.count, direction: openDirection))
        openDirection = 0
    }

    /// Runs `body` with the converter's point buffer (reused from fill to fill).
    func withPointBuffer<R>(_ body: (inout [CGPoint]) throws -> R) rethrows -> R {
        var buffer = points
        points = []
        defer { points = buffer }
        return try body(&buffer)
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
    /// the area's coordinates.
    func render<Sink: CoverageSink>(rule: FillRule, area: PixelRect, into sink: inout Sink, summingAreas: Bool = false) {
        guard !area.isEmpty else { return }
        closeChain()
        edges.withUnsafeBufferPointer { edges in
            chains.withUnsafeBufferPointer { chains in scan.prepare(edges: edges, chains: chains, area: area) }
        }
        var sweep = RowSweep(scan, width: area.width, height: area.height, summingAreas: summingAreas)
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
        edges.capacity * MemoryLayout<Edge>.stride + chains.capacity * MemoryLayout<Chain>.stride + mask.capacity
            + points.capacity * MemoryLayout<CGPoint>.stride + scan.retainedBytes
    }
}

/// A converter on its way into or out of the pool. Safe to send: a converter leaves the pool
/// for exactly one caller, which returns it only when done with it, so no two threads ever use
/// the same converter.
private struct PooledConverter: @unchecked Sendable {
    let converter: ScanConverter
}
