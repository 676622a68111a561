import CKernels
import Foundation
import Testing
@testable import LayerKit

/// The scan converter's cell-row kernels (`lk_cell_row_add_chains`, `lk_cell_row_levels`,
/// `lk_cell_row_add_bounds`, `lk_cell_row_blend`, `lk_cell_row_cover`) against the Swift code they replaced, kept here as their definition:
/// the same cells, bits, levels and pixels, bit for bit. Buffers are allocated to their exact
/// sizes, so that AddressSanitizer (scripts/asan-kernels) sees any access past them.
@Suite struct CellRowKernelTests {
    /// The sweep's cells as RowSweep kept them in Swift: font-rs's accumulation, a bit per cell,
    /// and the row read out to a sink as runs and single pixels.
    struct Reference {
        var acc: [Double]
        var touched: [UInt64]
        var firstWord = Int.max, lastWord = -1
        let width: Int

        init(width: Int) {
            self.width = width
            acc = [Double](repeating: 0, count: width + 2)
            touched = [UInt64](repeating: 0, count: (width + 2 + 63) / 64)
        }

        mutating func depositChain(_ edges: [ScanEdge], _ range: Range<Int>, _ ya: Double, _ yb: Double, rowTop: Double,
                                   sign: Double) {
            for k in range {
                let e = edges[k]
                if e.yTop >= yb { break }
                if e.yBottom > ya { deposit(e, from: max(ya, e.yTop), to: min(yb, e.yBottom), rowTop: rowTop, sign: sign) }
            }
        }

