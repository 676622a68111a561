import Foundation

/// The sweep's cells: areas accumulate in a row of cells (font-rs's method: a cell receives the
/// change of coverage from the column before it), and the running sum, left to right, is the
/// coverage. A bit per cell says which received something: only those are summed one by one,
/// and the runs between them, which have one coverage each, go to the sink whole.
extension RowSweep {
    // MARK: Area

    /// Adds the signed area right of each of the chain's edges between `ya` and `yb`.
    @inline(__always)
    mutating func depositChain(_ c: ScanChain, _ ya: Double, _ yb: Double, rowTop: Double, sign: Double) {
        var k = c.cursor
        while k < c.end {
            let e = edges[k]
            if e.yTop >= yb { break }
            if e.yBottom > ya { deposit(e, from: max(ya, e.yTop), to: min(yb, e.yBottom), rowTop: rowTop, sign: sign) }
            k += 1
        }
    }

    /// Adds the signed area right of the edge between `ya` and `yb` (inside one row) to the
    /// accumulation cells; parts left of the area count wholly in its first column, parts right
    /// of it not at all.
    @inline(__always)
    mutating func deposit(_ e: ScanEdge, from ya: Double, to yb: Double, rowTop: Double, sign: Double) {
        // A slope of 10³⁰⁰ pixels a row overflows within the row: ends that far out are moved
        // to 10¹⁸ pixels out, which changes where the edge crosses the area by 10⁻¹⁵ of it.
        var xa = e.x(at: ya), xb = e.x(at: yb)
        if abs(xa) > Self.farOut { xa = xa < 0 ? -Self.farOut : Self.farOut }
        if abs(xb) > Self.farOut { xb = xb < 0 ? -Self.farOut : Self.farOut }
        var ta = ya - rowTop, tb = yb - rowTop
        let w = Double(width)
        if xa <= 0, xb <= 0 {
            acc[0] += sign * (tb - ta)
            mark(0, 0)
            return
        }
        if xa >= w, xb >= w { return }
        if xa < 0 || xb < 0 {
            let t = ta + (tb - ta) * (0 - xa) / (xb - xa)
            acc[0] += xa < 0 ? sign * (t - ta) : sign * (tb - t)
            mark(0, 0)
            if xa < 0 { ta = t; xa = 0 } else { tb = t; xb = 0 }
        }
        if xa > w || xb > w {
            let t = ta + (tb - ta) * (w - xa) / (xb - xa)
            if xa > w { ta = t; xa = w } else { tb = t; xb = w }
        }
        guard tb > ta else { return }
        accumulate(xa, ta, xb, tb, sign: sign)
    }

    /// Far enough outside any area that moving an edge's end there changes nothing visible.
    static let farOut = 1e18

    /// Notes that cells `a...b` received area.
    @inline(__always)
    mutating func mark(_ a: Int, _ b: Int) {
        let wa = a &>> 6, wb = b &>> 6
        if wa < firstWord { firstWord = wa }
        if wb > lastWord { lastWord = wb }
        let from = ~UInt64(0) &<< UInt64(a & 63), through = ~UInt64(0) &>> UInt64(63 - (b & 63))
        if wa == wb {
            touched[wa] |= from & through
            return
        }
        touched[wa] |= from
        var w = wa + 1
        while w < wb {
            touched[w] = ~0
            w += 1
        }
        touched[wb] |= through
    }

    /// font-rs's accumulation of a line inside one row (0 ≤ x ≤ width): cell i receives the
    /// change of coverage from column i − 1 to column i.
    @inline(__always)
    mutating func accumulate(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, sign: Double) {
        let d = sign * (yb - ya)
        let x0 = min(xa, xb), x1 = max(xa, xb)
        // Floor and ceiling by conversion (x is never negative here), not through libm.
        let x0i = Int(x0), x0floor = Double(x0i)
        var x1i = Int(x1)
        if Double(x1i) < x1 { x1i += 1 }
        let x1ceil = Double(x1i)
        if x1i <= x0i + 1 {
            let xmf = 0.5 * (xa + xb) - x0floor
            acc[x0i] += d - d * xmf
            acc[x0i + 1] += d * xmf
            mark(x0i, x0i + 1)
            return
        }
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
            let step = d * s
            var xi = x0i + 2
            while xi < x1i - 1 {
                acc[xi] += step
                xi += 1
            }
            let a2 = a1 + Double(x1i - x0i - 3) * s
            acc[x1i - 1] += d * (1 - a2 - am)
        }
        acc[x1i] += d * am
        mark(x0i, x1i)
    }

    // MARK: Output

    /// Hands the row's coverage to the sink, from the cells that received area, and clears
    /// them. Cells past the row's last pixel change nothing in it.
    @inline(__always)
    mutating func emitRow<Sink: CoverageSink>(rule: FillRule, into sink: inout Sink) {
        guard firstWord <= lastWord else { return }
        var sum = 0.0
        // The next pixel not yet reported.
        var x = 0
        for w in firstWord...lastWord {
            var bits = touched[w]
            guard bits != 0 else { continue }
            touched[w] = 0
            let base = w &<< 6
            repeat {
                let cell = base + bits.trailingZeroBitCount
                bits &= bits &- 1
                if cell > x, x < width {
                    let end = min(cell, width)
                    let level = Self.level(sum, rule)
                    if level != 0 { sink.run(x, count: end - x, level: level) }
                    x = end
                }
                sum += acc[cell]
                acc[cell] = 0
                guard cell < width else { continue }
                let level = Self.level(sum, rule)
                if level != 0 { sink.pixel(cell, level: level) }
                x = cell + 1
            } while bits != 0
        }
        if x < width {
            let level = Self.level(sum, rule)
            if level != 0 { sink.run(x, count: width - x, level: level) }
        }
        firstWord = .max
        lastWord = -1
    }

    /// 8-bit coverage for an accumulated sum. Under even-odd a sum above 1 folds back (2 → 0),
    /// as FreeType does; only the signed-area fallback makes one.
    @inline(__always)
    static func level(_ sum: Double, _ rule: FillRule) -> UInt8 {
        var c = abs(sum)
        if c > 1 {
            if rule == .evenOdd {
                c = c.truncatingRemainder(dividingBy: 2)
                if c > 1 { c = 2 - c }
            } else {
                c = 1
            }
        }
        // Rounded to the nearest integer by adding 1.5·2⁵², whose unit in the last place is 1,
        // so that the integer lands in the low bits: no range checks, no trap.
        return UInt8(truncatingIfNeeded: (c * 255 + roundingBias).bitPattern)
    }

    static let roundingBias = 6_755_399_441_055_744.0
}
