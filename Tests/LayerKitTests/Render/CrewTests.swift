import Foundation
import Testing
@testable import LayerKit

/// The renderer's helper threads: every run offered happens exactly once, on a helper or on the
/// joining thread, and all of them are done when `join()` returns, whether the helpers were
/// watching for work, asleep, or not watching at all; the threads end with the crew.
@Suite struct CrewTests {
    @Test(arguments: [0, 1, 3])
    func everyRunHappensOnceBeforeJoinReturns(helpers: Int) {
        let crew = Crew(helpers: helpers)
        let joiner = pthread_self()
        let onHelpers = Locked(0)
        for round in 0..<200 {
            let count = [1, 2, 7, 40][round % 4]
            let runs = Locked([Int](repeating: 0, count: count + 1))
            crew.offer(count) { index in
                runs.withLock { $0[index] += 1 }
                if pthread_equal(pthread_self(), joiner) == 0 { onHelpers.withLock { $0 += 1 } }
                // Long enough that a join not waiting for the helpers would read this round's
                // count before the helper bumps it.
                Thread.sleep(forTimeInterval: 0.0001)
                runs.withLock { $0[index] += 1 }
            }
            // Offers one at a time, as the content pass makes them while it updates a frame.
            crew.offer { _ in runs.withLock { $0[count] += 2 } }
            // Some rounds join at once, some after the helpers have begun or gone back to sleep.
            if round % 50 == 7 { Thread.sleep(forTimeInterval: 0.002) }
            crew.join()
            let counts = runs.withLock { $0 }
            #expect(counts.allSatisfy { $0 == 2 }, "round \(round): \(counts)")
        }
        // Helpers took some of the runs (no timing asserted beyond "some": a loaded machine may
        // keep a helper off its core for many rounds, but not for all of them).
        #expect(helpers == 0 || onHelpers.withLock { $0 } > 0)
    }

    /// What the helpers wrote is seen by the thread that joined them (no lock around the writes:
    /// ThreadSanitizer checks that the join orders them).
    @Test func joinOrdersTheHelpersWrites() {
        final class Slots: @unchecked Sendable {
            // Safe: each run writes only its own slot, read only after `join()`.
            let values = UnsafeMutableBufferPointer<Int>.allocate(capacity: 8)
            init() { values.initialize(repeating: 0) }
            deinit { values.deallocate() }
        }
        let crew = Crew(helpers: 2)
        for round in 1...100 {
            let slots = Slots()
            crew.offer(8) { index in slots.values[index] = round }
            crew.join()
            #expect(Array(slots.values) == [Int](repeating: round, count: 8))
        }
    }

    /// Joining with nothing offered returns at once; a crew starts its threads at the first offer
    /// and has ended them when its release returns.
    @Test func threadsStartAtTheFirstOfferAndEndWithTheCrew() {
        for helpers in [1, 3] {
            var crew: Crew? = Crew(helpers: helpers)
            let census = crew!.census
            crew!.join()
            #expect(census.live == 0)
            crew!.offer { _ in }
            #expect(census.live == helpers)
            crew!.join()
            crew = nil
            #expect(census.live == 0)
        }
    }

    /// A fenced offer's runs begin only once every run offered before it has finished, whoever
    /// runs them (helpers alone while the offering thread goes on, or the joining thread too),
    /// and offers after it follow it; the runs before the fence are not held back by it.
    @Test(arguments: [1, 3])
    func aFencedOfferBeginsAfterEveryEarlierRunHasFinished(helpers: Int) {
        let crew = Crew(helpers: helpers)
        for round in 0..<60 {
            let earlier = [1, 3, 8][round % 3]
            let finished = Locked(0), violations = Locked([String]()), fencedRuns = Locked(0)
            crew.offer(earlier) { _ in
                Thread.sleep(forTimeInterval: 0.0002)
                finished.withLock { $0 += 1 }
            }
            crew.offer(4, afterEarlierRuns: true) { index in
                let done = finished.withLock { $0 }
                if done != earlier { violations.withLock { $0.append("fenced run \(index) began after \(done) of \(earlier)") } }
                fencedRuns.withLock { $0 += 1 }
            }
            crew.offer { _ in
                if fencedRuns.withLock({ $0 }) == 0 { violations.withLock { $0.append("a later offer ran before the fenced one") } }
            }
            // Some rounds leave the work to the helpers a while, as a frame's thread does while
            // it updates the next frame; some join at once and take part.
            if round % 2 == 1 { Thread.sleep(forTimeInterval: 0.001) }
            crew.join()
            #expect(violations.withLock { $0 }.isEmpty, "round \(round): \(violations.withLock { $0 })")
            #expect(fencedRuns.withLock { $0 } == 4 && finished.withLock { $0 } == earlier)
        }
    }

