import ExampleScenes
import ExampleSupport
import Foundation
import Testing
@testable import LayerKit

@Suite struct ClockTests {
    /// Renders the clock at elapsed time `t` (frames before it too, as a run does).
    func frame(_ time: String, style: ClockScene.Style, at t: TimeInterval = 0) throws -> (Bitmap, ClockScene) {
        let seconds = try #require(TimeOfDay(argument: time)).seconds
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: style, startTime: seconds)
        let renderer = Renderer(scale: 1, threadCount: 1)
        clock.root.setCurrentTime(t)
        clock.update(elapsed: t)
        return (try renderer.render(clock.root, at: t), clock)
    }

    /// Whether the pixel at `distance` points from the centre in direction `angle` (clockwise
    /// from 12 o'clock) is hand-coloured.
    func inked(_ frame: Bitmap, angle: Double, distance: Double, color: Color = ClockScene.ink, tolerance: Double = 0.2) -> Bool {
        let x = 120 + sin(angle) * distance, y = 120 - cos(angle) * distance
        let p = frame.pixel(x: Int(x.rounded(.down)), y: Int(y.rounded(.down)))
        return abs(p.red - color.red) < tolerance && abs(p.green - color.green) < tolerance && abs(p.blue - color.blue) < tolerance
    }

    @Test(arguments: [ClockScene.Style.layers, .shapes])
    func threeOClockHourHandPointsRightMinuteHandUp(_ style: ClockScene.Style) throws {
        let (f, _) = try frame("03:00:00", style: style)
        #expect(inked(f, angle: .pi / 2, distance: 40))        // hour hand, right
        // Minute hand, up, past the hour hand's length; 1.5 points beside the centre line, where
        // the second hand (also at 12, thinner, on top) does not reach.
        let p = f.pixel(x: 121, y: 50)
        #expect(abs(p.red - ClockScene.ink.red) < 0.2 && abs(p.blue - ClockScene.ink.blue) < 0.2)
        #expect(!inked(f, angle: .pi, distance: 40) && !inked(f, angle: 1.5 * .pi, distance: 40))
    }

    @Test(arguments: [ClockScene.Style.layers, .shapes])
    func halfPastNineHourHandBetweenNineAndTenSecondHandRight(_ style: ClockScene.Style) throws {
        let (f, _) = try frame("09:30:15", style: style)
        let between = (9.5 + 15.0 / 3600) / 12 * 2 * .pi
        #expect(inked(f, angle: between, distance: 40))
        #expect(!inked(f, angle: 9.0 / 12 * 2 * .pi, distance: 45) && !inked(f, angle: 10.0 / 12 * 2 * .pi, distance: 45))
        // Second hand, right. It is 1.575 points wide, centred on a pixel edge, so the probed
        // pixel is 79 % covered: its red sits 0.2 from the accent's (0.1999 with FreeType's
        // 1/64-pixel coordinates, 0.2039 with exact ones), hence the wider tolerance.
        #expect(inked(f, angle: .pi / 2, distance: 90, color: ClockScene.accent, tolerance: 0.25))
        #expect(inked(f, angle: .pi, distance: 70))                                 // minute hand, down
    }

    @Test func layersStyleTicksWithAShortSweep() throws {
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: .layers, startTime: 0)
        let renderer = Renderer(scale: 1, threadCount: 1)
        _ = try renderer.render(clock.root, at: 0)
        for t in [0.5, 1.0] {                        // the second changes at t = 1
            clock.root.setCurrentTime(t)
            clock.update(elapsed: t)
            _ = try renderer.render(clock.root, at: t)
        }
        func angle(_ t: Double) -> Double {
            Double(ClockScene.angleOf(clock.secondHand.presentation(at: t).transform))
        }
        #expect(abs(angle(1.0)) < 1e-9)                                  // the sweep starts at 0
        #expect(angle(1.1) > 0.01 && angle(1.1) < .pi / 30)               // moving
        #expect(abs(angle(1.3) - .pi / 30) < 1e-9)                        // and done within 0.25 s
    }

    @Test func shapesStyleTurnsContinuously() throws {
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: .shapes, startTime: 0)
        #expect(abs(ClockScene.angleOf(clock.secondHand.presentation(at: 15).transform) - .pi / 2) < 1e-6)
        #expect(abs(ClockScene.angleOf(clock.minuteHand.presentation(at: 900).transform) - .pi / 2) < 1e-6)
    }

    @Test func theDateLineShowsTheDayAndTurnsAtMidnight() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let day = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 23)))
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: .layers, startTime: 86400 - 2,
                               day: day, timeZone: calendar.timeZone)
        #expect(clock.dateLabel?.string == "Mon 23 Nov")
        clock.update(elapsed: 3)   // 00:00:01 the next day
        #expect(clock.dateLabel?.string == "Tue 24 Nov")
        // No day, no line.
        #expect(ClockScene(size: CGSize(width: 240, height: 240), style: .layers, startTime: 0).dateLabel == nil)
    }
}
