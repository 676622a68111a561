import Foundation
import Testing
@testable import LayerKit

/// A font's shaping results kept by the bytes of the text shaped.
@Suite struct ShapeCacheTests {
    private static func glyphs(_ n: Int) -> [Font.Glyph] {
        [Font.Glyph(id: UInt32(n), cluster: 0, x: 0, y: 0, advance: n)]
    }

    private static func find(_ cache: ShapeCache, _ text: String) -> [Font.Glyph]? {
        var text = text
        return text.withUTF8 { cache.glyphs(forUTF8: $0) }
    }

    private static func insert(_ cache: ShapeCache, _ glyphs: [Font.Glyph], _ text: String) {
        var text = text
        text.withUTF8 { cache.insert(glyphs, forUTF8: $0) }
    }

    /// Texts that differ in one byte, in length only, or not at all (empty) are told apart.
    @Test func findsExactlyTheTextsKept() {
        let cache = ShapeCache(capacity: 1000)
        var g = SeededGenerator(seed: 5)
        var kept: [String: Int] = [:]
        for i in 0..<400 {
            let text = String((0..<Int.random(in: 0...6, using: &g)).map { _ in "ab c".randomElement(using: &g)! })
            kept[text] = i
            Self.insert(cache, Self.glyphs(i), text)
        }
        #expect(cache.count == kept.count)
        for (text, i) in kept { #expect(Self.find(cache, text) == Self.glyphs(i), "\(text.debugDescription)") }
        for text in ["abcabcab", "d", "a\u{0}", "  c  c  c"] where kept[text] == nil {
            #expect(Self.find(cache, text) == nil, "\(text.debugDescription)")
        }
    }

    /// Over capacity, the least recently used texts go first (down to three quarters).
    @Test func dropsTheLeastRecentlyUsed() {
        let cache = ShapeCache(capacity: 8)
        for i in 0..<8 { Self.insert(cache, Self.glyphs(i), "word\(i)") }
        _ = Self.find(cache, "word0")   // now the most recently used
        Self.insert(cache, Self.glyphs(8), "word8")
        #expect(cache.count == 6)
        #expect(Self.find(cache, "word0") == Self.glyphs(0))
        #expect(Self.find(cache, "word8") == Self.glyphs(8))
        for i in 1...3 { #expect(Self.find(cache, "word\(i)") == nil, "word\(i)") }
        for i in 4...7 { #expect(Self.find(cache, "word\(i)") == Self.glyphs(i), "word\(i)") }
    }

    /// Shaping by bytes gives what shaping the string gives, cached or not.
    @Test func shapingBytesMatchesShapingTheString() throws {
        let font = try Font(fileAt: TextTests.dejaVu)
        for text in ["AVATAR ", "1234.56", "", "e\u{301}x", String(repeating: "long ", count: 80)] {
            var bytes = text
            let byBytes = bytes.withUTF8 { font.shape(utf8: $0) }
            #expect(byBytes == font.shaper.shape(text), "\(text)")
            #expect(font.shape(text) == byBytes, "\(text)")
        }
    }
}
