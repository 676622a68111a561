import Foundation
import Synchronization

/// Anti-aliased coverage of polygons under the non-zero or even-odd rule: in every pixel, the
/// area of the region the rule fills, as 8-bit coverage.
///
/// Edges add their signed area to an accumulation row (as font-rs and FreeType do), which is
/// exact wherever no point is inside two polygons at once. Where the winding number reaches 2
/// (a stroke's outline crossing itself, overlapping glyph contours, self-intersecting shapes),
/// summed areas would cover such pixels twice; there each pixel row is cut into bands at the
/// edges' ends and crossings, and only the edges where the rule's inside begins or ends add
/// their area, so the union is covered exactly once.
///
/// Nothing is clipped: edges above or below the target rows are cut where they cross them, and
/// parts left of the target add their full height to its first column. Buffers are reused from
/// one fill to the next; take a converter with `withConverter` (one per thread at a time).
final class ScanConverter {
    /// An edge in device pixels, top to bottom.
    struct Edge {
        var x0: Double, y0: Double, x1: Double, y1: Double
        /// +1 when the outline runs down the edge, −1 when it runs up.
        var direction: Double
        var slope: Double { (x1 - x0) / (y1 - y0) }

        /// x where the edge crosses `y`, from the nearer end (so huge coordinates keep precision).
        @inline(__always) func x(at y: Double) -> Double {
            y - y0 < y1 - y ? x0 + (y - y0) * (x1 - x0) / (y1 - y0) : x1 - (y1 - y) * (x1 - x0) / (y1 - y0)
        }
    }

    private var edges: [Edge] = []
    private var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)

    // Scratch reused between fills.
    private let scan = ScanScratch()
    /// The coverage of the last `renderMask`.
    private var mask: [UInt8] = []
    /// Points of the subpath being flattened.
    private var points: [CGPoint] = []

    /// Forgets the edges of the previous fill.
    func reset() {
        edges.removeAll(keepingCapacity: true)
        box = (.infinity, .infinity, -.infinity, -.infinity)
    }

    /// Whether no edge has been added.
    var isEmpty: Bool { edges.isEmpty }

    /// The edges added so far.
    var edgeCount: Int { edges.count }

    /// The smallest rectangle holding every edge (nil when there are none).
    var boundingBox: CGRect? {
        guard box.minX <= box.maxX, box.minY <= box.maxY else { return nil }
        return CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
    }

    /// Adds a polygon (closed implicitly) in device pixels. Points must be finite.
    func addPolygon(_ points: UnsafeBufferPointer<CGPoint>) {
        guard points.count >= 2, var previous = points.last else { return }
        for p in points {
            addEdge(from: previous, to: p)
            previous = p
        }
    }

    /// Adds one edge in device pixels. Points must be finite.
    @inline(__always) func addEdge(from a: CGPoint, to b: CGPoint) {
        box.minX = min(box.minX, a.x, b.x); box.maxX = max(box.maxX, a.x, b.x)
        box.minY = min(box.minY, a.y, b.y); box.maxY = max(box.maxY, a.y, b.y)
        if a.y < b.y {
            edges.append(Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, direction: 1))
        } else if a.y > b.y {
            edges.append(Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y, direction: -1))
        }
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
        guard !area.isEmpty else { return }
        scan.prepare(edges: edges, area: area)
        var rows = RowScan(scan, width: area.width, height: area.height, summingAreas: summingAreas)
        rows.run(rule: rule, output: output, stride: stride)
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

    // MARK: A pool, one converter per thread at a time

    private static let pool = Mutex<[PooledConverter]>([])
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
        edges.capacity * MemoryLayout<Edge>.stride + mask.capacity + points.capacity * MemoryLayout<CGPoint>.stride
            + scan.retainedBytes
    }
}

/// A converter on its way into or out of the pool. Safe to send: a converter leaves the pool
/// for exactly one caller, which returns it only when done with it, so no two threads ever use
/// the same converter.
private struct PooledConverter: @unchecked Sendable {
    let converter: ScanConverter
}

/// A growable buffer of plain values, reused between fills and reached through a pointer in
/// the scan's loops (arrays there would pay for exclusivity and bounds checks per access).
final class ScratchBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Room for `count` elements; the contents are lost when it grows.
    @discardableResult
    func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            base.deallocate()
            capacity = max(count, capacity * 2)
            base = .allocate(capacity: capacity)
        }
        return base
    }

    var bytes: Int { capacity * MemoryLayout<Element>.stride }
}

/// An edge cut to the rows of the area being scanned.
struct ScanEdge {
    var yTop: Double, yBottom: Double
    var edge: ScanConverter.Edge
}

