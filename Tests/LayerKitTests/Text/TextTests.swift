import Foundation
import Testing
@testable import LayerKit

/// Serialized: two tests replace the global diagnostics handler.
@Suite(.serialized) struct TextTests {
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    @Test func defaultFontExistsOnAFreshMachine() throws {
        let font = try Font.named(Font.defaultFamily)
        #expect(font.unitsPerEm > 0 && font.ascender > 0)
    }

    /// HarfBuzz's own command-line shaper on the same font is the reference.
    @Test(.enabled(if: VideoPresenter.find("hb-shape") != nil), arguments: ["AVATAR office", "Wasserfläche", "مرحبا بالعالم", "e\u{301}a\u{308}"])
    func glyphPositionsMatchHBShape(_ text: String) throws {
        let font = try Font(fileAt: Self.dejaVu)
        // The text goes in a file, as bytes: given as an argument, hb-shape decodes it in the
        // locale's encoding, and under no locale (a fresh machine's `env -i`, many containers)
        // it rejects every non-ASCII string.
        let textFile = FileManager.default.temporaryDirectory.appendingPathComponent("hb-shape-\(UUID().uuidString).txt")
        try Data(text.utf8).write(to: textFile)
        defer { try? FileManager.default.removeItem(at: textFile) }
        let process = Process()
        process.executableURL = VideoPresenter.find("hb-shape")
        process.arguments = ["--no-glyph-names", "--utf8-clusters", "--font-size=\(font.unitsPerEm)", "--text-file=\(textFile.path)",
                             Self.dejaVu]
        let out = Pipe(), errors = Pipe()
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "hb-shape failed on \(text): \(complaint)")
        // [gid=cluster@x,y+advance|…]: offsets only when non-zero.
        let entries = output.trimmingCharacters(in: CharacterSet(charactersIn: "[]\n")).split(separator: "|")
        let glyphs = font.shape(text)
        #expect(glyphs.count == entries.count, "\(text): \(output)")
        var pen = 0
        for (glyph, entry) in zip(glyphs, entries) {
            let parts = entry.split(whereSeparator: { "=@,+".contains($0) }).map { Int($0)! }
            let (id, cluster, advance) = (parts[0], parts[1], parts.last!)
            let (dx, dy) = parts.count == 5 ? (parts[2], parts[3]) : (0, 0)
            #expect(glyph.id == UInt32(id) && glyph.cluster == UInt32(cluster) && glyph.advance == advance, "\(text): \(entry)")
            #expect(glyph.x == pen + dx && glyph.y == -dy, "\(text): \(entry)")
            pen += advance
        }
    }

    /// Runs of spaces come as one piece a space, each like the one before (shaped once): the
    /// line is placed as HarfBuzz places it shaped whole (DejaVu kerns nothing across a space).
    @Test func runsOfSpacesAreLaidOutAsTheLineShapedWhole() throws {
        let font = try Font(fileAt: Self.dejaVu)
        for text in ["ALPHA-00    123.45  +1.23%", "  a b  c   d    e", "x \n\n  y"] {
            let layout = TextLayout(runs: [TextRun(text)], font: font.familyName, fontSize: CGFloat(font.unitsPerEm), color: .black,
                                    width: nil, wrapped: false, truncation: .none, alignment: .left, explicitFont: font)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(layout.lines.count == lines.count, "\(text)")
            for (range, line) in zip(layout.lines, lines) {
                let whole = font.shape(String(line))
                #expect(layout.glyphs[range].map(\.id) == whole.map(\.id), "\(text)")
                #expect(layout.glyphs[range].map { Int($0.origin.x) } == whole.map(\.x), "\(text)")
            }
        }
    }

    @Test func renderedInkBoundsMatchTheGlyphOutline() throws {
        let font = try Font(fileAt: Self.dejaVu)
        let layer = TextLayer()
        layer.font = font.familyName
        layer.string = "H"
        layer.fontSize = 100
        layer.foregroundColor = .black
        layer.frame = CGRect(x: 0, y: 0, width: 120, height: 140)
        let frame = try Renderer(threadCount: 1).render(layer)
        var ink = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        for y in 0..<frame.height { for x in 0..<frame.width where frame.alpha(x, y) > 127 {
            ink = (min(ink.minX, x), min(ink.minY, y), max(ink.maxX, x + 1), max(ink.maxY, y + 1))
        } }
        // FreeType's outline of "H" in design units, scaled to 100 points, placed on the first
        // baseline (the ascender below the top).
        let glyph = font.shape("H")[0]
        let box = font.outline(ofGlyph: glyph.id).boundingBox
        let scale = 100 / CGFloat(font.unitsPerEm)
        let baseline = CGFloat(font.ascender) * scale
        #expect(abs(CGFloat(ink.minX) - box.minX * scale) <= 1)
        #expect(abs(CGFloat(ink.maxX) - box.maxX * scale) <= 1)
        #expect(abs(CGFloat(ink.minY) - (baseline + box.minY * scale)) <= 1)
        #expect(abs(CGFloat(ink.maxY) - (baseline + box.maxY * scale)) <= 1)
    }

    @Test func missingFamilyFallsBackWithADiagnostic() throws {
        let family = "No Such Family \(UUID().uuidString)"
        let messages = Locked<[String]>([])
        let previous = TextDiagnostics.handler
        TextDiagnostics.handler = { message in messages.withLock { $0.append(message) } }
        defer { TextDiagnostics.handler = previous }
        let font = try Font.named(family)
        #expect(font.unitsPerEm > 0)   // fontconfig's closest match, usable
        let said = messages.withLock { $0 }.filter { $0.contains(family) }
        #expect(said.count == 1 && said[0].contains("is not installed") && said[0].contains(font.familyName))
    }

    @Test func corruptAndMissingFontFilesThrowClearErrors() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).ttf").path
        try Data("not a font at all".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Font(fileAt: path)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains(path))
        }
        #expect(throws: FontError.self) { try Font(fileAt: "/nonexistent/font.ttf") }
    }

    @Test func metricsWrappingAlignmentAndTruncation() throws {
        let font = try Font(fileAt: Self.dejaVu)
        let one = font.metrics(of: "Clock", fontSize: 20)
        let two = font.metrics(of: "Clock\nClock", fontSize: 20)
        #expect(one.size.width > 40 && abs(two.size.height - one.size.height - one.lineHeight) < 0.01)
        let layer = TextLayer()
        layer.font = font.familyName
        layer.fontSize = 20
        layer.string = "one two three four five six"
        layer.bounds = CGRect(x: 0, y: 0, width: 80, height: 200)
        layer.isWrapped = true
        #expect(layer.preferredSize().height > 3 * one.lineHeight - 1)
        layer.isWrapped = false
        layer.truncationMode = .end
        let cut = layer.layout(width: 80)
        #expect(cut.metrics.size.width <= 80)
        let centered = TextLayout(runs: [TextRun("ab")], font: font.familyName, fontSize: 20, color: .black, width: 200,
                                  wrapped: false, truncation: .none, alignment: .center, explicitFont: font)
        let width = centered.metrics.size.width
        #expect(abs(centered.glyphs[0].origin.x - (200 - width) / 2) < 2)
    }

    @Test func textLayerRendersItsStringInColor() throws {
        let root = rootLayer(200, 60)
        root.backgroundColor = .black
        let label = TextLayer()
        label.frame = root.bounds
        label.string = "12:34"
        label.fontSize = 40
        label.foregroundColor = .white
        label.alignmentMode = .center
        root.addSublayer(label)
        let frame = try Renderer(scale: 2, threadCount: 1).render(root)
        let white = (0..<frame.height).reduce(0) { sum, y in sum + (0..<frame.width).filter { frame.pixel(x: $0, y: y) == .white }.count }
        #expect(white > 1500)
        #expect(frame.pixel(x: 5, y: 60) == .black)
    }

    /// Two thousand family names that are not installed all fall back to the same file: they
    /// share one font, and the cache does not keep one copy per name.
    @Test func missingFamiliesShareOneFontAndAreNotKeptPerName() throws {
        final class Weak { weak var font: Font?; init(_ font: Font) { self.font = font } }
        let previous = TextDiagnostics.handler
        TextDiagnostics.handler = { _ in }
        defer { TextDiagnostics.handler = previous }
        let tag = UUID().uuidString
        var seen: [Weak] = []
        for i in 0..<2000 {
            seen.append(Weak(try Font.named("Missing Family \(tag) \(i)")))
        }
        let alive = Set(seen.compactMap { $0.font.map(ObjectIdentifier.init) })
        #expect(alive.count <= 1, "\(alive.count) distinct fonts alive for one file")
        #expect(try Font.named("Missing Family \(tag) a") === Font.named("Missing Family \(tag) b"))
    }

    /// Justified lines, all but the last, start at the left margin and end at the right one;
    /// the last keeps its natural spacing.
    @Test func justifiedLinesEndFlushAtBothMargins() throws {
        let font = try Font(fileAt: Self.dejaVu)
        let width: CGFloat = 150
        let layout = TextLayout(runs: [TextRun("The quick brown fox jumps over the lazy dog and keeps on running far away")],
                                font: font.familyName, fontSize: 14, color: .black, width: width, wrapped: true,
                                truncation: .none, alignment: .justified, explicitFont: font)
        let space = font.shape(" ")[0].id
        #expect(layout.lines.count >= 4)
        for (index, line) in layout.lines.enumerated() {
            let ink = layout.glyphs[line].filter { $0.id != space }
            let left = ink.first!.origin.x, right = ink.last!.origin.x + ink.last!.advance
            #expect(abs(left) < 0.01, "line \(index) starts at \(left)")
            if index < layout.lines.count - 1 {
                #expect(abs(right - width) < 0.01, "line \(index) ends at \(right)")
            } else {
                #expect(right < width - 5, "the last line is not stretched")
            }
        }
        // Left alignment of the same text ends short of the margin.
        let left = TextLayout(runs: [TextRun("The quick brown fox jumps over the lazy dog and keeps on running far away")],
                              font: font.familyName, fontSize: 14, color: .black, width: width, wrapped: true,
                              truncation: .none, alignment: .left, explicitFont: font)
        let firstLine = left.glyphs[left.lines[0]].filter { $0.id != space }
        #expect(firstLine.last!.origin.x + firstLine.last!.advance < width - 1)
    }
}
