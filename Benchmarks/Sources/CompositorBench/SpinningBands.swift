import Foundation
import Synchronization

/// Runs a frame's bands on the calling thread and on helper threads that stay awake between
/// frames: the cheapest hand-over there is, so that what a copy split over them gains from all
/// cores is the machine's memory, not the hand-over.
///
/// (The memcpy floor first split its copy with `DispatchQueue.concurrentPerform`, and read 1.3x
/// one core for a 1080p frame; the same copy over these threads reads ~1.95x. The difference is
/// the pool's wake-up of its threads at each frame, which is a cost of the hand-over, not of
/// memory.)
///
/// Bands are taken from a counter by whichever thread is free, the calling thread included, and
/// `run` returns when every band is done. A helper watches for the next frame for
/// `watchNanoseconds` before it sleeps on a condition, so frames drawn back to back never wake a
/// thread, and a drawer that is not being timed costs no core.
final class SpinningBands: Sendable {
    /// How long a helper out of work watches for the next frame's bands before it sleeps.
    static let watchNanoseconds: UInt64 = 200_000

    /// One frame's work: its bands and what draws one.
    private final class Work: Sendable {
        let bands: Int
        let body: @Sendable (Int) -> Void
        let next = Atomic<Int>(0)
        let done = Atomic<Int>(0)

        init(bands: Int, body: @escaping @Sendable (Int) -> Void) {
            self.bands = bands
            self.body = body
        }

        /// Draws bands until none is left.
        func help() {
            while true {
                let band = next.add(1, ordering: .relaxed).oldValue
                guard band < bands else { return }
                body(band)
                done.add(1, ordering: .releasing)
            }
        }
    }

    private let work = Mutex<Work?>(nil)
    /// Counts the frames posted (negative: stop).
    private let generation = Atomic<Int>(0)
    /// Helpers asleep on `condition`; changed only under its lock.
    private let sleepers = Atomic<Int>(0)
    private let condition = NSCondition()
    let helpers: Int

    /// `threads - 1` helper threads beside the calling one.
    init(threads: Int) {
        helpers = max(0, threads - 1)
        for index in 0..<helpers {
            let thread = Thread { [self] in serve() }
            thread.name = "memcpy floor helper \(index)"
            thread.start()
        }
    }

    /// Ends the helpers (they hold the object until they see it).
    func stop() {
        generation.store(-1, ordering: .releasing)
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Draws `bands` bands with `body` on all threads; returns when all are drawn.
    func run(bands: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let frame = Work(bands: bands, body: body)
        work.withLock { $0 = frame }
        generation.add(1, ordering: .releasing)
        condition.lock()
        if sleepers.load(ordering: .relaxed) > 0 { condition.broadcast() }
        condition.unlock()
        frame.help()
        while frame.done.load(ordering: .acquiring) < bands {}
    }

    private func serve() {
        var seen = 0
        while true {
            let now = watch(past: seen)
            if now < 0 { return }
            seen = now
            work.withLock { $0 }?.help()
        }
    }

    /// The next generation after `seen`: watched for a while, then slept for.
    private func watch(past seen: Int) -> Int {
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.watchNanoseconds
        while DispatchTime.now().uptimeNanoseconds < deadline {
            for _ in 0..<64 {
                let now = generation.load(ordering: .acquiring)
                if now != seen { return now }
            }
        }
        condition.lock()
        defer { condition.unlock() }
        sleepers.add(1, ordering: .relaxed)
        defer { sleepers.subtract(1, ordering: .relaxed) }
        while true {
            let now = generation.load(ordering: .acquiring)
            if now != seen { return now }
            condition.wait()
        }
    }
}
