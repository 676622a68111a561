import Foundation
import Synchronization

/// Draws the backing stores a frame queued, level by level: stores of one level read only stores
/// of lower levels (a shadow the content it is cast by, a group what it contains), so the stores
/// of a level are drawn in parallel, each on whichever thread is free.
enum ContentPass {
    /// Below this many queued pixels a level is drawn on the calling thread: waking threads costs
    /// more than it saves.
    static let parallelPixelThreshold = 64 * 64

    static func run(_ jobs: [BackingStoreCache.Job], threads: Int) {
        guard !jobs.isEmpty else { return }
        let levels = Dictionary(grouping: jobs, by: \.level).sorted { $0.key < $1.key }
        for (_, level) in levels {
            let pixels = level.reduce(0) { $0 + $1.surface.width * $1.surface.height }
            if threads == 1 || level.count == 1 || pixels < parallelPixelThreshold {
                for job in level { job.draw() }
                continue
            }
            // Largest first, so that a big store does not start last and finish alone.
            let batch = JobBatch(level.sorted { $0.surface.width * $0.surface.height > $1.surface.width * $1.surface.height })
            DispatchQueue.concurrentPerform(iterations: min(threads, level.count)) { _ in batch.drainJobs() }
        }
    }
}

/// The jobs of one level, taken one at a time by the threads drawing them.
///
/// `@unchecked Sendable` is safe here: each job writes only its own store's pixels (no two jobs
/// of a frame share one: the cache never queues a store twice), and reads only immutable render
/// descriptions and stores of lower levels, which were finished before this level began. The
/// only shared mutable state is the next-job index, taken under the mutex. What the jobs call
/// is safe from several threads at once for different bitmaps: pixman images are per bitmap,
/// path rasterization keeps a FreeType library per thread, fonts and the glyph cache lock.
private final class JobBatch: @unchecked Sendable {
    private let jobs: [BackingStoreCache.Job]
    private let next = Mutex(0)

    init(_ jobs: [BackingStoreCache.Job]) { self.jobs = jobs }

    func drainJobs() {
        while true {
            let index = next.withLock { i -> Int in defer { i += 1 }; return i }
            guard index < jobs.count else { return }
            jobs[index].draw()
        }
    }
}