/// The scan's buffers.
final class ScanScratch {
    let edges = ScratchBuffer<ScanEdge>()
    let order = ScratchBuffer<Int32>()
    let rowStarts = ScratchBuffer<Int32>()
    let active = ScratchBuffer<Int32>()
    let band = ScratchBuffer<Int32>()
    let keys = ScratchBuffer<Double>()
    let cuts = ScratchBuffer<Double>()
    let accumulation = ScratchBuffer<Double>()
    private(set) var edgeCount = 0

    var retainedBytes: Int {
        edges.bytes + order.bytes + rowStarts.bytes + active.bytes + band.bytes + keys.bytes + cuts.bytes + accumulation.bytes
    }

    /// Keeps the edges that cross the area's rows and do not lie wholly right of it, in the
    /// area's coordinates, sorted by the row where they start; sizes every buffer for the scan.
    func prepare(edges input: [ScanConverter.Edge], area: PixelRect) {
        let width = area.width, height = area.height
        let ox = Double(area.x), oy = Double(area.y), h = Double(height), w = Double(width)
        let kept = edges.reserve(input.count)
        var count = 0
        for var e in input {
            e.x0 -= ox; e.x1 -= ox; e.y0 -= oy; e.y1 -= oy
            guard e.y1 > 0, e.y0 < h, min(e.x0, e.x1) < w else { continue }
            let top = max(e.y0, 0), bottom = min(e.y1, h)
            guard bottom > top else { continue }
            kept[count] = ScanEdge(yTop: top, yBottom: bottom, edge: e)
            count += 1
        }
        edgeCount = count
        // Counting sort by first row.
        let starts = rowStarts.reserve(height + 1)
        starts.initialize(repeating: 0, count: height + 1)
        for i in 0..<count { starts[min(Int(kept[i].yTop), height - 1) + 1] += 1 }
        for r in 0..<height { starts[r + 1] += starts[r] }
        let sorted = order.reserve(count)
        for i in 0..<count {
            let r = min(Int(kept[i].yTop), height - 1)
            sorted[Int(starts[r])] = Int32(i)
            starts[r] += 1
        }
        active.reserve(count)
        band.reserve(count)
        keys.reserve(count)
        cuts.reserve(2 * count + 2)
        accumulation.reserve(width + 2).initialize(repeating: 0, count: width + 2)
    }
}

/// The sweep, row by row, over prepared scratch.
private struct RowScan {
    let edges: UnsafeMutablePointer<ScanEdge>
    let order: UnsafeMutablePointer<Int32>
    let edgeCount: Int
    let active: UnsafeMutablePointer<Int32>
    var activeCount = 0
    let band: UnsafeMutablePointer<Int32>
    var bandCount = 0
    let keys: UnsafeMutablePointer<Double>
    let cuts: UnsafeMutablePointer<Double>
    var cutCount = 0
    let acc: UnsafeMutablePointer<Double>
    let width: Int, height: Int
    let summingAreas: Bool

    init(_ scratch: ScanScratch, width: Int, height: Int, summingAreas: Bool) {
        edges = scratch.edges.base
        order = scratch.order.base
        edgeCount = scratch.edgeCount
        active = scratch.active.base
        band = scratch.band.base
        keys = scratch.keys.base
        cuts = scratch.cuts.base
        acc = scratch.accumulation.base
        self.width = width
        self.height = height
        self.summingAreas = summingAreas
    }

    mutating func run(rule: FillRule, output: UnsafeMutablePointer<UInt8>, stride: Int) {
        var nextEdge = 0
        for row in 0..<height {
            let rowOutput = output + row * stride
            let top = Double(row), bottom = top + 1
            while nextEdge < edgeCount, edges[Int(order[nextEdge])].yTop < bottom {
                active[activeCount] = order[nextEdge]
                activeCount += 1
                nextEdge += 1
            }
            var kept = 0
            for i in 0..<activeCount where edges[Int(active[i])].yBottom > top {
                active[kept] = active[i]
                kept += 1
            }
            activeCount = kept
            if activeCount == 0 {
                rowOutput.initialize(repeating: 0, count: width)
                continue
            }
            scanRow(top: top, rule: rule)
            // The running sum of the accumulated areas is the coverage; the row is left zeroed.
            // Even-odd folds a summed coverage above 1 back (2 → 0), as FreeType does; the exact
            // paths never exceed 1.
            var sum = 0.0
            if rule == .nonZero {
                for x in 0..<width {
                    sum += acc[x]
                    acc[x] = 0
                    rowOutput[x] = UInt8(min(abs(sum), 1) * 255 + 0.5)
                }
            } else {
                for x in 0..<width {
                    sum += acc[x]
                    acc[x] = 0
                    var c = abs(sum).truncatingRemainder(dividingBy: 2)
                    if c > 1 { c = 2 - c }
                    rowOutput[x] = UInt8(c * 255 + 0.5)
                }
            }
            acc[width] = 0
            acc[width + 1] = 0
        }
    }

