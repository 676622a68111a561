import CKernels
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Helper threads a renderer keeps for its frames: the frame's thread offers them work (its
/// stores' drawing while it updates, later levels of stores, its bands) and joins it, instead of
/// waking a pool's threads for every phase.
///
/// Work is offered as runs of a closure (`offer(_:_:)`), handed out in order, each run to one
/// thread: a helper, or the joining thread, which does every run no helper has begun before it
/// waits for the ones begun. So a helper late to the work — asleep, or its core taken by other
/// programs — costs the frame nothing but the runs it began.
///
/// A helper out of work watches for the next offer a short while (`watchNanoseconds`) before it
/// sleeps, and so does a thread joining runs still going: frames drawn back to back hand work
/// over without the kernel, which cost a wake-up and a sleep a phase. But a watcher holds its
/// core, and on a machine with more running threads than cores that is the core the frame's own
/// thread, or the helper it waits for, needs. So the crew counts its threads' involuntary context
/// switches (each thread its own, once a join) and, when they are preempted repeatedly, stops
/// watching for a while (`WatchPolicy`): its threads sleep at once, and work is handed over
/// through the condition as a dispatch pool's would be.
///
/// The threads start at the first offer and end when the crew is released (its `deinit` waits
/// for them to leave). One thread at a time offers and joins work (the thread drawing the
/// renderer's frames), never from within the work.
final class Crew {
    /// How long a helper out of work, or a thread joining runs still going, watches before it
    /// sleeps (while the policy lets it).
    static let watchNanoseconds: UInt64 = 50_000

    /// The helper threads' number.
    let helpers: Int
    private let shared: Shared
    private var started = false
    /// The joining thread's involuntary context switches when last counted.
    private var joinerSwitches = SwitchCount()

    init(helpers: Int) {
        self.helpers = max(0, helpers)
        shared = Shared()
    }

    deinit { if started { shared.stop() } }

    /// Offers `count` runs of `work`, passing each its index (0 ..< `count`), and returns at once.
    /// Every run happens once, on a helper or in `join()`, runs offered earlier first.
    ///
    /// `afterEarlierRuns` fences the offer: its first run begins only once every run offered
    /// before it has finished, not merely begun (and the offers after it follow it, in order).
    /// A frame submitted without waiting leaves its bands to the helpers; the next frame's
    /// stores, offered while it updates, are fenced behind those bands, which read them.
    func offer(_ count: Int = 1, afterEarlierRuns fenced: Bool = false, _ work: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        if !started && helpers > 0 {
            started = true
            shared.begin(helpers: helpers)
            for index in 0..<helpers {
                let thread = Thread { [shared] in shared.serve() }
                thread.name = "LayerKit helper \(index)"
                thread.start()
            }
        }
        shared.offer(Offer(work: work, count: count, fenced: fenced))
    }

    /// Does every run offered that no helper has begun, then returns once the helpers' runs have
    /// finished; what they wrote is seen by the caller after. Then feeds the watch policy with
    /// the preemptions counted since the last join.
    func join() {
        shared.join(switched: joinerSwitches.sinceLastCount())
    }

    /// Whether every helper is awake (watching for work or drawing): a hint, read without the
    /// lock, for whether a small offer is taken at once or waits for a wake-up. False before the
    /// first offer starts the threads.
    var helpersAwake: Bool { started && shared.asleep.load(ordering: .relaxed) == 0 }

    /// How many of the crew's helper threads are running (for tests: none once the crew is
    /// released).
    var census: Census { shared.census }
}

/// A count of a crew's live helper threads, kept by the threads themselves.
final class Census: Sendable {
    private let count = Atomic<Int>(0)
    var live: Int { count.load(ordering: .acquiring) }
    fileprivate func add(_ n: Int) { count.add(n, ordering: .releasing) }
}

/// When a crew's threads watch for work: not for a while after they were preempted repeatedly.
///
/// Fed once a join with whether any of the crew's threads was switched out involuntarily since
/// the last join. One preemption now and then is any machine's lot (a kernel thread, a timer):
/// watching stops only when two of the last four joins watched were preempted, which on a
/// machine running more threads than it has cores comes within a few joins. Watching stops for
/// `pause` joins, after which it resumes with the next pause twice as long (up to
/// `longestPause`): contended again soon, the crew backs off longer, as an adaptive mutex does;
/// `pause` calm joins of watching halve it again (down to `firstPause`). A value: its decisions
/// follow from what it was fed, not from clocks.
struct WatchPolicy: Equatable {
    /// The first pause, and the longest, in joins (a two-core frame joins two or three times).
    static let firstPause = 8
    static let longestPause = 1024

