import Foundation

/// Groups property changes and sets how their implicit animations run (Core Animation's
/// CATransaction): duration, timing function, whether actions run, and a completion block
/// called when every animation started inside has finished.
///
/// Transactions nest and belong to the thread that opens them. Changes made outside any
/// explicit transaction use the defaults (0.25 s, the default curve, actions on). Setting a
/// value outside `begin()`/`commit()` opens an implicit transaction, which keeps the value
/// until `flush()` commits it (Core Animation commits it at the end of the run loop turn).
///
/// Both spellings work: the properties (`Transaction.disableActions = true`) and Core
/// Animation's class methods (`Transaction.setDisableActions(true)`); the compatibility
/// module's `CATransaction` adds the method-style getters (`CATransaction.disableActions()`).
public enum Transaction {
    /// The implicit animation duration of the current transaction (0.25 s by default).
    public static var animationDuration: TimeInterval {
        get { current.duration ?? 0.25 }
        set { modifyTop { $0.duration = newValue } }
    }

    /// The timing function of implicit animations (Core Animation's default curve when nil).
    public static var animationTimingFunction: TimingFunction? {
        get { current.timingFunction }
        set { modifyTop { $0.timingFunction = newValue } }
    }

    /// Whether property changes skip their implicit animations.
    public static var disableActions: Bool {
        get { current.disableActions ?? false }
        set { modifyTop { $0.disableActions = newValue } }
    }

    /// Called once every animation started in this transaction has finished (at once at
    /// commit when none was started).
    public static var completionBlock: (() -> Void)? {
        get { stack.last?.completion }
        set { modifyTop { $0.completion = newValue } }
    }

    /// Opens a transaction (Core Animation's `begin()`).
    public static func begin() {
        var stack = self.stack
        stack.append(Frame())
        self.stack = stack
    }

    /// Closes the innermost transaction (Core Animation's `commit()`). Its completion block
    /// runs once the animations started in it have finished (at once when there are none).
    /// Closing the last explicit transaction also closes an implicit one that `flush()` left
    /// waiting for it.
    public static func commit() {
        var stack = self.stack
        guard let closed = stack.popLast() else { return }
        var closing = [closed]
        if stack.count == 1, stack[0].isImplicit, stack[0].flushPending { closing.append(stack.removeLast()) }
        self.stack = stack
        for frame in closing {
            if let completion = frame.completion { frame.tracker.commit(completion) }
        }
    }

    /// Commits the implicit transaction — the one that setting a value outside `begin()` opens
    /// — as Core Animation's `flush()` does; while explicit transactions are open, it is
    /// committed when the last of them is.
    public static func flush() {
        var stack = self.stack
        guard let first = stack.first, first.isImplicit else { return }
        if stack.count == 1 {
            self.stack = []
            if let completion = first.completion { first.tracker.commit(completion) }
        } else {
            stack[0].flushPending = true
            self.stack = stack
        }
    }

    // MARK: Core Animation's class methods

    /// Sets the implicit animation duration of the current transaction
    /// (`CATransaction.setAnimationDuration(_:)`).
    public static func setAnimationDuration(_ duration: TimeInterval) { animationDuration = duration }

    /// Sets the timing function of the current transaction's implicit animations
    /// (`CATransaction.setAnimationTimingFunction(_:)`).
    public static func setAnimationTimingFunction(_ function: TimingFunction?) { animationTimingFunction = function }

    /// Sets whether property changes in the current transaction skip their implicit animations
    /// (`CATransaction.setDisableActions(_:)`).
    public static func setDisableActions(_ flag: Bool) { disableActions = flag }

    /// Sets the block called once every animation started in the current transaction has
    /// finished (`CATransaction.setCompletionBlock(_:)`).
    public static func setCompletionBlock(_ block: (() -> Void)?) { completionBlock = block }

    /// The key under which `value(forKey:)` reads and `setValue(_:forKey:)` writes the duration
    /// (Core Animation's `kCATransactionAnimationDuration`).
    public static let animationDurationKey = "animationDuration"
    /// The key of the timing function (`kCATransactionAnimationTimingFunction`).
    public static let animationTimingFunctionKey = "animationTimingFunction"
    /// The key of the disabled-actions flag (`kCATransactionDisableActions`).
    public static let disableActionsKey = "disableActions"
    /// The key of the completion block (`kCATransactionCompletionBlock`).
    public static let completionBlockKey = "completionBlock"

