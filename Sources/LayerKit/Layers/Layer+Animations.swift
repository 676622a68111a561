import Foundation

/// An animation attached to a layer.
struct AnimationEntry {
    let key: String
    let animation: Animation
    var started = false
}

extension Layer {
    // MARK: Adding and removing

    /// Runs a copy of `animation` on this layer, replacing any animation with the same key.
    /// The copy is deep (a group's members are copied too), so that changes to the objects
    /// you hold do not reach what runs.
    ///
    /// A begin time of 0 means now: the layer's `currentTime`. An animation that cannot run —
    /// an unknown key path, a value of the wrong type, keyframes that do not match — is not
    /// added; the reason goes to `AnimationDiagnostics.handler` (standard error by default).
    /// Use `animation.validate(for:)` to get the error thrown instead.
    public func add(_ animation: Animation, forKey key: String?) {
        do {
            try animation.validate(for: self)
        } catch {
            AnimationDiagnostics.handler(error)
            return
        }
        let running = animation.runningCopy()
        if running.beginTime == 0 { running.beginTime = currentTime }
        let entryKey = key ?? "animation-\(ObjectIdentifier(running).hashValue)"
        if let index = animationEntries.firstIndex(where: { $0.key == entryKey }) {
            let replaced = animationEntries.remove(at: index)
            replaced.animation.notifyStop(finished: false)
        }
        animationEntries.append(AnimationEntry(key: entryKey, animation: running))
        changed(.timing)
    }

    /// The running animation with `key` (a copy of what was added).
    public func animation(forKey key: String) -> Animation? {
        animationEntries.first { $0.key == key }?.animation
    }

    /// The keys of the running animations, in the order they were added; nil when none.
    public func animationKeys() -> [String]? {
        animationEntries.isEmpty ? nil : animationEntries.map(\.key)
    }

    /// Stops and removes the animation with `key` (its stop handler hears `finished: false`).
    public func removeAnimation(forKey key: String) {
        guard let index = animationEntries.firstIndex(where: { $0.key == key }) else { return }
        let removed = animationEntries.remove(at: index)
        removed.animation.notifyStop(finished: false)
        changed(.timing)
    }

    /// Stops and removes every animation.
    public func removeAllAnimations() {
        let removed = animationEntries
        animationEntries = []
        for entry in removed { entry.animation.notifyStop(finished: false) }
        if !removed.isEmpty { changed(.timing) }
    }

    // MARK: Time

    /// The time of the tree this layer is in, in the layer's local time: the time of the last
    /// frame rendered, or what `setCurrentTime(_:)` set. Animations with begin time 0 start here.
    public var currentTime: TimeInterval {
        convertTime(rootLayer.treeTime, from: nil)
    }

    /// Sets the tree's time (in root time) so that changes made now start their animations at
    /// `time`, as a run loop does before updating the model for a new frame.
    public func setCurrentTime(_ time: TimeInterval) {
        guard time.isFinite else { return }
        rootLayer.treeTime = time
    }

    /// Converts a time from `layer`'s local time (the tree's root time when nil) to this
    /// layer's, through each layer's begin time, speed and time offset.
    public func convertTime(_ time: TimeInterval, from layer: Layer?) -> TimeInterval {
        let rootTime = layer.map { $0.timeToRoot(time) } ?? time
        return timeFromRoot(rootTime)
    }

    /// Converts a time from this layer's local time to `layer`'s (the root's when nil).
    public func convertTime(_ time: TimeInterval, to layer: Layer?) -> TimeInterval {
        let rootTime = timeToRoot(time)
        return layer.map { $0.timeFromRoot(rootTime) } ?? rootTime
    }

    /// Root time → this layer's local time.
    func timeFromRoot(_ t: TimeInterval) -> TimeInterval {
        let chain = [self] + ancestors
        var time = t
        for layer in chain.reversed() { time = layer.localTime(fromParent: time) }
        return time
    }

