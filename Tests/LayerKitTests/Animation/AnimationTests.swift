import Foundation
import Testing
@testable import LayerKit

@Suite struct AnimationTests {
    /// A layer whose tree time is `time`, with `animation` added at time 0.
    func layer(with animation: Animation, key: String = "a") -> Layer {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.add(animation, forKey: key)
        return layer
    }

    @Test func fullTurnByRotationZReallyTurnsOnce() {
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 1
        spin.timingFunction = TimingFunction(name: .linear)
        let layer = layer(with: spin)
        let quarter = layer.presentation(at: 0.25).transform
        let half = layer.presentation(at: 0.5).transform
        let threeQuarters = layer.presentation(at: 0.75).transform
        #expect(close(quarter, Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1), 1e-9))
        #expect(close(half, Transform3D(rotationAngle: .pi, x: 0, y: 0, z: 1), 1e-9))
        #expect(close(threeQuarters, Transform3D(rotationAngle: 3 * .pi / 2, x: 0, y: 0, z: 1), 1e-9))
        // A matrix interpolation from identity to identity would never move.
        #expect(!close(half, .identity, 0.1))
    }

    @Test func rotationSubpathKeepsTheOtherComponents() {
        let layer = Layer()
        layer.transform = Transform3D(scaleX: 2, y: 2)
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = Double.pi / 2
        spin.duration = 1
        layer.add(spin, forKey: "spin")
        let t = layer.presentation(at: 1 - 1e-9).transform
        #expect(close(t, Transform3D(scaleX: 2, y: 2).concatenating(Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)), 1e-6))
    }

    @Test func basicAnimationValueCombinations() {
        func value(from: Any?, to: Any?, by: Any?, model: CGFloat, at t: Double) -> CGFloat {
            let layer = Layer()
            layer.position.x = model
            let a = BasicAnimation(keyPath: "position.x")
            a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = 1
            layer.add(a, forKey: "x")
            return layer.presentation(at: t).position.x
        }
        #expect(value(from: 10.0, to: 20.0, by: nil, model: 0, at: 0.5) == 15)
        #expect(value(from: 10.0, to: nil, by: 4.0, model: 0, at: 0.5) == 12)
        #expect(value(from: nil, to: 20.0, by: 4.0, model: 0, at: 0.5) == 18)
        #expect(value(from: 10.0, to: nil, by: nil, model: 30, at: 0.5) == 20)
        #expect(value(from: nil, to: 20.0, by: nil, model: 30, at: 0.5) == 25)
        #expect(value(from: nil, to: nil, by: 6.0, model: 30, at: 0.5) == 33)
        // Any numeric type will do, as in Core Animation.
        #expect(value(from: 10, to: Float(20), by: nil, model: 0, at: 0.25) == 12.5)
    }

    @Test func animationDoesNotTouchTheModelAndEndsByDefault() {
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 2
        let layer = layer(with: a)
        #expect(abs(layer.presentation(at: 1).opacity - 0.5) < 1e-6)
        #expect(layer.opacity == 1)
        #expect(layer.presentation(at: 3).opacity == 1)   // removed fill: the model shows
    }

    @Test func fillForwardsHoldsTheEndValue() {
        let a = BasicAnimation(keyPath: "position")
        a.fromValue = CGPoint(x: 0, y: 0); a.toValue = CGPoint(x: 100, y: 50); a.duration = 1
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        let layer = layer(with: a)
        #expect(layer.presentation(at: 5).position == CGPoint(x: 100, y: 50))
    }

    @Test func additiveAndCumulative() {
        let layer = Layer()
        layer.position = CGPoint(x: 100, y: 0)
        let shake = BasicAnimation(keyPath: "position.x")
        shake.fromValue = -10.0; shake.toValue = 10.0; shake.duration = 1; shake.isAdditive = true
        layer.add(shake, forKey: "shake")
        #expect(layer.presentation(at: 0.75).position.x == 105)

        let steps = BasicAnimation(keyPath: "position.y")
        steps.fromValue = 0.0; steps.toValue = 10.0; steps.duration = 1; steps.repeatCount = 3; steps.isCumulative = true
        let other = Layer()
        other.add(steps, forKey: "steps")
        #expect(abs(other.presentation(at: 2.5).position.y - 25) < 1e-9)
    }

