import Foundation
import Testing
@testable import LayerKit

/// The row sweep against the exact-area oracle on random polygons: self-intersecting, under
/// either rule, tiny and huge, with level edges and with vertices exactly on pixel lines.
@Suite struct RowSweepTests {
    static let side = 24

    func render(_ polygons: [[CGPoint]], rule: FillRule, width: Int = side, height: Int = side) -> [UInt8] {
        ScanConverter.coverage(of: polygons, rule: rule, width: width, height: height)
    }

    /// The largest difference in 8-bit levels, and where.
    func worst(_ ours: [UInt8], _ reference: [Double], width: Int = side) -> (levels: Double, x: Int, y: Int) {
        var result = (levels: 0.0, x: 0, y: 0)
        for (i, (a, b)) in zip(ours, reference).enumerated() where abs(Double(a) - b * 255) > result.levels {
            result = (abs(Double(a) - b * 255), i % width, i / width)
        }
        return result
    }

    /// A coordinate in 0...size, a quarter of them on whole or half pixels.
    func coordinate(_ size: CGFloat, _ generator: inout SplitMix64) -> CGFloat {
        let u = CGFloat(generator.next() % 1_000_000) / 1_000_000 * size
        switch generator.next() % 8 {
        case 0: return u.rounded()
        case 1: return (u * 2).rounded() / 2
        default: return u
        }
    }

    /// Random polygons whose points repeat a y now and then (level edges), some points reused
    /// (spikes that come back on themselves).
    func randomPolygons(_ count: Int, points: Int, size: CGFloat, offset: CGPoint = .zero,
                        _ generator: inout SplitMix64) -> [[CGPoint]] {
        (0..<count).map { _ in
            var polygon: [CGPoint] = []
            for k in 0..<points {
                var p = CGPoint(x: coordinate(size, &generator), y: coordinate(size, &generator))
                if k > 0, generator.next() % 5 == 0 { p.y = polygon[k - 1].y }
                if k > 1, generator.next() % 11 == 0 { p = polygon[k - 2] }
                polygon.append(CGPoint(x: p.x + offset.x, y: p.y + offset.y))
            }
            return polygon
        }
    }

    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func randomSelfIntersectingPolygonsMatchTheOracle(_ rule: FillRule) {
        var generator = SplitMix64(seed: rule == .nonZero ? 101 : 202)
        for round in 0..<40 {
            let polygons = randomPolygons(1 + round % 3, points: 3 + round % 9, size: CGFloat(Self.side) + 4,
                                          offset: CGPoint(x: -2, y: -2), &generator)
            let ours = render(polygons, rule: rule)
            let (levels, x, y) = worst(ours, CoverageOracle.coverage(of: polygons, rule: rule, width: Self.side, height: Self.side))
            #expect(levels <= 2, "\(rule) round \(round): \(levels) levels at \(x),\(y) for \(polygons)")
        }
    }

