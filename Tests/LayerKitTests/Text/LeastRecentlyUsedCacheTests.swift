import Foundation
import Testing
@testable import LayerKit

/// The map `Font.named` keeps its fonts in.
@Suite struct LeastRecentlyUsedCacheTests {
    final class Box: Sendable {
        let n: Int
        init(_ n: Int) { self.n = n }
    }

    /// Threads that each made a value for a key they all missed get the same one back: the
    /// first stored (`Font.named` then hands out one font object per file however many threads
    /// load it at once).
    @Test func threadsThatAllMissedAgreeOnTheFirstValueStored() {
        for round in 0..<50 {
            let cache = LeastRecentlyUsedCache<Int, Box>(capacity: 4)
            let got = Locked<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { thread in
                let kept = cache.insertIfAbsent(Box(thread), for: round)
                got.withLock { $0.append(kept.n) }
            }
            let results = got.withLock { $0 }
            #expect(results.count == 8)
            #expect(Set(results).count == 1, "round \(round): \(results)")
            #expect(cache.value(for: round)?.n == results.first)
            #expect(cache.count == 1)
        }
    }

    /// A value already held is returned and kept; it counts as just used.
    @Test func aHeldValueIsKeptAndMarkedUsed() {
        let cache = LeastRecentlyUsedCache<Int, Box>(capacity: 4)
        for key in 0..<4 { cache.insert(Box(key), for: key) }
        #expect(cache.insertIfAbsent(Box(100), for: 0).n == 0)
        // Over capacity, the oldest go first, down to three quarters: 1, 2 (0 was just used).
        cache.insert(Box(4), for: 4)
        #expect(cache.value(for: 0)?.n == 0)
        #expect(cache.value(for: 1) == nil && cache.value(for: 2) == nil)
        #expect(cache.value(for: 3)?.n == 3 && cache.value(for: 4)?.n == 4)
    }
}
