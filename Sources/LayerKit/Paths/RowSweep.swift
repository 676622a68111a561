import CKernels
import Foundation

/// The sweep of one fill, row by row, over prepared scratch (see `ScanConverter`).
///
/// In each pixel row the chains crossing it are sorted by x at the row's middle (they keep
/// their order from row to row, so the insertion sort does little). Neighbours whose x-ranges
/// in the row overlap are checked for a crossing, exactly: both are polylines, so their
/// difference in x is linear between their vertices. Where none crosses, walking the chains
/// left to right tells, from the winding number, which of them bound the rule's inside, and
/// only those add their signed area. Where neighbours cross, the row is cut into bands at the
/// crossings and each band is swept the same way. A row in which chains begin or end is swept
/// whole when they pair up as the two sides of a peak, a valley or a level edge, otherwise cut
/// there first, so that every chain of a band spans it.
///
/// Areas accumulate in a row of cells (see RowSweep+Cells.swift). Most rows (no chain begins or
/// ends in them, their chains still in the last row's order and apart) never reach this code:
/// a sink with a kernel (`CoverageSink.sweepRows`, `lk_sweep_rows`) sweeps runs of them from
/// chains to pixels in C, and hands the others back here.
///
/// The helpers that only read the sweep's state are inlined: calling one from a mutating
/// method would copy the whole struct (its ~140 bytes) to the stack first.
struct RowSweep {
    /// Rows with more cuts or chains than these take the signed-area sum, as FreeType's
    /// rasterizer does (exact except where the winding passes 1): thousands of edges starting
    /// or crossing in one pixel row would otherwise cost bands × chains.
    static let maximumCuts = 64, maximumExactChains = 256
    /// Bands cut at crossings in one row, at most; then the order at the band's middle stands.
    static let crossingBudget = 256
    /// Crossings collected in one band before it is cut (its parts find any others).
    static let maximumCrossingsPerBand = 32
    /// Chains closer than this in x count as touching, not crossing.
    static let slack = 1e-9

    let edges: UnsafeMutablePointer<ScanEdge>
    let chains: UnsafeMutablePointer<ScanChain>
    let order: UnsafeMutablePointer<Int32>
    let chainCount: Int
    let edgeCount: Int
    let active: UnsafeMutablePointer<Int32>
    var activeCount = 0
    let band: UnsafeMutablePointer<Int32>
    let keys: UnsafeMutablePointer<Double>
    let lows: UnsafeMutablePointer<Double>
    let highs: UnsafeMutablePointer<Double>
    let cuts: UnsafeMutablePointer<Double>
    /// The row's accumulation, and its coverage once read.
    var cells: CellRow
    let levels: UnsafeMutablePointer<UInt8>
    /// The chains a band adds, in order.
    let pieces: UnsafeMutablePointer<lk_chain_piece>
    let width: Int, height: Int
    let summingAreas: Bool
    /// Whether the sink's kernel may take rows (see `run`); false sweeps every row here, for
    /// tests that compare the two.
    let usesRowKernel: Bool

    init(_ scratch: ScanScratch, width: Int, height: Int, summingAreas: Bool, usesRowKernel: Bool = true) {
        edges = scratch.edges.base
        chains = scratch.chains.base
        order = scratch.order.base
        chainCount = scratch.chainCount
        edgeCount = scratch.edgeCount
        active = scratch.active.base
        band = scratch.band.base
        keys = scratch.keys.base
        lows = scratch.lows.base
        highs = scratch.highs.base
        cuts = scratch.cuts.base
        cells = CellRow(cells: scratch.accumulation.base, touched: scratch.touched.base, width: width)
        levels = scratch.levels.base
        pieces = scratch.pieces.base
        self.width = width
        self.height = height
        self.summingAreas = summingAreas
        self.usesRowKernel = usesRowKernel
    }

