import Foundation
import Testing
@testable import LayerKit

/// The font every line of a board shares is read, not retained, by each line's description and
/// layout: the threads of a content pass retaining and releasing it wrote its one reference count
/// from both cores for every line (see `TextLayout.Style.fontReference`).
@Suite struct FontReferenceTests {
    /// The runtime's strong reference count of an object (`swift_retainCount`, exported by the
    /// Swift runtime; there is no public spelling of it).
    @_silgen_name("swift_retainCount")
    private static func retainCount(_ object: UnsafeMutableRawPointer) -> Int

    private static func references(to font: Font) -> Int { retainCount(Unmanaged.passUnretained(font).toOpaque()) }

    /// A font of its own (not the one `Font.named` shares with the tests running beside this one,
    /// whose references come and go meanwhile).
    private static func privateFont(_ family: String = "DejaVu Sans") throws -> Font {
        try Font(fileAt: Font.named(family).path)
    }

    /// Layouts given the caller's font (as the content pass gives a description's) do not retain
    /// it, and their glyphs name it.
    @Test func aLayoutOfTheCallersFontDoesNotRetainIt() throws {
        let font = try Self.privateFont()
        let before = Self.references(to: font)
        var layouts: [TextLayout] = []
        for text in ["ALPHA-07  1234.56", "BETA-11  +1.23%", "Ünïcödé 42"] {
            layouts.append(TextLayout(runs: [TextRun(text)], font: font.familyName, fontSize: 22, color: .white, width: 200,
                                      wrapped: true, truncation: .none, alignment: .left,
                                      explicitFont: Unmanaged.passUnretained(font)))
        }
        #expect(Self.references(to: font) == before)
        #expect(layouts.allSatisfy { layout in
            !layout.glyphs.isEmpty && layout.glyphs.allSatisfy { $0.fontReference.toOpaque() == Unmanaged.passUnretained(font).toOpaque() }
        })
    }

    /// A layout given a font to hold (as layouts given a font by value are) keeps it alive while
    /// it lives, and no longer.
    @Test func aLayoutKeepsTheFontItHoldsAliveAndNoLonger() throws {
        weak var held: Font?
        var layout: TextLayout? = try {
            let font = try Self.privateFont()
            held = font
            return TextLayout(runs: [TextRun("ALPHA-07  1234.56")], font: font.familyName, fontSize: 22, color: .white, width: nil,
                              wrapped: false, truncation: .none, alignment: .left, explicitFont: font)
        }()
        #expect(held != nil)
        #expect(layout?.glyphs.first?.font === held)
        layout = nil
        #expect(held == nil)
    }

    /// A layer described again and again (a line whose figures change every frame) hands each
    /// description the one holder of its resolved font, which the descriptions retain instead of
    /// the font.
    @Test func descriptionsShareTheLayersFontHolder() throws {
        let layer = TextLayer()
        layer.font = "DejaVu Sans"
        layer.frame = CGRect(x: 0, y: 0, width: 160, height: 30)
        var descriptions: [TextDescription] = []
        for figure in 0..<5 {
            layer.string = "\(figure)"
            descriptions.append(try #require(layer.textDescription))
        }
        let holder = try #require(descriptions[0].resolvedFont)
        #expect(try holder.font === Font.named("DejaVu Sans"))
        #expect(descriptions.allSatisfy { $0.resolvedFont === holder })
    }
}
