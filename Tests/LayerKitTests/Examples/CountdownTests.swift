import ExampleScenes
import ExampleSupport
import Foundation
import Testing
@testable import LayerKit

@Suite struct CountdownTests {
    @Test func fifteenOfSixtyMinutesLeftIsAQuarterSectorInRed() throws {
        let scene = CountdownScene(size: CGSize(width: 300, height: 360), seconds: 15 * 60)
        let frame = try Renderer(scale: 1, threadCount: 1).render(scene.root)
        let face = scene.face
        let center = face.position
        let r = face.bounds.width / 2
        func isRed(_ angle: Double, _ distance: Double) -> Bool {
            let p = frame.pixel(x: Int(center.x + sin(angle) * distance * r), y: Int(center.y - cos(angle) * distance * r))
            return p.red > 0.85 && p.green < 0.45 && p.blue < 0.45
        }
        // Inside the quarter from 12 to 3 o'clock (away from numerals and the hand): red.
        #expect(isRed(.pi / 8, 0.5) && isRed(.pi / 4, 0.3) && isRed(3 * .pi / 8, 0.6))
        // The other three quarters: not red.
        for angle in [5 * Double.pi / 8, Double.pi, 3 * Double.pi / 2, 15 * Double.pi / 8] {
            #expect(!isRed(angle, 0.5), "angle \(angle)")
        }
        // Its area is a quarter of the 0.85 r disc.
        var red = 0
        for y in 0..<frame.height { for x in 0..<frame.width {
            let p = frame.pixel(x: x, y: y)
            if p.red > 0.85 && p.green < 0.45 && p.blue < 0.45 { red += 1 }
        } }
        let quarter = Double.pi * pow(0.85 * r, 2) / 4
        #expect(abs(Double(red) - quarter) / quarter < 0.15)
        #expect(scene.label.string == "15:00")
    }

    @Test func theHandAndSectorMoveWithTheTimeAndZeroShowsTimeIsOver() {
        let scene = CountdownScene(size: CGSize(width: 300, height: 360), seconds: 90)
        scene.update(elapsed: 30)
        #expect(scene.label.string == "1:00")
        #expect(abs(ClockScene.angleOf(scene.hand.transform) - .pi / 30) < 1e-9)   // one minute left: 6°
        #expect(!scene.isOver(at: 89.9) && scene.isOver(at: 90))
        scene.update(elapsed: 90)
        #expect(!scene.over.isHidden && scene.face.isHidden)
    }

    @Test func durationsParse() {
        #expect(CountdownScene.parseDuration("90") == 90)
        #expect(CountdownScene.parseDuration("1m30s") == 90)
        #expect(CountdownScene.parseDuration("2h") == 7200)
        #expect(CountdownScene.parseDuration("1h2m3s") == 3723)
        for bad in ["", "m", "1x", "abc", "-5", "3m2"] { #expect(CountdownScene.parseDuration(bad) == nil, "\(bad)") }
        #expect(CountdownScene.text(for: 3723) == "1:02:03" && CountdownScene.text(for: 59.2) == "1:00")
    }
}
