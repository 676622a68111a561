import Foundation
import Synchronization

/// Rasterized glyphs: 8-bit coverage of one glyph of one font at one pixel size, placed at one
/// of `phases`² sub-pixel offsets.
///
/// Text set again (a label whose figures change every frame) then costs a composite per glyph,
/// not a path flattening and rasterization per glyph. Coverage is the same exact-area coverage
/// the path filler makes; a glyph's position is rounded to 1/`phases` of a pixel. Shared by
/// every thread; bounded by `capacity` bytes, dropping the least recently used glyphs.
final class GlyphCache: Sendable {
    /// Sub-pixel positions per pixel, in x and in y.
    static let phases = 8

    struct Key: Hashable {
        let font: ObjectIdentifier
        let glyph: UInt32
        /// Design units → pixels.
        let scale: CGFloat
        let phaseX: Int, phaseY: Int
    }

    /// A glyph's coverage: `area` is relative to the glyph's whole-pixel origin; rows are
    /// padded to 4 bytes.
    struct Entry {
        /// Held so that the font, and so its identity in the key, outlives the entry.
        let font: Font?
        let coverage: [UInt8]
        let area: PixelRect
        var lastUse: UInt64
    }

    static let shared = GlyphCache(capacity: 8 << 20)

    private struct State {
        var entries: [Key: Entry] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// The glyph's coverage, rasterized on first use. Nil for empty glyphs (spaces).
    func coverage(font: Font, glyph: UInt32, scale: CGFloat, phaseX: Int, phaseY: Int) -> Entry? {
        let key = Key(font: ObjectIdentifier(font), glyph: glyph, scale: scale, phaseX: phaseX, phaseY: phaseY)
        if let hit = state.withLock({ s -> Entry? in
            guard var entry = s.entries[key] else { return nil }
            s.clock += 1
            entry.lastUse = s.clock
            s.entries[key] = entry
            return entry
        }) { return hit.coverage.isEmpty ? nil : hit }

        // Rasterized outside the lock: another thread may do the same glyph meanwhile, and
        // both make the same pixels.
        let outline = font.outline(ofGlyph: glyph)
        let offset = CGAffineTransform(a: scale, b: 0, c: 0, d: scale,
                                       tx: CGFloat(phaseX) / CGFloat(Self.phases), ty: CGFloat(phaseY) / CGFloat(Self.phases))
        var entry = Entry(font: font, coverage: [], area: PixelRect(x: 0, y: 0, width: 0, height: 0), lastUse: 0)
        ScanConverter.withConverter { converter in
            converter.addFill(outline, transform: offset)
            guard let box = converter.boundingBox else { return }
            let area = PixelRect(covering: box)
            guard !area.isEmpty, area.width <= 4096, area.height <= 4096 else { return }
            let stride = ScanConverter.rowBytes(area.width)
            var coverage = [UInt8](repeating: 0, count: stride * area.height)
            coverage.withUnsafeMutableBufferPointer { converter.render(rule: .nonZero, area: area, into: $0.baseAddress!, stride: stride) }
            entry = Entry(font: font, coverage: coverage, area: area, lastUse: 0)
        }
        let stored = entry
        state.withLock { s in
            s.clock += 1
            var e = stored
            e.lastUse = s.clock
            if s.entries.updateValue(e, forKey: key) == nil { s.bytes += e.coverage.count + 64 }
            if s.bytes > capacity { Self.evict(&s, to: capacity / 2) }
        }
        return entry.coverage.isEmpty ? nil : entry
    }

    /// Drops the least recently used glyphs until `target` bytes remain.
    private static func evict(_ s: inout State, to target: Int) {
        let oldestFirst = s.entries.sorted { $0.value.lastUse < $1.value.lastUse }
        for (key, entry) in oldestFirst where s.bytes > target {
            s.entries[key] = nil
            s.bytes -= entry.coverage.count + 64
        }
    }

    /// Glyphs held (for tests).
    var count: Int { state.withLock { $0.entries.count } }
}
