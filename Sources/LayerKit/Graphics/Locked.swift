import Foundation

/// A value reached only under a lock: what `Synchronization.Mutex` offers, on a POSIX mutex.
///
/// `Mutex` on Linux waits on futexes through atomics inside the standard library, which is not
/// built with ThreadSanitizer; so TSan sees no ordering between two threads' critical sections
/// and reports every value a `Mutex` guards as a race (the suite's first TSan report was the
/// scan converters' pool). `NSLock` is a pthread mutex, whose lock and unlock TSan intercepts.
/// The cost is the same here (an uncontended lock is an atomic exchange either way).
///
/// For a lock that guards state kept elsewhere, use an `NSLock` itself: a `Locked<Void>` makes
/// TSan report its empty value in debug builds (measured: swiftc -Onone, two threads).
///
/// `@unchecked Sendable` is safe: `value` is private and touched only inside `withLock`, between
/// `lock()` and `unlock()` of the one lock, so no two threads access it at once, and the lock
/// orders each critical section after the previous one; `Value` itself is `Sendable`, so what
/// a closure takes out of it may go to any thread.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    /// Unchecked for exclusive access: each access (`body(&value)`) was checked at run time,
    /// about 150 instructions a critical section (two a line of text in the glyph cache). The
    /// check could never fire: `value` is reached only inside `withLock`, with the lock held,
    /// so a second access on the same thread would be a `withLock` from inside `body`, which
    /// waits forever on the lock (`NSLock` is not recursive) before it reaches `value`; other
    /// threads wait on the lock (and the run-time check sees one thread's accesses only).
    @exclusivity(unchecked) private var value: Value

    init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, no other thread in a `withLock` of this lock meanwhile.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// `withLock(_:)`, trying the lock up to `attempts` times before waiting for it: for locks
    /// held a fraction of a microsecond that threads take many times a frame, where going to
    /// sleep in the kernel and being woken costs many times the wait.
    func withLock<Result>(tryingFirst attempts: Int, _ body: (inout Value) throws -> Result) rethrows -> Result {
        if !lock.try() { wait(tryingFirst: attempts - 1) }
        defer { lock.unlock() }
        return try body(&value)
    }

    /// Takes the lock, trying it `attempts` times before waiting for it. (Out of line: the
    /// contended path, kept out of the callers' code.)
    @inline(never)
    private func wait(tryingFirst attempts: Int) {
        for _ in 0..<max(0, attempts) where lock.try() { return }
        lock.lock()
    }
}