    @Test func colorsInterpolateComponentWise() {
        let a = BasicAnimation(keyPath: "backgroundColor")
        a.fromValue = Color.red; a.toValue = Color.blue; a.duration = 1
        let layer = layer(with: a)
        #expect(layer.presentation(at: 0.5).backgroundColor == Color(red: 0.5, green: 0, blue: 0.5))
    }

    @Test func keyframeModes() {
        func x(_ mode: CalculationMode, values: [Double], times: [Double]? = nil, at t: Double) -> CGFloat {
            let a = KeyframeAnimation(keyPath: "position.x")
            a.values = values; a.keyTimes = times; a.calculationMode = mode; a.duration = 1
            let layer = Layer()
            layer.add(a, forKey: "k")
            return layer.presentation(at: t).position.x
        }
        #expect(x(.linear, values: [0, 10, 30], at: 0.75) == 20)
        #expect(x(.linear, values: [0, 10, 30], times: [0, 0.2, 1], at: 0.6) == 20)
        #expect(x(.discrete, values: [0, 10, 30], at: 0.5) == 10)
        #expect(x(.discrete, values: [0, 10, 30], at: 0.2) == 0)
        // Paced: 0→10→30 has 30 units of travel; at half time the value is 15 (in the second leg).
        #expect(abs(x(.paced, values: [0, 10, 30], at: 0.5) - 15) < 1e-9)
        // Cubic passes through every value and is smooth in between.
        #expect(abs(x(.cubic, values: [0, 10, 30, 60], at: 1.0 / 3.0) - 10) < 1e-9)
        let mid = x(.cubic, values: [0, 10, 30, 60], at: 0.5)
        // Catmull-Rom between 10 and 30 with tangents 15 and 25: at the midpoint 20 − (25 − 15)/8.
        #expect(abs(mid - 18.75) < 1e-9)
    }

    @Test func groupsRunMembersOnTheGroupsTimeline() {
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0; move.toValue = 100.0; move.duration = 1
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0; fade.toValue = 0.0; fade.duration = 1; fade.beginTime = 1
        let group = AnimationGroup()
        group.animations = [move, fade]
        group.duration = 2
        let layer = Layer()
        layer.add(group, forKey: "g")
        #expect(layer.presentation(at: 0.5).position.x == 50)
        #expect(layer.presentation(at: 0.5).opacity == 1)
        #expect(abs(layer.presentation(at: 1.5).opacity - 0.5) < 1e-6)
    }

    @Test func springMatchesTheAnalyticOscillator() {
        // Underdamped: m = 1, k = 100, c = 10 → ω0 = 10, ζ = 0.5. Released from rest, the first
        // overshoot peaks at t = π/ωd with height e^(−ζπ/√(1−ζ²)).
        let spring = SpringAnimation(keyPath: "position.x", mass: 1, stiffness: 100, damping: 10)
        let zeta = 0.5, omegaD = 10 * (1 - zeta * zeta).squareRoot()
        let peak = spring.position(at: .pi / omegaD)
        #expect(abs(peak - (1 + exp(-zeta * .pi / (1 - zeta * zeta).squareRoot()))) < 1e-12)
        #expect(spring.position(at: 0) == 0)
        // Critically damped never overshoots.
        let critical = SpringAnimation(keyPath: "position.x", mass: 1, stiffness: 100, damping: 20)
        #expect((1...300).allSatisfy { critical.position(at: Double($0) / 100) <= 1 })
        // Settling: after settlingDuration the spring stays within 0.1% of its target.
        let settle = spring.settlingDuration
        #expect((0...200).allSatisfy { abs(spring.position(at: settle + Double($0) / 50) - 1) <= 0.001 })
        #expect(abs(spring.position(at: settle * 0.5) - 1) > 0.001)
        // On a layer, the value follows the spring over real time.
        spring.fromValue = 0.0; spring.toValue = 200.0; spring.duration = settle
        let layer = layer(with: spring)
        #expect(abs(layer.presentation(at: .pi / omegaD).position.x - 200 * peak) < 1e-6)
    }

    @Test func unknownKeyPathAndWrongTypesAreRejectedWithAReason() {
        let layer = Layer()
        let bad = BasicAnimation(keyPath: "transform.wobble")
        #expect(throws: AnimationError.unknownKeyPath("transform.wobble", layer: "Layer")) { try bad.validate(for: layer) }
        let wrong = BasicAnimation(keyPath: "position")
        wrong.toValue = "left"
        #expect(throws: AnimationError.self) { try wrong.validate(for: layer) }
        do {
            try wrong.validate(for: layer)
        } catch {
            #expect(error.description.contains("toValue must be a CGPoint, not String"))
        }
        layer.add(wrong, forKey: "w")
        #expect(layer.animationKeys() == nil)
        let keyframes = KeyframeAnimation(keyPath: "opacity")
        keyframes.values = [0.0, 1.0, 0.5]
        keyframes.keyTimes = [0, 1]
        #expect(throws: AnimationError.self) { try keyframes.validate(for: layer) }
    }

