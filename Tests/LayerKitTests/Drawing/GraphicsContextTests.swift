import Foundation
import Testing
@testable import LayerKit

@Suite struct GraphicsContextTests {
    @Test func seedCountdownSectorPortsLineByLine() throws {
        // From the countdown tutorial: origin at the centre, rotate −π/2, arc from 0 to the
        // remaining angle (clockwise: false), fill with 70% red.
        let bitmap = try Bitmap(width: 200, height: 200)
        let context = GraphicsContext(bitmap: bitmap)
        context.translateBy(x: 100, y: 100)
        let minuteAngle = 15.0 / 60.0 * 2 * Double.pi
        context.saveGState()
        context.setFillColor(.red)
        context.setAlpha(0.7)
        context.move(to: CGPoint(x: 0, y: 0))
        context.rotate(by: -Double.pi / 2)
        context.addArc(center: CGPoint(x: 0, y: 0), radius: 85, startAngle: 0, endAngle: minuteAngle, clockwise: false)
        context.fillPath()
        context.restoreGState()
        // A quarter sector from 12 to 3 o'clock: top-right filled, the rest empty.
        #expect(bitmap.pixel(x: 140, y: 60) == Color(red8: 255, green8: 0, blue8: 0, alpha8: 179))
        #expect(bitmap.alpha(60, 60) == 0 && bitmap.alpha(140, 140) == 0 && bitmap.alpha(60, 140) == 0)
        // Its area is a quarter of the disc.
        let covered = (0..<200).flatMap { y in (0..<200).map { x in Double(bitmap.alpha(x, y)) / 179 } }.reduce(0, +)
        #expect(abs(covered - .pi * 85 * 85 / 4) < 20)
    }

    @Test func stateStackTransformsAndStrokes() throws {
        let bitmap = try Bitmap(width: 100, height: 100)
        let context = GraphicsContext(bitmap: bitmap, scale: 2)
        context.setStrokeColor(.blue)
        context.setLineWidth(2)          // 4 device pixels at scale 2
        context.saveGState()
        context.translateBy(x: 10, y: 0)
        context.move(to: CGPoint(x: 0, y: 25))
        context.addLine(to: CGPoint(x: 30, y: 25))
        context.strokePath()
        context.restoreGState()
        #expect(bitmap.pixel(x: 40, y: 50) == .blue && bitmap.alpha(40, 47) == 0 && bitmap.alpha(40, 48) == 255)
        #expect(bitmap.alpha(19, 50) == 0 && bitmap.alpha(21, 50) == 255)   // starts at x = 10 pt = 20 px
        context.setFillColor(.green)
        context.fill(CGRect(x: 0, y: 40, width: 5, height: 5))            // untranslated after restore
        #expect(bitmap.pixel(x: 5, y: 85) == .green)
    }

    @Test func clipLimitsDrawingUntilRestored() throws {
        let bitmap = try Bitmap(width: 50, height: 50)
        let context = GraphicsContext(bitmap: bitmap)
        context.saveGState()
        context.addRect(CGRect(x: 0, y: 0, width: 25, height: 50))
        context.clip()
        context.setFillColor(.red)
        context.fill(CGRect(x: 0, y: 0, width: 50, height: 50))
        context.restoreGState()
        #expect(bitmap.alpha(10, 10) == 255 && bitmap.alpha(40, 10) == 0)
        context.setFillColor(.blue)
        context.fillEllipse(in: CGRect(x: 30, y: 30, width: 10, height: 10))
        #expect(bitmap.pixel(x: 35, y: 35) == .blue)
        context.clear(CGRect(x: 0, y: 0, width: 5, height: 5))
        #expect(bitmap.alpha(2, 2) == 0 && bitmap.alpha(10, 10) == 255)
    }

    @Test func drawPathModes() throws {
        let bitmap = try Bitmap(width: 60, height: 60)
        let context = GraphicsContext(bitmap: bitmap)
        context.setFillColor(.white)
        context.setStrokeColor(.black)
        context.setLineWidth(4)
        context.addEllipse(in: CGRect(x: 10, y: 10, width: 40, height: 40))
        context.drawPath(using: .fillStroke)
        #expect(bitmap.pixel(x: 30, y: 30) == .white && bitmap.pixel(x: 30, y: 10) == .black)
        #expect(context.currentPath.isEmpty)
    }
}

@Suite struct LayerDrawingTests {
    final class Dial: Layer {
        var drawCount = 0
        override func draw(in context: GraphicsContext) {
            drawCount += 1
            context.setFillColor(.red)
            context.fillEllipse(in: bounds)
        }
    }

    final class Painter: LayerDelegate {
        func draw(_ layer: Layer, in context: GraphicsContext) {
            context.setFillColor(.blue)
            context.fill(CGRect(x: 0, y: 0, width: layer.bounds.width / 2, height: layer.bounds.height))
        }
    }

    @Test func overriddenDrawPaintsAtTheShownScaleAndIsCached() throws {
        let root = rootLayer(100, 100)
        let dial = Dial()
        dial.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
        root.addSublayer(dial)
        let renderer = Renderer(scale: 2, threadCount: 1)
        #expect(try renderer.render(root).alpha(100, 100) == 0)   // nothing until setNeedsDisplay
        dial.setNeedsDisplay()
        let frame = try renderer.render(root)
        #expect(frame.pixel(x: 100, y: 100) == .red && frame.alpha(25, 25) == 0)
        // Crisp at scale 2: the disc edge is sharp, not a 2x upscale.
        #expect(dial.drawCount == 1)
        Transaction.perform(disableActions: true) { dial.position.x += 5 }
        _ = try renderer.render(root)
        #expect(dial.drawCount == 1)   // moving does not redraw
        dial.setNeedsDisplay()
        _ = try renderer.render(root)
        #expect(dial.drawCount == 2)
    }

    @Test func delegateDraws() throws {
        let root = rootLayer(100, 100)
        let layer = Layer()
        layer.frame = root.bounds
        let painter = Painter()
        layer.delegate = painter
        root.addSublayer(layer)
        layer.setNeedsDisplay()
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 25, y: 50) == .blue && frame.alpha(75, 50) == 0)
    }
}

@Suite struct GraphicsContextGradientAndTextTests {
    @Test func gradientsFillTheClipAndTextDrawsOnItsBaseline() throws {
        let bitmap = try Bitmap(width: 100, height: 100)
        let context = GraphicsContext(bitmap: bitmap)
        context.saveGState()
        context.addRect(CGRect(x: 0, y: 0, width: 100, height: 50))
        context.clip()
        context.drawLinearGradient(colors: [.black, .white], start: CGPoint(x: 0, y: 0), end: CGPoint(x: 100, y: 0))
        context.restoreGState()
        #expect(abs(bitmap.pixel(x: 50, y: 20).red - 0.5) < 0.02 && bitmap.alpha(50, 70) == 0)
        context.setFillColor(.red)
        context.draw("H", at: CGPoint(x: 10, y: 95), size: 30)
        // The H sits on the baseline at y = 95: ink just above it, none below.
        var ink = (top: Int.max, bottom: Int.min)
        for y in 50..<100 { for x in 0..<40 where bitmap.alpha(x, y) > 127 { ink = (min(ink.top, y), max(ink.bottom, y)) } }
        #expect(ink.bottom == 94 && ink.top > 65 && ink.top < 75)
        #expect(bitmap.pixel(x: 12, y: 90).red > 0.9)
    }
}
