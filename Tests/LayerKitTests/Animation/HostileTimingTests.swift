import Foundation
import Testing
@testable import LayerKit

/// Animations whose timing or values are NaN or infinite used to trap in MediaTiming (Double to
/// Int); they are refused when added, and the timing maths is total for whatever gets through.
@Suite struct HostileTimingTests {
    static let bad: [Double] = [.nan, .infinity, -.infinity]

    func fade() -> BasicAnimation {
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 0.0
        fade.duration = 10
        return fade
    }

    /// Adds `animation` to a red square and renders frames: the square must show unanimated.
    func expectRefusedAndSquareShown(_ animation: Animation, _ role: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let root = rootLayer(40, 40)
        let square = solidLayer(CGRect(x: 10, y: 10, width: 20, height: 20), .red, in: root)
        #expect(throws: AnimationError.self, sourceLocation: sourceLocation) { try animation.validate(for: square) }
        do {
            try animation.validate(for: square)
        } catch {
            #expect(error.description.contains(role), "\(error)", sourceLocation: sourceLocation)
        }
        let previous = AnimationDiagnostics.handler
        AnimationDiagnostics.handler = { _ in }
        square.add(animation, forKey: "bad")
        AnimationDiagnostics.handler = previous
        #expect(square.animationKeys() == nil, sourceLocation: sourceLocation)
        let renderer = Renderer(threadCount: 1)
        for t in [0.0, 0.5, 3, 1e300] {
            #expect(try renderer.render(root, at: t).pixel(x: 20, y: 20) == .red, sourceLocation: sourceLocation)
        }
    }

    @Test func nonFiniteSpeedIsRefused() throws {
        for value in Self.bad {
            let a = fade(); a.speed = Float(value)
            try expectRefusedAndSquareShown(a, "speed")
        }
    }

    @Test func nonFiniteBeginTimeIsRefused() throws {
        for value in Self.bad {
            let a = fade(); a.beginTime = value
            try expectRefusedAndSquareShown(a, "beginTime")
        }
    }

    @Test func nonFiniteTimeOffsetIsRefused() throws {
        for value in Self.bad {
            let a = fade(); a.timeOffset = value
            try expectRefusedAndSquareShown(a, "timeOffset")
        }
    }

    @Test func nonFiniteDurationAndNaNRepeatsAreRefused() throws {
        for value in Self.bad {
            let a = fade(); a.duration = value
            try expectRefusedAndSquareShown(a, "duration")
        }
        let count = fade(); count.repeatCount = .nan
        try expectRefusedAndSquareShown(count, "repeatCount")
        let span = fade(); span.repeatDuration = .nan
        try expectRefusedAndSquareShown(span, "repeatDuration")
    }

    @Test func nonFiniteValuesAndSpringsAreRefused() throws {
        let to = fade(); to.toValue = Double.nan
        try expectRefusedAndSquareShown(to, "toValue")
        let keyframes = KeyframeAnimation(keyPath: "position.x")
        keyframes.values = [0.0, Double.infinity]
        try expectRefusedAndSquareShown(keyframes, "values[1]")
        let spring = SpringAnimation(keyPath: "opacity", damping: .nan)
        spring.toValue = 0.0
        try expectRefusedAndSquareShown(spring, "damping")
        let group = AnimationGroup()
        let member = fade(); member.speed = .nan
        group.animations = [member]
        try expectRefusedAndSquareShown(group, "speed")
    }

    @Test func foreverStillMeansForever() throws {
        let a = fade()
        a.repeatCount = .infinity
        a.duration = 1
        let root = rootLayer(40, 40)
        let square = solidLayer(CGRect(x: 10, y: 10, width: 20, height: 20), .red, in: root)
        try a.validate(for: square)
        square.add(a, forKey: "forever")
        #expect(try Renderer(threadCount: 1).render(root, at: 1e9).alpha(20, 20) == 0)
    }

    /// Timing changed after the animation was added (through `animation(forKey:)`, which hands
    /// out the running copy) or huge values: every combination answers without trapping.
    @Test func timingMathIsTotal() {
        let values: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 0, -0.0, .leastNonzeroMagnitude, -1e300, 1]
        var answered = 0
        for begin in values {
            for speed in values {
                for offset in values {
                    for duration in values {
                        var timing = TimingParameters()
                        timing.beginTime = begin; timing.speed = Float(speed); timing.timeOffset = offset
                        timing.duration = duration
                        timing.repeatCount = duration == 1 ? .infinity : 2
                        timing.autoreverses = offset == 1
                        timing.fillMode = .both
                        for t in values {
                            if let p = timing.progress(atParentTime: t) {
                                #expect(p.fraction >= 0 && p.fraction <= 1 && p.iteration >= 0)
                                answered += 1
                            }
                            _ = timing.nextChange(afterParentTime: t)
                        }
                    }
                }
            }
        }
        #expect(answered > 0)
    }

    @Test func runningAnimationChangedToNaNHasNoEffect() throws {
        let root = rootLayer(40, 40)
        let square = solidLayer(CGRect(x: 10, y: 10, width: 20, height: 20), .red, in: root)
        square.add(fade(), forKey: "fade")
        let renderer = Renderer(threadCount: 1)
        #expect(try renderer.render(root, at: 1).alpha(20, 20) == 0)
        DiagnosticLog.start()
        square.name = uniqueName("running")
        square.animation(forKey: "fade")?.timeOffset = .nan
        square.animation(forKey: "fade")?.speed = .infinity
        #expect(try renderer.render(root, at: 2).pixel(x: 20, y: 20) == .red)
        #expect(try renderer.render(root, at: 3).pixel(x: 20, y: 20) == .red)
        // Said once (not once a frame), naming the layer, the key and the first unusable number.
        let messages = DiagnosticLog.messages(mentioning: square.name!)
        #expect(messages.count == 1, "\(messages)")
        #expect(messages.first?.contains("\"fade\"") == true && messages.first?.contains("speed") == true, "\(messages)")
    }
}
