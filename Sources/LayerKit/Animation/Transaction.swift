import Foundation

/// Groups property changes and sets how their implicit animations run (Core Animation's
/// CATransaction): duration, timing function, whether actions run, and a completion block
/// called when every animation started inside has finished.
///
/// Transactions nest and belong to the thread that opens them. Changes made outside any
/// explicit transaction use the defaults (0.25 s, the default curve, actions on).
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

    /// Opens a transaction.
    public static func begin() {
        var stack = self.stack
        stack.append(Frame())
        self.stack = stack
    }

    /// Closes the innermost transaction.
    public static func commit() {
        var stack = self.stack
        guard let frame = stack.popLast() else { return }
        self.stack = stack
        if let completion = frame.completion {
            frame.tracker.commit(completion)
        }
    }

    /// Closes every open transaction.
    public static func flush() {
        while !stack.isEmpty { commit() }
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
        if stack.isEmpty { stack.append(Frame()) }   // an implicit transaction, as Core Animation opens
        change(&stack[stack.count - 1])
        self.stack = stack
    }

    private static let key = "LayerKit.Transaction.stack"

    /// The open transactions of the calling thread.
    private static var stack: [Frame] {
        get { (Thread.current.threadDictionary[key] as? StackBox)?.frames ?? [] }
        set {
            if newValue.isEmpty { Thread.current.threadDictionary[key] = nil } else {
                Thread.current.threadDictionary[key] = StackBox(newValue)
            }
        }
    }

    private final class StackBox {
        let frames: [Frame]
        init(_ frames: [Frame]) { self.frames = frames }
    }
}