    mutating func run<Sink: CoverageSink>(rule: FillRule, into sink: inout Sink) {
        var next = 0
        var row = 0
        // Whether the sink's kernel (`lk_sweep_rows`) may take rows: the rows in which no
        // chain begins or ends and whose chains `addBoundsInOrder` would take, from chains to
        // pixels in one call. It stops at any other row, having admitted its chains.
        var kernel = !summingAreas && usesRowKernel
        while row < height {
            var left = RowsLeft.none
            if kernel {
                var state = lk_sweep(edges: edges, chains: chains, order: order, active: active, pieces: pieces,
                                     edge_count: Int64(edgeCount), chain_count: Int64(chainCount), next: Int64(next),
                                     active_count: Int64(activeCount), maximum_chains: Int64(Self.maximumExactChains))
                if let result = sink.sweepRows(&state, cells: &cells, rule: rule, from: &row, to: height) {
                    assert(result >= 0, "lk_sweep_rows refused row \(row) of \(height)")
                    next = Int(state.next)
                    activeCount = Int(state.active_count)
                    if row >= height { break }
                    left = result == 2 ? .boundsRefused : .admitted
                } else {
                    kernel = false
                }
            }
            sink.beginRow(row)
            let top = Double(row), bottom = top + 1
            var cut = left == .admitted
            if left == .none {
                cut = admitChains(top: top, next: &next)
                guard activeCount > 0 else {
                    row += 1
                    continue
                }
            }
            if summingAreas || activeCount > Self.maximumExactChains {
                sumAreas(rowTop: top)
            } else if cut {
                cutRow(top: top, rule: rule)
            } else if left == .boundsRefused || !addBoundsInOrder(top: top, rule: rule) {
                var budget = Self.crossingBudget
                sweep(top, bottom, rowTop: top, active, activeCount, rule: rule, budget: &budget)
            }
            emitRow(rule: rule, into: &sink)
            row += 1
        }
    }

    /// Where the sink's kernel left a row to `run`.
    private enum RowsLeft {
        /// It did not: the row's chains are still to be admitted.
        case none
        /// Its chains are admitted and moved to it, and one begins or ends inside it (or there
        /// are more than `maximumExactChains`).
        case admitted
        /// As `admitted`, but none begins or ends in it: `lk_cell_row_add_bounds` refused it.
        case boundsRefused
    }

    /// Admits the chains beginning above the row's bottom, drops those that ended at its top,
    /// moves the others' cursors to it; whether any begins or ends inside it.
    private mutating func admitChains(top: Double, next: inout Int) -> Bool {
        let bottom = top + 1
        while next < chainCount, chains[Int(order[next])].yTop < bottom {
            active[activeCount] = order[next]
            activeCount += 1
            next += 1
        }
        var kept = 0
        var cut = false
        for i in 0..<activeCount {
            let c = Int(active[i])
            guard chains[c].yBottom > top else { continue }
            var k = Int(chains[c].cursor)
            while edges[k].yBottom <= top { k += 1 }
            chains[c].cursor = Int64(k)
            if chains[c].yTop > top || chains[c].yBottom < bottom { cut = true }
            active[kept] = active[i]
            kept += 1
        }
        activeCount = kept
        return cut
    }

    /// The row's chains, when they are still in the order of the row before and clear of one
    /// another in x (most rows): what `sweep` would add after measuring, sorting and checking
    /// them, added in one pass (`CellRow.addBounds`). False, having added nothing, otherwise.
    private mutating func addBoundsInOrder(top: Double, rule: FillRule) -> Bool {
        for i in 0..<activeCount {
            let c = chains[Int(active[i])]
            pieces[i] = lk_chain_piece(first: c.cursor, end: c.end, sign: c.direction)
        }
        return cells.addBounds(pieces, count: activeCount, of: edges, rule: rule, from: top, to: top + 1, rowTop: top)
    }

    /// Every chain adds its signed area over the row.
    private mutating func sumAreas(rowTop top: Double) {
        for i in 0..<activeCount {
            let c = chains[Int(active[i])]
            pieces[i] = lk_chain_piece(first: c.cursor, end: c.end, sign: c.direction)
        }
        cells.add(pieces, count: activeCount, of: edges, from: top, to: top + 1, rowTop: top)
    }

