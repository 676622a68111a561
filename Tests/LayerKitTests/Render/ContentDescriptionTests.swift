import Foundation
import Testing
@testable import LayerKit

/// What a content description decides once, from what it holds: whether it is an image alone
/// (composited straight from the image) and whether it is one color's coverage (stored as 8-bit
/// coverage). Each is true only when nothing else is drawn.
@Suite struct ContentDescriptionTests {
    private static let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
    private static let textColor = Color(red: 0.9, green: 0.92, blue: 0.85)

    private static func describe(background: Color? = nil, contents: ContentsDescription? = nil, text: TextDescription? = nil,
                                 gradient: Gradient? = nil) -> ContentDescription {
        ContentDescription(bounds: CGRect(x: 0, y: 0, width: 20, height: 10), backgroundColor: background, cornerRadius: 0,
                           maskedCorners: [], contents: contents, drawn: nil, shape: nil, text: text, gradient: gradient,
                           version: 1)
    }

    private static func contents(center: CGRect = unit) throws -> ContentsDescription {
        ContentsDescription(image: try Image(Bitmap(width: 2, height: 2)), gravity: .center, rect: unit, center: center, scale: 1,
                            minificationFilter: .linear, magnificationFilter: .linear)
    }

    private static let text = TextDescription(text: .string("12:34"), font: Font.defaultFamily, fontSize: 12, color: textColor,
                                              alignment: .natural, wrapped: false, truncation: .none)
    private static let gradient = Gradient(.axial(start: .zero, end: CGPoint(x: 1, y: 0)), colors: [.black, .white])

    @Test func anImageAloneIsContentsOnly() throws {
        #expect(Self.describe(contents: try Self.contents()).isContentsOnly)
        #expect(Self.describe(contents: try Self.contents()).coverageColor == nil)
    }

    @Test func anImageWithAnythingElseOrStretchedInNinePartsIsNotContentsOnly() throws {
        #expect(!Self.describe(contents: try Self.contents(center: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5))).isContentsOnly)
        #expect(!Self.describe(contents: try Self.contents(), gradient: Self.gradient).isContentsOnly)
        #expect(!Self.describe(background: .black, contents: try Self.contents()).isContentsOnly)
        #expect(!Self.describe(contents: try Self.contents(), text: Self.text).isContentsOnly)
        #expect(!Self.describe(gradient: Self.gradient).isContentsOnly)
    }

    @Test func textAloneIsCoverageInItsColor() {
        #expect(Self.describe(text: Self.text).coverageColor == Self.textColor)
        #expect(!Self.describe(text: Self.text).isContentsOnly)
    }

    @Test func textWithAnythingElseIsNotCoverage() throws {
        #expect(Self.describe(text: Self.text, gradient: Self.gradient).coverageColor == nil)
        #expect(Self.describe(contents: try Self.contents(), text: Self.text).coverageColor == nil)
        #expect(Self.describe(background: .black, text: Self.text).coverageColor == nil)
        #expect(Self.describe(gradient: Self.gradient).coverageColor == nil)
    }
}
