import CKernels

/// One pixel row's accumulation cells, as font-rs accumulates a line: cell i receives the change
/// of coverage from pixel i − 1 to pixel i, and the running sum, left to right, is the coverage.
/// A bit per cell says which received area, so that reading a row visits only those (the runs
/// between them have one level each).
///
/// A thin wrapper of CKernels' `lk_cell_row`: the arithmetic is the Swift code's it replaced,
/// operation for operation (the same levels, bit for bit), without Swift's trapping
/// conversions and checked indices, which cost more than the arithmetic.
struct CellRow {
    private var row: lk_cell_row

    /// The pixels of the row.
    var width: Int { Int(row.width) }

    /// Cells over `width` pixels: `cells` holds `width + 2` zeros and `touched`
    /// `(width + 65) / 64` zero words (`ScanScratch` sizes them).
    init(cells: UnsafeMutablePointer<Double>, touched: UnsafeMutablePointer<UInt64>, width: Int) {
        row = lk_cell_row(cells: cells, touched: touched, width: Int64(width), first_word: .max, last_word: -1)
    }

    /// Adds the signed area, times each piece's sign, right of each edge of `pieces` (parts of
    /// monotone chains) between `ya` and `yb` (inside the pixel row whose top is `rowTop`):
    /// parts left of the row count wholly in its first cell, parts right of it not at all.
    @inline(__always)
    mutating func add(_ pieces: UnsafePointer<lk_chain_piece>, count: Int, of edges: UnsafePointer<ScanEdge>,
                      from ya: Double, to yb: Double, rowTop: Double) {
        let status = lk_cell_row_add_chains(&row, edges, pieces, Int32(truncatingIfNeeded: count), ya, yb, rowTop)
        assert(status == LK_OK, "\(count) chains from \(ya) to \(yb) in the row at \(rowTop)")
    }

    /// Adds, when `chains` (each spanning the band from `ya` to `yb`, pieces signed by their
    /// direction) are in order left to right and no two neighbours can share an x in the band,
    /// the area of those where the rule's inside begins (+) or ends (−), as `RowSweep` would
    /// after measuring, sorting and checking them; true. False, adding nothing, when they are
    /// not so (the row must be empty).
    @inline(__always)
    mutating func addBounds(_ chains: UnsafePointer<lk_chain_piece>, count: Int, of edges: UnsafePointer<ScanEdge>,
                            rule: FillRule, from ya: Double, to yb: Double, rowTop: Double) -> Bool {
        let result = lk_cell_row_add_bounds(&row, edges, chains, Int32(truncatingIfNeeded: count), rule == .evenOdd ? 1 : 0,
                                            ya, yb, rowTop)
        assert(result >= 0, "\(count) chains from \(ya) to \(yb) in the row at \(rowTop)")
        return result == 1
    }

    /// Reads the row's coverage into `levels` (room for the width) and clears the cells for the
    /// next row: `levels[lo..<hi]` hold it, pixels left of `lo` have none, those from `hi` to
    /// the width have `tail`.
    @inline(__always)
    mutating func readLevels(rule: FillRule, into levels: UnsafeMutablePointer<UInt8>) -> (lo: Int, hi: Int, tail: UInt8) {
        var span = lk_level_span()
        let status = lk_cell_row_levels(&row, rule == .evenOdd ? 1 : 0, levels, &span)
        assert(status == LK_OK, "a row of \(row.width) cells")
        return (Int(span.lo), Int(span.hi), span.tail)
    }

    /// Composites a premultiplied color through the row's coverage over its pixels at `pixels`
    /// (pixman's `over_n_8_8888`, bit for bit; see `ColorBlendSink`), and clears the cells.
    /// `table` has `ColorBlendSink.tableSize` entries, filled for `color` (`lk_blend_table_fill`).
    @inline(__always)
    mutating func blend(_ color: UInt32, rule: FillRule, into pixels: UnsafeMutablePointer<UInt32>,
                        table: UnsafeMutablePointer<UInt64>) {
        let status = lk_cell_row_blend(&row, rule == .evenOdd ? 1 : 0, pixels, color, table)
        assert(status == LK_OK, "a row of \(row.width) cells")
    }

    /// Sweeps rows from `row` on with `lk_sweep_rows` into `target` (a sink's pixels or mask), up
    /// to the first row it leaves to `RowSweep` (with its chains admitted) or `end`; its result
    /// (0 at the end, 1 at a row left, 2 at a row whose bounds it refused). The cells are
    /// empty before and after.
    @inline(__always)
    mutating func sweepRows(_ sweep: inout lk_sweep, rule: FillRule, from row: inout Int, to end: Int,
                            into target: lk_sweep_target) -> Int32 {
        var index = Int64(row)
        let result = withUnsafePointer(to: target) { lk_sweep_rows(&sweep, &self.row, rule == .evenOdd ? 1 : 0, &index, Int64(end), $0) }
        row = Int(index)
        return result
    }

    /// Adds the row's coverage into the mask bytes at `mask`, as source-over combines coverage
    /// (`CoverageOverSink.over`, bit for bit), and clears the cells.
    @inline(__always)
    mutating func cover(rule: FillRule, into mask: UnsafeMutablePointer<UInt8>) {
        let status = lk_cell_row_cover(&row, rule == .evenOdd ? 1 : 0, mask)
        assert(status == LK_OK, "a row of \(row.width) cells")
    }
}