    /// The current transaction's value for `key`: one of the four settings by their keys, or
    /// a value of your own set with `setValue(_:forKey:)` in this transaction or one around it.
    public static func value(forKey key: String) -> Any? {
        switch key {
        case animationDurationKey: return animationDuration
        case animationTimingFunctionKey: return animationTimingFunction
        case disableActionsKey: return disableActions
        case completionBlockKey: return completionBlock
        default:
            for frame in stack.reversed() { if let value = frame.values[key] { return value } }
            return nil
        }
    }

    /// Sets a value of the current transaction. The four settings' keys take their types
    /// (a number, a `TimingFunction`, a `Bool`, a block); a value of another type for them is
    /// ignored. Any other key stores the value for `value(forKey:)`.
    public static func setValue(_ value: Any?, forKey key: String) {
        switch key {
        case animationDurationKey:
            if let number = value as? Double { animationDuration = number }
            else if let number = value as? CGFloat { animationDuration = Double(number) }
            else if let number = value as? Int { animationDuration = Double(number) }
        case animationTimingFunctionKey:
            if value == nil { animationTimingFunction = nil } else if let f = value as? TimingFunction { animationTimingFunction = f }
        case disableActionsKey:
            if let flag = value as? Bool { disableActions = flag }
        case completionBlockKey:
            if value == nil { completionBlock = nil } else if let block = value as? () -> Void { completionBlock = block }
        default:
            modifyTop { $0.values[key] = value }
        }
    }

    /// Runs `body` in a transaction with the given settings.
    public static func perform(duration: TimeInterval? = nil, timingFunction: TimingFunction? = nil,
                               disableActions: Bool = false, completion: (() -> Void)? = nil, _ body: () -> Void) {
        begin()
        if let duration { animationDuration = duration }
        if let timingFunction { animationTimingFunction = timingFunction }
        if disableActions { self.disableActions = true }
        if let completion { completionBlock = completion }
        body()
        commit()
    }

    // MARK: Internals

    /// One open transaction's settings; unset values inherit from the enclosing one.
    struct Frame {
        var duration: TimeInterval?
        var timingFunction: TimingFunction?
        var disableActions: Bool?
        var completion: (() -> Void)?
        /// Values of other keys (`setValue(_:forKey:)`).
        var values: [String: Any] = [:]
        /// Opened by setting a value outside any transaction, not by `begin()`.
        var isImplicit = false
        /// `flush()` was called while explicit transactions were open.
        var flushPending = false
        let tracker = CompletionTracker()
    }

    /// Counts a transaction's running animations and calls its completion after the last.
    final class CompletionTracker {
        private var running = 0
        private var committed: (() -> Void)?

        func started() { running += 1 }

        func finished() {
            running -= 1
            if running == 0, let block = committed {
                committed = nil
                block()
            }
        }

        func commit(_ block: @escaping () -> Void) {
            if running == 0 { block() } else { committed = block }
        }
    }

    /// The effective settings: each from the innermost transaction that sets it.
    static var current: Frame {
        var result = Frame()
        for frame in stack.reversed() {
            if result.duration == nil { result.duration = frame.duration }
            if result.timingFunction == nil { result.timingFunction = frame.timingFunction }
            if result.disableActions == nil { result.disableActions = frame.disableActions }
        }
        return result
    }

    /// The completion to attach to an implicit animation starting now.
    static var currentCompletion: (() -> Void)? {
        guard let frame = stack.last, frame.completion != nil else { return nil }
        let tracker = frame.tracker
        return { tracker.finished() }
    }

    static func noteAnimationStarted() {
        stack.last?.tracker.started()
    }

    private static func modifyTop(_ change: (inout Frame) -> Void) {
        var stack = self.stack
        if stack.isEmpty {   // an implicit transaction, as Core Animation opens
            var implicit = Frame()
            implicit.isImplicit = true
            stack.append(implicit)
        }
        change(&stack[stack.count - 1])
        self.stack = stack
    }

    /// The calling thread's stack box, in a thread-specific slot: every property setter asks
    /// whether actions are disabled.
    private static let slot = ThreadSpecific<StackBox>()

    /// The open transactions of the calling thread.
    private static var stack: [Frame] {
        get { slot.value?.frames ?? [] }
        set {
            if let box = slot.value {
                box.frames = newValue
            } else if !newValue.isEmpty {
                slot.set(StackBox(newValue))
            }
        }
    }

    /// Only its own thread reaches a box (through its thread-specific slot).
    private final class StackBox {
        var frames: [Frame]
        init(_ frames: [Frame]) { self.frames = frames }
    }
}