    /// A row in which chains begin or end: swept whole when they begin and end in pairs (see
    /// `sweepWholeRow`), otherwise cut into bands there, each swept with the chains spanning it.
    private mutating func cutRow(top: Double, rule: FillRule) {
        if sweepWholeRow(top: top, rule: rule) { return }
        let bottom = top + 1
        var count = 0
        cuts[count] = top
        count += 1
        for i in 0..<activeCount {
            let c = chains[Int(active[i])]
            if c.yTop > top { cuts[count] = c.yTop; count += 1 }
            if c.yBottom < bottom { cuts[count] = c.yBottom; count += 1 }
        }
        cuts[count] = bottom
        count += 1
        guard count <= Self.maximumCuts else {
            sumAreas(rowTop: top)
            return
        }
        Self.insertionSort(cuts, count)
        var budget = Self.crossingBudget
        for k in 0..<(count - 1) where cuts[k + 1] > cuts[k] {
            let ya = cuts[k], yb = cuts[k + 1]
            var n = 0
            for i in 0..<activeCount {
                let c = chains[Int(active[i])]
                if c.yTop <= ya, c.yBottom >= yb {
                    band[n] = active[i]
                    n += 1
                }
            }
            if n > 0 { sweep(ya, yb, rowTop: top, band, n, rule: rule, budget: &budget) }
        }
    }

