import Foundation
import Testing
@testable import LayerKit

/// The renderer's helper threads: each piece of work started runs once on every helper, and all
/// of it is done when `join()` returns, whether the helpers were still watching for work or had
/// gone to sleep.
@Suite struct CrewTests {
    @Test(arguments: [0, 1, 3])
    func everyHelperRunsEachWorkOnceBeforeJoinReturns(helpers: Int) {
        let crew = Crew(helpers: helpers)
        for round in 0..<200 {
            let runs = Locked([Int](repeating: 0, count: helpers))
            crew.start { index in runs.withLock { $0[index] += 1 } }
            // Some rounds start at once, some after the helpers have gone to sleep.
            if round % 50 == 7 { Thread.sleep(forTimeInterval: 0.002) }
            crew.join()
            let counts = runs.withLock { $0 }
            #expect(counts == [Int](repeating: 1, count: helpers), "round \(round): \(counts)")
        }
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
            #expect(Array(slots.values) == [round, round])
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