    /// A renderer's helpers end when it is released, and when its thread count changes (a new
    /// crew of the new count is started by the next frame that needs one).
    @Test func aRenderersHelpersEndWithItOrWithItsThreadCount() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = .gray
        var renderer: Renderer? = Renderer(threadCount: 2)
        // A whole frame of 400×300 is enough damage to paint in bands on the helpers.
        let first = try renderer!.render(root)
        let two = try #require(renderer!.helpers?.census)
        #expect(two.live == 1)
        renderer!.threadCount = 3
        #expect(two.live == 0)
        let second = try renderer!.render(root)
        let three = try #require(renderer!.helpers?.census)
        #expect(three.live == 2)
        #expect(second.hasSamePixels(as: first))
        renderer = nil
        #expect(three.live == 0)
    }
}

/// The watch policy's decisions, fed preemptions join by join (no clocks involved).
@Suite struct WatchPolicyTests {
    /// Feeds `policy` and returns whether it watched before each join.
    private func watching(_ policy: inout WatchPolicy, _ preempted: [Bool]) -> [Bool] {
        preempted.map { p in
            defer { policy.record(preempted: p) }
            return policy.watches
        }
    }

    private let first = WatchPolicy.firstPause

    @Test func watchesWhileCalm() {
        var policy = WatchPolicy()
        #expect(watching(&policy, Array(repeating: false, count: 5000)).allSatisfy { $0 })
        #expect(policy.pause == first)
    }

    /// A preemption now and then (here every fifth join) does not stop the watch.
    @Test func anOddPreemptionKeepsWatching() {
        var policy = WatchPolicy()
        #expect(watching(&policy, (0..<5000).map { $0 % 5 == 0 }).allSatisfy { $0 })
        #expect(policy.pause == first)
    }

    /// Two of four joins preempted pause the watch; it resumes after the pause, whatever the
    /// joins meanwhile, with the next pause twice as long.
    @Test func twoPreemptionsInFourJoinsPauseWatching() {
        var policy = WatchPolicy()
        let seen = watching(&policy, [true, false, false, true] + Array(repeating: true, count: first) + [false, false])
        #expect(seen == [true, true, true, true] + Array(repeating: false, count: first) + [true, true])
        #expect(policy.pause == 2 * first)
    }

    /// Contended again after each pause, the crew backs off longer each time, up to the longest
    /// pause: a steadily busy machine is watched on seldom.
    @Test func repeatedContentionDoublesThePauseUpToTheLongest() {
        var policy = WatchPolicy()
        var pauses: [Int] = []
        for _ in 0..<12 {
            policy.record(preempted: true)
            policy.record(preempted: true)
            pauses.append(policy.pauseLeft)
            while !policy.watches { policy.record(preempted: true) }
        }
        #expect(pauses == [8, 16, 32, 64, 128, 256, 512, 1024, 1024, 1024, 1024, 1024])
        // Every join preempted: two joins watched a pause, 8 + 16 + ... joins long.
        var busy = WatchPolicy()
        let seen = watching(&busy, Array(repeating: true, count: 10_000))
        #expect(seen.filter { $0 }.count == 2 * 16)
    }

    /// Calm joins of watching halve the pause back to the first.
    @Test func calmWatchingShortensThePauseAgain() {
        var policy = WatchPolicy()
        for _ in 0..<3 {
            policy.record(preempted: true)
            policy.record(preempted: true)
            while !policy.watches { policy.record(preempted: false) }
        }
        #expect(policy.pause == 8 * first)
        _ = watching(&policy, Array(repeating: false, count: 8 * first + 4 * first + 2 * first + first))
        #expect(policy.pause == first)
        _ = watching(&policy, Array(repeating: false, count: 100))
        #expect(policy.pause == first && policy.watches)
    }
}
