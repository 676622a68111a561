import Foundation

/// Backing stores kept from frame to frame: a layer's content, border, shadow or group bitmap is
/// rasterized again only when what it is made from (its fingerprint) changes.
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

    private var entries: [PaintItem.Key: Entry] = [:]
    private var used: Set<PaintItem.Key> = []
    private var nextGeneration = 1

    /// Rasterizations done since the cache was made (for tests and statistics).
    private(set) var rasterizations = 0

    /// The store for `key`: the cached one when its fingerprint matches, else a new one from
    /// `make` (nil when `make` fails, e.g. a bitmap over the size limit).
    func store(for key: PaintItem.Key, fingerprint: Fingerprint, make: () throws -> Bitmap) -> Entry? {
        used.insert(key)
        if let entry = entries[key], entry.fingerprint == fingerprint { return entry }
        guard let bitmap = try? make() else {
            entries[key] = nil
            return nil
        }
        rasterizations += 1
        let entry = Entry(fingerprint: fingerprint, bitmap: bitmap, generation: nextGeneration)
        nextGeneration += 1
        entries[key] = entry
        return entry
    }

    /// Drops the stores no frame asked for since the last call, so layers that left the tree
    /// (or stopped drawing) release their memory.
    func endFrame() {
        entries = entries.filter { used.contains($0.key) }
        used.removeAll(keepingCapacity: true)
    }

    /// How many stores are held.
    var count: Int { entries.count }
}
