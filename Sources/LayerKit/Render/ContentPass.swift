import Foundation
import Synchronization

/// Draws the backing stores a frame queues, level by level: stores of one level read only stores
/// of lower levels (a shadow the content it is cast by, a group what it contains).
///
/// With threads to spare, the first level (content and borders, which read no store) starts on
/// helper threads as its stores are queued — once they add up to enough pixels to be worth
/// waking a thread for — while the calling thread goes on updating the frame's objects: a frame
/// whose text or paths change every frame overlaps its serial update with their rasterization.
/// At `finish()` the calling thread helps with what is left, then the later levels are drawn,
/// each in parallel.
final class ContentPass {
    /// Below this many queued pixels a later level is drawn on the calling thread: waking threads
    /// costs more than it saves.
    static let parallelPixelThreshold = 64 * 64

    /// First-level stores are handed to helper threads as they are queued only once this many of
    /// their pixels are queued; a frame queuing fewer draws them in `finish()`, as a later
    /// level. Waking a helper every frame for one small store (a flip clock's turning page,
    /// redrawn each frame) cost more of a core than the overlap saved.
    static let earlyPixelThreshold = 256 * 256

    // Unchecked for exclusive access (the runtime's check was a tenth of queuing a store): the
    // fields are private and touched only by `submit` and `finish`, which the thread updating
    // the frame alone calls; no access spans a call that reaches the pass (jobs draw pixels,
    // never queue), and `finish` runs copies.
    private let threads: Int
    /// The helpers the first level starts on.
    private let crew: Crew
    @exclusivity(unchecked) private var later: [BackingStoreCache.Job] = []
    @exclusivity(unchecked) private var early: EarlyJobs?
    /// First-level jobs queued before they added up to `earlyPixelThreshold`, and their pixels.
    @exclusivity(unchecked) private var waiting: [BackingStoreCache.Job] = []
    @exclusivity(unchecked) private var waitingPixels = 0

    /// A pass drawing on `threads` threads: the calling thread and `crew`'s helpers (a crew of
    /// its own when none is given).
    init(threads: Int, crew: Crew? = nil) {
        self.threads = max(1, threads)
        self.crew = crew ?? Crew(helpers: self.threads - 1)
    }

    /// Takes a store's drawing as soon as it is queued.
    func submit(_ job: BackingStoreCache.Job) {
        guard job.level == 0, threads > 1, crew.helpers > 0 else {
            later.append(job)
            return
        }
        if let early {
            early.push(job)
            return
        }
        waiting.append(job)
        waitingPixels += job.surface.width * job.surface.height
        guard waitingPixels >= Self.earlyPixelThreshold else { return }
        let helpers = EarlyJobs(crew: crew)
        for job in waiting { helpers.push(job) }
        waiting = []
        early = helpers
    }

    /// Draws everything submitted; returns once every store is complete.
    func finish() {
        if let early {
            early.finish()
            self.early = nil
        }
        // (Joined only when both hold jobs: a frame below the early threshold queues all its
        // stores in `later`, and the copy was an allocation a frame.)
        Self.run(waiting.isEmpty ? later : later.isEmpty ? waiting : waiting + later, threads: threads)
        waiting = []
        later = []
    }

    /// Draws `jobs` now, level by level, each level in parallel.
    static func run(_ jobs: [BackingStoreCache.Job], threads: Int) {
        guard let first = jobs.first else { return }
        // Usually every job is of one level (a frame of changed content and borders): grouping
        // them in a dictionary cost more than drawing a small store.
        if jobs.allSatisfy({ $0.level == first.level }) {
            runLevel(jobs, threads: threads)
            return
        }
        for (_, level) in Dictionary(grouping: jobs, by: \.level).sorted(by: { $0.key < $1.key }) {
            runLevel(level, threads: threads)
        }
    }

    /// Draws the jobs of one level, in parallel when there are enough pixels.
    private static func runLevel(_ level: [BackingStoreCache.Job], threads: Int) {
        if threads == 1 || level.count == 1 {
            for job in level { job.draw() }
            return
        }
        let pixels = level.reduce(0) { $0 + $1.surface.width * $1.surface.height }
        if pixels < parallelPixelThreshold {
            for job in level { job.draw() }
            return
        }
        // Largest first, so that a big store does not start last and finish alone.
        let batch = JobBatch(level.sorted { $0.surface.width * $0.surface.height > $1.surface.width * $1.surface.height })
        DispatchQueue.concurrentPerform(iterations: min(threads, level.count)) { _ in batch.drainJobs() }
    }
}

