/// Core Animation's CATransaction: its class methods, with getters spelled as functions
/// (`CATransaction.disableActions()`), over LayerKit's `Transaction`.
///
/// Transactions group property changes and set how their implicit animations run; they nest,
/// and each belongs to the thread that opens it. `lock()` and `unlock()` are not provided: a
/// LayerKit tree belongs to one isolation domain and has no render server to lock against.
public enum CATransaction {
    /// Opens a transaction.
    public static func begin() { Transaction.begin() }

    /// Closes the innermost transaction; its completion block runs once the animations
    /// started in it have finished (at once when there are none).
    public static func commit() { Transaction.commit() }

    /// Commits the implicit transaction (the one that setting a value outside `begin()`
    /// opens), after any explicit transactions still open.
    public static func flush() { Transaction.flush() }

    /// The implicit animation duration of the current transaction (0.25 s by default).
    public static func animationDuration() -> CFTimeInterval { Transaction.animationDuration }

    /// Sets the implicit animation duration of the current transaction.
    public static func setAnimationDuration(_ duration: CFTimeInterval) { Transaction.setAnimationDuration(duration) }

    /// The timing function of the current transaction's implicit animations (nil: the default
    /// curve).
    public static func animationTimingFunction() -> CAMediaTimingFunction? { Transaction.animationTimingFunction }

    /// Sets the timing function of the current transaction's implicit animations.
    public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        Transaction.setAnimationTimingFunction(function)
    }

    /// Whether property changes in the current transaction skip their implicit animations.
    public static func disableActions() -> Bool { Transaction.disableActions }

    /// Sets whether property changes in the current transaction skip their implicit animations.
    public static func setDisableActions(_ flag: Bool) { Transaction.setDisableActions(flag) }

    /// The block called once every animation started in the current transaction has finished.
    public static func completionBlock() -> (() -> Void)? { Transaction.completionBlock }

    /// Sets the block called once every animation started in the current transaction has
    /// finished (or been removed).
    public static func setCompletionBlock(_ block: (() -> Void)?) { Transaction.setCompletionBlock(block) }

    /// The current transaction's value for `key` (`kCATransactionAnimationDuration`, … or a
    /// key of your own).
    public static func value(forKey key: String) -> Any? { Transaction.value(forKey: key) }

    /// Sets a value of the current transaction for `key`.
    public static func setValue(_ value: Any?, forKey key: String) { Transaction.setValue(value, forKey: key) }
}

/// The key of the animation duration (`CATransaction.value(forKey:)`).
public let kCATransactionAnimationDuration = Transaction.animationDurationKey
/// The key of the timing function.
public let kCATransactionAnimationTimingFunction = Transaction.animationTimingFunctionKey
/// The key of the disabled-actions flag.
public let kCATransactionDisableActions = Transaction.disableActionsKey
/// The key of the completion block.
public let kCATransactionCompletionBlock = Transaction.completionBlockKey
