import Foundation
import Testing
@testable import LayerKit

/// How a run's text is cut into words and line breaks before shaping.
@Suite struct TextPiecesTests {
    /// ASCII runs are split into words and line breaks byte by byte: the same pieces as
    /// walking their characters (where "\r\n" is one character and a lone "\r" is not a break).
    @Test func asciiTextSplitsAsCharactersDo() throws {
        let font = try Font(fileAt: TextTests.dejaVu)
        var g = SeededGenerator(seed: 77)
        let alphabet: [String] = ["a", "Z", "1", "-", ".", " ", " ", "\n", "\r", "\r\n", "\t", "%"]
        var compared = 0
        for trial in 0..<500 {
            let text = (0..<Int.random(in: 0...24, using: &g)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &g)] }.joined()
            var bytewise: [TextLayout.Piece] = [], characterwise: [TextLayout.Piece] = []
            TextLayout.asciiPieces(of: text, font: font, size: 20, color: .white, newlineColor: .black, into: &bytewise)
            TextLayout.characterPieces(of: text, font: font, size: 20, color: .white, newlineColor: .black, into: &characterwise)
            #expect(bytewise.map(\.text) == characterwise.map(\.text), "trial \(trial): \(text.debugDescription)")
            #expect(bytewise.map(\.isNewline) == characterwise.map(\.isNewline))
            #expect(bytewise.map(\.color) == characterwise.map(\.color))
            #expect(bytewise.map(\.endsWithSpace) == characterwise.map(\.endsWithSpace))
            #expect(characterwise.map(\.endsWithSpace) == characterwise.map { $0.text.last == " " })
            compared += characterwise.count
        }
        #expect(compared > 2000)
    }

    /// An ASCII run's words are shaped from its bytes; other runs' from their characters. Both
    /// lay out the same text the same, under every wrapping, truncation and alignment.
    @Test func asciiRunsLayOutAsCharacterRunsDo() throws {
        let font = try Font(fileAt: TextTests.dejaVu)
        var g = SeededGenerator(seed: 78)
        let alphabet: [String] = ["a", "Z", "1", "-", ".", " ", " ", "  ", "\n", "\r\n", "%", "AV", "ffi"]
        let settings: [(Bool, TextTruncation, TextAlignment)] = [(false, .none, .left), (true, .none, .justified), (true, .none, .center),
                                                                  (false, .end, .right), (false, .start, .left), (false, .middle, .natural)]
        for trial in 0..<300 {
            // Ends with a space, so that its last word is a piece on its own before the "é" run.
            let text = (0..<Int.random(in: 0...30, using: &g)).map { _ in alphabet.randomElement(using: &g)! }.joined() + " "
            let (wrapped, truncation, alignment) = settings[trial % settings.count]
            func layOut(_ runs: [TextRun]) -> TextLayout {
                TextLayout(runs: runs, font: font.familyName, fontSize: 17, color: .white, width: 120, wrapped: wrapped,
                           truncation: truncation, alignment: alignment, explicitFont: font)
            }
            // Bytes, then characters: one run with the "é" is walked by characters.
            let split = layOut([TextRun(text), TextRun("é")]), whole = layOut([TextRun(text + "é")])
            #expect(split.lines == whole.lines, "trial \(trial): \(text.debugDescription)")
            #expect(split.glyphs.map(\.id) == whole.glyphs.map(\.id), "trial \(trial): \(text.debugDescription)")
            #expect(split.glyphs.map(\.origin) == whole.glyphs.map(\.origin), "trial \(trial): \(text.debugDescription)")
            #expect(split.metrics == whole.metrics, "trial \(trial): \(text.debugDescription)")
        }
    }
}
