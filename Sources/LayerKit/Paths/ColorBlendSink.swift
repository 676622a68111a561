import CKernels
import Foundation

/// Composites a solid premultiplied color, source over, through coverage straight into a
/// bitmap's pixels: what pixman's `over_n_8_8888` does with a mask, bit for bit, without
/// writing the mask or reading its empty parts.
///
/// Per channel c of a pixel with coverage m: s = src·m, a = alpha·m (each ⌊x·y/255⌉, pixman's
/// rounding), then c = s + dst·(255 − a). A full-coverage run of an opaque color is a copy.
/// s and 255 − a are worked out for every level in a table when the sink is made.
struct ColorBlendSink: CoverageSink {
    private let base: UnsafeMutablePointer<UInt32>
    private let pixelsPerRow: Int
    private let color: UInt32, alpha: UInt32
    private var row: UnsafeMutablePointer<UInt32>
    /// Per level: s in the low 32 bits, 255 − a above, every level filled (`lk_blend_table_fill`,
    /// which `lk_cell_row_blend` and `lk_sweep_rows` require).
    private let levels: UnsafeMutablePointer<UInt64>

    /// The entries of the per-level table a sink needs.
    static let tableSize = 256

    /// Blends into the pixels at `base` (`pixelsPerRow` apart), the sink's area starting at
    /// (`x`, `y`) of them, using `table` (`tableSize` entries) for the levels: filled here with
    /// every level's entry at once (`lk_blend_table_fill`, cheaper than working out the levels
    /// a fill meets one by one), unless `tableHoldsColor` says that it holds this color's
    /// entries from an earlier sink (all of them: a sink fills the whole table). The caller keeps the
    /// pixels and the table alive and unshared.
    init(pixels base: UnsafeMutablePointer<UInt32>, pixelsPerRow: Int, x: Int, y: Int, color premultiplied: UInt32,
         table: UnsafeMutablePointer<UInt64>, tableHoldsColor: Bool = false) {
        self.base = base + y * pixelsPerRow + x
        self.pixelsPerRow = pixelsPerRow
        color = premultiplied
        alpha = premultiplied >> 24
        row = self.base
        levels = table
        if !tableHoldsColor { _ = lk_blend_table_fill(table, premultiplied, LK_VARIANT_AUTO) }
    }

    /// s and 255 − a for coverage `m`.
    @inline(__always) private func entry(_ m: UInt32) -> (source: UInt32, inverse: UInt32) {
        let packed = levels[Int(m)]
        return (UInt32(truncatingIfNeeded: packed), UInt32(truncatingIfNeeded: packed &>> 32))
    }

    @inline(__always) mutating func beginRow(_ y: Int) {
        row = base + y * pixelsPerRow
    }

    @inline(__always) mutating func run(_ x: Int, count: Int, level: UInt8) {
        let target = row + x
        if level == 255 {
            if alpha == 255 {
                target.update(repeating: color, count: count)
                return
            }
            blend(color, inverse: 255 &- alpha, into: target, count: count)
            return
        }
        let (source, inverse) = entry(UInt32(level))
        blend(source, inverse: inverse, into: target, count: count)
    }

    @inline(__always) mutating func pixel(_ x: Int, level: UInt8) {
        let m = UInt32(level)
        if m == 255, alpha == 255 {
            row[x] = color
            return
        }
        let (source, inverse) = entry(m)
        let d = row[x]
        row[x] = d == 0 ? source : source &+ Self.multiply(d, inverse)
    }

    /// The whole row at once, straight from the cells (`lk_cell_row_blend`, the same
    /// arithmetic as `pixel` and `run` in C, bit for bit).
    @inline(__always) mutating func take(_ cells: inout CellRow, rule: FillRule, levels: UnsafeMutablePointer<UInt8>) {
        cells.blend(color, rule: rule, into: row, table: self.levels)
    }

    /// Rows from chains to pixels in C, as `take` blends them.
    @inline(__always) mutating func sweepRows(_ sweep: inout lk_sweep, cells: inout CellRow, rule: FillRule,
                                              from row: inout Int, to end: Int) -> Int32? {
        let target = lk_sweep_target(pixels: base, pixels_per_row: Int64(pixelsPerRow), color: color, table: levels, mask: nil,
                                     mask_stride: 0)
        return cells.sweepRows(&sweep, rule: rule, from: &row, to: end, into: target)
    }

    /// `source` over each of `count` pixels, `inverse` being 255 minus its alpha. A clear
    /// pixel (a fresh store) just takes the source.
    @inline(__always) private func blend(_ source: UInt32, inverse: UInt32, into target: UnsafeMutablePointer<UInt32>, count: Int) {
        for i in 0..<count {
            let d = target[i]
            target[i] = d == 0 ? source : source &+ Self.multiply(d, inverse)
        }
    }

    /// One 8-bit value times `a` over 255, rounded as `multiply(_:_:)` rounds each channel.
    @inline(__always) static func multiply(alpha x: UInt32, _ a: UInt32) -> UInt32 {
        let t = x &* a &+ 0x80
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Each 8-bit channel of `x` times `a` (0...255) over 255, rounded as pixman rounds
    /// (`UN8x4_MUL_UN8`): t = x·a + 128, then (t + t/256)/256. The sum of a product and its
    /// complement's product never passes 255, so channels are added without saturating.
    @inline(__always) static func multiply(_ x: UInt32, _ a: UInt32) -> UInt32 {
        var redBlue = (x & 0xFF00FF) &* a &+ 0x800080
        redBlue = ((redBlue &+ ((redBlue &>> 8) & 0xFF00FF)) &>> 8) & 0xFF00FF
        var alphaGreen = ((x &>> 8) & 0xFF00FF) &* a &+ 0x800080
        alphaGreen = (alphaGreen &+ ((alphaGreen &>> 8) & 0xFF00FF)) & 0xFF00FF00
        return redBlue | alphaGreen
    }
}