    /// This layer's local time → root time.
    func timeToRoot(_ t: TimeInterval) -> TimeInterval {
        var time = t
        var layer: Layer? = self
        while let current = layer {
            let speed = Double(current.speed)
            // A paused layer maps every parent time to one local time: its begin is the answer.
            time = speed == 0 ? current.beginTime : (time - current.timeOffset) / speed + current.beginTime
            layer = current.superlayer ?? current.maskOwner
        }
        return time
    }

    /// Core Animation's local time: (parent − beginTime) · speed + timeOffset.
    func localTime(fromParent t: TimeInterval) -> TimeInterval {
        (t - beginTime) * Double(speed) + timeOffset
    }

    // MARK: Presentation

    /// The model layer: for a presentation copy, the layer it was made from; otherwise self
    /// (Core Animation's `model()`, typed as the receiver: `let m: ShapeLayer = shape.model()`).
    public func model() -> Self { (modelLayerStorage as? Self) ?? self }

    /// A copy of the layer as it is shown now — its model values with its running animations
    /// applied at the tree's current time — or nil while the layer has not been drawn in a
    /// frame (Core Animation's `presentation()`: a layer has a presentation once it is part of
    /// the render tree). The copy has no sublayers; changing it changes nothing shown.
    ///
    /// Called on a presentation copy, returns the copy itself.
    public func presentation() -> Self? {
        if isPresentationCopy { return self }
        guard hasBeenRendered else { return nil }
        return presentation(at: rootLayer.treeTime)
    }

    /// A copy of the layer as it is shown at tree time `time`: its model values with its
    /// running animations applied. Unlike `presentation()` it answers for any time, drawn or
    /// not, which is how tests ask what a frame will show.
    public func presentation(at time: TimeInterval) -> Self {
        let copy = presentationCopy(atLocalTime: timeFromRoot(time), notify: false) ?? type(of: self).init(layer: self)
        // `init(layer:)` is required, so the copy is of the receiver's class; the fallback is
        // never taken, and is a fresh copy rather than the model, which must not be handed out.
        return copy as? Self ?? type(of: self).init(layer: self)
    }

    /// The presentation copy at the layer's local time, or nil when no animation runs. With
    /// `notify`, start and stop handlers are collected and finished animations removed, as
    /// rendering a frame does.
    ///
    /// `reusing` is an earlier presentation copy of this layer that nothing else holds (the
    /// renderer's from its last frame): when `resetPresentationCopy` can bring it back to the
    /// model's values, it is reused instead of copying every property anew.
    func presentationCopy(atLocalTime time: TimeInterval, notify: Bool, reusing earlier: Layer? = nil,
                          callbacks: inout [() -> Void]) -> Layer? {
        guard !animationEntries.isEmpty else { return nil }
        let copy = earlier.flatMap { resetPresentationCopy($0) ? $0 : nil } ?? type(of: self).init(layer: self)
        var finished: [Int] = []
        for (index, entry) in animationEntries.enumerated() {
            // Validated when added; changed since (a running animation is the object
            // `animation(forKey:)` returns) to timing that places it nowhere: no effect, said once.
            guard entry.animation.timing.hasFiniteTiming else {
                do {
                    try entry.animation.validateTiming()
                } catch {
                    reportValueProblem("animation \(entry.key) timing", .animationTimingRefused(
                        layer: debugName, key: entry.key, reason: error.description))
                }
                continue
            }
            let result = entry.animation.apply(at: time, to: copy)
            if notify {
                if result.active, !entry.started {
                    animationEntries[index].started = true
                    let animation = entry.animation
                    callbacks.append { animation.notifyStart() }
                }
                if result.ended {
                    if !animationEntries[index].started {
                        animationEntries[index].started = true
                        let animation = entry.animation
                        callbacks.append { animation.notifyStart() }
                    }
                    if entry.animation.isRemovedOnCompletion { finished.append(index) }
                }
            }
        }
        for index in finished.reversed() {
            let animation = animationEntries.remove(at: index).animation
            callbacks.append { animation.notifyStop(finished: true) }
        }
        return copy
    }

