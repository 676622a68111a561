import Foundation
import Testing
@testable import LayerKit

/// Core Animation's API contracts: actions, typed presentation and model layers,
/// CATransaction's class methods and copies of groups. Sources are named beside each rule.
@Suite struct CoreAnimationAPITests {
    /// A delegate that answers every key the same way.
    final class Answering: LayerDelegate {
        let answer: LayerAction
        init(_ answer: LayerAction) { self.answer = answer }
        func action(for layer: Layer, forKey key: String) -> LayerAction { answer }
    }

    /// A delegate written as Core Animation code is: `return .none` to disable.
    final class Disabling: LayerDelegate {
        func action(for layer: Layer, forKey key: String) -> LayerAction {
            if key == "opacity" { return .none }
            return .default
        }
    }

    private func renderedLayer() -> Layer {
        let layer = Layer()
        layer.hasBeenRendered = true
        layer.setCurrentTime(0)
        return layer
    }

    // MARK: Actions

    @Test func delegateReturningNoneDisablesTheAction() {
        // Apple (CALayerDelegate.action(for:forKey:)): returning NSNull stops the search and
        // no action runs; `.none` is LayerKit's spelling of it.
        let layer = renderedLayer()
        let delegate = Disabling()
        layer.delegate = delegate
        layer.opacity = 0.5
        #expect(layer.animationKeys() == nil)
        #expect(layer.opacity == 0.5)
        layer.position = CGPoint(x: 10, y: 0)   // `.default`: the implicit animation runs
        #expect(layer.animationKeys() == ["position"])
    }

    @Test func delegateDefaultFallsThroughToTheActionsDictionary() {
        // Apple (action(forKey:)): the delegate is asked first; nil (here `.default`) goes on
        // to the `actions` dictionary, then to the default action.
        let layer = renderedLayer()
        let delegate = Answering(.default)
        layer.delegate = delegate
        layer.actions = ["opacity": .none]
        layer.opacity = 0.2
        #expect(layer.animationKeys() == nil)
        let custom = BasicAnimation()
        custom.duration = 3
        layer.actions = ["opacity": .animation(custom)]
        layer.opacity = 0.7
        #expect(layer.animation(forKey: "opacity")?.duration == 3)
    }

    @Test func delegateAnswerWinsOverTheActionsDictionary() {
        let layer = renderedLayer()
        let delegate = Answering(.none)
        layer.delegate = delegate
        layer.actions = ["opacity": .animation(BasicAnimation())]
        layer.opacity = 0.2
        #expect(layer.animationKeys() == nil)
    }

    // MARK: Presentation and model

    @Test func presentationIsNilUntilTheLayerIsRendered() throws {
        // Apple: `presentation() -> Self?`; a layer has a presentation once it is part of the
        // render tree, nil before (Stack Overflow 45723310, "When does a CALayer have a
        // presentationLayer?").
        let shape = ShapeLayer()
        shape.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        #expect(shape.presentation() == nil)
        #expect(shape.presentation()?.position == nil)
        _ = try Renderer(scale: 1, threadCount: 1).render(shape, at: 0)
        let presented: ShapeLayer? = shape.presentation()
        #expect(presented?.position == CGPoint(x: 10, y: 10))
        #expect(presented !== shape)   // a copy: changing it changes nothing shown
    }

    @Test func presentationShowsRunningAnimationsAndModelReturnsTheModelTyped() throws {
        // Apple: `model() -> Self`, "calling this method on a layer in the presentation tree
        // returns the corresponding layer object in the model tree".
        let shape = ShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        _ = try Renderer(scale: 1, threadCount: 1).render(shape, at: 0)
        let fade = BasicAnimation(keyPath: "strokeEnd")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 2
        shape.add(fade, forKey: "draw")
        shape.setCurrentTime(1)
        let presented = try #require(shape.presentation())
        #expect(abs(presented.strokeEnd - 0.5) < 1e-9)
        let m: ShapeLayer = presented.model()
        #expect(m === shape)
        let own: ShapeLayer = shape.model()
        #expect(own === shape)
        #expect(presented.presentation() === presented)
    }

    @Test func presentationAtATimeIsTypedAndNeedsNoFrame() {
        let text = TextLayer()
        text.fontSize = 10
        let grow = BasicAnimation(keyPath: "fontSize")
        grow.fromValue = 10.0
        grow.toValue = 30.0
        grow.duration = 1
        text.add(grow, forKey: "grow")
        let presented: TextLayer = text.presentation(at: 0.5)
        #expect(presented.fontSize == 20)
        text.fontSize = 12
        #expect(text.presentation(at: 5).fontSize == 12)
        #expect(text.presentation(at: 5) !== text)   // never the model itself
    }

    // MARK: Transactions

