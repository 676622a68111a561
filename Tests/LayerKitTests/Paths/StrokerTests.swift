import Foundation
import Testing
@testable import LayerKit

@Suite struct StrokerTests {
    func line(_ from: CGPoint, _ to: CGPoint) -> Path {
        var p = Path()
        p.move(to: from)
        p.addLine(to: to)
        return p
    }

    @Test func buttLineCoversExactlyItsRows() throws {
        let frame = try Bitmap(width: 40, height: 20)
        frame.stroke(line(CGPoint(x: 10, y: 10), CGPoint(x: 30, y: 10)), with: .black, style: StrokeStyle(lineWidth: 4))
        for y in 0..<20 {
            let expected = (8..<12).contains(y) ? 255 : 0
            #expect(frame.alpha(20, y) == expected, "row \(y)")
        }
        #expect(frame.alpha(9, 10) == 0 && frame.alpha(30, 10) == 0)   // butt: no overhang
    }

    @Test func roundAndSquareCapsExtendByHalfTheWidth() throws {
        for cap in [LineCap.round, .square] {
            let frame = try Bitmap(width: 40, height: 20)
            frame.stroke(line(CGPoint(x: 10, y: 10), CGPoint(x: 30, y: 10)), with: .black,
                         style: StrokeStyle(lineWidth: 8, lineCap: cap))
            #expect(frame.alpha(7, 10) == 255 && frame.alpha(32, 10) == 255, "\(cap)")
            // A round cap's arc may stray a tenth of a pixel (its points straddle the circle):
            // at most a tenth of full coverage in the pixel beyond.
            #expect(frame.alpha(5, 10) <= 25 && frame.alpha(35, 10) <= 25 && frame.alpha(4, 10) == 0, "\(cap)")
        }
        // A zero-length round-capped line is a dot.
        let dot = try Bitmap(width: 20, height: 20)
        dot.stroke(line(CGPoint(x: 10, y: 10), CGPoint(x: 10, y: 10)), with: .black, style: StrokeStyle(lineWidth: 6, lineCap: .round))
        #expect(dot.alpha(10, 10) == 255 && dot.alpha(10, 14) == 0)
    }

    @Test func sharpCornersMiterUntilTheLimitThenBevel() throws {
        // A 20° spike: its miter would be 1/sin(10°) ≈ 5.8 widths long.
        var spike = Path()
        spike.move(to: CGPoint(x: 10, y: 50))
        spike.addLine(to: CGPoint(x: 60, y: 50))
        let angle = CGFloat.pi / 9
        spike.addLine(to: CGPoint(x: 60 - 50 * cos(angle), y: 50 - 50 * sin(angle)))
        for (limit, tipCovered) in [(10.0, true), (4.0, false)] {
            let frame = try Bitmap(width: 100, height: 100)
            frame.stroke(spike, with: .black, style: StrokeStyle(lineWidth: 4, lineJoin: .miter, miterLimit: limit))
            // The miter runs about 11 points past the corner, between y = 52 (the first segment's
            // outer edge) and the second segment's outer edge; at x = 68 it spans y 50.8…52.
            #expect((frame.alpha(68, 51) > 128) == tipCovered, "limit \(limit)")
        }
    }

    @Test func dashesAlternate() throws {
        let frame = try Bitmap(width: 60, height: 10)
        frame.stroke(line(CGPoint(x: 0, y: 5), CGPoint(x: 60, y: 5)), with: .black,
                     style: StrokeStyle(lineWidth: 2, dashPattern: [10, 5], dashPhase: 0))
        #expect(frame.alpha(5, 5) == 255 && frame.alpha(12, 5) == 0 && frame.alpha(20, 5) == 255 && frame.alpha(27, 5) == 0)
        // Bad patterns stroke solid.
        let solid = try Bitmap(width: 60, height: 10)
        solid.stroke(line(CGPoint(x: 0, y: 5), CGPoint(x: 60, y: 5)), with: .black, style: StrokeStyle(lineWidth: 2, dashPattern: [0, 0]))
        #expect(solid.alpha(12, 5) == 255)
    }

    @Test func trimmingKeepsTheMiddleOfTheLength() {
        let trimmed = line(CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0)).trimmed(from: 0.25, to: 0.5)
        #expect(trimmed.boundingBoxOfPath == CGRect(x: 25, y: 0, width: 25, height: 0))
        #expect(line(.zero, CGPoint(x: 1, y: 0)).trimmed(from: 0.6, to: 0.4).isEmpty)
    }

    @Test func trimmingCutsCurvesWithoutFlatteningThem() {
        let circle = Path(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100))   // starts at 3 o'clock, clockwise
        let quarter = circle.trimmed(from: 0, to: 0.25)
        #expect(quarter.elements.dropFirst().allSatisfy { if case .curve = $0 { true } else { false } })
        #expect(close(quarter.currentPoint!, CGPoint(x: 50, y: 100), 0.05))
        let middle = circle.trimmed(from: 0.25, to: 0.5)
        #expect(close(middle.boundingBoxOfPath.minX, 0, 0.05) && close(middle.boundingBoxOfPath.maxY, 100, 0.05))
        // A closed subpath wholly inside the range stays closed; the cut one opens.
        var two = Path(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        two.addRect(CGRect(x: 20, y: 0, width: 10, height: 10))
        let firstAndHalf = two.trimmed(from: 0, to: 0.75)
        #expect(firstAndHalf.elements.filter { $0 == .closeSubpath }.count == 1)
        #expect(close(firstAndHalf.currentPoint!, CGPoint(x: 30, y: 10), 1e-9))
    }

    @Test func aDashOverTheStartOfAClosedSubpathIsJoinedThere() throws {
        // Perimeter 160, dashes of 25 every 35: the dash from 140 runs on over the start corner.
        let frame = try Bitmap(width: 60, height: 60)
        frame.stroke(Path(rect: CGRect(x: 10, y: 10, width: 40, height: 40)), with: .black,
                     style: StrokeStyle(lineWidth: 6, lineJoin: .miter, dashPattern: [25, 10]))
        #expect(frame.alpha(8, 8) == 255)     // the mitred corner, not two butt ends
        #expect(frame.alpha(50, 8) == 255)    // the next corner, inside the first dash
        #expect(frame.alpha(38, 10) == 0)     // a gap (25…35 along the top)
    }

    @Test func wideStrokesOfTinyCurvesCoverTheirDiscs() throws {
        // A circle of radius 2 stroked 20 wide: the inner offset turns inside out; the union
        // is a disc of radius 12, covered once.
        let frame = try Bitmap(width: 40, height: 40)
        frame.stroke(Path(ellipseIn: CGRect(x: 18, y: 18, width: 4, height: 4)), with: .black, style: StrokeStyle(lineWidth: 20))
        let total = (0..<40).flatMap { y in (0..<40).map { x in Double(frame.alpha(x, y)) / 255 } }.reduce(0, +)
        #expect(abs(total - .pi * 144) < 2)
        #expect(frame.alpha(20, 20) == 255 && frame.alpha(20, 9) == 255 && frame.alpha(20, 7) <= 25 && frame.alpha(20, 6) == 0)
    }
}
