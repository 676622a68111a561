import Foundation
import Testing
@testable import LayerKit

/// Local time per Core Animation's CAMediaTiming model (CAMediaTiming.h: t = (tp − begin) · speed
/// + offset; repeatCount / repeatDuration / autoreverses / fillMode as documented there).
@Suite struct MediaTimingTests {
    struct Row: Sendable, CustomStringConvertible {
        var begin = 0.0, duration = 1.0, speed: Float = 1, offset = 0.0, repeatCount: Float = 0
        var repeatDuration = 0.0, autoreverses = false, fill = FillMode.removed
        let t: Double
        let expected: Double?   // nil: no effect
        var description: String { "begin \(begin) dur \(duration) speed \(speed) offset \(offset) rc \(repeatCount) rd \(repeatDuration) ar \(autoreverses) fill \(fill) t \(t)" }
    }

    static let table: [Row] = [
        Row(t: -0.5, expected: nil),                          // before, not filled
        Row(fill: .backwards, t: -0.5, expected: 0),          // before, filled backwards
        Row(fill: .both, t: -0.5, expected: 0),
        Row(t: 0, expected: 0),
        Row(t: 0.25, expected: 0.25),
        Row(t: 1, expected: nil),                             // ended, removed
        Row(fill: .forwards, t: 3, expected: 1),              // ended, held
        Row(begin: 2, t: 2.5, expected: 0.5),
        Row(begin: 2, t: 1.5, expected: nil),
        Row(speed: 2, t: 0.25, expected: 0.5),                // twice as fast
        Row(speed: 2, t: 0.5, expected: nil),                 // done at 0.5 s
        Row(speed: 0.5, t: 1, expected: 0.5),
        Row(duration: 2, repeatCount: 3, t: 5, expected: 0.5),
        Row(duration: 2, repeatCount: 3, t: 6, expected: nil),
        Row(duration: 2, repeatCount: 3, fill: .forwards, t: 7, expected: 1),
        Row(repeatCount: 1.5, fill: .forwards, t: 9, expected: 0.5),   // ends mid-cycle
        Row(repeatCount: .infinity, t: 12345.25, expected: 0.25),
        Row(repeatDuration: 2.5, t: 2.25, expected: 0.25),
        Row(repeatDuration: 2.5, t: 2.5, expected: nil),
        Row(autoreverses: true, t: 0.25, expected: 0.25),
        Row(autoreverses: true, t: 1.25, expected: 0.75),     // on the way back
        Row(autoreverses: true, fill: .forwards, t: 5, expected: 0),  // ends where it began
        Row(repeatCount: 2, autoreverses: true, t: 3.5, expected: 0.5),
        Row(duration: 5, offset: 2, t: 0, expected: 0.4),     // starts 2 s in …
        Row(duration: 5, offset: 2, t: 3.5, expected: 0.1),   // … wraps round …
        Row(duration: 5, offset: 2, t: 5, expected: nil),     // … and still lasts 5 s
        Row(duration: 0, t: 0.125, expected: 0.5),            // duration 0 means 0.25 s
    ]

    @Test(arguments: table)
    func localTimeFollowsTheDocumentedModel(_ row: Row) {
        var p = TimingParameters()
        p.beginTime = row.begin; p.duration = row.duration; p.speed = row.speed; p.timeOffset = row.offset
        p.repeatCount = row.repeatCount; p.repeatDuration = row.repeatDuration
        p.autoreverses = row.autoreverses; p.fillMode = row.fill
        let got = p.progress(atParentTime: row.t)?.fraction
        if let expected = row.expected {
            #expect(got != nil && abs(got! - expected) < 1e-12, "\(row): got \(String(describing: got))")
        } else {
            #expect(got == nil, "\(row): got \(String(describing: got))")
        }
    }

    @Test func iterationsAreCounted() {
        var p = TimingParameters()
        p.duration = 2
        p.repeatCount = 3
        #expect(p.progress(atParentTime: 0.5)?.iteration == 0)
        #expect(p.progress(atParentTime: 2.5)?.iteration == 1)
        #expect(p.progress(atParentTime: 5.9)?.iteration == 2)
        p.fillMode = .forwards
        #expect(p.progress(atParentTime: 100)?.iteration == 2)
    }

    @Test func nonFiniteTimeHasNoEffect() {
        #expect(TimingParameters().progress(atParentTime: .nan) == nil)
    }
}
