import Foundation

/// One object per thread, in a POSIX thread-specific slot: set once for a thread, retained for
/// it, and released when the thread exits. No lock: each thread reads and sets only its own.
///
/// For what every setter or every line of text asks for (the transaction stack, a thread's
/// text scratch arrays): Foundation's thread dictionary, a boxed and hashed lookup, cost more
/// than the setter itself.
struct ThreadSpecific<Object: AnyObject>: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { box in
            guard let box else { return }
            // The retain `set` made for the exiting thread.
            Unmanaged<AnyObject>.fromOpaque(box).release()
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        self.key = key
    }

    /// The calling thread's object; nil until `set` has given it one.
    @inline(__always)
    var value: Object? {
        guard let box = pthread_getspecific(key) else { return nil }
        return Unmanaged<Object>.fromOpaque(box).takeUnretainedValue()
    }

    /// The calling thread's object, not retained (the slot holds it); nil until `set`.
    @inline(__always)
    var unmanaged: Unmanaged<Object>? {
        guard let box = pthread_getspecific(key) else { return nil }
        return Unmanaged<Object>.fromOpaque(box)
    }

    /// Gives the calling thread `object` for the rest of its life (it has none yet).
    func set(_ object: Object) {
        precondition(pthread_getspecific(key) == nil, "a thread's object is set once")
        pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque())
    }
}