        mutating func deposit(_ e: ScanEdge, from ya: Double, to yb: Double, rowTop: Double, sign: Double) {
            let farOut = 1e18
            var xa = e.x(at: ya), xb = e.x(at: yb)
            if abs(xa) > farOut { xa = xa < 0 ? -farOut : farOut }
            if abs(xb) > farOut { xb = xb < 0 ? -farOut : farOut }
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

        mutating func mark(_ a: Int, _ b: Int) {
            let wa = a >> 6, wb = b >> 6
            firstWord = min(firstWord, wa)
            lastWord = max(lastWord, wb)
            for cell in a...b { touched[cell >> 6] |= 1 << UInt64(cell & 63) }
        }

        mutating func accumulate(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, sign: Double) {
            let d = sign * (yb - ya)
            let x0 = min(xa, xb), x1 = max(xa, xb)
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

        /// Hands the row to the sink as runs and single pixels, and clears it.
        mutating func emitRow<Sink: CoverageSink>(rule: FillRule, into sink: inout Sink) {
            guard firstWord <= lastWord else { return }
            var sum = 0.0
            var x = 0
            for w in firstWord...lastWord {
                var bits = touched[w]
                guard bits != 0 else { continue }
                touched[w] = 0
                repeat {
                    let cell = w * 64 + bits.trailingZeroBitCount
                    bits &= bits - 1
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
            return UInt8(truncatingIfNeeded: (c * 255 + 6_755_399_441_055_744.0).bitPattern)
        }
    }

    /// A kernel's row: cells and bits in allocations of exactly their sizes.
    final class Row {
        let width: Int
        let cells: UnsafeMutablePointer<Double>
        let touched: UnsafeMutablePointer<UInt64>
        var row: lk_cell_row

        init(width: Int) {
            self.width = width
            cells = .allocate(capacity: width + 2)
            cells.initialize(repeating: 0, count: width + 2)
            touched = .allocate(capacity: (width + 65) / 64)
            touched.initialize(repeating: 0, count: (width + 65) / 64)
            row = lk_cell_row(cells: cells, touched: touched, width: Int64(width), first_word: .max, last_word: -1)
        }

        deinit {
            cells.deallocate()
            touched.deallocate()
        }

        /// Adds `values` to their cells, marking them, as deposits do.
        func add(_ values: [(Int, Double)]) {
            for (cell, value) in values {
                cells[cell] += value
                touched[cell >> 6] |= 1 << UInt64(cell & 63)
                row.first_word = min(row.first_word, Int64(cell >> 6))
                row.last_word = max(row.last_word, Int64(cell >> 6))
            }
        }

        /// Whether the cells, bits and word range are the reference's, bit for bit.
        func equals(_ r: Reference) -> Bool {
            for i in 0..<(width + 2) where cells[i].bitPattern != r.acc[i].bitPattern { return false }
            for i in 0..<((width + 65) / 64) where touched[i] != r.touched[i] { return false }
            guard r.firstWord <= r.lastWord else { return row.first_word > row.last_word }
            return row.first_word == Int64(r.firstWord) && row.last_word == Int64(r.lastWord)
        }
    }

    /// A random x: mostly inside the row, sometimes on its ends, outside it, or absurdly far.
    static func x(_ width: Int, _ g: inout SeededGenerator) -> Double {
        let w = Double(width)
        switch Int.random(in: 0..<16, using: &g) {
        case 0: return 0
        case 1: return w
        case 2: return -Double.random(in: 0...20, using: &g)
        case 3: return w + Double.random(in: 0...20, using: &g)
        case 4: return Double(Int.random(in: 0...width, using: &g))
        case 5: return Bool.random(using: &g) ? 1e300 : -1e300
        default: return Double.random(in: 0...w, using: &g)
        }
    }

    /// A monotone chain of 1 to 6 edges from `y0` to `y1` (device rows), top to bottom.
    static func chain(_ width: Int, from y0: Double, to y1: Double, _ g: inout SeededGenerator) -> [ScanEdge] {
        var ys = [y0, y1] + (0..<Int.random(in: 0...5, using: &g)).map { _ in Double.random(in: y0...y1, using: &g) }
        ys.sort()
        var edges: [ScanEdge] = []
        var x = Self.x(width, &g)
        for k in 0..<(ys.count - 1) where ys[k + 1] > ys[k] {
            let next = Int.random(in: 0..<5, using: &g) == 0 ? x : Self.x(width, &g)
            let slope = (next - x) / (ys[k + 1] - ys[k])
            guard slope.isFinite else { continue }
            edges.append(ScanEdge(yTop: ys[k], yBottom: ys[k + 1], xTop: x, slope: slope))
            x = next
        }
        return edges
    }

    /// Random chains deposited over random bands of a row, in both directions, with the cells
    /// compared after every band: the kernel's cells, bits and word range are the Swift code's.
    @Test func addedChainsEqualTheSwiftDefinition() {
        var g = SeededGenerator(seed: 1515)
        var deposits = 0
        for trial in 0..<400 {
            let width = [1, 2, 3, 7, 63, 64, 65, 130, 300][trial % 9]
            let kernel = Row(width: width)
            var reference = Reference(width: width)
            let rowTop = Double(Int.random(in: 0...50, using: &g))
            for _ in 0..<Int.random(in: 1...6, using: &g) {
                let chains = (0..<Int.random(in: 1...4, using: &g)).map { _ in
                    Self.chain(width, from: rowTop - Double.random(in: 0...2, using: &g),
                               to: rowTop + 1 + Double.random(in: 0...2, using: &g), &g)
                }
                var a = Double.random(in: rowTop...(rowTop + 1), using: &g), b = Double.random(in: rowTop...(rowTop + 1), using: &g)
                if Bool.random(using: &g) { (a, b) = (rowTop, rowTop + 1) }
                let (ya, yb) = (min(a, b), max(a, b))
                let edges = chains.flatMap { $0 }
                var pieces: [lk_chain_piece] = []
                var first = 0
                for c in chains {
                    let sign: Double = Bool.random(using: &g) ? 1 : -1
                    pieces.append(lk_chain_piece(first: Int64(first), end: Int64(first + c.count), sign: sign))
                    reference.depositChain(edges, first..<(first + c.count), ya, yb, rowTop: rowTop, sign: sign)
                    first += c.count
                }
                let status = Self.withExact(edges) { e in
                    Self.withExact(pieces) { p in
                        lk_cell_row_add_chains(&kernel.row, e, p, Int32(pieces.count), ya, yb, rowTop)
                    }
                }
                #expect(status == LK_OK)
                deposits += edges.count
                guard kernel.equals(reference) else {
                    Issue.record("trial \(trial): width \(width), band \(ya)…\(yb) of row \(rowTop): the cells differ")
                    return
                }
            }
        }
        #expect(deposits > 3000)
    }

    /// Random chains across a band, in lanes of x that keep them apart or let them meet, in
    /// order or shuffled: where RowSweep's measure finds them sorted and apart (its sort keeps
    /// them, no crossing check runs), `lk_cell_row_add_bounds` adds what its `depositBounds`
    /// adds, bit for bit; where they may meet, it adds nothing and says so.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func boundsInOrderEqualTheSwiftSweep(rule: FillRule) {
        var g = SeededGenerator(seed: rule == .nonZero ? 51 : 52)
        var taken = 0, refused = 0
        for trial in 0..<600 {
            let width = Int.random(in: 8...120, using: &g)
            let rowTop = Double(Int.random(in: 0...20, using: &g))
            let (ya, yb) = Bool.random(using: &g) ? (rowTop, rowTop + 1)
                : (rowTop + Double.random(in: 0...0.4, using: &g), rowTop + Double.random(in: 0.6...1, using: &g))
            let count = Int.random(in: 1...6, using: &g)
            let lane = Double(width) / Double(count)
            let touching = Int.random(in: 0..<4, using: &g) == 0
            var edges: [ScanEdge] = []
            var pieces: [lk_chain_piece] = []
            for j in 0..<count {
                // A chain in lane j (or anywhere, to meet its neighbours), from above the band to below it.
                let lo = touching ? -3 : Double(j) * lane - 2, hi = touching ? Double(width) + 3 : Double(j + 1) * lane - 2
                var ys = [ya - Double.random(in: 0...1, using: &g), yb + Double.random(in: 0...1, using: &g)]
                ys += (0..<Int.random(in: 0...3, using: &g)).map { _ in Double.random(in: ys[0]...ys[1], using: &g) }
                ys.sort()
                let first = edges.count
                var x = Double.random(in: lo...hi, using: &g)
                for k in 0..<(ys.count - 1) where ys[k + 1] > ys[k] {
                    let next = Double.random(in: lo...hi, using: &g)
                    edges.append(ScanEdge(yTop: ys[k], yBottom: ys[k + 1], xTop: x, slope: (next - x) / (ys[k + 1] - ys[k])))
                    x = next
                }
                // Start at the first edge that reaches into the band, as a chain's cursor does.
                var cursor = first
                while edges[cursor].yBottom <= ya { cursor += 1 }
                pieces.append(lk_chain_piece(first: Int64(cursor), end: Int64(edges.count), sign: Bool.random(using: &g) ? 1 : -1))
            }
            if Int.random(in: 0..<5, using: &g) == 0 { pieces.shuffle(using: &g) }
            // RowSweep's measure: the least and greatest x, and x at the middle (the sort key).
            let measured = pieces.map { p -> (low: Double, high: Double, key: Double) in
                let mid = (ya + yb) / 2
                var k = Int(p.first)
                while edges[k].yBottom <= ya { k += 1 }
                var e = edges[k]
                let x0 = e.x(at: ya)
                var low = x0, high = x0, key = x0
                while true {
                    let y = min(e.yBottom, yb)
                    let x = e.x(at: y)
                    low = min(low, x)
                    high = max(high, x)
                    if e.yTop <= mid, mid <= y { key = e.x(at: mid) }
                    if y >= yb { break }
                    k += 1
                    e = edges[k]
                }
                return (low, high, key)
            }
            let kernel = Row(width: width)
            let result = Self.withExact(edges) { e in
                Self.withExact(pieces) { p in
                    lk_cell_row_add_bounds(&kernel.row, e, p, Int32(count), rule == .evenOdd ? 1 : 0, ya, yb, rowTop)
                }
            }
            guard result == 1 else {
                #expect(result == 0)
                #expect(kernel.equals(Reference(width: width)), "trial \(trial): refused, the row stays empty")
                refused += 1
                continue
            }
            taken += 1
            // Taken: the sweep's sort would keep the order, and it would find no overlap.
            for j in 0..<(count - 1) {
                #expect(measured[j].key <= measured[j + 1].key && measured[j].high <= measured[j + 1].low + RowSweep.slack,
                        "trial \(trial): chains \(j) and \(j + 1) were taken in order and apart")
            }
            // depositBounds: each chain where the inside begins or ends adds its area, in order.
            var reference = Reference(width: width)
            var winding = 0.0, inside = false
            for p in pieces {
                let wasInside = inside
                if rule == .nonZero { winding += p.sign; inside = winding != 0 } else { inside.toggle() }
                if inside != wasInside {
                    reference.depositChain(edges, Int(p.first)..<Int(p.end), ya, yb, rowTop: rowTop, sign: inside ? 1 : -1)
                }
            }
            guard kernel.equals(reference) else {
                Issue.record("trial \(trial): width \(width), \(count) chains over \(ya)…\(yb): the cells differ")
                return
            }
        }
        #expect(taken > 200 && refused > 100, "taken \(taken), refused \(refused)")
    }

    /// Random cells (sparse and dense, sums beyond 1 and below −1) read out: the kernel's levels,
    /// span and tail are the coverage the Swift code reported, and the cells are cleared.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func levelsEqualTheSwiftDefinition(rule: FillRule) {
        var g = SeededGenerator(seed: rule == .nonZero ? 21 : 22)
        for trial in 0..<500 {
            let width = Int.random(in: 1...200, using: &g)
            let kernel = Row(width: width)
            var reference = Reference(width: width)
            let cells = Self.randomCells(width: width, &g)
            kernel.add(cells)
            for (cell, value) in cells { reference.acc[cell] += value; reference.mark(cell, cell) }
            // What the Swift code reported, as a row of coverage.
            var expected = [UInt8](repeating: 0, count: width)
            expected.withUnsafeMutableBufferPointer { buffer in
                var sink = MaskSink(buffer.baseAddress!, stride: width, width: width)
                sink.beginRow(0)
                reference.emitRow(rule: rule, into: &sink)
            }
            let levels = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
            defer { levels.deallocate() }
            levels.initialize(repeating: 77, count: width)
            var span = lk_level_span()
            #expect(lk_cell_row_levels(&kernel.row, rule == .evenOdd ? 1 : 0, levels, &span) == LK_OK)
            var got = [UInt8](repeating: 0, count: width)
            for x in Int(span.lo)..<Int(span.hi) { got[x] = levels[x] }
            for x in Int(span.hi)..<width { got[x] = span.tail }
            guard got == expected else {
                let x = got.indices.first { got[$0] != expected[$0] }!
                Issue.record("trial \(trial): width \(width), pixel \(x) is \(got[x]), not \(expected[x])")
                return
            }
            #expect(kernel.equals(Reference(width: width)), "the cells and bits are cleared")
        }
    }

