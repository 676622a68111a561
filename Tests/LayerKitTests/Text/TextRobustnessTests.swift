import Foundation
import Testing
@testable import LayerKit

/// Hostile text and fonts (issue 13): bounded memory, linear work, nothing silently dropped,
/// errors that say what was wrong.
@Suite struct TextRobustnessTests {
    /// One character with 30,000 combining marks: the cluster is capped, so layout does
    /// bounded work (it took 14.5 s, shaping every mark).
    @Test func combiningSequencesAreCappedPerCluster() throws {
        let font = try Font.named(Font.defaultFamily)
        let text = "e" + String(repeating: "\u{301}", count: 30_000) + "x"
        let layout = TextLayout(runs: [TextRun(text)], font: font.familyName, fontSize: 20, color: .black, width: nil,
                                wrapped: false, truncation: .none, alignment: .left, explicitFont: font)
        #expect(layout.glyphs.count <= TextLayout.maximumScalarsPerCluster + 1)
        #expect(layout.glyphs.count >= 3)   // e, marks, x
    }

    /// Text after a NUL is laid out, not dropped (C strings end there).
    @Test func textAfterANulIsNotDropped() throws {
        let font = try Font.named(Font.defaultFamily)
        let plain = font.shape("ab").map(\.id)
        let withNul = font.shape("a\u{0}b").map(\.id)
        #expect(withNul.count == 3 && withNul.first == plain.first && withNul.last == plain.last)
        let layout = TextLayout(runs: [TextRun("a\u{0}b")], font: font.familyName, fontSize: 20, color: .black, width: nil,
                                wrapped: false, truncation: .none, alignment: .left, explicitFont: font)
        #expect(layout.glyphs.contains { $0.id == plain.last })
    }

    /// Messages name the file and the cause in words.
    @Test func fontErrorsSayWhatIsWrongInWords() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-font-\(UUID().uuidString).ttf").path
        try Data("not a font at all".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: FontError.notAFont(path: path, reason: "unknown file format")) { try Font(fileAt: path) }
        #expect(FontError.notAFont(path: path, reason: "unknown file format").description
            == "not a font file: \(path) (FreeType: unknown file format)")
        let folder = FileManager.default.temporaryDirectory.path
        #expect(throws: FontError.isADirectory(path: folder)) { try Font(fileAt: folder) }
        #expect(FontError.isADirectory(path: folder).description == "is a directory: \(folder)")
        #expect(throws: FontError.noSuchFile(path: "/nonexistent/font.ttf")) { try Font(fileAt: "/nonexistent/font.ttf") }
        #expect(FontError.noSuchFile(path: "/x.ttf").description == "no such file: /x.ttf")
    }

    /// Truncating a long line shapes it a few times, not once per character dropped.
    @Test func truncationIsLinearInTheLine() throws {
        let font = try Font(fileAt: TextTests.dejaVu)   // its own instance: nothing else shapes with it
        let text = String(repeating: "Wide load ahead. ", count: 600)
        let before = font.shaper.runsShaped.load(ordering: .relaxed)
        for truncation in [TextTruncation.end, .start, .middle] {
            let layout = TextLayout(runs: [TextRun(text)], font: font.familyName, fontSize: 16, color: .black, width: 200,
                                    wrapped: false, truncation: truncation, alignment: .left, explicitFont: font)
            #expect(layout.metrics.size.width <= 200 && layout.metrics.size.width > 150, "\(truncation)")
            #expect(layout.glyphs.contains { $0.id == font.shape("…")[0].id }, "\(truncation)")
        }
        // Per truncation: the words, the line once, the ellipsis, the result (and a step back or two).
        let shaped = font.shaper.runsShaped.load(ordering: .relaxed) - before
        #expect(shaped < 40, "\(shaped) runs shaped")
    }

    /// The same words laid out again are not shaped again.
    @Test func shapingIsCachedWhileTheTextIsTheSame() throws {
        let font = try Font(fileAt: TextTests.dejaVu)
        func layOut() -> TextLayout {
            TextLayout(runs: [TextRun("Ticker ALPHA-01 123.45 +1.23%")], font: font.familyName, fontSize: 22, color: .white,
                       width: nil, wrapped: false, truncation: .none, alignment: .left, explicitFont: font)
        }
        let first = layOut()
        let shaped = font.shaper.runsShaped.load(ordering: .relaxed)
        let again = layOut()
        #expect(font.shaper.runsShaped.load(ordering: .relaxed) == shaped)
        #expect(again.glyphs.map(\.id) == first.glyphs.map(\.id))
    }

    /// Fonts loaded by name are held up to the cache's capacity, least recently used dropped.
    @Test func theFontCacheHoldsAtMostItsCapacity() throws {
        final class Weak { weak var font: Font?; init(_ font: Font) { self.font = font } }
        let families = ["DejaVu Serif", "DejaVu Sans Mono", "DejaVu Math TeX Gyre", "DejaVu Serif Condensed", "DejaVu Sans Light"]
        let previous = Font.cacheCapacity
        defer { Font.cacheCapacity = previous }
        Font.cacheCapacity = 2
        var seen: [Weak] = []
        var paths: Set<String> = []
        for family in families {
            let font = try Font.named(family)
            paths.insert(font.path)
            seen.append(Weak(font))
        }
        // Five files: fonts-dejavu-extra's (scripts/install-deps test); with only DejaVu's core
        // package the missing families fall back to the same few files and prove nothing.
        try #require(paths.count == families.count, "\(paths.count) font files for \(families.count) families: is fonts-dejavu-extra installed?")
        let alive = seen.compactMap(\.font).count
        #expect(alive <= 2, "\(alive) of \(families.count) fonts still loaded")
        #expect(seen.last?.font != nil)   // the most recent is kept
    }
}
