import Foundation
import Synchronization

/// Draws the backing stores a frame queues, level by level: stores of one level read only stores
/// of lower levels (a shadow the content it is cast by, a group what it contains).
///
/// With threads to spare, the first level (content and borders, which read no store) is offered
/// to the renderer's helper threads (its `Crew`) as its stores are queued, in batches each of
/// enough pixels to be worth a hand-over (the first to be worth waking a thread for), while the
/// calling thread goes on updating the frame's objects: a frame whose text or paths change every
/// frame overlaps its serial update with their rasterization. At `finish()` the calling thread
/// draws what no helper took, then the later levels are drawn, each in parallel on the same crew.
final class ContentPass {
    /// Below this many queued pixels a later level is drawn on the calling thread: waking threads
    /// costs more than it saves.
    static let parallelPixelThreshold = 64 * 64

    /// First-level stores are handed to helper threads as they are queued only once this many of
    /// their pixels are queued; a frame queuing fewer draws them in `finish()`, as a later
    /// level. Waking a helper every frame for one small store (a flip clock's turning page,
    /// redrawn each frame) cost more of a core than the overlap saved.
    static let earlyPixelThreshold = 256 * 256

    /// While the helpers are awake (watching for work between frames drawn back to back), the
    /// first batch is offered once this many pixels are queued (a line of a text board): taken
    /// within a microsecond, it starts them on the frame's stores while this thread goes on
    /// updating, instead of after `earlyPixelThreshold` pixels (four such lines). A helper
    /// asleep is not woken for less than that.
    static let firstBatchPixels = 128 * 128

    /// The stores after the first batch are handed over in batches of `earlyPixelThreshold`
    /// pixels while the helpers have begun every job offered, else of this many (about eleven
    /// lines of a text board). One at a time, the crew's lock was taken, and an offer made and
    /// let go, for every line; in batches of the first's size, 26 offers a text-board frame (a
    /// quarter microsecond each on the frame's thread) while the helper still had most of the
    /// last batch to draw.
    static let laterBatchPixels = 3 * earlyPixelThreshold

    // Unchecked for exclusive access (the runtime's check was a tenth of queuing a store): the
    // fields are private and touched only by `submit` and `finish`, which the thread updating
    // the frame alone calls; no access spans a call that reaches the pass (jobs draw pixels,
    // never queue), and `finish` runs copies.
    /// The helpers the stores are drawn on (none on one thread).
    private let crew: Crew?
    @exclusivity(unchecked) private var later: [BackingStoreCache.Job] = []
    /// Whether first-level jobs are offered to the crew as they are queued.
    @exclusivity(unchecked) private var early = false
    /// First-level jobs queued and not yet offered (fewer than `earlyPixelThreshold` pixels, or
    /// than `laterBatchPixels` while the last batch has jobs not begun), and their pixels.
    @exclusivity(unchecked) private var waiting: [BackingStoreCache.Job] = []
    @exclusivity(unchecked) private var waitingPixels = 0
    /// The last batch offered this frame (whether the helpers have begun all its jobs).
    @exclusivity(unchecked) private var lastBatch: Batch?

    /// A pass drawing on `threads` threads: the calling thread and `crew`'s helpers (a crew of
    /// its own when none is given).
    ///
    /// `afterPainting`: the crew may still be painting the last frame, whose items read the
    /// stores this pass redraws; the first batch offered then begins only once every run offered
    /// before it has finished (the crew's fence), and later batches follow it.
    init(threads: Int, crew: Crew? = nil, afterPainting: Bool = false) {
        let helpers = max(1, threads) - 1
        self.crew = helpers == 0 ? nil : crew.flatMap { $0.helpers == helpers ? $0 : nil } ?? Crew(helpers: helpers)
        self.afterPainting = afterPainting
    }

    /// Whether the crew may still paint the last frame when this pass begins.
    private let afterPainting: Bool

    /// Takes a store's drawing as soon as it is queued.
    func submit(_ job: BackingStoreCache.Job) {
        guard job.level == 0, let crew else {
            later.append(job)
            return
        }
        waiting.append(job)
        waitingPixels += job.surface.width * job.surface.height
        guard waitingPixels >= Self.earlyPixelThreshold
                || (lastBatch == nil && waitingPixels >= Self.firstBatchPixels && crew.helpersAwake) else { return }
        if let lastBatch, !lastBatch.allBegun, waitingPixels < Self.laterBatchPixels { return }
        offerWaiting(to: crew)
        early = true
    }

