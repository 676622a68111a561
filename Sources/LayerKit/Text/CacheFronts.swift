/// A thread's fronts of shared caches (`ShapeCache.Front`, `GlyphCache.Front`): what the thread
/// found in each cache, kept where it looks without the cache's lock.
protocol CacheFront: AnyObject {
    /// The serial of the cache this front is of.
    var cache: UInt64 { get }
    /// An empty front of the cache with serial `cache`.
    init(cache: UInt64)
    /// Whether what the front handed out may still be read (then it must not go).
    var isInUse: Bool { get }
}

/// One thread's fronts of caches of one kind, the most recently used first; at most `kept`
/// of them, the others dropped (with what they hold of caches perhaps gone since), except
/// one still in use.
///
/// Not `Sendable`: each list belongs to one thread, reached only through `current(for:in:kept:)`;
/// so its array skips the runtime's exclusivity checks.
final class CacheFronts<Front: CacheFront> {
    @exclusivity(unchecked) private var fronts: [Front] = []
    /// The first of `fronts` and its cache's serial, read without retaining them (a text's
    /// every line asks for it, and a reference read from the array was retained and released).
    @exclusivity(unchecked) private var first: (cache: UInt64, front: Unmanaged<Front>)?

    /// The calling thread's front for the cache with serial `cache`, made (empty) if it has
    /// none; `slot` holds the thread's list.
    static func current(for cache: UInt64, in slot: ThreadSpecific<CacheFronts>, kept: Int) -> Front {
        unretained(for: cache, in: slot, kept: kept).takeUnretainedValue()
    }

    /// `current(for:in:kept:)` not retained: the thread's list holds it, until the thread makes
    /// a front of another `kept` caches (a front still in use excepted).
    @inline(__always)
    static func unretained(for cache: UInt64, in slot: ThreadSpecific<CacheFronts>, kept: Int) -> Unmanaged<Front> {
        if let thread = slot.unmanaged, let first = thread._withUnsafeGuaranteedRef({ $0.first }), first.cache == cache {
            return first.front
        }
        return arranged(for: cache, in: slot, kept: kept)
    }

    /// `unretained(for:in:kept:)` when the front is not the first: made first, and made if
    /// there is none.
    private static func arranged(for cache: UInt64, in slot: ThreadSpecific<CacheFronts>, kept: Int) -> Unmanaged<Front> {
        let thread: CacheFronts
        if let fronts = slot.value {
            thread = fronts
        } else {
            thread = CacheFronts()
            slot.set(thread)
        }
        let front: Front
        if let index = thread.fronts.firstIndex(where: { $0.cache == cache }) {
            front = thread.fronts.remove(at: index)
            thread.fronts.insert(front, at: 0)
        } else {
            front = Front(cache: cache)
            thread.fronts.insert(front, at: 0)
            if thread.fronts.count > kept, let last = thread.fronts.lastIndex(where: { !$0.isInUse }), last > 0 {
                thread.fronts.remove(at: last)
            }
        }
        thread.first = (cache, Unmanaged.passUnretained(front))
        return Unmanaged.passUnretained(front)
    }
}
