import Foundation

/// Backing stores kept from frame to frame: a layer's content, border, shadow or group bitmap is
/// rasterized again only when what it is made from (its fingerprint) changes.
///
/// A store is made in two steps. While a frame's objects are updated, `store(for:…)` hands out
/// the bitmap at once (its size is known) and queues the drawing; the content pass then draws
/// every queued store, in parallel, level by level (a shadow after the content it is cast by, a
/// group after what it contains). Stores live as long as an object uses them: objects retain
/// the keys they draw from and release them when they change or go.
final class BackingStoreCache {
    /// What a store was made from; equal fingerprints make equal pixels.
    enum Fingerprint: Equatable {
        case content(ContentDescription, area: CGRect, scale: CGFloat)
        case border(BorderDescription, area: CGRect, scale: CGFloat)
        case shadow(ShadowDescription, source: Int, area: CGRect, scale: CGFloat)
        case group(signature: Int, area: CGRect, scale: CGFloat)
        indirect case tinted(Fingerprint, Color)
    }

    struct Entry {
        let fingerprint: Fingerprint
        let bitmap: Bitmap
        /// Unique per rasterization: paint signatures use it to tell new pixels from old.
        let generation: Int
    }

    /// A queued drawing of a store's pixels.
    struct Job {
        let level: Int
        let bitmap: Bitmap
        let draw: (Bitmap) -> Void
    }

    private var entries: [PaintItem.Key: Entry] = [:]
    private var users: [PaintItem.Key: Int] = [:]
    private var nextGeneration = 1
    private var jobs: [Job] = []
    private var pendingLevels: [ObjectIdentifier: Int] = [:]

    /// Rasterizations queued since the cache was made (for tests and statistics).
    private(set) var rasterizations = 0

    /// The store for `key`: the cached one when its fingerprint matches, else a `width`x`height`
    /// bitmap whose pixels `draw` makes in the content pass, at `level` (after every store it
    /// reads). Nil when no such bitmap can be made (a size over the limits).
    func store(for key: PaintItem.Key, fingerprint: Fingerprint, width: Int, height: Int, level: Int,
               draw: @escaping (Bitmap) -> Void) -> Entry? {
        if let entry = entries[key], entry.fingerprint == fingerprint { return entry }
        // A store of the same size is redrawn in place (cleared first) rather than allocated
        // anew: whoever reads it from now on wants the new pixels. Not when it is already queued
        // this frame under another fingerprint (replicator instances sharing a key).
        let bitmap: Bitmap
        let reused: Bool
        if let old = entries[key]?.bitmap, old.width == width, old.height == height,
           pendingLevels[ObjectIdentifier(old)] == nil {
            bitmap = old
            reused = true
        } else {
            guard let made = try? Bitmap(width: width, height: height) else {
                entries[key] = nil
                return nil
            }
            bitmap = made
            reused = false
        }
        rasterizations += 1
        let entry = Entry(fingerprint: fingerprint, bitmap: bitmap, generation: nextGeneration)
        nextGeneration += 1
        entries[key] = entry
        jobs.append(Job(level: level, bitmap: bitmap, draw: reused ? { $0.clear(); draw($0) } : draw))
        pendingLevels[ObjectIdentifier(bitmap)] = level
        return entry
    }

    /// The content-pass level at which `bitmap` is drawn this frame, or nil when it is ready.
    func pendingLevel(of bitmap: Bitmap) -> Int? { pendingLevels[ObjectIdentifier(bitmap)] }

    /// Hands over the queued drawings (the content pass runs them) and forgets them.
    func takeJobs() -> [Job] {
        defer { jobs = []; pendingLevels = [:] }
        return jobs
    }

    /// An object started drawing from the store of `key`.
    func retain(_ key: PaintItem.Key) { users[key, default: 0] += 1 }

    /// An object stopped drawing from the store of `key`: the last one lets the store go.
    func release(_ key: PaintItem.Key) {
        guard let count = users[key] else { return }
        if count <= 1 {
            users[key] = nil
            entries[key] = nil
        } else {
            users[key] = count - 1
        }
    }

    /// Drops every store.
    func removeAll() {
        entries = [:]
        users = [:]
    }

    /// How many stores are held.
    var count: Int { entries.count }

    /// The bytes of pixels the stores hold.
    var byteCount: Int { entries.values.reduce(0) { $0 + $1.bitmap.bytesPerRow * $1.bitmap.height } }
}
