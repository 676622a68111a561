import Foundation

/// The sweep's cells: areas accumulate in a row of cells (font-rs's method, see `CellRow`), and
/// the running sum, left to right, is the coverage, which the sink takes a row at a time.
extension RowSweep {
    /// Hands the row's coverage to the sink and clears the cells. Cells past the row's last
    /// pixel change nothing in it.
    @inline(__always)
    mutating func emitRow<Sink: CoverageSink>(rule: FillRule, into sink: inout Sink) {
        sink.take(&cells, rule: rule, levels: levels)
    }
}
