import Foundation
import Testing
@testable import LayerKit

@Suite struct ShapeLayerTests {
    @Test func defaultsMatchCoreAnimation() {
        let shape = ShapeLayer()
        #expect(shape.fillColor == .black && shape.strokeColor == nil && shape.lineWidth == 1)
        #expect(shape.lineCap == .butt && shape.lineJoin == .miter && shape.miterLimit == 10)
        #expect(shape.fillRule == .nonZero && shape.strokeStart == 0 && shape.strokeEnd == 1)
    }

    @Test func seedHandAsAStrokedPathWithRoundCaps() throws {
        // Tutorial 003: a shape layer with the view's frame and a path from the centre to the
        // hand's tip, lineWidth 4, round caps, black stroke, no fill needed.
        let root = rootLayer(200, 200)
        let hand = ShapeLayer()
        hand.frame = root.bounds
        var path = Path()
        path.move(to: CGPoint(x: 100, y: 100))
        path.addLine(to: CGPoint(x: 100, y: 30))
        hand.path = path
        hand.lineWidth = 4
        hand.lineCap = .round
        hand.strokeColor = .black
        root.addSublayer(hand)
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.alpha(100, 60) == 255 && frame.alpha(100, 29) > 100)   // round cap past the tip
        #expect(frame.alpha(106, 60) == 0)
    }

    @Test func shapeWithEmptyBoundsStillDraws() throws {
        let root = rootLayer(100, 100)
        let shape = ShapeLayer()
        shape.position = CGPoint(x: 50, y: 50)
        shape.path = Path(ellipseIn: CGRect(x: -20, y: -20, width: 40, height: 40))
        shape.fillColor = .red
        root.addSublayer(shape)
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 50, y: 50) == .red && frame.alpha(5, 5) == 0)
    }

    @Test func strokeEndAnimationDrawsPartOfTheStroke() throws {
        let root = rootLayer(100, 20)
        let line = ShapeLayer()
        line.frame = root.bounds
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 10))
        path.addLine(to: CGPoint(x: 100, y: 10))
        line.path = path
        line.strokeColor = .blue
        line.lineWidth = 4
        root.addSublayer(line)
        let grow = BasicAnimation(keyPath: "strokeEnd")
        grow.fromValue = 0.0
        grow.toValue = 1.0
        grow.duration = 1
        line.add(grow, forKey: "grow")
        let frame = try Renderer(threadCount: 1).render(root, at: 0.4)
        #expect(frame.alpha(30, 10) == 255 && frame.alpha(50, 10) == 0)
    }

    @Test func pathAnimatesPointByPoint() {
        let shape = ShapeLayer()
        let a = Path(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = Path(rect: CGRect(x: 0, y: 0, width: 30, height: 10))
        let morph = BasicAnimation(keyPath: "path")
        morph.fromValue = a
        morph.toValue = b
        morph.duration = 1
        shape.add(morph, forKey: "morph")
        let mid = shape.presentation(at: 0.5).path   // typed: a ShapeLayer
        #expect(mid?.boundingBox == CGRect(x: 0, y: 0, width: 20, height: 10))
    }

    /// Miters reach past half the line width only where segments meet: a single line's store
    /// is not ten line widths wide, and a corner's miter is still inside its extent.
    @Test func extentReachesForMitersOnlyWhereSegmentsMeet() {
        func description(_ points: [CGPoint], closed: Bool = false) -> ShapeDescription {
            var path = Path()
            path.addLines(between: points)
            if closed { path.closeSubpath() }
            return ShapeDescription(path: path, fillColor: nil, fillRule: .nonZero, strokeColor: .black,
                                    stroke: StrokeStyle(lineWidth: 30, lineCap: .round, lineJoin: .miter, miterLimit: 10),
                                    strokeStart: 0, strokeEnd: 1)
        }
        let line = description([CGPoint(x: 15, y: 300), CGPoint(x: 15, y: 15)])
        #expect(line.extent == CGRect(x: 0, y: 0, width: 30, height: 315))
        let corner = description([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 10), CGPoint(x: 0, y: 20)])
        #expect(corner.extent.width >= 100 + 150)
        let triangle = description([CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 0)], closed: true)
        #expect(triangle.extent.height >= 300)
    }
}
