import CHarfBuzz
import Foundation
import Synchronization

/// A font file's face as HarfBuzz shapes it, at a scale of one unit per design unit.
///
/// A thin owning wrapper (the hb_font_t is destroyed with it). It is made immutable once set
/// up; HarfBuzz documents immutable objects as safe to use from several threads at once, so
/// shaping takes no lock.
final class HarfBuzzFont: @unchecked Sendable {
    // Safe to share: `font` is immutable (hb_font_make_immutable) after init, and every
    // shaping call has its own hb_buffer_t.
    private let font: OpaquePointer
    /// Runs shaped so far (tests count them to see the caches work).
    let runsShaped = Atomic<Int>(0)

    /// Opens face `index` of the file at `path`, with `unitsPerEm` as its scale.
    init(path: String, index: Int, unitsPerEm: Int) throws(FontError) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else {
            throw .cannotOpen(path: path, reason: "HarfBuzz could not read it")
        }
        defer { hb_blob_destroy(blob) }
        guard let face = hb_face_create(blob, UInt32(index)) else { throw .cannotOpen(path: path, reason: "HarfBuzz could not read it") }
        defer { hb_face_destroy(face) }
        guard hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else {
            throw .cannotOpen(path: path, reason: "HarfBuzz found no glyphs in it")
        }
        hb_font_set_scale(font, Int32(clamping: unitsPerEm), Int32(clamping: unitsPerEm))
        hb_font_make_immutable(font)
        self.font = font
    }

    deinit {
        hb_font_destroy(font)
    }

    /// Shapes UTF-8 text: kerning, ligatures, right-to-left scripts and combining marks as
    /// HarfBuzz does them, with direction, script and language guessed from the text. Every
    /// byte is shaped, NULs included. Positions are in design units from the run's start, y down.
    func shape(_ text: String) -> [Font.Glyph] {
        var text = text
        return text.withUTF8 { shape(utf8: $0) }
    }

    /// `shape(_:)` for UTF-8 bytes (HarfBuzz replaces ill-formed sequences).
    func shape(utf8: UnsafeBufferPointer<UInt8>) -> [Font.Glyph] {
        guard let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        if let base = utf8.baseAddress {
            base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                hb_buffer_add_utf8(buffer, $0, Int32(clamping: utf8.count), 0, Int32(clamping: utf8.count))
            }
        }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        runsShaped.add(1, ordering: .relaxed)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        var pen = 0
        var glyphs: [Font.Glyph] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let p = positions[i]
            glyphs.append(Font.Glyph(id: infos[i].codepoint, cluster: infos[i].cluster,
                                     x: pen + Int(p.x_offset), y: -Int(p.y_offset), advance: Int(p.x_advance)))
            pen += Int(p.x_advance)
        }
        return glyphs
    }
}
