
/// A thread-safe map that keeps at most `capacity` entries, dropping the least recently used.
///
/// Used for the fonts `Font.named` holds and the shaping results each font keeps. When an
/// insertion goes over capacity, the oldest entries are dropped down to three quarters of it,
/// so that the sort that finds them is paid once per quarter of the capacity.
final class LeastRecentlyUsedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var entries: [Key: (value: Value, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
        var capacity: Int
    }

    private let state: Locked<State>

    init(capacity: Int) {
        state = Locked(State(capacity: max(1, capacity)))
    }

    /// The value for `key`, marked as just used.
    func value(for key: Key) -> Value? {
        state.withLock { s in
            // One hash: the entry is found once and marked where it is.
            guard let index = s.entries.index(forKey: key) else { return nil }
            s.clock += 1
            s.entries.values[index].lastUse = s.clock
            return s.entries.values[index].value
        }
    }

    /// Stores a value, dropping the least recently used entries when over capacity.
    func insert(_ value: Value, for key: Key) {
        state.withLock { s in
            s.clock += 1
            s.entries[key] = (value, s.clock)
            Self.trim(&s)
        }
    }

    /// The value already held for `key` if there is one, else `value`, stored: what two threads
    /// that each made a value for a key they both missed agree on (both get the first one
    /// stored, and the other is dropped). Marks the entry as just used either way.
    func insertIfAbsent(_ value: Value, for key: Key) -> Value {
        state.withLock { s in
            s.clock += 1
            if let index = s.entries.index(forKey: key) {
                s.entries.values[index].lastUse = s.clock
                return s.entries.values[index].value
            }
            s.entries[key] = (value, s.clock)
            Self.trim(&s)
            return value
        }
    }

    /// The most entries kept (at least 1); lowering it drops the oldest at once.
    var capacity: Int {
        get { state.withLock { $0.capacity } }
        set {
            state.withLock { s in
                s.capacity = max(1, newValue)
                Self.trim(&s)
            }
        }
    }

    /// Entries held.
    var count: Int { state.withLock { $0.entries.count } }

    private static func trim(_ s: inout State) {
        guard s.entries.count > s.capacity else { return }
        let keep = max(1, s.capacity * 3 / 4)
        let oldestFirst = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, _) in oldestFirst.prefix(s.entries.count - keep) { s.entries[key] = nil }
    }
}
