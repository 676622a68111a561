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

    /// The rim is round at every size: its stroke lies inside the dial layer, whose drawing is
    /// clipped to its bounds (as a CALayer's is). Drawn on a circle 2 points in, its outer half
    /// (size / 160 points) was cut flat where the circle meets the bounds, at faces over 320
    /// points: 1080p's face showed four flat spots.
    @Test(arguments: [300.0, 720, 1200])
    func theRimIsRoundAtItsTopBottomAndSides(size: Double) throws {
        let scene = CountdownScene(size: CGSize(width: size, height: size * 1.2), seconds: 15 * 60)
        let frame = try Renderer(scale: 1, threadCount: 1).render(scene.root)
        let face = scene.face.frame
        let (midX, midY) = (Int(face.midX), Int(face.midY))
        // The pixels the bounds' edges cross at the rim's extremes: the page behind, not the
        // stroke, which ends a point inside.
        let edges = [(midX, Int(face.minY)), (midX, Int(face.maxY)), (Int(face.minX), midY), (Int(face.maxX), midY)]
        for (x, y) in edges {
            #expect(frame.pixel(x: x, y: y).red > 0.8, "size \(size): (\(x), \(y))")
        }
        // …and the stroke is there, just inside.
        let inside = (1...Int(size / 80 + 4)).contains { isInk(frame, midX, Int(face.minY) + $0, below: 0.2) }
        #expect(inside, "size \(size)")
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
        #expect(CountdownScene.parseDuration("2.5") == 2.5)
        #expect(CountdownScene.parseDuration("1m30s") == 90)
        #expect(CountdownScene.parseDuration("2h") == 7200)
        #expect(CountdownScene.parseDuration("1h2m3s") == 3723)
        #expect(CountdownScene.parseDuration("1:30") == 90)
        #expect(CountdownScene.parseDuration("00:01:30") == 90)
        #expect(CountdownScene.parseDuration("1:00:00") == 3600)
        #expect(CountdownScene.parseDuration("100:00:00") == 360_000)
        for bad in ["", "m", "1x", "abc", "-5", "3m2", "1:70", "1:2:3:4", ":30", "1:", "1:-5", "nan", "inf", "1e300", "١:٣٠"] {
            #expect(CountdownScene.parseDuration(bad) == nil, "\(bad)")
        }
        #expect(CountdownScene.text(for: 3723) == "1:02:03" && CountdownScene.text(for: 59.2) == "1:00")
        #expect(CountdownScene.text(for: 100 * 3600) == "100:00:00")
    }

    @Test func pauseRestartAndTheEndScreen() {
        var timer = CountdownTimer(total: 10, endScreen: 3)
        #expect(timer.remaining(at: 4) == 6)
        timer.togglePause(at: 4)
        #expect(timer.isPaused && timer.remaining(at: 9) == 6)
        timer.togglePause(at: 9)
        #expect(!timer.isPaused && timer.remaining(at: 10) == 5)
        #expect(!timer.isOver(at: 14.9) && timer.isOver(at: 15) && timer.remaining(at: 15) == 0)
        // "Time is over" stays three seconds.
        #expect(!timer.isFinished(at: 17.9) && timer.isFinished(at: 18))
        // Space does nothing on the result page; r starts again from there.
        timer.togglePause(at: 16)
        #expect(!timer.isPaused)
        timer.restart(at: 16)
        #expect(timer.remaining(at: 16) == 10 && !timer.isOver(at: 25.9) && timer.isOver(at: 26))
        #expect(!timer.isFinished(at: 28.9) && timer.isFinished(at: 29))
        // A key on the result page ends it at once; before zero it does nothing.
        var keyed = CountdownTimer(total: 5, endScreen: 60)
        keyed.dismiss(at: 2)
        #expect(!keyed.isFinished(at: 6))
        keyed.dismiss(at: 6)
        #expect(keyed.isFinished(at: 6))
        // --hold: only a key ends it.
        var held = CountdownTimer(total: 1, endScreen: nil)
        #expect(!held.isFinished(at: 10_000))
        held.dismiss(at: 10_000)
        #expect(held.isFinished(at: 10_000))
    }

    /// Dark ink (the label's and numerals' #2B2F3A) at `x`, `y`.
    func isInk(_ frame: Bitmap, _ x: Int, _ y: Int, below level: Double = 0.35) -> Bool {
        let p = frame.pixel(x: x, y: y)
        return p.red < level && p.green < level && p.blue < level
    }

    /// Sizes and durations whose labels overflowed before: 100 hours, 150 points wide, --until 2030.
    static let labelCases: [(width: Double, height: Double, seconds: Double)] = [
        (300, 360, 100 * 3600), (150, 300, 2 * 3600), (150, 300, 100 * 3600), (300, 360, 27223 * 3600),
    ]

    @Test(arguments: labelCases)
    func theLabelFitsTheWidth(width: Double, height: Double, seconds: Double) throws {
        let scene = CountdownScene(size: CGSize(width: width, height: height), seconds: seconds)
        let frame = try Renderer(scale: 1, threadCount: 1).render(scene.root)
        let band = scene.label.frame
        var minX = Int.max, maxX = Int.min, ink = 0
        for y in Int(band.minY)..<Int(band.maxY) {
            for x in 0..<frame.width where isInk(frame, x, y, below: 0.6) {
                minX = min(minX, x)
                maxX = max(maxX, x)
                ink += 1
            }
        }
        let text = try #require(scene.label.string)
        #expect(ink > 100, "\(text): the label is drawn")
        // Whole: ink neither touches nor crosses either edge, and the text measures within the width.
        #expect(minX > 1 && maxX < frame.width - 2, "\(text) spans \(minX)…\(maxX) of \(frame.width)")
        let measured = try Font.named(Font.defaultFamily).metrics(of: text, fontSize: scene.label.fontSize).size.width
        #expect(measured <= width * 0.93)
    }

    @Test func theSectorLiesUnderTheNumerals() throws {
        // Thirty minutes left: the sector runs from 12 to 6 o'clock, under the right half of the "60".
        let scene = CountdownScene(size: CGSize(width: 300, height: 360), seconds: 30 * 60)
        let scale: CGFloat = 2
        let withSector = try Renderer(scale: scale, threadCount: 1).render(scene.root)
        Transaction.perform(disableActions: true) { scene.sector.isHidden = true }
        let withoutSector = try Renderer(scale: scale, threadCount: 1).render(scene.root)
        let origin = CGPoint(x: scene.face.position.x - scene.face.bounds.width / 2, y: scene.face.position.y - scene.face.bounds.height / 2)
        let center = scene.marks.numeralCenter(minutes: 60)
        let fontSize = scene.face.bounds.width * 0.07
        let twelve = scene.face.position.x   // the sector's straight edge
        var probed = 0
        for y in Int((origin.y + center.y - fontSize) * scale)..<Int((origin.y + center.y + fontSize) * scale) {
            for x in Int((twelve + 1) * scale)..<Int((origin.x + center.x + fontSize) * scale) where isInk(withoutSector, x, y, below: 0.3) {
                // A numeral pixel over the sector: still the numeral's ink, not tinted red.
                probed += 1
                let p = withSector.pixel(x: x, y: y)
                #expect(p.red < 0.35, "(\(x), \(y)) is \(p): the sector is painted over the numeral")
            }
        }
        #expect(probed > 20, "numeral pixels over the sector: \(probed)")
        // And the sector is there around them.
        let beside = withSector.pixel(x: Int((twelve + 30) * scale), y: Int((origin.y + center.y + fontSize * 2) * scale))
        #expect(beside.red > 0.85 && beside.green < 0.45)
    }
}