    /// Joins left before watching resumes.
    private(set) var pauseLeft = 0
    /// The pause contention starts.
    private(set) var pause = firstPause
    /// The last four joins watched, a bit each (the lowest the last): whether preempted.
    private var recent: UInt8 = 0
    /// Calm joins of watching since it resumed or the pause was last halved.
    private var calm = 0

    var watches: Bool { pauseLeft == 0 }

    mutating func record(preempted: Bool) {
        if pauseLeft > 0 {
            pauseLeft -= 1
            if pauseLeft == 0 { pause = min(Self.longestPause, pause * 2) }
            return
        }
        recent = (recent << 1 | (preempted ? 1 : 0)) & 0b1111
        if recent.nonzeroBitCount >= 2 {
            pauseLeft = pause
            recent = 0
            calm = 0
        } else if preempted {
            calm = 0
        } else {
            calm += 1
            if calm == pause {
                pause = max(Self.firstPause, pause / 2)
                calm = 0
            }
        }
    }
}

/// One offer of runs, and how many are handed out.
private struct Offer {
    let work: @Sendable (Int) -> Void
    let count: Int
    /// Whether its first run waits until every run of earlier offers has finished.
    var fenced = false
    var next = 0
}

/// The involuntary context switches of the thread that last counted.
private struct SwitchCount {
    private var thread: pthread_t?
    private var switches = 0

    /// The calling thread's involuntary context switches since it last counted (0 the first time,
    /// or when the last count was another thread's; always 0 where threads' switches are not
    /// counted).
    mutating func sinceLastCount() -> Int {
        #if os(Linux)
        var usage = rusage()
        // 1 is RUSAGE_THREAD, which <sys/resource.h> defines only under _GNU_SOURCE.
        guard getrusage(1, &usage) == 0 else { return 0 }
        let me = pthread_self()
        defer { (thread, switches) = (me, usage.ru_nivcsw) }
        guard let thread, pthread_equal(thread, me) != 0 else { return 0 }
        return max(0, usage.ru_nivcsw - switches)
        #else
        return 0
        #endif
    }
}

/// What the crew's threads share.
///
/// `@unchecked Sendable` is safe here: every stored variable is read and written only under the
/// condition's lock (a pthread mutex, which ThreadSanitizer understands). The atomics are hints
/// for watchers, who take the lock before acting on what they saw: a helper takes a run under
/// the lock, and a joiner returns only after reading under the lock that no helper still runs
/// one, so the helpers' writes are ordered before what follows `join()` by the lock.
private final class Shared: @unchecked Sendable {
    private let condition = NSCondition()
    /// Offers with runs not yet handed out, from `head`.
    private var offers: [Offer] = []
    private var head = 0
    /// Runs begun by helpers and not finished.
    private var running = 0
    /// Whether the joining thread runs a run (a fenced offer waits for it too).
    private var joinerRuns = false
    /// Helpers waiting on the condition for work, and whether the joiner waits on it.
    private var sleepers = 0
    /// `sleepers`, published for `Crew.helpersAwake` (stored under the lock).
    let asleep = Atomic<Int>(0)
    private var joinerSleeps = false
    private var stopping = false
    /// Helpers in `serve()`.
    private var live = 0
    private var policy = WatchPolicy()
    /// Involuntary switches the helpers counted since the last join, and the joins so far (each
    /// helper counts its own once a join).
    private var preemptions = 0
    private var joins = 0
    /// Offers made (and the stop), and runs going: for watchers.
    private let offered = Atomic<Int>(0)
    private let busy = Atomic<Int>(0)
    let census = Census()

    func begin(helpers: Int) {
        condition.lock()
        live = helpers
        condition.unlock()
        census.add(helpers)
    }

    func offer(_ offer: Offer) {
        condition.lock()
        offers.append(offer)
        // While not watching, a single run wakes no helper: the runs offered one by one as a
        // frame updates wait for the join (or a helper already awake), which wakes the helpers
        // once for all of them, instead of once a run.
        let wake = sleepers > 0 && (offer.count > 1 || policy.watches)
        condition.unlock()
        offered.add(1, ordering: .releasing)
        if wake {
            if offer.count > 1 { condition.broadcast() } else { condition.signal() }
        }
    }

    /// Runs offered and not handed out. Under the lock.
    private var pending: Int { offers[head...].reduce(0) { $0 + $1.count - $1.next } }

    /// The next run not handed out, taken; nil when none is, or when the next is the first of a
    /// fenced offer and a run of an earlier one still goes (`nextRunWaits`). Under the lock.
    private func take() -> (@Sendable (Int) -> Void, Int)? {
        while head < offers.count {
            let index = offers[head].next
            if index < offers[head].count {
                if index == 0 && offers[head].fenced && runsGo { return nil }
                offers[head].next += 1
                return (offers[head].work, index)
            }
            head += 1
        }
        return nil
    }

