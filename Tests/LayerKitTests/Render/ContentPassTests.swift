import Foundation
import Testing
@testable import LayerKit

/// The content pass's jobs: whatever the threads and however the jobs arrive (in a burst, or
/// with pauses long enough for helpers to go idle between them), each is drawn exactly once and
/// all are drawn when `finish()` returns.
@Suite struct ContentPassTests {
    @Test(arguments: [1, 2, 4])
    func everyJobIsDrawnOnceBeforeFinishReturns(threads: Int) throws {
        // As big as a store must be to be started on a helper as it is queued.
        let surface = try Bitmap(width: 256, height: 256)
        for trial in 0..<12 {
            let count = [0, 1, 7, 150][trial % 4]
            let drawn = Locked([Int](repeating: 0, count: count))
            let pass = ContentPass(threads: threads)
            for i in 0..<count {
                // Some jobs at the first level (started at once on helpers), some later.
                let level = i % 5 == 4 ? 1 : 0
                pass.submit(BackingStoreCache.Job(level: level, surface: surface, draw: { drawn.withLock { $0[i] += 1 } }))
                // Pauses every few jobs in some trials: helpers wait, and a job must wake one.
                if trial % 3 == 1, i % 40 == 0 { Thread.sleep(forTimeInterval: 0.002) }
            }
            pass.finish()
            let counts = drawn.withLock { $0 }
            #expect(counts.allSatisfy { $0 == 1 }, "trial \(trial): \(counts.filter { $0 != 1 }.count) jobs not drawn exactly once")
        }
    }

    /// A helper that ran out of jobs is woken by the next one: that job is drawn while the frame
    /// is still being updated, not left for `finish()`.
    @Test func anIdleHelperIsWokenByTheNextJob() throws {
        let surface = try Bitmap(width: 256, height: 256)
        let pass = ContentPass(threads: 2)
        let drawn = Locked(0)
        pass.submit(BackingStoreCache.Job(level: 0, surface: surface, draw: { drawn.withLock { $0 += 1 } }))
        Thread.sleep(forTimeInterval: 0.05)
        pass.submit(BackingStoreCache.Job(level: 0, surface: surface, draw: { drawn.withLock { $0 += 1 } }))
        let deadline = Date().addingTimeInterval(5)
        while drawn.withLock({ $0 }) < 2, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(drawn.withLock { $0 } == 2, "the second job waited for finish()")
        pass.finish()
        #expect(drawn.withLock { $0 } == 2)
    }

    /// Once stores are handed to helpers, the next ones are handed over in batches: while the
    /// helper has a job of the last batch still to begin, once they add up to `laterBatchPixels`
    /// (not at the first batch's `earlyPixelThreshold`); once it has begun them all, at
    /// `earlyPixelThreshold`. A small store waits for the stores after it (or `finish()`), and a
    /// full batch is drawn while the frame is still being updated.
    @Test func laterStoresAreHandedOverInBatches() throws {
        let big = try Bitmap(width: 256, height: 256), small = try Bitmap(width: 64, height: 64)
        let firstBatch = ContentPass.earlyPixelThreshold / (64 * 64), batch = ContentPass.laterBatchPixels / (64 * 64)
        #expect(batch > firstBatch + 1)
        for busyBatch in [firstBatch, batch] {
            let pass = ContentPass(threads: 2)
            let drawn = Locked(0), open = Locked(false)
            // The helper is kept on the first job, so that the second (the big store) is not begun.
            pass.submit(BackingStoreCache.Job(level: 0, surface: small, draw: {
                while !open.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
                drawn.withLock { $0 += 1 }
            }))
            pass.submit(BackingStoreCache.Job(level: 0, surface: big, draw: { drawn.withLock { $0 += 1 } }))
            for _ in 0..<busyBatch {
                pass.submit(BackingStoreCache.Job(level: 0, surface: small, draw: { drawn.withLock { $0 += 1 } }))
            }
            open.withLock { $0 = true }
            let handedOver = busyBatch == batch
            var deadline = Date().addingTimeInterval(5)
            while drawn.withLock({ $0 }) < 2 + (handedOver ? batch : 0), Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            Thread.sleep(forTimeInterval: 0.05)
            if handedOver {
                #expect(drawn.withLock { $0 } == 2 + batch, "the full batch waited for finish()")
            } else {
                #expect(drawn.withLock { $0 } == 2, "a batch of the first's size was handed over while the helper was busy")
                // The helper has begun every job offered: the next store hands the waiting ones over.
                pass.submit(BackingStoreCache.Job(level: 0, surface: small, draw: { drawn.withLock { $0 += 1 } }))
                deadline = Date().addingTimeInterval(5)
                while drawn.withLock({ $0 }) < 3 + firstBatch, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
                #expect(drawn.withLock { $0 } == 3 + firstBatch, "an idle helper was left without the waiting stores")
            }
            pass.submit(BackingStoreCache.Job(level: 0, surface: small, draw: { drawn.withLock { $0 += 1 } }))
            pass.finish()
            #expect(drawn.withLock { $0 } == (handedOver ? 3 + batch : 4 + firstBatch))
        }
    }