/// The jobs of one level, taken one at a time by the threads drawing them.
///
/// `@unchecked Sendable` is safe here: each job writes only its own store's pixels (no two jobs
/// of a frame share one: the cache never queues a store twice), and reads only immutable render
/// descriptions and stores of lower levels, which were finished before this level began. The
/// only shared mutable state is the next-job index, taken under the mutex. What the jobs call
/// is safe from several threads at once for different bitmaps: pixman images are per bitmap,
/// path rasterization keeps its scratch per thread, fonts and the glyph cache lock.
private final class JobBatch: @unchecked Sendable {
    private let jobs: [BackingStoreCache.Job]
    private let next = Locked(0)

    init(_ jobs: [BackingStoreCache.Job]) { self.jobs = jobs }

    func drainJobs() {
        while true {
            let index = next.withLock { i -> Int in defer { i += 1 }; return i }
            guard index < jobs.count else { return }
            jobs[index].draw()
        }
    }
}

/// First-level jobs drawn by helper threads while the frame is still being updated.
///
/// `@unchecked Sendable` is safe here for the reasons `JobBatch` gives, and because the thread
/// that queues them — updating the frame's objects — never reads a store's pixels before
/// `finish()` has returned: stores are read only by later levels and by painting. The queue,
/// its cursor, the closed flag and the count of sleeping helpers are shared state, every access
/// under the condition's lock (a pthread mutex, which ThreadSanitizer understands); the crew's
/// join orders the helpers' drawing before what follows `finish()`.
///
/// A job wakes a helper only when one sleeps, and a helper that runs out of jobs watches for the
/// next one a short while (`spinNanoseconds`) before it sleeps: the thread updating the text
/// board queues a line's store about as fast as a helper draws one, and signalling a semaphore
/// for every job queued cost that thread a kernel call each (a quarter of its time).
/// The count of jobs queued, read while watching, is only a hint to take the lock: every job is
/// taken under it.
private final class EarlyJobs: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [BackingStoreCache.Job] = []
    private var next = 0
    private var closed = false
    /// Helpers waiting on the condition for a job (or the close).
    private var sleeping = 0
    /// Jobs queued and closes, counted for helpers watching for work without the lock.
    private let pushes = Atomic<Int>(0)
    /// How long a helper out of jobs watches for the next before it sleeps.
    static let spinNanoseconds: UInt64 = 50_000
    private let crew: Crew

    init(crew: Crew) {
        self.crew = crew
        crew.start { _ in self.help() }
    }

    func push(_ job: BackingStoreCache.Job) {
        condition.lock()
        queue.append(job)
        let wake = sleeping > 0
        condition.unlock()
        pushes.add(1, ordering: .releasing)
        if wake { condition.signal() }
    }

    /// Closes the queue, draws what is left on the calling thread too, and waits for the helpers.
    func finish() {
        condition.lock()
        closed = true
        let wake = sleeping > 0
        condition.unlock()
        pushes.add(1, ordering: .releasing)
        if wake { condition.broadcast() }
        while let job = take() { job.draw() }
        crew.join()
    }

    private func help() {
        condition.lock()
        while true {
            if next < queue.count {
                let job = queue[next]
                next += 1
                condition.unlock()
                job.draw()
                condition.lock()
            } else if closed {
                condition.unlock()
                return
            } else {
                let seen = pushes.load(ordering: .acquiring)
                condition.unlock()
                let pushed = watch(from: seen)
                condition.lock()
                if pushed || next < queue.count || closed { continue }
                sleeping += 1
                condition.wait()
                sleeping -= 1
            }
        }
    }

    /// Whether a job was queued or the queue closed since `pushes` read `seen`, watched for up
    /// to `spinNanoseconds`. (Without yielding the core between looks: see `Crew`'s watch.)
    private func watch(from seen: Int) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.spinNanoseconds
        while true {
            for _ in 0..<64 where pushes.load(ordering: .acquiring) != seen { return true }
            if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
        }
    }

    private func take() -> BackingStoreCache.Job? {
        condition.lock()
        defer { condition.unlock() }
        guard next < queue.count else { return nil }
        defer { next += 1 }
        return queue[next]
    }
}
