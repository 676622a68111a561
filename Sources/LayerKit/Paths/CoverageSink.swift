import Foundation

/// Where a sweep's coverage goes, row by row, left to right: runs of pixels with one level,
/// and single pixels. A pixel is reported at most once; pixels never reported have no
/// coverage. Rows are begun in order, every row of the area once.
protocol CoverageSink {
    /// Row `y` of the area (0 is its top) begins.
    mutating func beginRow(_ y: Int)
    /// Pixels `x..<x + count` of the row have coverage `level` (not 0).
    mutating func run(_ x: Int, count: Int, level: UInt8)
    /// Pixel `x` of the row has coverage `level` (not 0).
    mutating func pixel(_ x: Int, level: UInt8)
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
}
