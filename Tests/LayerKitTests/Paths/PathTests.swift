import CCairo
import Foundation
import Testing
@testable import LayerKit

@Suite struct PathTests {
    /// The bounding box holds every point and control point, exactly as the box of those points
    /// gathered (signed zeros, lone points, empty paths), and is null when one is not finite.
    @Test func boundingBoxIsTheBoxOfThePointsAndControlPoints() {
        var g = SeededGenerator(seed: 2929)
        let specials: [CGFloat] = [0, -0.0, .nan, .infinity, -.infinity, 1e300]
        for trial in 0..<400 {
            var path = Path()
            func point() -> CGPoint {
                func value() -> CGFloat {
                    trial % 5 == 0 && Int.random(in: 0..<12, using: &g) == 0 ? specials.randomElement(using: &g)!
                                                                              : CGFloat.random(in: -50...50, using: &g)
                }
                return CGPoint(x: value(), y: value())
            }
            for _ in 0..<Int.random(in: 0...8, using: &g) {
                switch Int.random(in: 0..<5, using: &g) {
                case 0: path.move(to: point())
                case 1: path.addLine(to: point())
                case 2: path.addQuadCurve(to: point(), control: point())
                case 3: path.addCurve(to: point(), control1: point(), control2: point())
                default: path.closeSubpath()
                }
            }
            let points = path.elements.flatMap { element -> [CGPoint] in
                switch element {
                case let .move(p), let .line(p): [p]
                case let .quadCurve(p, c): [p, c]
                case let .curve(p, c1, c2): [p, c1, c2]
                case .closeSubpath: []
                }
            }
            let expected = CGRect(boundingPoints: points) ?? .null
            let box = path.boundingBox
            #expect(box.isNull == expected.isNull, "trial \(trial)")
            if !expected.isNull {
                #expect([box.origin.x, box.origin.y, box.size.width, box.size.height].map(\.bitPattern)
                        == [expected.origin.x, expected.origin.y, expected.size.width, expected.size.height].map(\.bitPattern),
                        "trial \(trial): \(box) is not \(expected)")
            }
        }
    }

    @Test func arcFollowsCGPathsClockwiseFlag() {
        // clockwise == false: angles increase, which on a y-down screen is clockwise — from
        // 12 o'clock (−π/2) a quarter turn reaches 3 o'clock.
        var p = Path()
        p.addArc(center: .zero, radius: 10, startAngle: -.pi / 2, endAngle: 0, clockwise: false)
        #expect(close(p.currentPoint!, CGPoint(x: 10, y: 0), 1e-9))
        let box = p.boundingBoxOfPath
        #expect(box.minX > -1e-6 && box.maxY < 1e-6)   // stayed in the top-right quadrant
        var q = Path()
        q.addArc(center: .zero, radius: 10, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        #expect(q.boundingBoxOfPath.minX < -9.9)      // the long way round
        // UIBezierPath's flag is the opposite.
        let ui = Path(arcCenter: .zero, radius: 10, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        #expect(ui.boundingBoxOfPath == p.boundingBoxOfPath)
    }

    @Test func countdownSectorStartsAtTwelveAndSweepsClockwise() {
        // The seed's sector: rotate −π/2, move to the centre, arc from 0 to the remaining angle.
        var sector = Path()
        sector.move(to: .zero)
        sector.addArc(center: .zero, radius: 100, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        sector.closeSubpath()
        let rotated = sector.applying(CGAffineTransform(rotationAngle: -.pi / 2))
        // A quarter: the top-right quadrant on screen.
        #expect(rotated.contains(CGPoint(x: 30, y: -30)))
        #expect(!rotated.contains(CGPoint(x: -30, y: -30)) && !rotated.contains(CGPoint(x: 30, y: 30)))
    }

    @Test func fillRulesOnASelfIntersectingStar() {
        var star = Path()
        let points = (0..<5).map { i -> CGPoint in
            let a = -CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
            return CGPoint(x: 50 + 40 * cos(a), y: 50 + 40 * sin(a))
        }
        star.addLines(between: points)
        star.closeSubpath()
        #expect(star.contains(CGPoint(x: 50, y: 50), using: .nonZero))
        #expect(!star.contains(CGPoint(x: 50, y: 50), using: .evenOdd))
        let frame = try! Bitmap(width: 100, height: 100)
        frame.fill(star, with: .black, rule: .evenOdd)
        #expect(frame.alpha(50, 50) == 0 && frame.alpha(50, 20) == 255)
        frame.fill(star, with: .black)
        #expect(frame.alpha(50, 50) == 255)
    }

    @Test func circleEdgeCoverageMatchesTheExactArea() throws {
        let frame = try Bitmap(width: 40, height: 40)
        frame.fill(Path(ellipseIn: CGRect(x: 5, y: 5, width: 30, height: 30)), with: .black)
        // Pixel coverage summed over the image equals the disc's area, π·15².
        let total = (0..<40).flatMap { y in (0..<40).map { x in Double(frame.alpha(x, y)) / 255 } }.reduce(0, +)
        #expect(abs(total - .pi * 225) < 1.5)
        #expect(frame.alpha(20, 20) == 255 && frame.alpha(2, 2) == 0)
    }

    @Test func pixelAlignedRectIsExact() throws {
        let frame = try Bitmap(width: 6, height: 6)
        frame.fill(Path(rect: CGRect(x: 1, y: 1, width: 2, height: 2)), with: .black)
        var covered = 0
        for y in 0..<6 { for x in 0..<6 where frame.alpha(x, y) > 0 { covered += 1; #expect(frame.alpha(x, y) == 255) } }
        #expect(covered == 4)
    }

    @Test func absurdPathsNeitherCrashNorHang() throws {
        let frame = try Bitmap(width: 50, height: 50)
        frame.fill(Path(rect: CGRect(x: -1e12, y: -1e12, width: 2e12, height: 2e12)), with: .red)
        #expect(frame.pixel(x: 25, y: 25) == .red)
        var nan = Path()
        nan.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: CGFloat.nan, y: 5), CGPoint(x: 10, y: 10)])
        frame.fill(nan, with: .blue)
        var many = Path()
        for i in 0..<200_000 { many.addLine(to: CGPoint(x: 25 + 20 * cos(Double(i)), y: 25 + 20 * sin(Double(i)))) }
        frame.fill(many, with: .green, rule: .evenOdd)
        #expect(frame.pixel(x: 25, y: 25).alpha == 1)
    }

    @Test func fillsAgreeWithCairo() throws {
        var generator = SplitMix64(seed: 11)
        func unit() -> CGFloat { CGFloat(generator.next() % 10_000) / 10_000 }
        for rule in [FillRule.nonZero, .evenOdd] {
            var path = Path()
            for _ in 0..<4 {
                let points = (0..<7).map { _ in CGPoint(x: 5 + unit() * 110, y: 5 + unit() * 110) }
                path.addLines(between: points)
                path.closeSubpath()
            }
            path.addEllipse(in: CGRect(x: 20, y: 30, width: 70, height: 50))
            path.addArc(center: CGPoint(x: 60, y: 60), radius: 30, startAngle: 0.3, endAngle: 4, clockwise: false)
            let ours = try Bitmap(width: 120, height: 120)
            ours.fill(path, with: .black, rule: rule)

            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 120, 120)!
            defer { cairo_surface_destroy(surface) }
            let cr = cairo_create(surface)!
            for element in path.elements {
                switch element {
                case let .move(p): cairo_move_to(cr, p.x, p.y)
                case let .line(p): cairo_line_to(cr, p.x, p.y)
                case let .quadCurve(p, c):
                    var x0 = 0.0, y0 = 0.0
                    cairo_get_current_point(cr, &x0, &y0)
                    cairo_curve_to(cr, x0 + 2 / 3 * (c.x - x0), y0 + 2 / 3 * (c.y - y0),
                                   p.x + 2 / 3 * (c.x - p.x), p.y + 2 / 3 * (c.y - p.y), p.x, p.y)
                case let .curve(p, c1, c2): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
                case .closeSubpath: cairo_close_path(cr)
                }
            }
            cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            cairo_set_source_rgba(cr, 0, 0, 0, 1)
            cairo_fill(cr)
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            let stride = Int(cairo_image_surface_get_stride(surface)), data = cairo_image_surface_get_data(surface)!
            var total = 0, over16 = 0, worst = 0
            for y in 0..<120 {
                for x in 0..<120 {
                    let theirs = Int(UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)[x] >> 24)
                    let d = abs(theirs - ours.alpha(x, y))
                    total += d
                    worst = max(worst, d)
                    if d > 16 { over16 += 1 }
                }
            }
            // FreeType computes exact area coverage; cairo 1.16's image back end samples edges on
            // a 4x4 grid, so edge pixels differ by about a sixteenth of full coverage, and the
            // needle-thin slivers where these random polygons cross can differ by far more (a
            // sliver missed or hit by a sample). A wrong rule or shape differs on thousands of
            // pixels; these bounds hold with room on this corpus (measured: mean 0.29 / 0.61,
            // 31 / 82 pixels over 16 levels).
            let mean = Double(total) / 14400
            #expect(mean < 1.0, "\(rule): mean coverage difference \(mean)")
            #expect(over16 < 144, "\(rule): \(over16) pixels (of 14400) differ by more than 16 levels, worst \(worst)")
        }
    }
}
