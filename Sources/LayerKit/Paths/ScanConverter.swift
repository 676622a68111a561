import Foundation

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
    /// Flags of the subpath being flattened for a stroke (see `Path.flatten`).
    var smoothness: [Bool] = []
    /// Builds stroke outlines for this converter's fills.
    private(set) lazy var stroker = Stroker()

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
    /// x at `yTop`, and its change per unit of y.
    var xTop: Double, slope: Double
    /// +1 when the outline runs down the edge, −1 when it runs up.
    var direction: Double

    @inline(__always) func x(at y: Double) -> Double { xTop + (y - yTop) * slope }
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
    let touched = ScratchBuffer<Int32>()
    let marks = ScratchBuffer<UInt8>()
    private(set) var edgeCount = 0

    var retainedBytes: Int {
        edges.bytes + order.bytes + rowStarts.bytes + active.bytes + band.bytes + keys.bytes + cuts.bytes + accumulation.bytes
            + touched.bytes + marks.bytes
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
            kept[count] = ScanEdge(yTop: top, yBottom: bottom, xTop: e.x(at: top), slope: e.slope, direction: e.direction)
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
        touched.reserve(width + 2)
        marks.reserve(width + 2).initialize(repeating: 0, count: width + 2)
    }
}

/// The sweep, row by row, over prepared scratch.
///
/// Each row's edges add their areas to the accumulation cells they touch; the running sum of
/// the cells, left to right, is the coverage. Only touched cells are visited: the runs between
/// them have one coverage each and are filled at once.
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
    /// The cells touched in this row, once each (`marks` says which).
    let touched: UnsafeMutablePointer<Int32>
    var touchedCount = 0
    let marks: UnsafeMutablePointer<UInt8>
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
        touched = scratch.touched.base
        marks = scratch.marks.base
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
            emitRow(rowOutput, rule: rule)
            sortActive(at: bottom)
        }
    }

    /// Orders the active edges by x at `y` (insertion sort: the order changes little from row
    /// to row), so that each band of the next row starts nearly sorted.
    private mutating func sortActive(at y: Double) {
        // Crowded rows take the signed-area sum, which needs no order.
        guard activeCount > 1, activeCount <= Self.maximumExactEdges else { return }
        for i in 1..<activeCount {
            let value = active[i]
            let key = edges[Int(value)].x(at: y)
            var j = i - 1
            while j >= 0, edges[Int(active[j])].x(at: y) > key {
                active[j + 1] = active[j]
                j -= 1
            }
            active[j + 1] = value
        }
    }

    /// Writes the row's coverage from the touched cells and clears them.
    private mutating func emitRow(_ out: UnsafeMutablePointer<UInt8>, rule: FillRule) {
        @inline(__always) func level(_ sum: Double) -> UInt8 {
            var c = abs(sum)
            if rule == .evenOdd {
                // A summed coverage above 1 folds back (2 → 0), as FreeType does; only the
                // fallback for crowded rows can exceed 1.
                c = c.truncatingRemainder(dividingBy: 2)
                if c > 1 { c = 2 - c }
            }
            return UInt8(min(c, 1) * 255 + 0.5)
        }
        var sum = 0.0
        if rule == .nonZero {
            // The common case, without the even-odd fold.
            if touchedCount <= 64 { Self.insertionSort(touched, touchedCount) }
            var x = 0
            if touchedCount > 64 {
                for c in 0..<width {
                    sum += acc[c]
                    out[c] = UInt8(min(abs(sum), 1) * 255 + 0.5)
                }
                x = width
            } else {
                for k in 0..<touchedCount {
                    let cell = Int(touched[k])
                    guard cell < width else { break }
                    if cell > x { (out + x).initialize(repeating: UInt8(min(abs(sum), 1) * 255 + 0.5), count: cell - x) }
                    sum += acc[cell]
                    out[cell] = UInt8(min(abs(sum), 1) * 255 + 0.5)
                    x = cell + 1
                }
            }
            if x < width { (out + x).initialize(repeating: UInt8(min(abs(sum), 1) * 255 + 0.5), count: width - x) }
        } else if touchedCount > 64 {
            // Many cells (long shallow edges): one pass over the row.
            for x in 0..<width {
                sum += acc[x]
                out[x] = level(sum)
            }
        } else {
            Self.insertionSort(touched, touchedCount)
            var x = 0
            for k in 0..<touchedCount {
                let cell = Int(touched[k])
                guard cell < width else { break }
                if cell > x { (out + x).initialize(repeating: level(sum), count: cell - x) }
                sum += acc[cell]
                out[cell] = level(sum)
                x = cell + 1
            }
            if x < width { (out + x).initialize(repeating: level(sum), count: width - x) }
        }
        for k in 0..<touchedCount {
            let cell = Int(touched[k])
            acc[cell] = 0
            marks[cell] = 0
        }
        touchedCount = 0
    }

    /// Accumulates one row's coverage, band by band: the row is cut where edges begin or end
    /// inside it, so that every edge in a band spans the band.
    private mutating func scanRow(top: Double, rule: FillRule) {
        let bottom = top + 1
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
            for j in 0..<activeCount {
                let e = edges[Int(active[j])]
                let ya = max(e.yTop, top), yb = min(e.yBottom, bottom)
                guard yb > ya else { continue }
                deposit(e, from: ya, to: yb, rowTop: top, sign: e.direction)
            }
            return
        }
        if cutCount > 2 { Self.insertionSort(cuts, cutCount) }
        var budget = 256   // bands halved at crossings in this row, at most
        for k in 0..<(cutCount - 1) where cuts[k + 1] > cuts[k] {
            band(cuts[k], cuts[k + 1], rowTop: top, rule: rule, budget: &budget)
        }
    }

    /// Rows with more cuts or active edges than these take the signed-area sum.
    static let maximumCuts = 64, maximumExactEdges = 256

    /// Adds, in one band, only the edges where the rule's inside begins (+) or ends (−), so
    /// that overlaps count once; where the winding never passes 1 those are all the edges. A
    /// band in which neighbouring edges cross is cut where they cross (edges are straight, so
    /// each pair crosses once), and the parts are scanned in turn, within the row's budget.
    private mutating func band(_ ya: Double, _ yb: Double, rowTop: Double, rule: FillRule, budget: inout Int) {
        gatherBand(ya, yb)
        if bandCount > 1, budget > 0, yb - ya > 1e-9, hasCrossing(ya, yb) {
            let crossings = withUnsafeTemporaryAllocation(of: Double.self, capacity: bandCount) { splits -> Int in
                var count = 0
                let slack = 1e-9
                for j in 0..<(bandCount - 1) {
                    let e1 = edges[Int(band[j])], e2 = edges[Int(band[j + 1])]
                    let top = e1.x(at: ya) - e2.x(at: ya), bottom = e1.x(at: yb) - e2.x(at: yb)
                    guard top > slack || bottom > slack, (top > 0) != (bottom > 0) else { continue }
                    let y = ya + (yb - ya) * top / (top - bottom)
                    if y > ya, y < yb { splits[count] = y; count += 1 }
                }
                guard count > 0 else { return 0 }
                Self.insertionSort(splits.baseAddress!, count)
                budget -= count
                var from = ya
                for k in 0..<count where splits[k] > from {
                    band(from, splits[k], rowTop: rowTop, rule: rule, budget: &budget)
                    from = splits[k]
                }
                band(from, yb, rowTop: rowTop, rule: rule, budget: &budget)
                return count
            }
            if crossings > 0 { return }
        }
        var winding = 0.0
        var inside = false
        for j in 0..<bandCount {
            let e = edges[Int(band[j])]
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

    /// Whether neighbouring edges of the band swap places inside it.
    private func hasCrossing(_ ya: Double, _ yb: Double) -> Bool {
        let slack = 1e-9
        var previous = edges[Int(band[0])]
        var previousTop = previous.x(at: ya), previousBottom = previous.x(at: yb)
        for j in 1..<bandCount {
            let e = edges[Int(band[j])]
            let top = e.x(at: ya), bottom = e.x(at: yb)
            if previousTop > top + slack || previousBottom > bottom + slack { return true }
            previous = e
            previousTop = top
            previousBottom = bottom
        }
        return false
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
            keys[bandCount] = e.x(at: mid)
            bandCount += 1
        }
        if bandCount > 1 { sortBand() }
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
        for start in Swift.stride(from: n / 2 - 1, through: 0, by: -1) { siftDown(start, n) }
        for end in Swift.stride(from: n - 1, to: 0, by: -1) {
            swapAt(0, end)
            siftDown(0, end)
        }
    }

    private static func insertionSort<T: Comparable>(_ v: UnsafeMutablePointer<T>, _ count: Int) {
        guard count > 1 else { return }
        for i in 1..<count {
            let value = v[i]
            var j = i - 1
            while j >= 0, v[j] > value { v[j + 1] = v[j]; j -= 1 }
            v[j + 1] = value
        }
    }

    /// Adds the signed area right of the edge between `ya` and `yb` (inside one row) to the
    /// accumulation cells; parts left of the area count wholly in its first column, parts right
    /// of it not at all.
    @inline(__always)
    private mutating func deposit(_ e: ScanEdge, from ya: Double, to yb: Double, rowTop: Double, sign: Double) {
        var xa = e.x(at: ya), xb = e.x(at: yb)
        var ta = ya - rowTop, tb = yb - rowTop
        let w = Double(width)
        if xa <= 0, xb <= 0 { add(0, sign * (tb - ta)); return }
        if xa >= w, xb >= w { return }
        if xa < 0 || xb < 0 {
            let t = ta + (tb - ta) * (0 - xa) / (xb - xa)
            if xa < 0 { add(0, sign * (t - ta)); ta = t; xa = 0 } else { add(0, sign * (tb - t)); tb = t; xb = 0 }
        }
        if xa > w || xb > w {
            let t = ta + (tb - ta) * (w - xa) / (xb - xa)
            if xa > w { ta = t; xa = w } else { tb = t; xb = w }
        }
        guard tb > ta else { return }
        accumulate(xa, ta, xb, tb, sign: sign)
    }

    @inline(__always)
    private mutating func add(_ cell: Int, _ value: Double) {
        if marks[cell] == 0 {
            marks[cell] = 1
            touched[touchedCount] = Int32(cell)
            touchedCount += 1
        }
        acc[cell] += value
    }

    /// font-rs's accumulation of a line inside one row (0 ≤ x ≤ width): cell i receives the
    /// change of coverage from column i − 1 to column i.
    @inline(__always)
    private mutating func accumulate(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, sign: Double) {
        let d = sign * (yb - ya)
        let x0 = min(xa, xb), x1 = max(xa, xb)
        let x0floor = x0.rounded(.down), x0i = Int(x0floor)
        let x1ceil = x1.rounded(.up), x1i = Int(x1ceil)
        if x1i <= x0i + 1 {
            let xmf = 0.5 * (xa + xb) - x0floor
            add(x0i, d - d * xmf)
            add(x0i + 1, d * xmf)
        } else {
            let s = 1 / (x1 - x0)
            let x0f = x0 - x0floor
            let a0 = 0.5 * s * (1 - x0f) * (1 - x0f)
            let x1f = x1 - x1ceil + 1
            let am = 0.5 * s * x1f * x1f
            add(x0i, d * a0)
            if x1i == x0i + 2 {
                add(x0i + 1, d * (1 - a0 - am))
            } else {
                let a1 = s * (1.5 - x0f)
                add(x0i + 1, d * (a1 - a0))
                var xi = x0i + 2
                while xi < x1i - 1 { add(xi, d * s); xi += 1 }
                let a2 = a1 + Double(x1i - x0i - 3) * s
                add(x1i - 1, d * (1 - a2 - am))
            }
            add(x1i, d * am)
        }
    }
}