    /// Whether the next run offered is the first of a fenced offer and waits for a run of an
    /// earlier one. Under the lock.
    private var nextRunWaits: Bool { nextOfferIsFenced && runsGo }

    /// Whether a run goes, on a helper or on the joining thread. Under the lock.
    private var runsGo: Bool { running > 0 || joinerRuns }

    /// Whether the next run offered is the first of a fenced offer. Under the lock.
    private var nextOfferIsFenced: Bool {
        guard let offer = offers[head...].first(where: { $0.next < $0.count }) else { return false }
        return offer.fenced && offer.next == 0
    }

    /// Once the last run of earlier offers has finished, lets helpers waiting at a fence know
    /// (watchers see `offered` change; sleepers are woken). Under the lock.
    private func liftFenceIfDue() {
        guard !runsGo, nextOfferIsFenced else { return }
        offered.add(1, ordering: .releasing)
        if sleepers > 0 { condition.broadcast() }
    }

    func join(switched: Int) {
        condition.lock()
        if sleepers > 0 && pending > 1 { condition.broadcast() }
        while true {
            while let (work, index) = take() {
                joinerRuns = true
                condition.unlock()
                work(index)
                condition.lock()
                joinerRuns = false
                liftFenceIfDue()
            }
            guard nextRunWaits else { break }
            waitForHelpersRuns { nextRunWaits }
        }
        offers.removeAll(keepingCapacity: true)
        head = 0
        waitForHelpersRuns { running > 0 }
        policy.record(preempted: preemptions + switched > 0)
        preemptions = 0
        joins += 1
        condition.unlock()
    }

    /// Returns once `holds` is false — it turns false when a helper's run ends: no helper runs
    /// one, or a fence has lifted — watching a while (when the policy lets it), then asleep on
    /// the condition. Under the lock (let go while waiting).
    private func waitForHelpersRuns(while holds: () -> Bool) {
        guard holds() else { return }
        let watch = policy.watches
        condition.unlock()
        if watch { _ = Self.watch { self.busy.load(ordering: .acquiring) == 0 } }
        condition.lock()
        while holds() {
            joinerSleeps = true
            condition.wait()
            joinerSleeps = false
        }
    }

    func stop() {
        condition.lock()
        stopping = true
        condition.unlock()
        offered.add(1, ordering: .releasing)
        condition.broadcast()
        condition.lock()
        while live > 0 { condition.wait() }
        condition.unlock()
    }

    /// A helper's loop.
    func serve() {
        var switches = SwitchCount()
        var counted = -1
        condition.lock()
        while !stopping {
            if let (work, index) = take() {
                running += 1
                busy.store(running, ordering: .releasing)
                condition.unlock()
                work(index)
                condition.lock()
                running -= 1
                busy.store(running, ordering: .releasing)
                if running == 0 && joinerSleeps { condition.broadcast() }
                liftFenceIfDue()
                continue
            }
            // Out of work: count this thread's preemptions once a join, then watch or sleep.
            let (watch, seen, round) = (policy.watches, offered.load(ordering: .acquiring), joins)
            condition.unlock()
            let switched = round != counted ? switches.sinceLastCount() : 0
            let more = watch && Self.watch { self.offered.load(ordering: .acquiring) != seen }
            condition.lock()
            if round != counted {
                counted = round
                preemptions += switched
            }
            if more || (head < offers.count && !nextRunWaits) || stopping { continue }
            sleepers += 1
            asleep.store(sleepers, ordering: .relaxed)
            condition.wait()
            sleepers -= 1
            asleep.store(sleepers, ordering: .relaxed)
        }
        live -= 1
        census.add(-1)
        condition.broadcast()
        condition.unlock()
    }

    /// Whether `happened` became true within `Crew.watchNanoseconds`, looking again and again,
    /// the core told between looks that this is a spin (`lk_spin_pause`). (Not yielding the core
    /// to the kernel between looks: a watcher that yielded on a busy machine lost its core for a
    /// whole time slice and came back to work long done. Not watching at all on such a machine is
    /// the policy's part.)
    private static func watch(_ happened: () -> Bool) -> Bool {
        let deadline = DispatchTime.now().uptimeNanoseconds + Crew.watchNanoseconds
        while true {
            for _ in 0..<64 {
                if happened() { return true }
                lk_spin_pause()
            }
            if DispatchTime.now().uptimeNanoseconds >= deadline { return false }
        }
    }
}
