import Foundation
import Testing
@testable import LayerKit

/// A value reached only under its lock, whichever way the lock is taken.
@Suite struct LockedTests {
    /// Threads taking the lock at once, some trying it first and some waiting at once, never
    /// change the value together: every increment counts. (A lock that let a thread in after
    /// its tries ran out, without taking it, would lose some.)
    @Test func tryingTheLockFirstStillExcludesOtherThreads() {
        let counter = Locked(0)
        let perThread = 20_000
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for i in 0..<perThread {
                if (thread + i) % 3 == 0 {
                    counter.withLock { $0 += 1 }
                } else {
                    // One try only, or a few: both run out of tries under contention.
                    counter.withLock(tryingFirst: thread % 2 == 0 ? 1 : 8) { value in
                        let seen = value
                        value = seen + 1
                    }
                }
            }
        }
        #expect(counter.withLock { $0 } == 4 * perThread)
    }

    /// The body's result and errors come through.
    @Test func tryingTheLockFirstReturnsAndRethrows() throws {
        struct Failure: Error {}
        let value = Locked([1, 2])
        #expect(value.withLock(tryingFirst: 100) { $0.reduce(0, +) } == 3)
        #expect(throws: Failure.self) { try value.withLock(tryingFirst: 100) { _ in throw Failure() } }
        // Not left locked by the throw.
        #expect(value.withLock(tryingFirst: 1) { $0.count } == 2)
    }
}
