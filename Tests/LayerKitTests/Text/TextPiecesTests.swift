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
}