    @Test func addingCopiesAndReplacesByKey() {
        let layer = Layer()
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1
        var stops: [Bool] = []
        a.onStop = { stops.append($0) }
        layer.add(a, forKey: "fade")
        a.toValue = 0.0   // the running copy is unaffected
        #expect(abs(layer.presentation(at: 0.5).opacity - 0.5) < 1e-6)
        layer.add(a, forKey: "fade")
        #expect(stops == [false])
        #expect(layer.animationKeys() == ["fade"])
        layer.removeAnimation(forKey: "fade")
        #expect(stops == [false, false])
        #expect(layer.animationKeys() == nil)
    }

    @Test func layerSpeedAndTimeOffsetGovernSublayerAnimations() {
        let root = Layer(), child = Layer()
        root.addSublayer(child)
        root.speed = 2
        let a = BasicAnimation(keyPath: "position.x")
        a.fromValue = 0.0; a.toValue = 100.0; a.duration = 1
        child.add(a, forKey: "x")
        #expect(child.presentation(at: 0.25).position.x == 50)
        #expect(child.convertTime(0.5, from: nil) == 1)
        #expect(child.convertTime(1, to: nil) == 0.5)
        // Pausing: speed 0 and a time offset freeze the layer at that local time.
        root.speed = 0
        root.timeOffset = 0.25
        #expect(child.presentation(at: 7).position.x == 25)
    }

    @Test func beginTimeZeroMeansTheTreesCurrentTime() {
        let layer = Layer()
        layer.setCurrentTime(10)
        let a = BasicAnimation(keyPath: "position.x")
        a.fromValue = 0.0; a.toValue = 100.0; a.duration = 1
        layer.add(a, forKey: "x")
        #expect(layer.animation(forKey: "x")?.beginTime == 10)
        #expect(layer.presentation(at: 10.5).position.x == 50)
    }

    @Test func finishedAnimationsAreRemovedAndReported() {
        let layer = Layer()
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1
        var events: [String] = []
        a.onStart = { events.append("start") }
        a.onStop = { events.append("stop \($0)") }
        layer.add(a, forKey: "fade")
        var callbacks: [() -> Void] = []
        _ = layer.presentationCopy(atLocalTime: 0.5, notify: true, callbacks: &callbacks)
        _ = layer.presentationCopy(atLocalTime: 1.5, notify: true, callbacks: &callbacks)
        callbacks.forEach { $0() }
        #expect(events == ["start", "stop true"])
        #expect(layer.animationKeys() == nil)
    }
}

@Suite struct ImplicitAnimationTests {
    @Test func changesBeforeTheFirstFrameApplyAtOnce() {
        let layer = Layer()
        layer.position = CGPoint(x: 50, y: 50)
        #expect(layer.animationKeys() == nil)
    }

    @Test func changesAfterRenderingAnimateWithTheTransactionsSettings() {
        let layer = Layer()
        layer.hasBeenRendered = true
        layer.setCurrentTime(3)
        layer.position = CGPoint(x: 100, y: 0)
        let a = layer.animation(forKey: "position") as? BasicAnimation
        #expect(a?.duration == 0.25)
        #expect(a?.timingFunction == .default)
        #expect(a?.fromValue as? CGPoint == .zero)
        #expect(layer.presentation(at: 3).position == .zero)
        #expect(layer.presentation(at: 3.25).position == CGPoint(x: 100, y: 0))

        Transaction.perform(duration: 2) { layer.opacity = 0 }
        #expect(layer.animation(forKey: "opacity")?.duration == 2)
    }

    @Test func disabledActionsAndNullActionsDoNotAnimate() {
        let layer = Layer()
        layer.hasBeenRendered = true
        Transaction.begin()
        Transaction.disableActions = true
        layer.position = CGPoint(x: 10, y: 10)
        Transaction.commit()
        #expect(layer.animationKeys() == nil)
        layer.actions = ["opacity": .none]
        layer.opacity = 0.5
        #expect(layer.animationKeys() == nil)
        layer.cornerRadius = 4
        #expect(layer.animationKeys() == ["cornerRadius"])
    }