    /// Offers the waiting jobs to `crew` as one batch.
    private func offerWaiting(to crew: Crew) {
        let batch = Batch(waiting)
        let first = lastBatch == nil
        lastBatch = batch
        crew.offer(batch.count, afterEarlierRuns: first && afterPainting) { batch.draw($0) }
        waiting.removeAll(keepingCapacity: true)
        waitingPixels = 0
    }

    /// Whether helper threads may be drawing stores now: `finish()` will join them.
    var drawsAhead: Bool { early }

    /// Draws everything submitted; returns once every store is complete.
    func finish() {
        if early, let crew {
            if !waiting.isEmpty { offerWaiting(to: crew) }
            crew.join()
            early = false
            lastBatch = nil
        }
        // (Joined only when both hold jobs: a frame below the early threshold queues all its
        // stores in `later`, and the copy was an allocation a frame.)
        Self.run(waiting.isEmpty ? later : later.isEmpty ? waiting : waiting + later, crew: crew)
        waiting = []
        later = []
    }

    /// Draws `jobs` now, level by level, each level in parallel on `crew` when given (else on
    /// the calling thread).
    static func run(_ jobs: [BackingStoreCache.Job], crew: Crew? = nil) {
        guard let first = jobs.first else { return }
        // Usually every job is of one level (a frame of changed content and borders): grouping
        // them in a dictionary cost more than drawing a small store.
        if jobs.allSatisfy({ $0.level == first.level }) {
            runLevel(jobs, crew: crew)
            return
        }
        for (_, level) in Dictionary(grouping: jobs, by: \.level).sorted(by: { $0.key < $1.key }) {
            runLevel(level, crew: crew)
        }
    }

    /// Draws the jobs of one level, in parallel when there are enough pixels.
    private static func runLevel(_ level: [BackingStoreCache.Job], crew: Crew?) {
        guard let crew, level.count > 1,
              level.reduce(0, { $0 + $1.surface.width * $1.surface.height }) >= parallelPixelThreshold else {
            for job in level { job.draw() }
            return
        }
        // Largest first, so that a big store does not start last and finish alone.
        let jobs = Handed(level.sorted { $0.surface.width * $0.surface.height > $1.surface.width * $1.surface.height })
        crew.offer(jobs.value.count) { jobs.value[$0].draw() }
        crew.join()
    }
}

/// First-level jobs offered to the crew as they are queued, each let go by the thread that
/// draws it: a job holds what its store is drawn from (a line's text, its font), and those were
/// freed one after another on the frame's thread once the crew was joined, while the helpers
/// had nothing left to do.
///
/// `@unchecked Sendable` is safe here: the jobs are as `Handed`'s (below), and each element of
/// `jobs` is touched by one thread only, once: `draw(_:)` moves job `index` out, and the crew
/// hands out each index exactly once (`Crew.offer`), so no two threads touch one element and none
/// is moved twice. The crew hands the indices out in order, so the jobs moved out are the first
/// `moved` (an atomic count); `deinit`, which runs once no run holds the batch (a run holds the
/// offered closure, and so the batch, until it returns), deinitializes only the rest — none,
/// unless the batch was let go with runs never begun.
private final class Batch: @unchecked Sendable {
    private let jobs: UnsafeMutablePointer<BackingStoreCache.Job>
    let count: Int
    private let moved = Atomic<Int>(0)

    init(_ jobs: [BackingStoreCache.Job]) {
        count = jobs.count
        self.jobs = .allocate(capacity: count)
        self.jobs.initialize(from: jobs, count: count)
    }

    /// Whether every job has been begun (read by the offering thread as a hint: relaxed).
    var allBegun: Bool { moved.load(ordering: .relaxed) >= count }

    /// Draws job `index` and lets it go, on the calling thread.
    func draw(_ index: Int) {
        moved.add(1, ordering: .relaxed)
        let job = (jobs + index).move()
        job.draw()
    }

    deinit {
        let drawn = min(count, moved.load(ordering: .relaxed))
        (jobs + drawn).deinitialize(count: count - drawn)
        jobs.deallocate()
    }
}

/// Jobs handed to the crew's threads.
///
/// `@unchecked Sendable` is safe here: each job writes only its own store's pixels and what
/// it knows of them (`Bitmap.knownUniformPixel`; no two jobs of a frame share a store: the cache
/// never queues a store twice), and reads only immutable render
/// descriptions and stores of lower levels, which were finished before this level began (the
/// crew's join orders them). The thread that queues first-level jobs — updating the frame's
/// objects — never reads a store's pixels before `finish()` has joined the crew: stores are
/// read only by later levels and by painting. What the jobs call is safe from several threads
/// at once for different bitmaps: pixman images are per bitmap, path rasterization keeps its
/// scratch per thread, fonts and the glyph cache lock. Each job is run once (`Crew.offer`).
private struct Handed<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