    /// Accumulates one row's coverage.
    private mutating func scanRow(top: Double, rule: FillRule) {
        let bottom = top + 1
        // Bands: the row cut where edges begin or end inside it, so every edge in a band spans it.
        cutCount = 0
        cuts[cutCount] = top; cutCount += 1
        for k in 0..<activeCount {
            let e = edges[Int(active[k])]
            if e.yTop > top { cuts[cutCount] = e.yTop; cutCount += 1 }
            if e.yBottom < bottom { cuts[cutCount] = e.yBottom; cutCount += 1 }
        }
        cuts[cutCount] = bottom; cutCount += 1
        // Absurd rows (thousands of edges starting or crossing in one pixel row) would cost
        // bands × edges: there each edge adds its signed area as FreeType's rasterizer does,
        // exact except where the winding passes 1.
        if cutCount > Self.maximumCuts || activeCount > Self.maximumExactEdges || summingAreas {
            depositAll(top: top)
            return
        }
        if cutCount > 2 { Self.insertionSort(cuts, cutCount) }

        // Most rows never reach a winding of 2, nor mix windings of opposite signs: then each
        // edge's signed area is exact, added once for the whole row.
        var simple = true
        var rowSign = 0.0
        var k = 0
        bands: while k + 1 < cutCount {
            let ya = cuts[k], yb = cuts[k + 1]
            k += 1
            guard yb > ya else { continue }
            gatherBand(ya, yb)
            if !bandIsOrdered(ya, yb) { simple = false; break }
            var winding = 0.0
            for j in 0..<bandCount {
                winding += edges[Int(band[j])].edge.direction
                if abs(winding) > 1 { simple = false; break bands }
                if winding != 0 {
                    if rowSign == 0 { rowSign = winding } else if rowSign != winding { simple = false; break bands }
                }
            }
        }
        if simple {
            depositAll(top: top)
            return
        }
        var budget = 256   // bands halved at crossings in this row, at most
        for k in 0..<(cutCount - 1) where cuts[k + 1] > cuts[k] {
            exactBand(cuts[k], cuts[k + 1], rowTop: top, rule: rule, budget: &budget)
        }
    }

    /// Rows with more cuts or active edges than these take the signed-area sum.
    static let maximumCuts = 64, maximumExactEdges = 256

    /// Adds every active edge's signed area within the row.
    private func depositAll(top: Double) {
        for j in 0..<activeCount {
            let e = edges[Int(active[j])]
            let ya = max(e.yTop, top), yb = min(e.yBottom, top + 1)
            guard yb > ya else { continue }
            deposit(e.edge, from: ya, to: yb, rowTop: top, sign: e.edge.direction)
        }
    }

    /// Adds only the edges where the rule's inside begins (+) or ends (−) in the band, so that
    /// overlaps count once. A band in which edges cross is halved until they do not (down to
    /// 1/256 pixel, within the row's budget).
    private mutating func exactBand(_ ya: Double, _ yb: Double, rowTop: Double, rule: FillRule, budget: inout Int) {
        gatherBand(ya, yb)
        if !bandIsOrdered(ya, yb), yb - ya > 1.0 / 256, budget > 0 {
            budget -= 1
            let mid = (ya + yb) / 2
            exactBand(ya, mid, rowTop: rowTop, rule: rule, budget: &budget)
            exactBand(mid, yb, rowTop: rowTop, rule: rule, budget: &budget)
            return
        }
        var winding = 0.0
        var inside = false
        for j in 0..<bandCount {
            let e = edges[Int(band[j])].edge
            let wasInside = inside
            switch rule {
            case .nonZero:
                winding += e.direction
                inside = winding != 0
            case .evenOdd:
                inside.toggle()
            }
            if inside != wasInside {
                deposit(e, from: ya, to: yb, rowTop: rowTop, sign: inside ? 1 : -1)
            }
        }
    }

    /// The active edges spanning the band, sorted by where they cross its middle.
    private mutating func gatherBand(_ ya: Double, _ yb: Double) {
        bandCount = 0
        let mid = (ya + yb) / 2
        for k in 0..<activeCount {
            let i = active[k]
            let e = edges[Int(i)]
            guard e.yTop <= ya, e.yBottom >= yb else { continue }
            band[bandCount] = i
            keys[bandCount] = e.edge.x(at: mid)
            bandCount += 1
        }
        if bandCount > 1 { sortBand() }
    }