    @Test func transactionClassMethodsSetTheCurrentTransaction() {
        // Apple (CATransaction): begin(), commit(), setAnimationDuration(_:),
        // setAnimationTimingFunction(_:), setDisableActions(_:), setCompletionBlock(_:), and
        // the matching getters; nested transactions inherit what they do not set.
        let layer = renderedLayer()
        Transaction.begin()
        Transaction.setAnimationDuration(2)
        Transaction.setAnimationTimingFunction(.linear)
        #expect(Transaction.animationDuration == 2)
        layer.opacity = 0.5
        #expect(layer.animation(forKey: "opacity")?.duration == 2)
        #expect(layer.animation(forKey: "opacity")?.timingFunction == .linear)
        Transaction.begin()
        Transaction.setDisableActions(true)
        #expect(Transaction.disableActions && Transaction.animationDuration == 2)
        layer.position = CGPoint(x: 5, y: 5)
        Transaction.commit()
        #expect(layer.animation(forKey: "position") == nil)
        Transaction.commit()
        #expect(!Transaction.disableActions && Transaction.animationDuration == 0.25)
    }

    @Test func transactionCompletionBlockRunsWhenItsAnimationsFinish() {
        // Apple (setCompletionBlock(_:)): "The completion block object that is guaranteed to be
        // called (on the main thread) as soon as all animations subsequently added by this
        // transaction group have completed (or have been removed.)"
        let layer = renderedLayer()
        var done = 0
        Transaction.begin()
        Transaction.setCompletionBlock { done += 1 }
        layer.opacity = 0
        Transaction.commit()
        #expect(done == 0)
        layer.removeAllAnimations()
        #expect(done == 1)
        Transaction.begin()
        Transaction.setCompletionBlock { done += 1 }
        Transaction.commit()   // nothing started: at once
        #expect(done == 2)
    }

    @Test func transactionValuesByKey() {
        // Apple (CATransaction.value(forKey:), setValue(_:forKey:)): the settings are also
        // reachable by their keys (kCATransactionAnimationDuration, …), and other keys hold
        // values of your own.
        Transaction.begin()
        Transaction.setValue(1.5, forKey: Transaction.animationDurationKey)
        Transaction.setValue(true, forKey: Transaction.disableActionsKey)
        Transaction.setValue("mine", forKey: "note")
        #expect(Transaction.animationDuration == 1.5)
        #expect(Transaction.value(forKey: Transaction.disableActionsKey) as? Bool == true)
        Transaction.begin()
        #expect(Transaction.value(forKey: "note") as? String == "mine")
        Transaction.commit()
        Transaction.commit()
        #expect(Transaction.value(forKey: "note") == nil)
    }

    @Test func flushCommitsTheImplicitTransactionOnly() {
        // Apple (flush()): "Flushes any extant implicit transaction. Delays the commit until
        // any nested explicit transactions have completed."
        Transaction.setAnimationDuration(4)        // outside begin(): the implicit transaction
        #expect(Transaction.animationDuration == 4)
        Transaction.begin()
        Transaction.flush()
        #expect(Transaction.animationDuration == 4)   // the explicit one is still open
        Transaction.commit()
        #expect(Transaction.animationDuration == 0.25)
        Transaction.setDisableActions(true)
        Transaction.flush()
        #expect(!Transaction.disableActions)
    }

    // MARK: Groups

    @Test func copyingAGroupSharesItsMembers() {
        // Apple (CAAnimationGroup): a copy (NSCopying) of a group holds the same `animations`
        // array, whose elements are the same animation objects.
        let move = BasicAnimation(keyPath: "position.x")
        let group = AnimationGroup()
        group.animations = [move]
        let copy = group.copy()
        #expect(copy !== group)
        #expect(copy.animations?.first === move)
    }

    @Test func addingAGroupRunsMembersOfItsOwn() {
        // What runs is fixed when it is added (Apple: "the animation object is copied by the
        // layer"): changing a member afterwards changes nothing on the layer.
        let layer = Layer()
        let move = BasicAnimation(keyPath: "position.x")
        move.fromValue = 0.0
        move.toValue = 100.0
        move.duration = 1
        let group = AnimationGroup()
        group.animations = [move]
        group.duration = 1
        layer.add(group, forKey: "g")
        move.toValue = 1000.0
        #expect(layer.presentation(at: 0.5).position.x == 50)
        let running = layer.animation(forKey: "g") as? AnimationGroup
        #expect(running?.animations?.first !== move)
    }

    @Test func transactionsAreTheCallingThreadsOwn() throws {
        // Each thread has its own stack of open transactions: one thread's settings never
        // reach another, and a thread that ends with a transaction open takes it with it.
        Transaction.begin()
        Transaction.setDisableActions(true)
        Transaction.animationDuration = 3
        let seen = Locked<[String]>([])
        let threads = (0..<4).map { i in
            Thread {
                let before = "\(Transaction.disableActions) \(Transaction.animationDuration)"
                Transaction.begin()
                Transaction.animationDuration = Double(i + 10)
                let inside = "\(Transaction.animationDuration)"
                // Left open on purpose: the thread's slot is released when it exits.
                seen.withLock { $0.append("\(before) \(inside)") }
            }
        }
        for thread in threads { thread.start() }
        let deadline = Date().addingTimeInterval(10)
        while seen.withLock({ $0.count }) < 4 && Date() < deadline { usleep(1_000) }
        #expect(Set(seen.withLock { $0 }) == Set((0..<4).map { "false 0.25 \(Double($0 + 10))" }))
        #expect(Transaction.disableActions && Transaction.animationDuration == 3)
        Transaction.commit()
        #expect(!Transaction.disableActions)
    }

}
