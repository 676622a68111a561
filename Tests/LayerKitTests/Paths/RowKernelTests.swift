import CKernels
import Foundation
import Testing
@testable import LayerKit

/// The sweep's kernel for whole rows (`lk_sweep_rows`, through `CoverageSink.sweepRows`) against
/// `RowSweep` handing the sink every row one by one (`usesRowKernel: false`): the same coverage
/// and the same pixels, byte for byte, on shapes whose rows take every way into the kernel and
/// out of it: rows it sweeps between rows it leaves to `RowSweep` (peaks and valleys, nested
/// peaks where a stroke's two sides meet at a star's tip, level edges, chains ending side by
/// side, crossing one another, rows whose chains change order), rows no chain crosses, and
/// areas whose shapes start above them and end below.
@Suite struct RowKernelTests {
    static let side = 64

    /// What `add` adds to a converter, rendered both ways: as coverage over a clear mask, and
    /// blended in a translucent color over pixels that are not clear.
    static func bothWays(rule: FillRule, width: Int = side, height: Int = side,
                         _ add: (ScanConverter) -> Void) -> (kernel: [UInt32], rows: [UInt32]) {
        ScanConverter.withConverter { converter in
            add(converter)
            let area = PixelRect(x: 0, y: 0, width: width, height: height)
            func render(kernel: Bool) -> [UInt32] {
                var mask = [UInt8](repeating: 0, count: width * height)
                mask.withUnsafeMutableBufferPointer {
                    var sink = CoverageOverSink($0.baseAddress!, stride: width)
                    converter.render(rule: rule, area: area, into: &sink, usesRowKernel: kernel)
                }
                // An opaque backdrop that is not clear (so that blending reads it), with a margin around
                // the area, which must stay as it is.
                let stride = width + 2
                var pixels = (0..<(stride * (height + 2))).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) | 0xFF00_0000 }
                var table = [UInt64](repeating: 0, count: ColorBlendSink.tableSize)
                pixels.withUnsafeMutableBufferPointer { p in
                    table.withUnsafeMutableBufferPointer { t in
                        var sink = ColorBlendSink(pixels: p.baseAddress!, pixelsPerRow: stride, x: 1, y: 1, color: 0xB0_60_30_90,
                                                  table: t.baseAddress!)
                        converter.render(rule: rule, area: area, into: &sink, usesRowKernel: kernel)
                    }
                }
                return mask.map { UInt32($0) } + pixels
            }
            return (render(kernel: true), render(kernel: false))
        }
    }

    static func star(center: CGPoint, radius: CGFloat, inner: CGFloat, points: Int, turn: CGFloat) -> Path {
        var path = Path()
        for i in 0..<(2 * points) {
            let r = i % 2 == 0 ? radius : radius * inner
            let angle = CGFloat(i) * .pi / CGFloat(points) - .pi / 2 + turn
            let p = CGPoint(x: center.x + r * cos(angle), y: center.y + r * sin(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }

    /// The first differing pixel, for the message.
    static func firstDifference(_ a: [UInt32], _ b: [UInt32], width: Int = side) -> String {
        guard let i = a.indices.first(where: { a[$0] != b[$0] }) else { return "none" }
        let mask = width * width
        return i < mask ? "coverage at \(i % width),\(i / width): \(a[i]) against \(b[i])"
            : "pixel \(i - mask): \(String(a[i], radix: 16)) against \(String(b[i], radix: 16))"
    }

    /// Stars filled and stroked with every join, turned and placed at random sub-pixel offsets:
    /// their tips are peaks and valleys, nested ones where the stroke's two sides meet.
    @Test(arguments: [LineJoin.round, .miter, .bevel])
    func starsFilledAndStrokedMatchRowByRow(_ join: LineJoin) {
        var generator = SplitMix64(seed: join == .round ? 11 : join == .miter ? 12 : 13)
        func unit() -> CGFloat { CGFloat(generator.next() % 1_000_000) / 1_000_000 }
        for round in 0..<60 {
            let center = CGPoint(x: 32 + 6 * unit() - 3, y: 32 + 6 * unit() - 3)
            let path = Self.star(center: center, radius: 14 + 14 * unit(), inner: 0.3 + 0.4 * unit(), points: 5 + round % 5,
                                 turn: 2 * .pi * unit())
            let style = StrokeStyle(lineWidth: [0.5, 2, 3.5, 9][round % 4], lineCap: .butt, lineJoin: join, miterLimit: 10)
            for rule in [FillRule.nonZero, .evenOdd] {
                let fill = Self.bothWays(rule: rule) { $0.addFill(path, transform: .identity) }
                let same = fill.kernel == fill.rows
                #expect(same, "\(join) round \(round) fill \(rule): \(Self.firstDifference(fill.kernel, fill.rows))")
            }
            let stroke = Self.bothWays(rule: .nonZero) { $0.addStroke(path, style: style, transform: .identity) }
            let same = stroke.kernel == stroke.rows
            #expect(same, "\(join) round \(round) stroke: \(Self.firstDifference(stroke.kernel, stroke.rows))")
        }
    }

    /// Random polygons, crossing themselves and one another, with level edges, points on whole
    /// and half pixels and spikes that come back on themselves: rows the kernel sweeps and rows
    /// with crossings it leaves to `RowSweep`.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func randomPolygonsMatchRowByRow(_ rule: FillRule) {
        var generator = SplitMix64(seed: rule == .nonZero ? 21 : 22)
        func coordinate() -> CGFloat {
            let u = CGFloat(generator.next() % 1_000_000) / 1_000_000 * CGFloat(Self.side + 8) - 4
            switch generator.next() % 8 {
            case 0: return u.rounded()
            case 1: return (u * 2).rounded() / 2
            default: return u
            }
        }
        for round in 0..<80 {
            let polygons = (0..<(1 + round % 3)).map { _ -> [CGPoint] in
                var polygon: [CGPoint] = []
                for k in 0..<(3 + round % 11) {
                    var p = CGPoint(x: coordinate(), y: coordinate())
                    if k > 0, generator.next() % 4 == 0 { p.y = polygon[k - 1].y }
                    if k > 1, generator.next() % 9 == 0 { p = polygon[k - 2] }
                    polygon.append(p)
                }
                return polygon
            }
            let result = Self.bothWays(rule: rule) { converter in
                for polygon in polygons { polygon.withUnsafeBufferPointer { converter.addPolygon($0) } }
            }
            let same = result.kernel == result.rows
            #expect(same, "\(rule) round \(round): \(Self.firstDifference(result.kernel, result.rows))")
        }
    }

    /// Peaks and valleys inside one row, nested ones, shapes ending side by side, touching at a
    /// vertex, a notch and a staircase of level edges.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func chainsBeginningAndEndingInsideRowsMatchRowByRow(_ rule: FillRule) {
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
        let cases: [[[CGPoint]]] = [
            [[p(10.3, 4.2), p(30.7, 40.6), p(2.1, 40.9)]],                                                   // peak
            [[p(10.3, 4.2), p(30.7, 40.6), p(2.1, 40.9)], [p(10.4, 8.7), p(5.2, 30.1), p(24.6, 30.4)]],      // nested
            [[p(20, 4.25), p(40, 40.75), p(0, 40.75)], [p(20, 4.5), p(4, 36.5), p(36, 36.5)]],               // nested tips
            [[p(2, 2.5), p(40, 2.5), p(21, 30.5)], [p(10, 4.5), p(30, 4.5), p(21, 20.5)]],                   // nested valleys
            [[p(2, 2.3), p(16, 20.7), p(1, 20.7)], [p(18, 1.3), p(32, 20.7), p(17.5, 20.7)]],               // bottoms aligned
            [[p(3, 3.5), p(19, 19.5), p(3, 19.5)], [p(19, 19.5), p(35, 3.5), p(35, 35.5)]],                 // touching
            [[p(2, 2.25), p(40, 2.25), p(40, 19.6), p(28, 19.6), p(28, 10.4), p(14, 10.4), p(14, 19.6), p(2, 19.6)]],
            [[p(1, 1.2), p(9, 1.2), p(9, 9.7), p(19, 9.7), p(19, 18.4), p(29, 18.4), p(29, 30.9), p(1, 30.9)]],
            [[p(1, 15.5), p(11, 1.5), p(21, 15.5), p(31, 1.5), p(41, 15.5), p(41, 29.5), p(1, 29.5)]],      // zigzag
            [[p(4, 4.6), p(60, 5.1), p(8, 5.4), p(58, 6.2), p(6, 6.9), p(50, 40)]],                         // shallow overlaps
        ]
        for (i, polygons) in cases.enumerated() {
            let result = Self.bothWays(rule: rule) { converter in
                for polygon in polygons { polygon.withUnsafeBufferPointer { converter.addPolygon($0) } }
            }
            let same = result.kernel == result.rows
            #expect(same, "\(rule) case \(i): \(Self.firstDifference(result.kernel, result.rows))")
        }
    }

    /// Arguments `lk_sweep_rows` cannot sweep are refused, changing nothing: null pointers, a
    /// target with neither pixels nor mask, counts out of range, and cells that are not empty.
    @Test func badArgumentsAreRefusedAndChangeNothing() {
        /// Buffers of exactly these elements, freed at the end of the test.
        final class Buffers {
            var all: [UnsafeMutableRawPointer] = []
            func make<T>(_ values: [T]) -> UnsafeMutablePointer<T> {
                let p = UnsafeMutablePointer<T>.allocate(capacity: values.count)
                p.initialize(from: values, count: values.count)
                all.append(UnsafeMutableRawPointer(p))
                return p
            }
            deinit { for p in all { p.deallocate() } }
        }
        let buffers = Buffers()
        let edges = buffers.make([ScanEdge(yTop: 0.5, yBottom: 3.5, xTop: 1.5, slope: 0.25),
                                  ScanEdge(yTop: 0.5, yBottom: 3.5, xTop: 6.5, slope: -0.25)])
        let chains = buffers.make([ScanChain(first: 0, end: 1, cursor: 0, yTop: 0.5, yBottom: 3.5, direction: 1),
                                   ScanChain(first: 1, end: 2, cursor: 1, yTop: 0.5, yBottom: 3.5, direction: -1)])
        let pixels = buffers.make([UInt32](repeating: 0, count: 8 * 4))
        let good = lk_sweep(edges: edges, chains: chains, order: buffers.make([Int32(0), 1]), active: buffers.make([Int32(-1), -1]),
                            pieces: buffers.make([lk_chain_piece(), lk_chain_piece()]), edge_count: 2, chain_count: 2, next: 0,
                            active_count: 0, maximum_chains: 256)
        var row = lk_cell_row(cells: buffers.make([Double](repeating: 0, count: 10)), touched: buffers.make([UInt64(0)]), width: 8,
                              first_word: .max, last_word: -1)
        let table = buffers.make([UInt64](repeating: 0, count: ColorBlendSink.tableSize))
        #expect(lk_blend_table_fill(table, 0xFF80_4020, LK_VARIANT_AUTO) == LK_OK)
        let target = lk_sweep_target(pixels: pixels, pixels_per_row: 8, color: 0xFF80_4020, table: table, mask: nil,
                                     mask_stride: 0)
        func sweep(_ sweep: lk_sweep, _ target: lk_sweep_target) -> (result: Int32, index: Int64, sweep: lk_sweep) {
            var sweep = sweep
            var index: Int64 = 0
            let result = withUnsafePointer(to: target) { lk_sweep_rows(&sweep, &row, 0, &index, 4, $0) }
            return (result, index, sweep)
        }
        func refused(_ what: String, _ s: lk_sweep, _ t: lk_sweep_target) {
            let (result, index, after) = sweep(s, t)
            #expect(result == -1, "\(what)")
            #expect(index == 0 && after.next == s.next && after.active_count == s.active_count, "\(what) moved the sweep")
        }
        var t = target
        t.pixels = nil
        refused("a target with neither pixels nor mask", good, t)
        t = target
        t.table = nil
        refused("pixels without a table", good, t)
        t = target
        t.table = buffers.make([UInt64](repeating: 0, count: ColorBlendSink.tableSize))
        refused("a table not filled", good, t)
        t = target
        t.color = 0xFF00_0000
        refused("a table of another color", good, t)
        var s = good
        s.edges = nil
        refused("null edges", s, target)
        s = good
        s.next = 3
        refused("next beyond the chains", s, target)
        s = good
        s.active_count = 1
        refused("more active chains than admitted", s, target)
        s = good
        s.maximum_chains = -1
        refused("a negative maximum", s, target)
        row.width = -1
        refused("a negative width", good, target)
        row.width = 8
        (row.first_word, row.last_word) = (0, 0)
        refused("cells that are not empty", good, target)
        (row.first_word, row.last_word) = (.max, -1)
        // Made whole, the same arguments sweep: the kernel stops at row 0, where the shape's
        // chains begin, having admitted them.
        let (result, index, after) = sweep(good, target)
        #expect(result == 1 && index == 0 && after.next == 2 && after.active_count == 2)
        #expect(UnsafeBufferPointer(start: pixels, count: 8 * 4).allSatisfy { $0 == 0 }, "nothing was blended")
    }
}