    /// Brings `copy`, a presentation copy of this layer, back to what `init(layer:)` would make
    /// now, by copying back from the model only the declared properties set on it since: true
    /// when that is exact. It is when no declared property of the model changed since the copy
    /// was made or last reset, and the layer is of a built-in class (whose `init(layer:)` copies
    /// nothing else; a subclass may keep state of its own there).
    func resetPresentationCopy(_ copy: Layer) -> Bool {
        guard copy.isPresentationCopy, copy.modelLayerStorage === self, type(of: copy) == type(of: self),
              copy.declaredChanges == declaredChanges, Self.copiesOnlyDeclaredState(type(of: self)) else { return false }
        for slot in copy.writtenSlots { slot.copy(from: self, to: copy) }
        copy.writtenSlots.removeAll(keepingCapacity: true)
        copy.drawsContent = drawsContent
        copy.contentVersion = contentVersion
        copy.changeCount = changeCount
        return true
    }

    /// Whether `init(layer:)` of the class copies only the declared properties and the change
    /// counts: true for LayerKit's own classes, which do not override it.
    private static func copiesOnlyDeclaredState(_ type: Layer.Type) -> Bool {
        type == Layer.self || type == ShapeLayer.self || type == TextLayer.self || type == GradientLayer.self ||
            type == ReplicatorLayer.self || type == TransformLayer.self
    }

    func presentationCopy(atLocalTime time: TimeInterval, notify: Bool) -> Layer? {
        var ignored: [() -> Void] = []
        return presentationCopy(atLocalTime: time, notify: notify, callbacks: &ignored)
    }

    // MARK: Implicit actions

    /// Starts the implicit animation of a property change: once the layer has been rendered,
    /// unless actions are disabled in the current transaction or the layer's `actions` or
    /// delegate say otherwise.
    func runImplicitAction(forKey key: String, from old: AnimatableValue) {
        guard hasBeenRendered, !isPresentationCopy, !Transaction.disableActions else { return }
        // Core Animation's search: the delegate, then the `actions` dictionary, then the default.
        var action = delegate?.action(for: self, forKey: key) ?? .default
        if case .default = action { action = actions?[key] ?? .default }
        let animation: Animation
        switch action {
        case .none:
            return
        case let .animation(custom):
            animation = custom.runningCopy()
            if let property = animation as? PropertyAnimation, property.keyPath == nil { property.keyPath = key }
            if let basic = animation as? BasicAnimation, basic.fromValue == nil, basic.toValue == nil, basic.byValue == nil {
                basic.fromValue = presentedValue(forKey: key, modelValue: old)
            }
        case .default:
            let basic = BasicAnimation(keyPath: key)
            basic.fromValue = presentedValue(forKey: key, modelValue: old)
            basic.duration = Transaction.animationDuration
            basic.timingFunction = Transaction.animationTimingFunction ?? .default
            animation = basic
        }
        if let completion = Transaction.currentCompletion {
            let previous = animation.onStop
            animation.onStop = { finished in previous?(finished); completion() }
            Transaction.noteAnimationStarted()
        }
        add(animation, forKey: key)
    }

    /// What `key` shows now, had its model value still been `old`: the value an animation in
    /// flight has reached, so that a new animation continues from there.
    private func presentedValue(forKey key: String, modelValue old: AnimatableValue) -> Any? {
        guard let property = animatableProperty(forKeyPath: key) else { return old.boxed }
        guard animationEntries.contains(where: { ($0.animation as? PropertyAnimation)?.keyPath?.hasPrefix(key) ?? true }) else {
            return old.boxed
        }
        let copy = type(of: self).init(layer: self)
        property.set(copy, old)
        let time = currentTime
        for entry in animationEntries { _ = entry.animation.apply(at: time, to: copy) }
        return property.get(copy).boxed
    }
}
