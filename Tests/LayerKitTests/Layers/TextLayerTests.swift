import Foundation
import Testing
@testable import LayerKit

/// How a text layer describes its text to the renderer.
@Suite struct TextLayerTests {
    private static func label(_ configure: (TextLayer) -> Void) -> TextLayer {
        let layer = TextLayer()
        layer.font = "DejaVu Sans"
        layer.fontSize = 18
        layer.foregroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
        layer.frame = CGRect(x: 0, y: 0, width: 160, height: 30)
        configure(layer)
        return layer
    }

    /// A plain string is described as it is, not as a run made of it, and draws what the same
    /// text as one unstyled run draws; no text, or only empty runs, describes nothing.
    @Test func aStringDrawsAsTheSameTextInOneRun() throws {
        let plain = Self.label { $0.string = "ALPHA-07   1234.56  +1.23%" }
        let run = Self.label { $0.runs = [TextRun("ALPHA-07   1234.56  +1.23%")] }
        guard case .string("ALPHA-07   1234.56  +1.23%") = plain.textDescription?.text else {
            Issue.record("a plain string is described as runs")
            return
        }
        #expect(plain.textDescription?.singleColor == plain.foregroundColor)
        let a = try Renderer(threadCount: 1).render(plain), b = try Renderer(threadCount: 1).render(run)
        var inked = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                #expect(a.pixel(x: x, y: y) == b.pixel(x: x, y: y), "(\(x), \(y))")
                if a.pixel(x: x, y: y).alpha > 0 { inked += 1 }
            }
        }
        #expect(inked > 200)
        #expect(Self.label { $0.string = "" }.textDescription == nil)
        #expect(Self.label { _ in }.textDescription == nil)
        #expect(Self.label { $0.runs = [TextRun(""), TextRun("")]; $0.string = "shown only without runs" }.textDescription == nil)
    }

    /// The description carries the font its family names, resolved once and again when the
    /// family changes, and the layer draws what the same text in that font draws.
    @Test func theDescriptionCarriesTheFontItsFamilyNames() throws {
        let layer = Self.label { $0.string = "Hamburgefonts 0123" }
        #expect(try layer.textDescription?.resolvedFont?.font === Font.named("DejaVu Sans"))
        #expect(try layer.textDescription?.resolvedFont?.font === Font.named("DejaVu Sans"))
        layer.font = "DejaVu Serif"
        #expect(try layer.textDescription?.resolvedFont?.font === Font.named("DejaVu Serif"))
        let serif = Self.label { $0.font = "DejaVu Serif"; $0.string = "Hamburgefonts 0123" }
        let sans = Self.label { $0.string = "Hamburgefonts 0123" }
        let a = try Renderer(threadCount: 1).render(layer), b = try Renderer(threadCount: 1).render(serif)
        let c = try Renderer(threadCount: 1).render(sans)
        var differs = false
        for y in 0..<a.height {
            for x in 0..<a.width {
                #expect(a.pixel(x: x, y: y) == b.pixel(x: x, y: y), "(\(x), \(y))")
                if a.pixel(x: x, y: y) != c.pixel(x: x, y: y) { differs = true }
            }
        }
        #expect(differs, "the serif family should draw other pixels than the sans one")
    }
}
