import Foundation

/// One font's shaping results, by the UTF-8 bytes of the text shaped, keeping at most
/// `capacity` texts (the least recently used dropped first).
///
/// Looked up by bytes, so that a line's words are found without making a `String` of each
/// (making and hashing the strings was a third of laying out a short line): open addressing
/// on a 64-bit FNV-1a hash of the bytes, the bytes compared on a hash match. Shared by every
/// thread, under one lock.
final class ShapeCache: Sendable {
    private struct State {
        /// Each slot's hash (`free` when empty), key bytes, glyphs and last use.
        var hashes: [UInt64]
        var keys: [[UInt8]]
        var values: [[Font.Glyph]]
        var lastUse: [UInt64]
        var count = 0
        var clock: UInt64 = 0

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

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        state = Locked(State(slots: Self.slots(for: self.capacity)))
    }

    /// A table at most half full at `capacity` texts, so that probes stay short.
    private static func slots(for capacity: Int) -> Int {
        var slots = 16
        while slots < 2 * capacity + 2 { slots *= 2 }
        return slots
    }

    /// The glyphs kept for `bytes`, marked as just used; nil when not kept.
    func glyphs(forUTF8 bytes: UnsafeBufferPointer<UInt8>) -> [Font.Glyph]? {
        let hash = Self.hash(bytes)
        return state.withLock { s in
            let (index, found) = s.find(bytes, hash: hash)
            guard found else { return nil }
            s.clock += 1
            s.lastUse[index] = s.clock
            return s.values[index]
        }
    }

    /// Runs `body` with the cache locked, handing it a function that returns the glyphs kept for
    /// a text's bytes (marking them used), or nil: a line's words are looked up under one lock.
    /// `body` must not use the cache otherwise.
    func lookingUp<Result>(_ body: (_ find: (UnsafeBufferPointer<UInt8>) -> [Font.Glyph]?) -> Result) -> Result {
        state.withLock { s in
            body { bytes in
                let (index, found) = s.find(bytes, hash: Self.hash(bytes))
                guard found else { return nil }
                s.clock += 1
                s.lastUse[index] = s.clock
                return s.values[index]
            }
        }
    }

    /// Keeps `glyphs` for `bytes` (replacing what was kept for them), dropping the least
    /// recently used quarter when over capacity.
    func insert(_ glyphs: [Font.Glyph], forUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        let hash = Self.hash(bytes)
        state.withLock { s in
            s.clock += 1
            let (index, found) = s.find(bytes, hash: hash)
            if !found {
                s.hashes[index] = hash
                s.keys[index] = Array(bytes)
                s.count += 1
            }
            s.values[index] = glyphs
            s.lastUse[index] = s.clock
            if s.count > capacity { Self.trim(&s, to: max(1, capacity * 3 / 4)) }
        }
    }

    /// Texts kept.
    var count: Int { state.withLock { $0.count } }

    /// Keeps the `target` most recently used texts. Open addressing cannot simply empty a slot
    /// (later probes would stop there): the table is built again from those kept, once per
    /// quarter of the capacity inserted.
    private static func trim(_ s: inout State, to target: Int) {
        let held = s.hashes.indices.filter { s.hashes[$0] != free }.sorted { s.lastUse[$0] > s.lastUse[$1] }
        var kept = State(slots: s.hashes.count)
        kept.clock = s.clock
        for i in held.prefix(target) {
            let (index, _) = s.keys[i].withUnsafeBufferPointer { kept.find($0, hash: s.hashes[i]) }
            kept.hashes[index] = s.hashes[i]
            kept.keys[index] = s.keys[i]
            kept.values[index] = s.values[i]
            kept.lastUse[index] = s.lastUse[i]
            kept.count += 1
        }
        s = kept
    }

    /// FNV-1a over the bytes, finished with a multiply so that the high bits (where probing
    /// starts) depend on every byte; odd, so never `free`.
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
