import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// A shape drawn in one color is stored as 8-bit coverage and painted through it in that
/// color, as text of one color is: a quarter of the bytes. It must look as the color store does.
@Suite struct ShapeCoverageTests {
    static let color = Color(red: 0.2, green: 0.45, blue: 0.85, alpha: 0.9)

    static func star(center: CGPoint, radius: CGFloat, points: Int = 5) -> Path {
        var path = Path()
        for i in 0..<(2 * points) {
            let r = i % 2 == 0 ? radius : radius * 0.45
            let angle = CGFloat(i) * .pi / CGFloat(points) - .pi / 2
            let p = CGPoint(x: center.x + r * cos(angle), y: center.y + r * sin(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }

    /// Five points joined every second one: its centre is inside under non-zero, outside under
    /// even-odd.
    static func pentagram(center: CGPoint, radius: CGFloat) -> Path {
        var path = Path()
        for i in 0..<5 {
            let angle = CGFloat(i * 2) * 2 * .pi / 5 - .pi / 2
            let p = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if i == 0 { path.move(to: p) } else { path.addLine(to: p) }
        }
        path.closeSubpath()
        return path
    }

    /// Fills and strokes (caps, joins, dashes, curves, even-odd) drawn in the color into a
    /// clear bitmap, against their coverage added into a mask and composited in the color:
    /// within a level (the color fill blends at each pixel and rounds once differently).
    @Test func coverageTimesTheColorIsTheColorDrawing() throws {
        var curve = Path()
        curve.move(to: CGPoint(x: 20, y: 150))
        curve.addCurve(to: CGPoint(x: 260, y: 130), control1: CGPoint(x: 60, y: 20), control2: CGPoint(x: 200, y: 260))
        var hand = Path()
        hand.move(to: CGPoint(x: 150, y: 170))
        hand.addLine(to: CGPoint(x: 150, y: 30))
        let cases: [(Path, StrokeStyle?, FillRule)] = [
            (Self.star(center: CGPoint(x: 140, y: 95), radius: 80), nil, .nonZero),
            (Self.star(center: CGPoint(x: 140, y: 95), radius: 80, points: 7), nil, .nonZero),
            (Self.pentagram(center: CGPoint(x: 140, y: 95), radius: 85), nil, .evenOdd),
            (Self.star(center: CGPoint(x: 140, y: 95), radius: 70), StrokeStyle(lineWidth: 9, lineJoin: .miter), .nonZero),
            (curve, StrokeStyle(lineWidth: 14, lineCap: .round, lineJoin: .round), .nonZero),
            (curve, StrokeStyle(lineWidth: 5, lineCap: .square, dashPattern: [18, 7], dashPhase: 3), .nonZero),
            (hand, StrokeStyle(lineWidth: 8, lineCap: .round), .nonZero),
        ]
        for transform in [CGAffineTransform(translationX: 0.3, y: 0.6),
                          CGAffineTransform(rotationAngle: 0.35).concatenating(CGAffineTransform(translationX: 60, y: -20)),
                          CGAffineTransform(a: 1.3, b: 0, c: 0.2, d: 0.8, tx: 2, ty: 10)] {
            for (index, (path, stroke, rule)) in cases.enumerated() {
                let drawn = try Bitmap(width: 380, height: 240), mask = try AlphaMask(width: 380, height: 240)
                if let stroke {
                    drawn.stroke(path, with: Self.color, style: stroke, transform: transform)
                    mask.stroke(path, style: stroke, transform: transform)
                } else {
                    drawn.fill(path, with: Self.color, rule: rule, transform: transform)
                    mask.fill(path, rule: rule, transform: transform)
                }
                let throughCoverage = try Bitmap(width: 380, height: 240)
                try throughCoverage.composite(mask, color: Self.color)
                var inked = 0
                let ink = try #require(mask.inkBounds)
                for y in 0..<240 {
                    for x in 0..<380 where mask[x, y] > 0 {
                        inked += 1
                        #expect(ink.contains(x: x, y: y), "case \(index): coverage at (\(x), \(y)) outside the ink \(ink)")
                    }
                }
                #expect(inked > 400, "case \(index)")
                #expect(CoverageStoreTests.worstDifference(drawn, throughCoverage) <= 1, "case \(index) through \(transform)")
            }
        }
    }

    /// Which drawings are one color: the fill or the stroke alone; both when they are the same
    /// opaque color; a fill that encloses nothing (a single line: a clock hand's path, under
    /// Core Animation's default black fill) does not count.
    @Test func oneColorIsDecidedByWhatIsDrawn() {
        let star = Self.star(center: CGPoint(x: 50, y: 50), radius: 40)
        var line = Path()
        line.move(to: CGPoint(x: 5, y: 90))
        line.addLine(to: CGPoint(x: 5, y: 10))
        line.move(to: CGPoint(x: 20, y: 90))
        line.addLine(to: CGPoint(x: 20, y: 10))
        line.closeSubpath()
        var bent = Path()
        bent.move(to: CGPoint(x: 5, y: 90))
        bent.addLine(to: CGPoint(x: 5, y: 10))
        bent.addLine(to: CGPoint(x: 50, y: 10))
        var arc = Path()
        arc.move(to: CGPoint(x: 5, y: 90))
        arc.addQuadCurve(to: CGPoint(x: 90, y: 90), control: CGPoint(x: 50, y: 0))
        let opaque = Color(red: 1, green: 0.5, blue: 0)
        func description(_ path: Path, fill: Color?, stroke: Color?) -> ShapeDescription {
            ShapeDescription(path: path, fillColor: fill, fillRule: .nonZero, strokeColor: stroke, stroke: StrokeStyle(lineWidth: 3),
                             strokeStart: 0, strokeEnd: 1)
        }
        #expect(description(star, fill: Self.color, stroke: nil).singleColor == Self.color)
        #expect(description(star, fill: nil, stroke: Self.color).singleColor == Self.color)
        #expect(description(star, fill: opaque, stroke: opaque).singleColor == opaque)
        #expect(description(star, fill: Self.color, stroke: Self.color).singleColor == nil)
        #expect(description(star, fill: .black, stroke: opaque).singleColor == nil)
        #expect(description(line, fill: .black, stroke: opaque).singleColor == opaque)
        #expect(description(bent, fill: .black, stroke: opaque).singleColor == nil)
        #expect(description(arc, fill: .black, stroke: opaque).singleColor == nil)
        #expect(!ShapeDescription.enclosesArea(line) && ShapeDescription.enclosesArea(bent) && ShapeDescription.enclosesArea(arc))
    }

    /// Shape layers in the arrangements that reach the coverage stores — a clock hand (a
    /// round-capped line under the default black fill) turned and casting a shadow, a star
    /// filled, a star filled and stroked in one opaque color, a dashed stroke at a fractional
    /// position with opacity, a replicator tinting its instances, a clipped group. `twin` gives
    /// every layer a background of alpha 1e-9, which paints nothing but makes the content more
    /// than one color, so it keeps a color store. The frames agree within 2 levels.
    static func scene(twin: Bool) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = Color(red: 0.95, green: 0.93, blue: 0.88)
        let nothing = Color(red: 0, green: 0, blue: 0, alpha: 1e-9)
        func shape(_ frame: CGRect, _ path: Path, fill: Color?, stroke: Color?, width: CGFloat = 4) -> ShapeLayer {
            let layer = ShapeLayer()
            layer.frame = frame
            layer.path = path
            layer.fillColor = fill
            layer.strokeColor = stroke
            layer.lineWidth = width
            if twin { layer.backgroundColor = nothing }
            return layer
        }
        var handPath = Path()
        handPath.move(to: CGPoint(x: 4, y: 150))
        handPath.addLine(to: CGPoint(x: 4, y: 4))
        let hand = shape(CGRect(x: 0, y: 0, width: 8, height: 150), handPath, fill: nil, stroke: Color(red: 0.8, green: 0.1, blue: 0.1),
                         width: 8)
        hand.lineCap = .round
        hand.fillColor = .black // Core Animation's default: a line's fill covers nothing
        hand.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.position = CGPoint(x: 200, y: 160)
        hand.transform = Transform3D(rotationAngle: 0.7, x: 0, y: 0, z: 1)
        hand.shadowOpacity = 0.35
        hand.shadowRadius = 6
        hand.shadowOffset = CGSize(width: 3, height: 5)
        root.addSublayer(hand)
        let starPath = Self.star(center: CGPoint(x: 45, y: 45), radius: 40)
        root.addSublayer(shape(CGRect(x: 10, y: 10, width: 90, height: 90), starPath, fill: Self.color, stroke: nil))
        let both = Color(red: 0.1, green: 0.5, blue: 0.3)
        root.addSublayer(shape(CGRect(x: 290, y: 12.5, width: 90, height: 90), starPath, fill: both, stroke: both, width: 6))
        var wave = Path()
        wave.move(to: CGPoint(x: 0, y: 20))
        wave.addCurve(to: CGPoint(x: 160, y: 20), control1: CGPoint(x: 50, y: -20), control2: CGPoint(x: 110, y: 60))
        let dashed = shape(CGRect(x: 20.3, y: 230.6, width: 160, height: 40), wave, fill: nil, stroke: Self.color, width: 5)
        dashed.lineDashPattern = [14, 6]
        dashed.opacity = 0.7
        root.addSublayer(dashed)
        let star = shape(CGRect(x: 0, y: 0, width: 60, height: 60), Self.star(center: CGPoint(x: 30, y: 30), radius: 26),
                         fill: Color(red: 0.3, green: 0.3, blue: 0.9), stroke: nil)
        let replicator = CoverageStoreTests.replicator(CGRect(x: 20, y: 120, width: 200, height: 100),
                                                       step: Transform3D(translationX: 45, y: 10, z: 0),
                                                       color: Color(red: 1, green: 0.8, blue: 0.6, alpha: 1), of: star)
        replicator.instanceGreenOffset = -0.2
        root.addSublayer(replicator)
        let clipped = shape(CGRect(x: 10, y: 5, width: 110, height: 110), Self.star(center: CGPoint(x: 55, y: 55), radius: 55),
                            fill: Color(red: 0.9, green: 0.6, blue: 0.1), stroke: nil)
        root.addSublayer(CoverageStoreTests.clippingGroup(CGRect(x: 250, y: 200, width: 120, height: 80), cornerRadius: 14,
                                                          around: clipped))
        return root
    }

    @Test(arguments: [1, 4])
    func shapesThroughCoverageLookAsShapesInAColorStore(threads: Int) throws {
        // The hand, its shadow, two stars, the dashed wave and three replicated stars; the
        // clipped star is inside its group's bitmap. The twin's only coverage is the shadow.
        try CoverageStoreTests.expectSameLook(Self.scene(twin: false), asTwin: Self.scene(twin: true), width: 400, height: 300,
                                              coverageItems: 8, threads: threads)
    }
}
