import Foundation
import Testing
@testable import LayerKit

@Suite struct LineCompositingTests {
    /// The per-glyph drawing the line masks replaced: each glyph's cached coverage composited
    /// on its own, at the same place.
    static func drawGlyphByGlyph(_ layout: TextLayout, into bitmap: Bitmap, transform t: CGAffineTransform, cache: GlyphCache,
                                 inked: inout [Int]) {
        let phases = CGFloat(GlyphCache.phases)
        for glyph in layout.glyphs {
            let x = glyph.origin.x * t.a + t.tx, y = glyph.origin.y * t.d + t.ty
            let sx = (x * phases).rounded(), sy = (y * phases).rounded()
            let px = Int((sx / phases).rounded(.down)), py = Int((sy / phases).rounded(.down))
            guard let entry = cache.coverage(font: glyph.font, glyph: glyph.id, scale: glyph.scale * t.a,
                                             phaseX: Int(sx) - px * GlyphCache.phases, phaseY: Int(sy) - py * GlyphCache.phases) else { continue }
            let area = PixelRect(x: px + entry.area.x, y: py + entry.area.y, width: entry.area.width, height: entry.area.height)
            let coverage = entry.coverage
            bitmap.composite(coverage: coverage, stride: entry.stride, area: area, color: glyph.color, clip: nil)
            for row in 0..<area.height { for column in 0..<area.width where coverage[row * entry.stride + column] > 0 {
                let (bx, by) = (area.x + column, area.y + row)
                if bx >= 0, by >= 0, bx < bitmap.width, by < bitmap.height { inked[by * bitmap.width + bx] += 1 }
            } }
        }
    }

    /// A line's glyphs combined into one mask and composited once give the same pixels as
    /// compositing glyph by glyph: bit for bit wherever one glyph inks a pixel. Where glyphs
    /// overlap (overlay marks, enclosing circles) opaque text agrees within 2 levels: the two
    /// are equal before rounding, but pixman rounds each composite, and glyph by glyph rounds
    /// twice there.
    @Test(arguments: [(0.0, 0.0), (0.3, 0.55), (0.875, 0.125)])
    func lineMasksCompositeAsGlyphByGlyphDid(_ dx: Double, _ dy: Double) throws {
        let font = try Font(fileAt: TextTests.dejaVu)
        let color = Color(red: 0.9, green: 0.92, blue: 0.85)
        let layout = TextLayout(runs: [TextRun("Hamburgefonstiv AVATAR Tj ffi 0123 ÅÉ e\u{301}\u{308} a\u{336}b\u{336}c\u{336}o\u{20DD}")], font: font.familyName,
                                fontSize: 23, color: color, width: nil, wrapped: false, truncation: .none, alignment: .left,
                                explicitFont: font)
        let cache = GlyphCache(capacity: 1 << 20)
        let transform = CGAffineTransform(a: 1.5, b: 0, c: 0, d: 1.5, tx: 3 + dx, ty: 2 + dy)
        let background = Color(red: 0.11, green: 0.12, blue: 0.16)
        let lines = try Bitmap(width: 1300, height: 60, color: background)
        layout.draw(into: lines, at: .zero, transform: transform, cache: cache)
        let glyphs = try Bitmap(width: 1300, height: 60, color: background)
        var inked = [Int](repeating: 0, count: 1300 * 60)
        Self.drawGlyphByGlyph(layout, into: glyphs, transform: transform, cache: cache, inked: &inked)
        var single = 0, overlapping = 0, worstOverlap = 0
        for y in 0..<60 {
            for x in 0..<1300 {
                let a = lines.premultipliedPixel(x: x, y: y), b = glyphs.premultipliedPixel(x: x, y: y)
                if inked[y * 1300 + x] <= 1 {
                    single += inked[y * 1300 + x]
                    #expect(a == b, "pixel (\(x), \(y)) inked by one glyph differs")
                } else {
                    overlapping += 1
                    for shift in stride(from: 0, through: 24, by: 8) {
                        worstOverlap = max(worstOverlap, abs(Int(a >> UInt32(shift) & 0xFF) - Int(b >> UInt32(shift) & 0xFF)))
                    }
                }
            }
        }
        #expect(single > 2000)
        #expect(overlapping > 0)   // kerning and marks make some
        #expect(worstOverlap <= 2, "\(overlapping) overlapping pixels, worst \(worstOverlap) levels")
    }
}
