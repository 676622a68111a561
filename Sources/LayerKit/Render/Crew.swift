import Foundation
import Synchronization

/// Helper threads a renderer keeps for its frames: each frame starts work on them (its stores'
/// drawing while it updates, then its bands) and joins it, instead of waking a pool's threads for
/// every phase.
///
/// A helper that finishes watches for the next work a short while (`watchNanoseconds`) before
/// it sleeps, and so does a thread joining work still running: frames drawn back to back hand
/// work over without the kernel, which cost a wake-up and a sleep a phase.
///
/// Work is offered, not assigned: the thread that starts it does its share and whatever no
/// helper took (bands, stores) before it joins, and a helper that has not begun the work when
/// it is joined never does. So a helper late to the work — asleep, or its core taken by other
/// programs — costs the frame nothing: the joiner waits only for helpers running the work.
///
/// The threads start at the first work and end when the crew is released. One thread at a time
/// starts and joins work (the thread drawing the renderer's frames).
final class Crew {
    /// How long a helper out of work, or a thread joining work, watches before it sleeps.
    static let watchNanoseconds: UInt64 = 50_000

    /// The helper threads' number.
    let helpers: Int
    private let shared: Shared
    private var started = false

    init(helpers: Int) {
        self.helpers = max(0, helpers)
        shared = Shared(helpers: self.helpers)
    }

    deinit { shared.stop() }

    /// Offers `work` to every helper, to run once with its index (0 ..< `helpers`), and returns at
    /// once. The caller must be able to do all of the work itself: a helper that has not begun it
    /// by `join()` skips it. The work started before must have been joined.
    func start(_ work: @escaping @Sendable (Int) -> Void) {
        guard helpers > 0 else { return }
        if !started {
            started = true
            for index in 0..<helpers {
                let thread = Thread { [shared] in shared.serve(index) }
                thread.name = "LayerKit helper \(index)"
                thread.start()
            }
        }
        shared.post(work)
    }

    /// Returns once every helper that began the work last started has finished it (at once if
    /// none was started); the others will not begin it.
    func join() {
        guard helpers > 0 else { return }
        shared.join()
    }
}

/// What the crew's threads share.
///
/// `@unchecked Sendable` is safe here: every stored variable is read and written only under the
/// condition's lock (a pthread mutex, which ThreadSanitizer understands). The two atomics are
/// hints for watchers, who take the lock before acting on what they saw: a helper reads the work
/// under the lock, and a joiner returns only after reading under the lock that no helper still
/// runs it, so the helpers' writes are ordered before what follows `join()` by the lock.
private final class Shared: @unchecked Sendable {
    private let condition = NSCondition()
    private let helpers: Int
    private var work: (@Sendable (Int) -> Void)?
    /// Counts the work posted; a helper runs each generation once.
    private var generation = 0
    /// Helpers running the current work.
    private var running = 0
    /// Whether the current work is still offered (started and not yet joined).
    private var offered = false
    private var stopping = false
    /// Threads waiting on the condition (helpers for work, the joiner for the helpers).
    private var sleepers = 0
    /// `generation` as last posted, and the last generation every helper finished: for watchers.
    private let posted = Atomic<Int>(0)
    private let finished = Atomic<Int>(0)

    init(helpers: Int) { self.helpers = helpers }

    func post(_ work: @escaping @Sendable (Int) -> Void) {
        condition.lock()
        precondition(!offered && running == 0, "Crew: work started before the last was joined")
        self.work = work
        generation += 1
        offered = true
        let (now, wake) = (generation, sleepers > 0)
        condition.unlock()
        posted.store(now, ordering: .releasing)
        if wake { condition.broadcast() }
    }

    func join() {
        condition.lock()
        offered = false
        work = nil
        if running > 0 {
            let awaited = generation
            condition.unlock()
            _ = watch { self.finished.load(ordering: .acquiring) == awaited }
            condition.lock()
            while running > 0 {
                sleepers += 1
                condition.wait()
                sleepers -= 1
            }
        }
        condition.unlock()
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.unlock()
        posted.add(1, ordering: .releasing)
        condition.broadcast()
    }

    /// The loop of helper `index`.
    func serve(_ index: Int) {
        var done = 0
        condition.lock()
        while !stopping {
            if generation != done {
                done = generation
                // (Joined already: the joiner did this helper's share.)
                guard offered, let work else { continue }
                running += 1
                condition.unlock()
                work(index)
                condition.lock()
                running -= 1
                if running == 0 {
                    finished.store(done, ordering: .releasing)
                    if sleepers > 0 { condition.broadcast() }
                }
                continue
            }
            condition.unlock()
            let seen = done
            let posted = watch { self.posted.load(ordering: .acquiring) != seen }
            condition.lock()
            if posted || generation != done || stopping { continue }
            sleepers += 1
            condition.wait()
            sleepers -= 1
        }
        condition.unlock()
    }

    /// Whether `happened` became true within `Crew.watchNanoseconds`, looking again and again.
    /// (Not yielding the core between looks: a watcher that yielded on a busy machine lost its
    /// core for a whole time slice and came back to work long done, or kept a joiner waiting.)
    private func watch(_ happened: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + Crew.watchNanoseconds
        while true {
            for _ in 0..<64 where happened() { return true }
            if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
        }
    }
}
