import Foundation
import Testing
@testable import LayerKit

@Suite struct ScanConverterTests {
    func render(_ polygons: [[CGPoint]], rule: FillRule, width: Int, height: Int) -> [UInt8] {
        ScanConverter.coverage(of: polygons, rule: rule, width: width, height: height)
    }

    /// The largest difference, in 8-bit levels, between rendered and reference coverage.
    func worstDifference(_ ours: [UInt8], _ reference: [Double]) -> Double {
        zip(ours, reference).reduce(0) { max($0, abs(Double($1.0) - $1.1 * 255)) }
    }

    func randomPoints(_ count: Int, in size: CGFloat, _ generator: inout SplitMix64) -> [CGPoint] {
        (0..<count).map { _ in
            CGPoint(x: CGFloat(generator.next() % 100_000) / 100_000 * size, y: CGFloat(generator.next() % 100_000) / 100_000 * size)
        }
    }

    /// Convex polygons (no point inside twice): every pixel's coverage is its exact area.
    @Test func simplePolygonsCoverTheirExactArea() {
        var generator = SplitMix64(seed: 3)
        for _ in 0..<20 {
            // Points on a circle, in order: a convex polygon, either way round.
            let center = CGPoint(x: 9 + CGFloat(generator.next() % 600) / 100, y: 9 + CGFloat(generator.next() % 600) / 100)
            var angles = (0..<7).map { _ in CGFloat(generator.next() % 10_000) / 10_000 * 2 * .pi }.sorted()
            if generator.next() % 2 == 0 { angles.reverse() }
            let radius = 2 + CGFloat(generator.next() % 400) / 100
            let polygon = angles.map { CGPoint(x: center.x + radius * cos($0), y: center.y + radius * sin($0)) }
            let ours = render([polygon], rule: .nonZero, width: 24, height: 24)
            let reference = CoverageOracle.coverage(of: [polygon], rule: .nonZero, width: 24, height: 24)
            #expect(worstDifference(ours, reference) <= 1.5)
            let area = abs(zip(polygon, polygon.dropFirst() + [polygon[0]]).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }) / 2
            let total = ours.reduce(0) { $0 + Double($1) } / 255
            #expect(abs(total - Double(area)) < 0.05)
        }
    }

    /// Self-intersecting polygons, polygons overlapping each other with either orientation, and
    /// a stroke-like pile of overlapping quads: where the winding number passes 1 the union
    /// is covered once, to within the oracle's own error.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func overlapsAreCoveredOnce(_ rule: FillRule) {
        var generator = SplitMix64(seed: 17)
        for _ in 0..<12 {
            let polygons = (0..<3).map { _ in randomPoints(6, in: 30, &generator) }
            let ours = render(polygons, rule: rule, width: 30, height: 30)
            let reference = CoverageOracle.coverage(of: polygons, rule: rule, width: 30, height: 30)
            #expect(worstDifference(ours, reference) <= 2, "\(rule): \(polygons)")
        }
        // Two squares overlapping at fractional offsets, wound the same way: the old sum of
        // areas covered the shared edge pixels up to twice.
        let a = [CGPoint(x: 2.3, y: 2.6), CGPoint(x: 12.7, y: 2.6), CGPoint(x: 12.7, y: 12.2), CGPoint(x: 2.3, y: 12.2)]
        let b = a.map { CGPoint(x: $0.x + 5.45, y: $0.y + 4.15) }
        let ours = render([a, b], rule: .nonZero, width: 20, height: 20)
        #expect(worstDifference(ours, CoverageOracle.coverage(of: [a, b], rule: .nonZero, width: 20, height: 20)) <= 2)
    }

    /// Edges left of, above and below the target still decide what is inside it.
    @Test func edgesOutsideTheTargetStillCount() {
        let big = [CGPoint(x: -50.5, y: -30.25), CGPoint(x: 10.5, y: -30.25), CGPoint(x: 10.5, y: 40.75), CGPoint(x: -50.5, y: 40.75)]
        let ours = render([big], rule: .nonZero, width: 16, height: 8)
        for y in 0..<8 {
            #expect(ours[y * 16 + 3] == 255)
            #expect(ours[y * 16 + 10] == 128)   // half of column 10
            #expect(ours[y * 16 + 12] == 0)
        }
        // A slanted edge crossing the target's left side.
        let wedge = [CGPoint(x: -20, y: 0), CGPoint(x: 20, y: 40), CGPoint(x: -20, y: 40)]
        let cut = render([wedge], rule: .nonZero, width: 20, height: 20)
        #expect(worstDifference(cut, CoverageOracle.coverage(of: [wedge], rule: .nonZero, width: 20, height: 20)) <= 1.5)
    }

    /// A thousand edges starting in one pixel row take the signed-area sum (bounded work)
    /// and still fill what they enclose.
    @Test func crowdedRowsStayBounded() {
        var generator = SplitMix64(seed: 5)
        let star = (0..<2000).map { i -> CGPoint in
            let a = CGFloat(i) * 2.399963
            let r = 6 + CGFloat(generator.next() % 100) / 100
            return CGPoint(x: 10 + r * cos(a), y: 10 + r * sin(a))
        }
        let ours = render([star], rule: .nonZero, width: 20, height: 20)
        #expect(ours[10 * 20 + 10] == 255 && ours[0] == 0)
    }
}