    /// Random cells blended over random rows of premultiplied pixels (often clear, as a fresh
    /// store is) in opaque, translucent and clear colors: the kernel's pixels are those the
    /// Swift sink (`ColorBlendSink.run` and `pixel`, checked against pixman in
    /// ColorBlendSinkTests) wrote, and the cells are cleared.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func blendedRowsEqualColorBlendSink(rule: FillRule) {
        var g = SeededGenerator(seed: rule == .nonZero ? 31 : 32)
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: ColorBlendSink.tableSize)
        let kernelTable = UnsafeMutablePointer<UInt64>.allocate(capacity: ColorBlendSink.tableSize)
        defer { table.deallocate(); kernelTable.deallocate() }
        for trial in 0..<500 {
            let width = Int.random(in: 1...200, using: &g)
            var color = KernelFixtures.pixel(&g)
            if trial % 4 == 0 { color |= 0xFF00_0000 }
            let clear = Bool.random(using: &g)
            let before = (0..<width).map { _ in clear && Int.random(in: 0..<4, using: &g) > 0 ? 0 : KernelFixtures.pixel(&g) }
            // Two rows through one table, as a fill's rows share it.
            let rows = (0..<2).map { _ in Self.randomCells(width: width, &g) }
            var reference = Reference(width: width)
            var expected = before
            for cells in rows {
                for (cell, value) in cells { reference.acc[cell] += value; reference.mark(cell, cell) }
                expected.withUnsafeMutableBufferPointer { buffer in
                    var sink = ColorBlendSink(pixels: buffer.baseAddress!, pixelsPerRow: width, x: 0, y: 0, color: color, table: table)
                    sink.beginRow(0)
                    reference.emitRow(rule: rule, into: &sink)
                }
            }
            let kernel = Row(width: width)
            let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
            defer { pixels.deallocate() }
            pixels.initialize(from: before, count: width)
            _ = lk_blend_table_fill(kernelTable, color, LK_VARIANT_AUTO)
            for cells in rows {
                kernel.add(cells)
                #expect(lk_cell_row_blend(&kernel.row, rule == .evenOdd ? 1 : 0, pixels, color, kernelTable) == LK_OK)
            }
            let got = Array(UnsafeBufferPointer(start: pixels, count: width))
            guard got == expected else {
                let x = got.indices.first { got[$0] != expected[$0] }!
                let (ours, theirs) = (String(got[x], radix: 16), String(expected[x], radix: 16))
                Issue.record("trial \(trial): width \(width), color \(String(color, radix: 16)), pixel \(x) is \(ours), not \(theirs)")
                return
            }
            #expect(kernel.equals(Reference(width: width)), "the cells and bits are cleared")
        }
    }

    /// Every level over every destination byte, as single pixels and in runs of one to nine
    /// pixels (the blend's four-pixel steps and its two- and one-pixel ends): a row whose cells
    /// step the coverage from level to level, blended over pixels whose channels all hold one
    /// byte, in colors opaque, translucent (the path-shapes scene's 0.85) and clear; the
    /// kernel's pixels are those the Swift sink wrote.
    @Test func everyLevelOverEveryByteEqualsColorBlendSink() {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: ColorBlendSink.tableSize)
        let kernelTable = UnsafeMutablePointer<UInt64>.allocate(capacity: ColorBlendSink.tableSize)
        defer { table.deallocate(); kernelTable.deallocate() }
        // Cells: level k at cell `at[k]`; the cells between two marked ones are a run.
        var values: [(Int, Double)] = []
        var at = 0, previous = 0.0
        for level in 0...255 {
            let sum = Double(level) / 255
            values.append((at, sum - previous))
            previous = sum
            at += 1 + level % 10
        }
        values.append((at, -previous))
        let width = at + 1
        for color: UInt32 in [0xFFD0_4020, 0xD980_2A10, 0x0000_0000, 0x7F7F_7F7F] {
            var mismatches = 0
            for byte: UInt32 in 0...255 {
                let before = [UInt32](repeating: byte &* 0x0101_0101, count: width)
                var reference = Reference(width: width)
                for (cell, value) in values { reference.acc[cell] += value; reference.mark(cell, cell) }
                var expected = before
                expected.withUnsafeMutableBufferPointer { buffer in
                    var sink = ColorBlendSink(pixels: buffer.baseAddress!, pixelsPerRow: width, x: 0, y: 0, color: color, table: table)
                    sink.beginRow(0)
                    reference.emitRow(rule: .nonZero, into: &sink)
                }
                let kernel = Row(width: width)
                kernel.add(values)
                var got = before
                _ = lk_blend_table_fill(kernelTable, color, LK_VARIANT_AUTO)
                #expect(lk_cell_row_blend(&kernel.row, 0, &got, color, kernelTable) == LK_OK)
                if got != expected { mismatches += 1 }
            }
            #expect(mismatches == 0, "color \(String(color, radix: 16)): \(mismatches) of 256 destination bytes differ")
        }
    }

    /// Random cells added into random mask rows (often clear, as a fresh mask is): the kernel's
    /// bytes are those the Swift sink (`CoverageOverSink.run` and `pixel`) wrote.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func coveredRowsEqualCoverageOverSink(rule: FillRule) {
        var g = SeededGenerator(seed: rule == .nonZero ? 41 : 42)
        var runs = 0
        for trial in 0..<500 {
            let width = Int.random(in: 1...200, using: &g)
            let clear = Bool.random(using: &g)
            let before = (0..<width).map { _ in
                clear && Int.random(in: 0..<4, using: &g) > 0 ? 0 : Int.random(in: 0..<3, using: &g) == 0 ? 255 : UInt8.random(in: 0...255, using: &g)
            }
            let rows = (0..<2).map { _ in Self.randomCells(width: width, &g) }
            var reference = Reference(width: width)
            var expected = before
            for cells in rows {
                for (cell, value) in cells { reference.acc[cell] += value; reference.mark(cell, cell) }
                expected.withUnsafeMutableBufferPointer { buffer in
                    var sink = CoverageOverSink(buffer.baseAddress!, stride: width)
                    sink.beginRow(0)
                    reference.emitRow(rule: rule, into: &sink)
                }
                if cells.count < width / 4 { runs += 1 }
            }
            let kernel = Row(width: width)
            let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
            defer { mask.deallocate() }
            mask.initialize(from: before, count: width)
            for cells in rows {
                kernel.add(cells)
                #expect(lk_cell_row_cover(&kernel.row, rule == .evenOdd ? 1 : 0, mask) == LK_OK)
            }
            let got = Array(UnsafeBufferPointer(start: mask, count: width))
            guard got == expected else {
                let x = got.indices.first { got[$0] != expected[$0] }!
                Issue.record("trial \(trial): width \(width), byte \(x) is \(got[x]), not \(expected[x])")
                return
            }
            #expect(kernel.equals(Reference(width: width)), "the cells and bits are cleared")
        }
        #expect(runs > 200, "too few rows with long runs between their cells")
    }

    @Test func badArgumentsAreRefusedAndChangeNothing() {
        let kernel = Row(width: 10)
        let edge = [ScanEdge(yTop: 0, yBottom: 1, xTop: 2, slope: 3)]
        let piece = [lk_chain_piece(first: 0, end: 1, sign: 1)]
        var levels = [UInt8](repeating: 0, count: 10)
        var span = lk_level_span()
        var pixels = [UInt32](repeating: 5, count: 10)
        var table = [UInt64](repeating: 0, count: ColorBlendSink.tableSize)
        var bad = kernel.row
        for change in 0..<5 {
            bad = kernel.row
            switch change {
            case 0: bad.cells = nil
            case 1: bad.touched = nil
            case 2: bad.width = -1
            case 3: bad.width = Int64(LK_MAX_CELL_ROW) + 1
            default: bad.first_word = 0; bad.last_word = 1  // a row of 10 cells has one word
            }
            #expect(lk_cell_row_add_chains(&bad, edge, piece, 1, 0, 1, 0) == LK_INVALID)
            #expect(lk_cell_row_levels(&bad, 0, &levels, &span) == LK_INVALID)
            #expect(lk_cell_row_blend(&bad, 0, &pixels, 0xFF00_0000, &table) == LK_INVALID)
            #expect(lk_cell_row_cover(&bad, 0, &levels) == LK_INVALID)
            #expect(lk_cell_row_add_bounds(&bad, edge, piece, 1, 0, 0, 1, 0) == -1)
        }
        #expect(lk_cell_row_add_bounds(&kernel.row, edge, [lk_chain_piece(first: 1, end: 0, sign: 1)], 1, 0, 0, 1, 0) == -1)
        #expect(lk_cell_row_add_bounds(&kernel.row, edge, piece, 1, 0, -0.5, 1, 0) == -1, "a band above the row")
        #expect(lk_cell_row_add_bounds(&kernel.row, nil, piece, 1, 0, 0, 1, 0) == -1)
        #expect(lk_cell_row_add_chains(&kernel.row, edge, [lk_chain_piece(first: 1, end: 0, sign: 1)], 1, 0, 1, 0) == LK_INVALID)
        #expect(lk_cell_row_add_chains(&kernel.row, edge, [lk_chain_piece(first: -1, end: 1, sign: 1)], 1, 0, 1, 0) == LK_INVALID)
        #expect(lk_cell_row_add_chains(&kernel.row, edge, piece, 1, -0.5, 1, 0) == LK_INVALID, "a band above the row")
        #expect(lk_cell_row_add_chains(&kernel.row, edge, piece, 1, 0, 1.5, 0) == LK_INVALID, "a band below the row")
        #expect(lk_cell_row_add_chains(&kernel.row, nil, piece, 1, 0, 1, 0) == LK_INVALID)
        #expect(lk_cell_row_add_chains(&kernel.row, edge, nil, 1, 0, 1, 0) == LK_INVALID)
        #expect(lk_cell_row_add_chains(&kernel.row, edge, piece, -1, 0, 1, 0) == LK_INVALID)
        #expect(lk_cell_row_levels(&kernel.row, 0, nil, &span) == LK_INVALID)
        #expect(lk_cell_row_levels(&kernel.row, 0, &levels, nil) == LK_INVALID)
        #expect(lk_cell_row_blend(&kernel.row, 0, nil, 0xFF00_0000, &table) == LK_INVALID)
        #expect(lk_cell_row_blend(&kernel.row, 0, &pixels, 0xFF00_0000, nil) == LK_INVALID)
        #expect(lk_cell_row_blend(&kernel.row, 0, &pixels, 0xFF00_0000, &table) == LK_INVALID, "a table not filled")
        #expect(lk_blend_table_fill(&table, 0xFF00_0000, LK_VARIANT_AUTO) == LK_OK)
        #expect(lk_cell_row_blend(&kernel.row, 0, &pixels, 0xFF80_4020, &table) == LK_INVALID, "a table of another color")
        #expect(lk_cell_row_blend(&kernel.row, 0, &pixels, 0xFF00_0000, &table) == LK_OK, "its own color's table")
        #expect(lk_cell_row_cover(&kernel.row, 0, nil) == LK_INVALID)
        #expect(kernel.equals(Reference(width: 10)), "nothing was added")
        #expect(pixels.allSatisfy { $0 == 5 })
        // An edge whose x is not a number adds nothing, and says so; the others add theirs.
        let nan = [ScanEdge(yTop: 0, yBottom: 1, xTop: .nan, slope: 0), ScanEdge(yTop: 1, yBottom: 2, xTop: 3, slope: 0)]
        #expect(lk_cell_row_add_chains(&kernel.row, nan, [lk_chain_piece(first: 0, end: 1, sign: 1)], 1, 0, 1, 0) == LK_INVALID)
        #expect(kernel.equals(Reference(width: 10)))
        #expect(lk_cell_row_add_chains(&kernel.row, nan, [lk_chain_piece(first: 1, end: 2, sign: 1)], 1, 1, 2, 1) == LK_OK)
        #expect(lk_cell_row_levels(&kernel.row, 0, &levels, &span) == LK_OK)
        #expect(span.lo == 3 && span.hi == 5 && span.tail == 255 && levels[3] == 255 && levels[4] == 255, "full coverage right of x = 3")
        // The in-order path only starts from an empty row.
        #expect(lk_cell_row_add_chains(&kernel.row, edge, piece, 1, 0, 1, 0) == LK_OK)
        #expect(lk_cell_row_add_bounds(&kernel.row, edge, piece, 1, 0, 0, 1, 0) == -1, "a row with area in it")
    }

    // MARK: Helpers

    /// Random areas in random cells, as deposits leave them: a few cells or many, values small
    /// and large (sums past ±1 and back), some beyond the last pixel.
    static func randomCells(width: Int, _ g: inout SeededGenerator) -> [(Int, Double)] {
        let count = Int.random(in: 0...(Bool.random(using: &g) ? 4 : 2 * width), using: &g)
        return (0..<count).map { _ in
            let cell = Int.random(in: 0...(width + 1), using: &g)
            let value: Double = switch Int.random(in: 0..<4, using: &g) {
            case 0: Bool.random(using: &g) ? 1 : -1
            case 1: Double.random(in: -3...3, using: &g)
            default: Double.random(in: -0.5...0.5, using: &g)
            }
            return (cell, value)
        }
    }

    /// Runs `body` with a copy of `values` in an allocation of exactly their count.
    static func withExact<T, R>(_ values: [T], _ body: (UnsafePointer<T>) -> R) -> R {
        let p = UnsafeMutablePointer<T>.allocate(capacity: max(values.count, 1))
        defer { p.deallocate() }
        p.initialize(from: values, count: values.count)
        return body(p)
    }
}