    @Test func newAnimationContinuesFromWhereTheRunningOneIs() {
        let layer = Layer()
        layer.hasBeenRendered = true
        layer.setCurrentTime(0)
        layer.position = CGPoint(x: 100, y: 0)       // 0 → 100 over 0.25 s, default curve
        layer.setCurrentTime(0.125)
        let midway = layer.presentation(at: 0.125).position
        layer.position = CGPoint(x: 0, y: 0)
        let a = layer.animation(forKey: "position") as? BasicAnimation
        #expect(a?.fromValue as? CGPoint == midway)
    }

    @Test func transactionCompletionRunsAfterItsAnimationsFinish() {
        let layer = Layer()
        layer.hasBeenRendered = true
        var completed = false
        Transaction.perform(completion: { completed = true }) { layer.opacity = 0 }
        #expect(!completed)
        var callbacks: [() -> Void] = []
        _ = layer.presentationCopy(atLocalTime: 1, notify: true, callbacks: &callbacks)
        callbacks.forEach { $0() }
        #expect(completed)
        var immediate = false
        Transaction.perform(completion: { immediate = true }) {}
        #expect(immediate)
    }
}

@Suite struct KeyframePathAndTypedKeyPathTests {
    @Test func typedKeyPathsNameTheCoreAnimationKeys() {
        #expect(BasicAnimation(keyPath: \Layer.opacity).keyPath == "opacity")
        #expect(BasicAnimation(keyPath: \Layer.position.x).keyPath == "position.x")
        #expect(SpringAnimation(keyPath: \Layer.bounds.size.width).keyPath == "bounds.size.width")
        #expect(BasicAnimation(keyPath: \ShapeLayer.strokeEnd).keyPath == "strokeEnd")
        // Not animatable: the animation says so when added.
        let hidden = BasicAnimation(keyPath: \Layer.isHidden)
        #expect(throws: AnimationError.self) { try hidden.validate(for: Layer()) }
    }

    @Test func positionFollowsAPathAtConstantSpeedAndTurnsWithIt() {
        var route = Path()
        route.move(to: CGPoint(x: 0, y: 0))
        route.addLine(to: CGPoint(x: 100, y: 0))
        route.addLine(to: CGPoint(x: 100, y: 100))
        let move = KeyframeAnimation(keyPath: "position")
        move.path = route
        move.rotationMode = .rotateAuto
        move.duration = 2
        let layer = Layer()
        layer.add(move, forKey: "move")
        let early = layer.presentation(at: 0.5), late = layer.presentation(at: 1.5)
        #expect(close(early.position, CGPoint(x: 50, y: 0), 1e-6))
        #expect(close(late.position, CGPoint(x: 100, y: 50), 1e-6))
        // Heading right (0) on the first leg, down (π/2) on the second.
        #expect(abs(atan2(early.transform.m12, early.transform.m11)) < 1e-9)
        #expect(abs(atan2(late.transform.m12, late.transform.m11) - .pi / 2) < 1e-9)
        let wrong = KeyframeAnimation(keyPath: "opacity")
        wrong.path = route
        #expect(throws: AnimationError.self) { try wrong.validate(for: layer) }
    }

    /// An animation keeps its property and converted values from frame to frame; changing its
    /// values or key path while it runs (it is the object `animation(forKey:)` returns) takes
    /// effect at the next frame all the same.
    @Test func changesToARunningAnimationReachTheNextFrame() throws {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        layer.add(move, forKey: "move")
        let running = try #require(layer.animation(forKey: "move") as? BasicAnimation)
        #expect(layer.presentation(at: 0.5).position.x == 50)
        running.toValue = 200.0
        #expect(layer.presentation(at: 0.5).position.x == 100)
        running.fromValue = CGFloat(100)
        #expect(layer.presentation(at: 0.5).position.x == 150)
        running.toValue = nil
        running.byValue = Float(20)
        #expect(layer.presentation(at: 0.5).position.x == 110)
        running.keyPath = "position.y"
        let shown = layer.presentation(at: 0.5)
        #expect(shown.position.x == 0)
        #expect(shown.position.y == 110)
        running.keyPath = "bounds"
        // Numbers do not fit a rect: the animation shows nothing (validated values only when added).
        #expect(layer.presentation(at: 0.5).bounds == layer.bounds)
    }
}
