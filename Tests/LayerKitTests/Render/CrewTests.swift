import Foundation
import Testing
@testable import LayerKit

/// The renderer's helper threads: work started is run at most once by each helper, and all of
/// what runs is done when `join()` returns, whether the helpers were still watching for work or
/// had gone to sleep. (A helper may skip work it had not begun by the join: the caller does it.)
@Suite struct CrewTests {
    @Test(arguments: [0, 1, 3])
    func helpersRunEachWorkAtMostOnceAndJoinWaitsForThem(helpers: Int) {
        let crew = Crew(helpers: helpers)
        let finished = Locked([Int](repeating: 0, count: helpers))
        for round in 0..<200 {
            let runs = Locked([Int](repeating: 0, count: helpers))
            crew.start { index in
                runs.withLock { $0[index] += 1 }
                // Long enough that a join not waiting for the helpers would read this round's
                // count before the helper bumps it.
                Thread.sleep(forTimeInterval: 0.0001)
                runs.withLock { $0[index] += 1 }
            }
            // Some rounds join at once, some after the helpers have begun or gone back to sleep.
            if round % 50 == 7 { Thread.sleep(forTimeInterval: 0.002) }
            crew.join()
            let counts = runs.withLock { $0 }
            #expect(counts.allSatisfy { $0 == 0 || $0 == 2 }, "round \(round): \(counts)")
            finished.withLock { total in for i in total.indices where counts[i] == 2 { total[i] += 1 } }
        }
        // Helpers watch for work after each piece: most rounds find them (no timing asserted
        // beyond "some": a loaded machine may keep a helper off its core for many rounds).
        #expect(helpers == 0 || finished.withLock { $0.reduce(0, +) } > 0)
    }

    /// What the helpers wrote is seen by the thread that joined them (no lock around the writes:
    /// ThreadSanitizer checks that the join orders them).
    @Test func joinOrdersTheHelpersWrites() {
        final class Slots: @unchecked Sendable {
            // Safe: each helper writes only its own slot, read only after `join()`.
            let values = UnsafeMutableBufferPointer<Int>.allocate(capacity: 2)
            init() { values.initialize(repeating: 0) }
            deinit { values.deallocate() }
        }
        let crew = Crew(helpers: 2)
        for round in 1...100 {
            let slots = Slots()
            crew.start { index in slots.values[index] = round }
            crew.join()
            #expect(slots.values.allSatisfy { $0 == 0 || $0 == round })
        }
    }

    /// Joining with no work started returns at once, and a crew released after its work ends its
    /// threads (a renderer per test must not leave threads behind; checked by not hanging).
    @Test func joinWithoutWorkAndRelease() {
        for _ in 0..<20 {
            let crew = Crew(helpers: 1)
            crew.join()
            crew.start { _ in }
            crew.join()
        }
    }
}
