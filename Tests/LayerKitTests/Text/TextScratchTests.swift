import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Layouts and coverage drawings reuse their thread's arrays (`TextScratch`): what a text lays
/// out and draws must not depend on the texts handled before it on the thread.
@Suite struct TextScratchTests {
    /// Texts long and short, wrapped, several styles, truncated, ASCII and not.
    static func layouts(_ font: Font) -> [TextLayout] {
        func layout(_ runs: [TextRun], width: CGFloat?, wrapped: Bool, truncation: TextTruncation = .none) -> TextLayout {
            TextLayout(runs: runs, font: font.familyName, fontSize: 17, color: .white, width: width, wrapped: wrapped,
                       truncation: truncation, alignment: .left, explicitFont: font)
        }
        return [
            layout([TextRun("A long line of many words, wrapped onto several lines of the store, 0123456789 %&@")],
                   width: 300, wrapped: true),
            layout([TextRun("ALPHA-07  1234.56  +1.23%")], width: nil, wrapped: false),
            layout([TextRun("Ünïcödé "), TextRun("and ASCII", fontSize: 23), TextRun(" runs", color: .black)], width: nil,
                   wrapped: false),
            layout([TextRun("cut at the end because it is far too long for its width")], width: 120, wrapped: false,
                   truncation: .end),
            layout([TextRun("x")], width: nil, wrapped: false),
        ]
    }

    /// Each text's glyphs and coverage: drawn into a mask of its own, each with a glyph cache
    /// of its own (so that its glyphs are made, not found), the layout recycled as the content
    /// pass does.
    static func drawn(_ font: Font, only: Int? = nil) throws -> [(glyphs: [UInt32], origins: [CGPoint], coverage: [UInt8])] {
        let layouts = layouts(font)
        return try (only.map { [layouts[$0]] } ?? layouts).map { layout in
            var layout = layout
            let mask = try AlphaMask(width: 420, height: 160)
            layout.drawCoverage(into: mask, at: CGPoint(x: 2, y: 3), transform: CGAffineTransform(a: 1.25, b: 0, c: 0, d: 1.25, tx: 0.3, ty: 0),
                                cache: GlyphCache(capacity: 1 << 20))
            let result = (layout.glyphs.map(\.id), layout.glyphs.map(\.origin),
                          (0..<mask.height).flatMap { y in (0..<mask.width).map { mask[$0, y] } })
            layout.recycle()
            #expect(layout.glyphs.isEmpty && layout.lines.isEmpty)
            return result
        }
    }

    /// The texts handled in turn on one thread (each after the others' arrays were given back)
    /// give what each gives alone on a thread of its own, which has no arrays to reuse.
    @Test func aTextHandledAfterOthersIsWhatItIsOnAFreshThread() throws {
        let font = try Font(fileAt: TextTests.dejaVu)
        _ = try Self.drawn(font)   // the thread's scratch now holds arrays of every kind
        let inTurn = try Self.drawn(font)
        for (index, expected) in inTurn.enumerated() {
            let alone = Locked<[(glyphs: [UInt32], origins: [CGPoint], coverage: [UInt8])]?>(nil)
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                alone.withLock { $0 = try? Self.drawn(font, only: index) }
                done.signal()
            }
            thread.start()
            done.wait()
            let fresh = try #require(alone.withLock { $0 }?.first)
            #expect(fresh.glyphs == expected.glyphs, "text \(index): glyphs")
            #expect(fresh.origins == expected.origins, "text \(index): origins")
            #expect(fresh.coverage == expected.coverage, "text \(index): coverage")
            #expect(expected.coverage.contains { $0 > 0 }, "text \(index) has ink")
        }
    }
}
