import CKernels
import Foundation

/// Where a sweep's coverage goes, row by row, left to right: runs of pixels with one level,
/// and single pixels. A pixel is reported at most once; pixels never reported have no
/// coverage. Rows are begun in order, every row of the area once, but for the rows a sink's own
/// kernel sweeps (`sweepRows`), which are not begun.
protocol CoverageSink {
    /// Row `y` of the area (0 is its top) begins.
    mutating func beginRow(_ y: Int)
    /// Pixels `x..<x + count` of the row have coverage `level` (not 0).
    mutating func run(_ x: Int, count: Int, level: UInt8)
    /// Pixel `x` of the row has coverage `level` (not 0).
    mutating func pixel(_ x: Int, level: UInt8)
    /// Pixels `x..<x + count` of the row have the coverage in `levels` (0 where none).
    mutating func span(_ x: Int, levels: UnsafePointer<UInt8>, count: Int)
    /// Takes the row's coverage from its accumulation cells and clears them, using `levels`
    /// (room for the row's width) as it needs.
    mutating func take(_ cells: inout CellRow, rule: FillRule, levels: UnsafeMutablePointer<UInt8>)
    /// Sweeps rows from `row` on into the sink with `lk_sweep_rows` (the rows `RowSweep` adds in
    /// one pass, from chains to pixels in C), moving `row` to the first it leaves; its result.
    /// Nil, changing nothing, for a sink without such a kernel.
    mutating func sweepRows(_ sweep: inout lk_sweep, cells: inout CellRow, rule: FillRule, from row: inout Int, to end: Int)
        -> Int32?
}

extension CoverageSink {
    /// No kernel: `RowSweep` takes every row.
    @inline(__always) mutating func sweepRows(_ sweep: inout lk_sweep, cells: inout CellRow, rule: FillRule,
                                              from row: inout Int, to end: Int) -> Int32? {
        nil
    }

    /// Each pixel with coverage, one by one.
    @inline(__always) mutating func span(_ x: Int, levels: UnsafePointer<UInt8>, count: Int) {
        for i in 0..<count where levels[i] != 0 { pixel(x + i, level: levels[i]) }
    }

    /// The row's levels, as a span and the run after it.
    @inline(__always) mutating func take(_ cells: inout CellRow, rule: FillRule, levels: UnsafeMutablePointer<UInt8>) {
        let (lo, hi, tail) = cells.readLevels(rule: rule, into: levels)
        if hi > lo { span(lo, levels: levels + lo, count: hi - lo) }
        if tail != 0 { run(hi, count: cells.width - hi, level: tail) }
    }
}

/// Writes coverage into an 8-bit mask, zero where nothing was reported.
struct MaskSink: CoverageSink {
    let base: UnsafeMutablePointer<UInt8>
    let stride: Int, width: Int
    private var row: UnsafeMutablePointer<UInt8>

    init(_ base: UnsafeMutablePointer<UInt8>, stride: Int, width: Int) {
        self.base = base
        self.stride = stride
        self.width = width
        row = base
    }

    @inline(__always) mutating func beginRow(_ y: Int) {
        row = base + y * stride
        row.initialize(repeating: 0, count: width)
    }

    @inline(__always) mutating func run(_ x: Int, count: Int, level: UInt8) {
        (row + x).initialize(repeating: level, count: count)
    }

    @inline(__always) mutating func pixel(_ x: Int, level: UInt8) {
        row[x] = level
    }

    @inline(__always) mutating func span(_ x: Int, levels: UnsafePointer<UInt8>, count: Int) {
        (row + x).update(from: levels, count: count)
    }
}

/// Adds coverage into an 8-bit mask that already holds some, as source-over combines coverage:
/// m + c − m·c (pixman's rounding), which is c where the mask is still empty. Pixels never
/// reported keep theirs.
struct CoverageOverSink: CoverageSink {
    let base: UnsafeMutablePointer<UInt8>
    let stride: Int
    private var row: UnsafeMutablePointer<UInt8>

    /// - Parameter base: the mask's byte at the area's top-left pixel.
    init(_ base: UnsafeMutablePointer<UInt8>, stride: Int) {
        self.base = base
        self.stride = stride
        row = base
    }

    /// Source-over of coverage `c` onto `m`, rounded as pixman multiplies.
    @inline(__always) static func over(_ m: UInt8, _ c: UInt8) -> UInt8 {
        let m = UInt32(m), c = UInt32(c)
        return UInt8(truncatingIfNeeded: m &+ c &- ColorBlendSink.multiply(alpha: m, c))
    }

    @inline(__always) mutating func beginRow(_ y: Int) { row = base + y * stride }

    @inline(__always) mutating func run(_ x: Int, count: Int, level: UInt8) {
        for i in x..<(x + count) { row[i] = Self.over(row[i], level) }
    }

    @inline(__always) mutating func pixel(_ x: Int, level: UInt8) { row[x] = Self.over(row[x], level) }

    /// The whole row at once, straight from the cells (`lk_cell_row_cover`: `run` and `pixel`
    /// in C, bit for bit).
    @inline(__always) mutating func take(_ cells: inout CellRow, rule: FillRule, levels: UnsafeMutablePointer<UInt8>) {
        cells.cover(rule: rule, into: row)
    }

    /// Rows from chains to mask bytes in C, as `take` adds them.
    @inline(__always) mutating func sweepRows(_ sweep: inout lk_sweep, cells: inout CellRow, rule: FillRule,
                                              from row: inout Int, to end: Int) -> Int32? {
        let target = lk_sweep_target(pixels: nil, pixels_per_row: 0, color: 0, table: nil, mask: base, mask_stride: Int64(stride))
        return cells.sweepRows(&sweep, rule: rule, from: &row, to: end, into: target)
    }
}