    /// Polygons a few hundredths of a pixel across: their area lands in one or two pixels.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func tinyPolygonsKeepTheirArea(_ rule: FillRule) {
        var generator = SplitMix64(seed: 303)
        for round in 0..<30 {
            let origin = CGPoint(x: 3 + coordinate(16, &generator), y: 3 + coordinate(16, &generator))
            let polygons = randomPolygons(2, points: 5, size: 0.05, offset: origin, &generator)
            let ours = render(polygons, rule: rule)
            let (levels, x, y) = worst(ours, CoverageOracle.coverage(of: polygons, rule: rule, width: Self.side, height: Self.side,
                                                                     subrows: 4096))
            #expect(levels <= 1, "\(rule) round \(round): \(levels) levels at \(x),\(y) for \(polygons)")
        }
    }

    /// Polygons spanning millions of pixels, crossing the target: what reaches it is exact.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func hugePolygonsAreExactWhereTheyCrossTheTarget(_ rule: FillRule) {
        var generator = SplitMix64(seed: 404)
        for round in 0..<20 {
            // Long thin wedges through the target from far away, crossing one another.
            let polygons = (0..<3).map { _ -> [CGPoint] in
                let angle = CGFloat(generator.next() % 10_000) / 10_000 * 2 * .pi
                let far = CGPoint(x: 12 + 3e6 * cos(angle), y: 12 + 3e6 * sin(angle))
                let a = CGPoint(x: coordinate(24, &generator), y: coordinate(24, &generator))
                let b = CGPoint(x: coordinate(24, &generator), y: coordinate(24, &generator))
                return [far, a, b]
            }
            let ours = render(polygons, rule: rule)
            let (levels, x, y) = worst(ours, CoverageOracle.coverage(of: polygons, rule: rule, width: Self.side, height: Self.side))
            #expect(levels <= 2, "\(rule) round \(round): \(levels) levels at \(x),\(y) for \(polygons)")
        }
    }

    /// Rectangles on whole pixels cover whole pixels, exactly: 255 where the winding number is
    /// not 0 (overlaps once; one wound the other way cancels), 0 elsewhere.
    @Test func pixelAlignedRectanglesAreExact() {
        func rect(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, reversed: Bool = false) -> [CGPoint] {
            let points = [CGPoint(x: x0, y: y0), CGPoint(x: x1, y: y0), CGPoint(x: x1, y: y1), CGPoint(x: x0, y: y1)]
            return reversed ? points.reversed() : points
        }
        let polygons = [rect(2, 3, 10, 9), rect(6, 5, 14, 12), rect(8, 1, 12, 20, reversed: true)]
        let ours = render(polygons, rule: .nonZero)
        for y in 0..<Self.side {
            for x in 0..<Self.side {
                let p = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)
                let winding = polygons.enumerated().reduce(0) { sum, entry in
                    let r = entry.element
                    let contains = min(r[0].x, r[2].x) < p.x && p.x < max(r[0].x, r[2].x) && min(r[0].y, r[2].y) < p.y && p.y < max(r[0].y, r[2].y)
                    return sum + (contains ? (entry.offset == 2 ? -1 : 1) : 0)
                }
                let inside = winding != 0
                #expect(ours[y * Self.side + x] == (inside ? 255 : 0), "pixel \(x),\(y)")
            }
        }
    }

    /// Shapes whose chains begin and end inside pixel rows in every way the sweep tells apart:
    /// peaks and valleys at a point, level edges (trapezoids, a notch, a staircase), unrelated
    /// shapes ending at the same height side by side and nested, and shapes touching at a
    /// vertex.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func chainsBeginningAndEndingInsideRowsMatchTheOracle(_ rule: FillRule) {
        func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }
        let cases: [[[CGPoint]]] = [
            [[p(2, 3.3), p(9.5, 3.3), p(12.2, 8.7), p(1.1, 8.7)]],                                     // trapezoid
            [[p(2, 2.25), p(20, 2.25), p(20, 9.6), p(14, 9.6), p(14, 5.4), p(8, 5.4), p(8, 9.6), p(2, 9.6)]], // notch
            [[p(1, 1.2), p(5, 1.2), p(5, 4.7), p(9, 4.7), p(9, 8.4), p(13, 8.4), p(13, 12.9), p(1, 12.9)]], // staircase
            [[p(2, 2), p(6, 7.5), p(1, 7.5)], [p(8, 1.3), p(12, 7.5), p(7.5, 7.5)]],                     // bottoms aligned
            [[p(2, 2.5), p(20, 2.5), p(11, 15.5)], [p(8, 4.5), p(14, 4.5), p(11, 9.5)]],                 // nested, aligned tops
            [[p(2, 2.5), p(20, 2.5), p(11, 15.5)], [p(14, 4.5), p(8, 4.5), p(11, 9.5)]],                 // nested, other way round
            [[p(3, 3.5), p(9, 9.5), p(3, 9.5)], [p(9, 9.5), p(15, 3.5), p(15, 15.5)]],                  // touching at a vertex
            [[p(4, 2.7), p(7, 6.2), p(4, 9.9), p(1, 6.2)], [p(7, 6.2), p(10, 2.7), p(13, 6.2), p(10, 9.9)]], // diamonds touching
            [[p(1, 5.5), p(6, 1.5), p(11, 5.5), p(16, 1.5), p(21, 5.5), p(21, 9.5), p(1, 9.5)]],         // zigzag top
        ]
        for (i, polygons) in cases.enumerated() {
            let ours = render(polygons, rule: rule)
            let (levels, x, y) = worst(ours, CoverageOracle.coverage(of: polygons, rule: rule, width: Self.side, height: Self.side))
            #expect(levels <= 1.5, "\(rule) case \(i): \(levels) levels at \(x),\(y)")
        }
    }

    /// A target wider than one block of cells, with shapes at its far right and edges past it.
    @Test func wideTargetsAgreeWithTheOracle() {
        var generator = SplitMix64(seed: 505)
        let width = 150, height = 12
        for round in 0..<10 {
            let polygons = randomPolygons(2, points: 7, size: 160, offset: CGPoint(x: -5, y: 0), &generator)
                .map { $0.map { CGPoint(x: $0.x, y: $0.y / 12) } }
            let rule: FillRule = round % 2 == 0 ? .nonZero : .evenOdd
            let ours = render(polygons, rule: rule, width: width, height: height)
            let (levels, x, y) = worst(ours, CoverageOracle.coverage(of: polygons, rule: rule, width: width, height: height), width: width)
            #expect(levels <= 2, "\(rule) round \(round): \(levels) levels at \(x),\(y) for \(polygons)")
        }
    }
}