    /// A pass begun while the crew still paints the last frame (`afterPainting`, a frame
    /// submitted without waiting) draws no store until every band of that painting has
    /// finished: the bands read the stores the pass redraws. A helper done with its band waits
    /// for the others' rather than take a store; without the fence it takes one at once.
    @Test(arguments: [true, false])
    func storesWaitForTheLastFramesPainting(afterPainting: Bool) throws {
        let surface = try Bitmap(width: 256, height: 256)
        let crew = Crew(helpers: 2)
        let bandsDone = Locked(0), early = Locked(0), drawn = Locked(0)
        // Two bands, one short and one long, as a frame's last bands are taken by two helpers.
        for length in [0.002, 0.06] {
            crew.offer { _ in
                Thread.sleep(forTimeInterval: length)
                bandsDone.withLock { $0 += 1 }
            }
        }
        Thread.sleep(forTimeInterval: 0.01)
        let pass = ContentPass(threads: 3, crew: crew, afterPainting: afterPainting)
        for _ in 0..<4 {
            pass.submit(BackingStoreCache.Job(level: 0, surface: surface, draw: {
                if bandsDone.withLock({ $0 }) < 2 { early.withLock { $0 += 1 } }
                drawn.withLock { $0 += 1 }
            }))
        }
        #expect(pass.drawsAhead)
        pass.finish()
        #expect(drawn.withLock { $0 } == 4 && bandsDone.withLock { $0 } == 2)
        if afterPainting {
            #expect(early.withLock { $0 } == 0, "a store was drawn while the last frame still painted")
        } else {
            #expect(early.withLock { $0 } > 0, "a pass without the fence waited anyway: this test would not see the fence go")
        }
    }

    /// A store handed to a helper lets go of what it was drawn from once it is drawn, on the
    /// thread that drew it, not when the pass is finished.
    @Test func aDrawnStoreLetsGoOfWhatItDrewBeforeFinish() throws {
        final class Source: Sendable {}
        let surface = try Bitmap(width: 256, height: 256)
        let pass = ContentPass(threads: 2)
        let drawn = Locked(0)
        // Made in a function of its own, so that nothing here holds the source but the job.
        func submitJob() -> Weak<Source> {
            let source = Source()
            pass.submit(BackingStoreCache.Job(level: 0, surface: surface, draw: {
                withExtendedLifetime(source) { drawn.withLock { $0 += 1 } }
            }))
            return Weak(source)
        }
        let source = submitJob()
        let deadline = Date().addingTimeInterval(5)
        while source.value != nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        #expect(drawn.withLock { $0 } == 1)
        #expect(source.value == nil, "the job was kept until finish()")
        pass.finish()
    }

    /// While the helper is awake, a frame's first store of a line's size (`firstBatchPixels`) is
    /// handed over as it is queued; while it sleeps, that store waits for more (or `finish()`)
    /// rather than wake it.
    @Test func aLineSizedFirstStoreIsHandedOverOnlyToAnAwakeHelper() throws {
        let line = try Bitmap(width: 128, height: ContentPass.firstBatchPixels / 128)
        #expect(line.width * line.height < ContentPass.earlyPixelThreshold)
        // Awake: the helper is drawing something else of the crew's when the store is queued.
        do {
            let crew = Crew(helpers: 1)
            let begun = Locked(false), open = Locked(false), drawn = Locked(0)
            crew.offer { _ in
                begun.withLock { $0 = true }
                while !open.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.001) }
            }
            let deadline = Date().addingTimeInterval(5)
            while !begun.withLock({ $0 }), Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            #expect(crew.helpersAwake)
            let pass = ContentPass(threads: 2, crew: crew)
            pass.submit(BackingStoreCache.Job(level: 0, surface: line, draw: { drawn.withLock { $0 += 1 } }))
            #expect(pass.drawsAhead, "the first store waited although the helper was awake")
            open.withLock { $0 = true }
            pass.finish()
            #expect(drawn.withLock { $0 } == 1)
        }
        // Asleep: the helper ran out of work and went to sleep.
        do {
            let crew = Crew(helpers: 1)
            let drawn = Locked(0)
            crew.offer { _ in }
            crew.join()
            let deadline = Date().addingTimeInterval(5)
            while crew.helpersAwake, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
            #expect(!crew.helpersAwake)
            let pass = ContentPass(threads: 2, crew: crew)
            pass.submit(BackingStoreCache.Job(level: 0, surface: line, draw: { drawn.withLock { $0 += 1 } }))
            #expect(!pass.drawsAhead, "a sleeping helper was woken for one line")
            pass.finish()
            #expect(drawn.withLock { $0 } == 1)
        }
    }

    /// A small first-level store is not handed to a helper: it is drawn in `finish()`, on the
    /// calling thread.
    @Test func aSmallStoreWaitsForFinish() throws {
        let surface = try Bitmap(width: 64, height: 64)
        let pass = ContentPass(threads: 2)
        let drawn = Locked(0)
        pass.submit(BackingStoreCache.Job(level: 0, surface: surface, draw: { drawn.withLock { $0 += 1 } }))
        Thread.sleep(forTimeInterval: 0.05)
        #expect(drawn.withLock { $0 } == 0)
        pass.finish()
        #expect(drawn.withLock { $0 } == 1)
    }
}

/// A weak reference, readable from any thread. (`nonisolated(unsafe)` is safe for a weak
/// reference: the runtime loads and clears one atomically.)
private final class Weak<Value: AnyObject & Sendable>: Sendable {
    nonisolated(unsafe) weak var value: Value?
    init(_ value: Value) { self.value = value }
}