    /// Sweeps the band from `ya` to `yb` (inside the row at `rowTop`) in which every chain of
    /// `list` spans it: sorts them, cuts the band where neighbours cross, and adds the area of
    /// the chains where the rule's inside begins (+) or ends (−).
    private mutating func sweep(_ ya: Double, _ yb: Double, rowTop: Double, _ list: UnsafeMutablePointer<Int32>, _ n: Int,
                                rule: FillRule, budget: inout Int) {
        measure(ya, yb, list, n)
        sortByKey(list, n)
        if n > 1, budget > 0, yb - ya > 1e-9, overlap(n) {
            let wasCut = withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.maximumCrossingsPerBand) { buffer -> Bool in
                let splits = buffer.baseAddress!
                var count = 0
                for j in 0..<(n - 1) where highs[j] > lows[j + 1] {
                    crossings(of: chains[Int(list[j])], and: chains[Int(list[j + 1])], ya, yb, into: splits, &count)
                }
                guard count > 0 else { return false }
                Self.insertionSort(splits, count)
                budget -= count
                var from = ya
                for k in 0..<count where splits[k] > from {
                    sweep(from, splits[k], rowTop: rowTop, list, n, rule: rule, budget: &budget)
                    from = splits[k]
                }
                sweep(from, yb, rowTop: rowTop, list, n, rule: rule, budget: &budget)
                return true
            }
            if wasCut { return }
        }
        depositBounds(ya, yb, rowTop: rowTop, list, n, rule: rule)
    }

    /// Sweeps a row in which chains begin or end without cutting it, when that is exact: no
    /// two neighbours share x in the row (so none cross), and every chain that begins (ends)
    /// inside it pairs with its neighbour, which begins (ends) at the same height and runs
    /// the other way: the two sides of a peak or a valley of the outline, or of a level
    /// edge. Where such a pair is absent, in the rest of the row's height, the winding on
    /// either side of it is the same, so the walk over all the row's chains tells, for each,
    /// whether it bounds the rule's inside at every height where it is present.
    /// False, having added nothing, when that does not hold.
    private mutating func sweepWholeRow(top: Double, rule: FillRule) -> Bool {
        let bottom = top + 1
        let n = activeCount
        measure(top, bottom, active, n)
        sortByKey(active, n)
        guard n < 2 || !overlap(n) else { return false }
        // Pairs, left to right: a chain beginning (ending) inside the row and not yet paired
        // pairs with its right neighbour, which must begin (end) at the same height.
        var pairedTop = false, pairedBottom = false
        for j in 0..<n {
            let c = chains[Int(active[j])]
            if c.yTop > top {
                if pairedTop {
                    pairedTop = false
                } else {
                    guard j + 1 < n else { return false }
                    let d = chains[Int(active[j + 1])]
                    guard d.yTop == c.yTop, d.direction == -c.direction else { return false }
                    pairedTop = true
                }
            } else if pairedTop {
                return false
            }
            if c.yBottom < bottom {
                if pairedBottom {
                    pairedBottom = false
                } else {
                    guard j + 1 < n else { return false }
                    let d = chains[Int(active[j + 1])]
                    guard d.yBottom == c.yBottom, d.direction == -c.direction else { return false }
                    pairedBottom = true
                }
            } else if pairedBottom {
                return false
            }
        }
        depositBounds(top, bottom, rowTop: top, active, n, rule: rule)
        return true
    }

    /// Adds the area of the chains of the sorted `list` where the rule's inside begins (+) or
    /// ends (−), each over its part of the band.
    @inline(__always)
    private mutating func depositBounds(_ ya: Double, _ yb: Double, rowTop: Double, _ list: UnsafeMutablePointer<Int32>, _ n: Int,
                                        rule: FillRule) {
        var winding = 0.0
        var inside = false
        var count = 0
        for j in 0..<n {
            let c = chains[Int(list[j])]
            let wasInside = inside
            switch rule {
            case .nonZero:
                winding += c.direction
                inside = winding != 0
            case .evenOdd:
                inside.toggle()
            }
            if inside != wasInside {
                pieces[count] = lk_chain_piece(first: c.cursor, end: c.end, sign: inside ? 1 : -1)
                count += 1
            }
        }
        cells.add(pieces, count: count, of: edges, from: ya, to: yb, rowTop: rowTop)
    }

    /// Whether any two neighbours of the sorted band share x in it (only those can cross).
    @inline(__always)
    private func overlap(_ n: Int) -> Bool {
        for j in 0..<(n - 1) where highs[j] > lows[j + 1] + Self.slack { return true }
        return false
    }

    /// For each chain of the band: x at the middle of its part in the band, and its least and
    /// greatest x there. (A chain spans the band, except in `sweepWholeRow`.)
    @inline(__always)
    private func measure(_ ya: Double, _ yb: Double, _ list: UnsafeMutablePointer<Int32>, _ n: Int) {
        for j in 0..<n {
            let c = chains[Int(list[j])]
            let y0 = max(ya, c.yTop), y1 = min(yb, c.yBottom)
            let mid = (y0 + y1) / 2
            var k = Int(c.cursor)
            while edges[k].yBottom <= y0 { k += 1 }
            var e = edges[k]
            let x0 = e.x(at: y0)
            var low = x0, high = x0, key = x0
            while true {
                let y = min(e.yBottom, y1)
                let x = e.x(at: y)
                low = min(low, x)
                high = max(high, x)
                if e.yTop <= mid, mid <= y { key = e.x(at: mid) }
                if y >= y1 { break }
                k += 1
                e = edges[k]
            }
            keys[j] = key
            lows[j] = low
            highs[j] = high
        }
    }

    /// Insertion sort of the band by key, carrying the ranges along: bands are nearly sorted
    /// (the active chains keep their order from row to row).
    @inline(__always)
    private func sortByKey(_ list: UnsafeMutablePointer<Int32>, _ n: Int) {
        guard n > 1 else { return }
        for i in 1..<n {
            let key = keys[i]
            guard keys[i - 1] > key else { continue }
            let value = list[i], low = lows[i], high = highs[i]
            var j = i - 1
            while j >= 0, keys[j] > key {
                keys[j + 1] = keys[j]; list[j + 1] = list[j]; lows[j + 1] = lows[j]; highs[j + 1] = highs[j]
                j -= 1
            }
            keys[j + 1] = key; list[j + 1] = value; lows[j + 1] = low; highs[j + 1] = high
        }
    }

    /// Where chain `b`, right of `a` at the band's middle, passes to its left or back inside
    /// the band: between consecutive vertices of either, their difference in x is linear, so
    /// each change of its sign is one crossing, found exactly.
    @inline(__always)
    private func crossings(of a: ScanChain, and b: ScanChain, _ ya: Double, _ yb: Double,
                           into splits: UnsafeMutablePointer<Double>, _ count: inout Int) {
        var ia = Int(a.cursor), ib = Int(b.cursor)
        while edges[ia].yBottom <= ya { ia += 1 }
        while edges[ib].yBottom <= ya { ib += 1 }
        var y0 = ya
        var d0 = edges[ib].x(at: ya) - edges[ia].x(at: ya)
        while count < Self.maximumCrossingsPerBand {
            let ea = edges[ia], eb = edges[ib]
            let y1 = min(ea.yBottom, eb.yBottom, yb)
            let d1 = eb.x(at: y1) - ea.x(at: y1)
            if (d0 < -Self.slack) != (d1 < -Self.slack) {
                let y = y0 + (y1 - y0) * (d0 / (d0 - d1))
                if y > ya, y < yb {
                    splits[count] = y
                    count += 1
                }
            }
            if y1 >= yb { break }
            if ea.yBottom <= y1 { ia += 1 }
            if eb.yBottom <= y1 { ib += 1 }
            y0 = y1
            d0 = d1
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
}