    /// Whether the band's edges keep their middle order at its top and bottom, so that none
    /// cross inside it (straight edges cross at most once).
    private func bandIsOrdered(_ ya: Double, _ yb: Double) -> Bool {
        guard bandCount > 1 else { return true }
        let slack = 1e-9
        var previousTop = -Double.infinity, previousBottom = -Double.infinity
        for j in 0..<bandCount {
            let e = edges[Int(band[j])].edge
            let xt = e.x(at: ya), xb = e.x(at: yb)
            if xt < previousTop - slack || xb < previousBottom - slack { return false }
            previousTop = xt
            previousBottom = xb
        }
        return true
    }

    /// Insertion sort of the band by key: bands are nearly sorted from one to the next. Large
    /// bands (thousands of crossing edges) use a heap sort, which needs no memory either.
    private func sortBand() {
        let n = bandCount
        if n <= 32 {
            for i in 1..<n {
                let key = keys[i], value = band[i]
                var j = i - 1
                while j >= 0, keys[j] > key {
                    keys[j + 1] = keys[j]; band[j + 1] = band[j]
                    j -= 1
                }
                keys[j + 1] = key; band[j + 1] = value
            }
            return
        }
        func swapAt(_ a: Int, _ b: Int) {
            (keys[a], keys[b]) = (keys[b], keys[a])
            (band[a], band[b]) = (band[b], band[a])
        }
        func siftDown(_ start: Int, _ end: Int) {
            var root = start
            while 2 * root + 1 < end {
                var child = 2 * root + 1
                if child + 1 < end, keys[child] < keys[child + 1] { child += 1 }
                guard keys[root] < keys[child] else { return }
                swapAt(root, child)
                root = child
            }
        }
        for start in stride(from: n / 2 - 1, through: 0, by: -1) { siftDown(start, n) }
        for end in stride(from: n - 1, to: 0, by: -1) {
            swapAt(0, end)
            siftDown(0, end)
        }
    }

    private static func insertionSort(_ v: UnsafeMutablePointer<Double>, _ count: Int) {
        for i in 1..<count {
            let value = v[i]
            var j = i - 1
            while j >= 0, v[j] > value { v[j + 1] = v[j]; j -= 1 }
            v[j + 1] = value
        }
    }

    /// Adds the signed area right of the edge between `ya` and `yb` (inside one row) to the
    /// accumulation row; parts left of the area count wholly in its first column, parts right of
    /// it not at all.
    @inline(__always)
    private func deposit(_ e: ScanConverter.Edge, from ya: Double, to yb: Double, rowTop: Double, sign: Double) {
        var xa = e.x(at: ya), xb = e.x(at: yb)
        var ta = ya - rowTop, tb = yb - rowTop
        let w = Double(width)
        if xa <= 0, xb <= 0 { acc[0] += sign * (tb - ta); return }
        if xa >= w, xb >= w { return }
        if xa < 0 || xb < 0 {
            let t = ta + (tb - ta) * (0 - xa) / (xb - xa)
            if xa < 0 { acc[0] += sign * (t - ta); ta = t; xa = 0 } else { acc[0] += sign * (tb - t); tb = t; xb = 0 }
        }
        if xa > w || xb > w {
            let t = ta + (tb - ta) * (w - xa) / (xb - xa)
            if xa > w { ta = t; xa = w } else { tb = t; xb = w }
        }
        guard tb > ta else { return }
        Self.accumulate(xa, ta, xb, tb, sign: sign, acc: acc)
    }

    /// font-rs's accumulation of a line inside one row (0 ≤ x ≤ width): `acc[i]` receives the
    /// change of coverage from column i − 1 to column i.
    @inline(__always)
    private static func accumulate(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, sign: Double,
                                   acc: UnsafeMutablePointer<Double>) {
        let d = sign * (yb - ya)
        let x0 = min(xa, xb), x1 = max(xa, xb)
        let x0floor = x0.rounded(.down), x0i = Int(x0floor)
        let x1ceil = x1.rounded(.up), x1i = Int(x1ceil)
        if x1i <= x0i + 1 {
            let xmf = 0.5 * (xa + xb) - x0floor
            acc[x0i] += d - d * xmf
            acc[x0i + 1] += d * xmf
        } else {
            let s = 1 / (x1 - x0)
            let x0f = x0 - x0floor
            let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
            let x1f = x1 - x1ceil + 1
            let am = 0.5 * s * x1f * x1f
            acc[x0i] += d * a0
            if x1i == x0i + 2 {
                acc[x0i + 1] += d * (1 - a0 - am)
            } else {
                let a1 = s * (1.5 - x0f)
                acc[x0i + 1] += d * (a1 - a0)
                var xi = x0i + 2
                while xi < x1i - 1 { acc[xi] += d * s; xi += 1 }
                let a2 = a1 + Double(x1i - x0i - 3) * s
                acc[x1i - 1] += d * (1 - a2 - am)
            }
            acc[x1i] += d * am
        }
    }
}