/// Coordinates at the edge of what a Double holds, and beyond once transformed, fill and
/// stroke without trapping and leave the pixels they cannot reach alone.
@Suite struct ExtremeCoordinateTests {
    @Test(arguments: [1.0, 2.0, 1e-300])
    func extremeCoordinatesNeverTrap(_ scale: Double) throws {
        let bitmap = try Bitmap(width: 32, height: 32)
        let values: [CGFloat] = [1e308, -1e308, 1e300, -1e300, 1e154, 5, 16.5, .leastNonzeroMagnitude, -0.0]
        var generator = SplitMix64(seed: 909)
        for _ in 0..<60 {
            var path = Path()
            func point() -> CGPoint {
                CGPoint(x: values[Int(generator.next() % UInt64(values.count))], y: values[Int(generator.next() % UInt64(values.count))])
            }
            path.move(to: point())
            path.addLine(to: point())
            path.addCurve(to: point(), control1: point(), control2: point())
            path.closeSubpath()
            let transform = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 3, ty: 4)
            bitmap.fill(path, with: .black, rule: generator.next() % 2 == 0 ? .nonZero : .evenOdd, transform: transform)
            bitmap.stroke(path, with: .white, style: StrokeStyle(lineWidth: 3, lineJoin: .round), transform: transform)
        }
        // A finite shape drawn afterwards still draws.
        bitmap.clear()
        bitmap.fill(Path(rect: CGRect(x: 2, y: 2, width: 10, height: 10)), with: .black)
        #expect(bitmap.premultipliedPixel(x: 5, y: 5) == 0xFF00_0000)
    }

    /// Round joins and caps of strokes far wider than the flattening tolerance can resolve (the
    /// arc step rounds to zero) or with corners whose directions overflow: found by scripts/fuzz
    /// (a Double-to-Int trap in the stroker's arc). They draw, or draw nothing, without trapping.
    @Test(arguments: [CGFloat(1e300), 1e308, .greatestFiniteMagnitude, 1e17, 3])
    func roundJoinsOfExtremeStrokesNeverTrap(_ width: CGFloat) throws {
        let bitmap = try Bitmap(width: 32, height: 32)
        let corners: [[CGPoint]] = [
            [CGPoint(x: 4, y: 4), CGPoint(x: 20, y: 6), CGPoint(x: 8, y: 28)],
            [CGPoint(x: -1e308, y: 4), CGPoint(x: 1e308, y: 6), CGPoint(x: 8, y: -1e308)],
            [CGPoint(x: 4, y: 4), CGPoint(x: 4, y: 4), CGPoint(x: 30, y: 30)],
        ]
        for points in corners {
            var path = Path()
            path.move(to: points[0])
            for p in points.dropFirst() { path.addLine(to: p) }
            for cap in [LineCap.round, .square, .butt] {
                bitmap.stroke(path, with: .white, style: StrokeStyle(lineWidth: width, lineCap: cap, lineJoin: .round))
            }
        }
        // A stroke wider than the frame, on a finite corner, covers it (the widest of all
        // overflows its outline's offsets and draws nothing).
        guard width >= 64, width < .greatestFiniteMagnitude else { return }
        bitmap.clear()
        var corner = Path()
        corner.move(to: CGPoint(x: 4, y: 4))
        corner.addLine(to: CGPoint(x: 20, y: 6))
        corner.addLine(to: CGPoint(x: 8, y: 28))
        bitmap.stroke(corner, with: .white, style: StrokeStyle(lineWidth: width, lineCap: .round, lineJoin: .round))
        #expect(bitmap.premultipliedPixel(x: 16, y: 16) == 0xFFFF_FFFF)
    }

    /// The points of a stroke's outline: flattened and stroked as `ScanConverter.addStroke`
    /// does for an untransformed path.
    func outlinePoints(_ path: Path, _ style: StrokeStyle) -> Int {
        let stroker = Stroker(), tolerance = Path.deviceTolerance
        guard stroker.configure(style, tolerance: tolerance) else { return 0 }
        var buffer: [CGPoint] = [], smoothness: [Bool]? = [], count = 0
        path.flatten(transform: nil, tolerance: tolerance, straddling: true,
                     maximumTurn: Stroker.maximumTurn(half: stroker.half, tolerance: tolerance),
                     into: &buffer, smoothness: &smoothness) { points, smooth, closed in
            stroker.addSubpath(points, smoothness: smooth, closed: closed) { count += $0.count }
        }
        return count
    }

    /// Found by scripts/fuzz (an ellipse stroked 10¹² wide took over 2 GB): each of the 4 × 4096
    /// pieces of its curves bent more than the tolerance allows, and got a round join of up to
    /// 4096 points. Arcs are now bounded by how far the path turns (4096 pieces per turn), so the
    /// outline is linear in the curve's polyline: at most 3 inner and 2 outer points per corner
    /// (where the inner offsets of such short pieces do not meet), plus a turn's worth of arcs.
    @Test(arguments: [CGFloat(1e5), 1e7, 1e12, 1e300])
    func roundJoinsOfVeryWideStrokesAreBoundedByTheTurning(_ width: CGFloat) {
        let ellipse = Path(ellipseIn: CGRect(x: 0, y: 0, width: 9, height: 7))
        let points = outlinePoints(ellipse, StrokeStyle(lineWidth: width, lineJoin: .round))
        let curvePieces = 4 * Path.maximumSegmentsPerCurve
        #expect(points > 8)
        #expect(points <= 5 * (curvePieces + 1) + 2 * Path.maximumSegmentsPerCurve)
    }

    /// Many sharp corners with round joins on an absurdly wide stroke: after the stroke's budget
    /// of fine arc points, each further join takes at most 64 pieces per turn.
    @Test func manyRoundJoinsOfAnAbsurdStrokeStayWithinTheBudget() {
        var zigzag = Path()
        zigzag.move(to: .zero)
        for i in 1...2000 { zigzag.addLine(to: CGPoint(x: CGFloat(i), y: i % 2 == 0 ? 0 : 50)) }
        let points = outlinePoints(zigzag, StrokeStyle(lineWidth: 1e12, lineCap: .round, lineJoin: .round))
        // Each join turns by almost π: 2048 fine pieces until the budget is spent, then 32.
        #expect(points > Stroker.arcPointBudget)
        #expect(points <= Stroker.arcPointBudget + 2048 + 2000 * (32 + 4) + 2 * 2048)
    }

    /// Widths a frame can show keep every arc point the tolerance asks for.
    @Test func roundJoinsOfOrdinaryWidthsAreUnchanged() {
        var corner = Path()
        corner.move(to: CGPoint(x: 0, y: 0))
        corner.addLine(to: CGPoint(x: 100, y: 0))
        corner.addLine(to: CGPoint(x: 0, y: 1))
        let half: CGFloat = 500, step = 2 * acos(1 - 1.5 * Path.deviceTolerance / half)
        let points = outlinePoints(corner, StrokeStyle(lineWidth: 2 * half, lineCap: .round, lineJoin: .round))
        // Two caps of π and a join of almost π, each cut at the arc step the tolerance gives.
        let arcs = 3 * Int((CGFloat.pi / step).rounded(.up))
        #expect(abs(points - arcs) <= 12)
    }
}
