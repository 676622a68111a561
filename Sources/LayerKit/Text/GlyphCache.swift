import Foundation

/// Rasterized glyphs: 8-bit coverage of one glyph of one font at one pixel size, placed at one
/// of `phases`² sub-pixel offsets.
///
/// Text set again (a label whose figures change every frame) then costs copying coverage into
/// its line's mask, not a path flattening and rasterization per glyph. Coverage is the same
/// coverage the path filler makes; a glyph's position is rounded to 1/`phases` of a pixel.
/// Shared by every thread: a line's glyphs are looked up together under one lock, and misses
/// are rasterized outside it. Bounded by `capacity` bytes, dropping the least recently used.
final class GlyphCache: Sendable {
    /// Sub-pixel positions per pixel, in x and in y.
    static let phases = 8
    /// Glyphs larger than this many pixels on a side are not cached (their outlines are filled).
    static let largestSide = 512

    struct Key: Hashable, Sendable {
        let font: UInt32
        let glyph: UInt32
        /// Design units → pixels, as its bit pattern.
        let scale: UInt64
        let phaseX: UInt8, phaseY: UInt8

        init(font: Font, glyph: UInt32, scale: CGFloat, phaseX: Int, phaseY: Int) {
            self.font = font.serial
            self.glyph = glyph
            self.scale = Double(scale).bitPattern
            self.phaseX = UInt8(truncatingIfNeeded: phaseX)
            self.phaseY = UInt8(truncatingIfNeeded: phaseY)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(UInt64(font) << 32 | UInt64(glyph))
            hasher.combine(scale ^ UInt64(phaseX) << 8 ^ UInt64(phaseY))
        }
    }

    /// A glyph's coverage: `area` is relative to the glyph's whole-pixel origin; rows are
    /// padded to 4 bytes. Immutable.
    final class Entry: Sendable {
        let coverage: [UInt8]
        let area: PixelRect
        var stride: Int { ScanConverter.rowBytes(area.width) }

        init(coverage: [UInt8], area: PixelRect) {
            self.coverage = coverage
            self.area = area
        }
    }

    static let shared = GlyphCache(capacity: 8 << 20)

    private struct Slot {
        /// Nil for a glyph without ink (a space).
        let entry: Entry?
        var lastUse: UInt64
    }

    private struct State {
        var slots: [Key: Slot] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Locked(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The glyph's coverage, rasterized on first use. Nil for glyphs without ink.
    func coverage(font: Font, glyph: UInt32, scale: CGFloat, phaseX: Int, phaseY: Int) -> Entry? {
        var result: [Entry?] = []
        entries(font: font, for: [Key(font: font, glyph: glyph, scale: scale, phaseX: phaseX, phaseY: phaseY)], into: &result)
        return result[0]
    }

    /// The coverage of each glyph of `keys` (all of `font`), in order, into `results`: hits
    /// under one lock, misses rasterized outside it (another thread may rasterize the same glyph
    /// meanwhile; both make the same pixels).
    func entries(font: Font, for keys: [Key], into results: inout [Entry?]) {
        results.removeAll(keepingCapacity: true)
        var missing: [Int] = []
        state.withLock { s in
            for (i, key) in keys.enumerated() {
                // One hash per glyph: the slot is found once and updated where it is.
                if let index = s.slots.index(forKey: key) {
                    s.clock += 1
                    s.slots.values[index].lastUse = s.clock
                    results.append(s.slots.values[index].entry)
                } else {
                    results.append(nil)
                    missing.append(i)
                }
            }
        }
        guard !missing.isEmpty else { return }
        var made: [(Key, Entry?)] = []
        for i in missing {
            let key = keys[i]
            let entry = Self.rasterize(font: font, key: key)
            results[i] = entry
            made.append((key, entry))
        }
        state.withLock { s in
            for (key, entry) in made {
                s.clock += 1
                if s.slots.updateValue(Slot(entry: entry, lastUse: s.clock), forKey: key) == nil {
                    s.bytes += (entry?.coverage.count ?? 0) + 64
                }
            }
            if s.bytes > capacity { Self.evict(&s, to: capacity / 2) }
        }
    }

    private static func rasterize(font: Font, key: Key) -> Entry? {
        let outline = font.outline(ofGlyph: key.glyph)
        let scale = CGFloat(Double(bitPattern: key.scale))
        let offset = CGAffineTransform(a: scale, b: 0, c: 0, d: scale,
                                       tx: CGFloat(key.phaseX) / CGFloat(phases), ty: CGFloat(key.phaseY) / CGFloat(phases))
        return ScanConverter.withConverter { converter -> Entry? in
            converter.addFill(outline, transform: offset)
            guard let box = converter.boundingBox else { return nil }
            let area = PixelRect(covering: box)
            guard !area.isEmpty, area.width <= largestSide, area.height <= largestSide else { return nil }
            let stride = ScanConverter.rowBytes(area.width)
            var coverage = [UInt8](repeating: 0, count: stride * area.height)
            coverage.withUnsafeMutableBufferPointer { converter.render(rule: .nonZero, area: area, into: $0.baseAddress!, stride: stride) }
            return Entry(coverage: coverage, area: area)
        }
    }

    /// Drops the least recently used glyphs until `target` bytes remain.
    private static func evict(_ s: inout State, to target: Int) {
        let oldestFirst = s.slots.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, slot) in oldestFirst where s.bytes > target {
            s.slots[key] = nil
            s.bytes -= (slot.entry?.coverage.count ?? 0) + 64
        }
    }

    /// Glyphs held (for tests).
    var count: Int { state.withLock { $0.slots.count } }
}
