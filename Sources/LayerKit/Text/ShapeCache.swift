import Foundation
import Synchronization

/// One font's shaping results, by the UTF-8 bytes of the text shaped, keeping at most
/// `capacity` texts (the least recently used dropped first).
///
/// Looked up by bytes, so that a line's words are found without making a `String` of each
/// (making and hashing the strings was a third of laying out a short line): open addressing
/// on a 64-bit FNV-1a hash of the bytes, the bytes compared on a hash match. Shared by every
/// thread, under one lock.
///
/// Each thread also keeps a front (`Front`): the texts it found here, looked up without the
/// lock (`lookingUp(_:)`), so that the threads of a content pass laying out lines of one font
/// do not queue on it. A front holds only texts the cache holds: it is filled from the cache at
/// one `generation`, which moves whenever the cache lets texts go or replaces one (a trim
/// rebuilds the table; nothing else removes), and a front from another generation is emptied
/// before use. So a front never outgrows the cache (at most `capacity` texts, whose glyph
/// arrays it shares), and never returns what the cache would not.
final class ShapeCache: Sendable {
    fileprivate struct State {
        /// Each slot's hash (`free` when empty), key bytes, glyphs and last use.
        var hashes: [UInt64]
        var keys: [[UInt8]]
        var values: [[Font.Glyph]]
        var lastUse: [UInt64]
        var count = 0
        var clock: UInt64 = 0
        /// Advances whenever a text is let go of or replaced (`ShapeCache.generation`).
        var generation: UInt64 = 0

        init(slots: Int) {
            hashes = [UInt64](repeating: ShapeCache.free, count: slots)
            keys = [[UInt8]](repeating: [], count: slots)
            values = [[Font.Glyph]](repeating: [], count: slots)
            lastUse = [UInt64](repeating: 0, count: slots)
        }

        /// Where `bytes` (hashed to `hash`) is, or the free slot where it would go.
        func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64) -> (index: Int, found: Bool) {
            let mask = hashes.count - 1
            var i = Int(truncatingIfNeeded: hash >> 32) & mask
            while true {
                let h = hashes[i]
                if h == ShapeCache.free { return (i, false) }
                if h == hash, keys[i].withUnsafeBufferPointer({ ShapeCache.equal($0, bytes) }) { return (i, true) }
                i = (i + 1) & mask
            }
        }
    }

    /// The hash of no slot (hashes are made odd).
    fileprivate static let free: UInt64 = 0

    private let state: Locked<State>
    /// The most texts kept.
    let capacity: Int
    /// `State.generation`, published for fronts to check without the lock (stored under it).
    private let generation = Atomic<UInt64>(0)
    /// Unique for the process's lifetime: the fronts' name for this cache.
    let serial: UInt64

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Locked(State(slots: Self.slots(for: self.capacity)))
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
    }

    private static let serials = Atomic<UInt64>(0)

    /// A table at most half full at `capacity` texts, so that probes stay short.
    private static func slots(for capacity: Int) -> Int {
        var slots = 16
        while slots < 2 * capacity + 2 { slots *= 2 }
        return slots
    }

    /// The glyphs kept for `bytes`, marked as just used; nil when not kept. Under the lock
    /// (the calling thread's front learns them).
    func glyphs(forUTF8 bytes: UnsafeBufferPointer<UInt8>) -> [Font.Glyph]? {
        glyphs(forUTF8: CollectionOfOne(bytes))[0]
    }

    /// The glyphs kept for each text of `texts`, in order (nil when not kept), marked as just
    /// used, under one lock; the calling thread's front learns them.
    func glyphs<Texts: Collection<UnsafeBufferPointer<UInt8>>>(forUTF8 texts: Texts) -> [[Font.Glyph]?] {
        let front = Front.current(for: self)
        return state.withLock { s in
            front.report(to: &s)
            front.catchUp(with: s.generation)
            return texts.map { bytes in
                let hash = Self.hash(bytes)
                let (index, found) = s.find(bytes, hash: hash)
                guard found else { return nil }
                s.clock += 1
                s.lastUse[index] = s.clock
                front.learn(hash: hash, key: s.keys[index], glyphs: s.values[index], at: index)
                return s.values[index]
            }
        }
    }

    /// Runs `body` with a function that returns the glyphs the calling thread's front holds for
    /// a text's bytes, or nil (then ask `glyphs(forUTF8:)`): no lock, unless the front has
    /// `Front.reportedUses` uses to report. `body` must not use the cache otherwise.
    ///
    /// The front is checked against the cache's generation once, here: the texts found are
    /// what the cache held then (as if looked up under the lock at that moment).
    func lookingUp<Result>(_ body: (_ find: (UnsafeBufferPointer<UInt8>) -> [Font.Glyph]?) -> Result) -> Result {
        let front = Front.current(for: self)
        front.catchUp(with: generation.load(ordering: .acquiring))
        var used: [Int] = []
        swap(&used, &front.used)
        // The table read through a buffer, once a line: through the class (or a copy of the
        // table captured by the closure), each probe retained and released the arrays it read.
        let held = front.count
        let result = front.table.entries.withUnsafeBufferPointer { entries in
            body { bytes in
                guard held > 0 else { return nil }
                let index = Front.Table.find(bytes, hash: Self.hash(bytes), in: entries)
                guard entries[index].hash != Self.free else { return nil }
                used.append(Int(entries[index].slot))
                return entries[index].glyphs
            }
        }
        swap(&used, &front.used)
        if front.used.count >= Front.reportedUses { state.withLock { front.report(to: &$0) } }
        return result
    }

    /// Keeps `glyphs` for `bytes` (replacing what was kept for them), dropping the least
    /// recently used quarter when over capacity.
    func insert(_ glyphs: [Font.Glyph], forUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let hash = Self.hash(bytes)
        let front = Front.current(for: self)
        state.withLock { s in
            front.report(to: &s)
            s.clock += 1
            let (index, found) = s.find(bytes, hash: hash)
            if found {
                // What fronts hold for these bytes is no longer what the cache holds.
                s.generation &+= 1
            } else {
                s.hashes[index] = hash
                s.keys[index] = Array(bytes)
                s.count += 1
            }
            s.values[index] = glyphs
            s.lastUse[index] = s.clock
            if s.count > capacity {
                Self.trim(&s, to: max(1, capacity * 3 / 4))
                s.generation &+= 1
            }
            generation.store(s.generation, ordering: .releasing)
            front.catchUp(with: s.generation)
            // (Where a trim put it.)
            let (kept, held) = s.find(bytes, hash: hash)
            if held { front.learn(hash: hash, key: s.keys[kept], glyphs: s.values[kept], at: kept) }
        }
    }

    /// Texts kept.
    var count: Int { state.withLock { $0.count } }

    /// Keeps the `target` most recently used texts. Open addressing cannot simply empty a slot
    /// (later probes would stop there): the table is built again from those kept, once per
    /// quarter of the capacity inserted. The kept are found by their last use's rank, selected
    /// in linear time (every use stamps a distinct clock value), not by sorting the texts.
    private static func trim(_ s: inout State, to target: Int) {
        var uses: [UInt64] = []
        uses.reserveCapacity(s.count)
        for i in s.hashes.indices where s.hashes[i] != free { uses.append(s.lastUse[i]) }
        guard uses.count > target else { return }
        let oldest = target > 0 ? selectLargest(target, of: &uses) : .max
        var kept = State(slots: s.hashes.count)
        kept.clock = s.clock
        kept.generation = s.generation
        for i in s.hashes.indices where s.hashes[i] != free && s.lastUse[i] >= oldest {
            let (index, _) = s.keys[i].withUnsafeBufferPointer { kept.find($0, hash: s.hashes[i]) }
            kept.hashes[index] = s.hashes[i]
            kept.keys[index] = s.keys[i]
            kept.values[index] = s.values[i]
            kept.lastUse[index] = s.lastUse[i]
            kept.count += 1
        }
        s = kept
    }

    /// The `k`-th largest of `values` (1 ≤ k ≤ count), reordering them: quickselect with a
    /// median-of-three pivot, linear in expectation.
    static func selectLargest(_ k: Int, of values: inout [UInt64]) -> UInt64 {
        precondition(k >= 1 && k <= values.count, "selectLargest: k out of range")
        // The (count - k)-th smallest, counting from 0.
        let wanted = values.count - k
        var low = 0, high = values.count - 1
        while low < high {
            let middle = low + (high - low) / 2
            let pivot = max(min(values[low], values[middle]), min(max(values[low], values[middle]), values[high]))
            var i = low, j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if wanted <= j {
                high = j
            } else if wanted >= i {
                low = i
            } else {
                return values[wanted]
            }
        }
        return values[wanted]
    }

    /// A thread's copy of texts it found in one cache (`ShapeCache`), looked up without a lock:
    /// the same open addressing (`Table`), holding the cache's keys and glyph arrays (shared,
    /// not copied) and each text's slot in the cache, for reporting uses.
    ///
    /// Filled only under the cache's lock, with what the cache holds at `generation`, and
    /// emptied when the cache's generation has moved; so it holds at most what the cache holds.
    /// Uses found here are reported to the cache's recency later, `reportedUses` at a time (or
    /// with the thread's next locked call), so that the texts a thread keeps using stay in the
    /// cache; uses not yet reported when the cache trims (or the front goes) are lost, which
    /// only makes the cache's idea of recency slightly older.
    ///
    /// Not `Sendable`: each belongs to one thread, reached only through `current(for:)`; so its
    /// properties skip the runtime's exclusivity checks (`@exclusivity(unchecked)`: no method
    /// changes one while another access to it is under way).
    final class Front: CacheFront {
        /// Uses gathered before they are reported under the lock.
        static let reportedUses = 64
        /// Caches (fonts) a thread keeps fronts for, the most recently used first; the others
        /// are dropped, with their references to the glyphs of fonts perhaps gone since.
        static let frontsKept = 4

        /// The cache's `serial`.
        let cache: UInt64
        /// The cache's generation what is held was found at.
        @exclusivity(unchecked) private(set) var generation: UInt64 = 0
        @exclusivity(unchecked) fileprivate private(set) var table = Table(slots: 16)
        /// Slots in the cache of texts found here, not yet reported.
        @exclusivity(unchecked) fileprivate var used: [Int] = []

        /// Texts held.
        var count: Int { table.count }

        init(cache: UInt64) { self.cache = cache }

        /// Never: the glyph arrays it hands out are values, which hold their buffers.
        var isInUse: Bool { false }

        /// Open addressing as the cache's own (`State`), and each text's slot in the cache.
        struct Table {
            /// A text held: its hash (`free` when the slot is empty), bytes, glyphs and slot in
            /// the cache (valid at the front's `generation`). One array of them, so that a
            /// line's lookups read one buffer.
            ///
            /// A text's first `headBytes` bytes are held in the entry itself (`head`), only the
            /// rest in an array (`tail`, empty for most words): a hit compared the bytes of a
            /// key array of its own, a second read from memory the line's words are seldom in
            /// (they are found once a frame, between which a frame's pixels went through the
            /// caches), and each such read waited for the one before.
            struct Entry {
                var hash: UInt64
                var glyphs: [Font.Glyph]
                /// The first `headBytes` bytes, zero after the text's end.
                var head: (UInt64, UInt64)
                /// The bytes after the first `headBytes`.
                var tail: [UInt8]
                /// The text's length in bytes.
                var count: Int32
                /// The text's slot in the cache.
                var slot: Int32

                static let empty = Entry(hash: ShapeCache.free, glyphs: [], head: (0, 0), tail: [], count: 0, slot: 0)

                /// Whether this entry holds `bytes`, whose `head(of:)` is `head`.
                @inline(__always)
                func holds(_ bytes: UnsafeBufferPointer<UInt8>, head: (UInt64, UInt64)) -> Bool {
                    guard count == Int32(truncatingIfNeeded: bytes.count), self.head == head else { return false }
                    guard bytes.count > headBytes else { return true }
                    return tail.withUnsafeBufferPointer { ShapeCache.equal($0, UnsafeBufferPointer(rebasing: bytes[headBytes...])) }
                }

            }

            /// Bytes of a text held in its entry (`Entry.head`).
            static let headBytes = 16

            /// The first `headBytes` of `bytes`, zero after their end, byte i in bits 8i to 8i + 7
            /// of the pair. Read with whole-word loads, none beyond the bytes: copied into the
            /// pair through memory, its words were read back before the copy's bytes could be
            /// forwarded to them.
            @inline(__always)
            static func head(of bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
                guard let base = bytes.baseAddress else { return (0, 0) }
                let n = bytes.count, raw = UnsafeRawPointer(base)
                func word(at offset: Int) -> UInt64 { UInt64(littleEndian: (raw + offset).loadUnaligned(as: UInt64.self)) }
                if n >= 16 { return (word(at: 0), word(at: 8)) }
                if n > 8 { return (word(at: 0), word(at: n - 8) >> (8 * UInt64(16 - n))) }
                if n == 8 { return (word(at: 0), 0) }
                var low: UInt64 = 0
                for i in 0..<n { low |= UInt64(bytes[i]) << (8 * UInt64(i)) }
                return (low, 0)
            }

            private(set) var entries: [Entry]
            private(set) var count = 0

            init(slots count: Int) {
                entries = [Entry](repeating: .empty, count: count)
            }

            /// Where `bytes` (hashed to `hash`) is in `entries`, or the free slot where it would go.
            @inline(__always)
            static func find(_ bytes: UnsafeBufferPointer<UInt8>, hash: UInt64, in entries: UnsafeBufferPointer<Entry>) -> Int {
                let mask = entries.count - 1
                let head = Self.head(of: bytes)
                var i = Int(truncatingIfNeeded: hash >> 32) & mask
                while true {
                    let h = entries[i].hash
                    if h == ShapeCache.free { return i }
                    if h == hash, entries[i].holds(bytes, head: head) { return i }
                    i = (i + 1) & mask
                }
            }

            /// Holds `glyphs` for `key`, found in the cache's `slot` (kept at most half full).
            mutating func insert(hash: UInt64, key: UnsafeBufferPointer<UInt8>, glyphs: [Font.Glyph], at slot: Int) {
                if (count + 1) * 2 > entries.count {
                    var bigger = Table(slots: entries.count * 2)
                    // The entries moved as they are: they hold distinct texts, so each goes to
                    // the first free slot its hash probes to, with no bytes compared or rebuilt.
                    let mask = bigger.entries.count - 1
                    for entry in entries where entry.hash != ShapeCache.free {
                        var i = Int(truncatingIfNeeded: entry.hash >> 32) & mask
                        while bigger.entries[i].hash != ShapeCache.free { i = (i + 1) & mask }
                        bigger.entries[i] = entry
                    }
                    bigger.count = count
                    self = bigger
                }
                let index = entries.withUnsafeBufferPointer { Self.find(key, hash: hash, in: $0) }
                if entries[index].hash == ShapeCache.free { count += 1 }
                entries[index] = Entry(hash: hash, glyphs: glyphs, head: Self.head(of: key),
                                       tail: key.count > Self.headBytes ? Array(key[Self.headBytes...]) : [],
                                       count: Int32(truncatingIfNeeded: key.count), slot: Int32(truncatingIfNeeded: slot))
            }
        }

        /// The calling thread's front for `cache`, made (empty) if it has none.
        static func current(for cache: ShapeCache) -> Front {
            CacheFronts.current(for: cache.serial, in: slot, kept: frontsKept)
        }

        private static let slot = ThreadSpecific<CacheFronts<Front>>()

        /// Emptied unless what it holds was found at `generation` (the cache's now).
        func catchUp(with generation: UInt64) {
            guard generation != self.generation else { return }
            self.generation = generation
            used.removeAll(keepingCapacity: true)
            // The smallest table again: the texts of the new generation may be fewer.
            if table.count > 0 { table = Table(slots: 16) }
        }

        /// Holds what the cache holds in `slot` (at `generation`, under its lock).
        ///
        /// The front keeps its own copy of the glyphs' buffer (and of a long key's tail), not the cache's:
        /// every hit retains the glyphs it hands out, and a buffer shared with the cache (and
        /// with other threads' fronts) has its reference count written by every thread that
        /// reads it, a cache line bouncing between cores on each line of text (swift_retain
        /// was 2.4 % of a two-core text-board frame's samples from here alone). A copy per
        /// thread is written by that thread only.
        fileprivate func learn(hash: UInt64, key: [UInt8], glyphs: [Font.Glyph], at slot: Int) {
            key.withUnsafeBufferPointer { key in
                table.insert(hash: hash, key: key, glyphs: glyphs.withUnsafeBufferPointer { Array($0) }, at: slot)
            }
        }

        /// Marks the uses gathered as uses in the cache's state `s` (under its lock), if its
        /// slots are still where they were found.
        fileprivate func report(to s: inout State) {
            guard !used.isEmpty else { return }
            if s.generation == generation {
                for slot in used where s.hashes[slot] != ShapeCache.free {
                    s.clock += 1
                    s.lastUse[slot] = s.clock
                }
            }
            used.removeAll(keepingCapacity: true)
        }
    }

    /// FNV-1a over the bytes, finished with a multiply so that the high bits (where probing
    /// starts) depend on every byte; odd, so never `free`.
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return (h ^ (h >> 29)) &* 0x9E37_79B9_7F4A_7C15 | 1
    }

    /// Whether two byte strings are the same.
    static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        return memcmp(pa, pb, a.count) == 0
    }
}
