import Foundation

/// A layer that shows text (Core Animation's CATextLayer): a string or styled runs, set in a
/// font found by family name through fontconfig, shaped by HarfBuzz, drawn from the font's
/// outlines at the scale the layer is shown at. Core Animation's defaults: 36-point white text,
/// natural alignment, no wrapping, no truncation.
open class TextLayer: Layer {
    /// The declarations of the text layer's properties (see `Layer.Properties`).
    enum Properties {
        typealias Declaration<Value: Sendable> = LayerProperty<TextLayer, Value>

        static let string: Declaration<String?> = .init("string", \.string, default: nil, invalidates: .content)
        static let runs: Declaration<[TextRun]?> = .init("runs", \.runs, default: nil, invalidates: .content)
        static let font: Declaration<String> = .init("font", \.font, default: Font.defaultFamily, invalidates: .content)
        static let fontSize: Declaration<CGFloat> = .init("fontSize", \.fontSize, default: 36, invalidates: .content, animatable: .number)
        static let foregroundColor: Declaration<Color> = .init("foregroundColor", \.foregroundColor, default: .white, invalidates: .content,
                                                               animatable: .color)
        static let alignmentMode: Declaration<TextAlignment> = .init("alignmentMode", \.alignmentMode, default: .natural,
                                                                     invalidates: .content)
        static let isWrapped: Declaration<Bool> = .init("wrapped", \.isWrapped, default: false, invalidates: .content)
        static let truncationMode: Declaration<TextTruncation> = .init("truncationMode", \.truncationMode, default: .none,
                                                                       invalidates: .content)
    }

    /// The text (ignored when `runs` is set).
    @Declared(Properties.string) public var string: String?
    /// Styled text, each run with its own font, size and color.
    @Declared(Properties.runs) public var runs: [TextRun]?
    /// The font family (fontconfig's sans-serif by default).
    @Declared(Properties.font) public var font: String
    /// The font size, in points.
    @Declared(Properties.fontSize) public var fontSize: CGFloat
    /// The text's color.
    @Declared(Properties.foregroundColor) public var foregroundColor: Color
    /// How lines are aligned in the bounds.
    @Declared(Properties.alignmentMode) public var alignmentMode: TextAlignment
    /// Whether lines wrap at spaces to the bounds' width.
    @Declared(Properties.isWrapped) public var isWrapped: Bool
    /// How text that does not fit is cut.
    @Declared(Properties.truncationMode) public var truncationMode: TextTruncation

    /// The size the text needs (one line per newline, or wrapped to the bounds' width).
    public func preferredSize() -> CGSize {
        layout(width: isWrapped ? bounds.width : nil).metrics.size
    }

    func layout(width: CGFloat?) -> TextLayout {
        TextLayout(runs: runs ?? [TextRun(string ?? "")], font: font, fontSize: fontSize, color: foregroundColor,
                   width: width, wrapped: isWrapped, truncation: truncationMode, alignment: alignmentMode)
    }

    override var textDescription: TextDescription? {
        let text: TextDescription.Text
        if let runs {
            guard runs.contains(where: { !$0.text.isEmpty }) else { return nil }
            text = .runs(runs)
        } else {
            guard let string, !string.isEmpty else { return nil }
            text = .string(string)
        }
        let family = font
        return TextDescription(text: text, font: family, fontSize: fontSize, color: foregroundColor,
                               alignment: alignmentMode, wrapped: isWrapped, truncation: truncationMode,
                               resolvedFont: resolvedFont(of: family))
    }

    /// The family last resolved for a description and the font it named (`resolvedFont(of:)`).
    private var lastResolved: (family: String, font: ResolvedFont?)?

    /// The font `family` names, as a layout falls back for it (the default family's when it
    /// names none), resolved once while the layer's family stays the same: a line whose figures
    /// change every frame is described, and laid out, every frame, and asking `Font.named` each
    /// time cost a lock and a string comparison a line.
    private func resolvedFont(of family: String) -> ResolvedFont? {
        if let lastResolved, lastResolved.family == family { return lastResolved.font }
        let font = ((try? Font.named(family)) ?? (try? Font.named(Font.defaultFamily))).map(ResolvedFont.init)
        lastResolved = (family, font)
        return font
    }
}

/// A font a text layer resolved, which the layer's descriptions hold instead of the font itself.
///
/// A description is made for each line whose figures change, every frame, and the content pass
/// lays the line out on another thread: retaining the font for each description (and releasing
/// it with the description) wrote the reference count of the one font every line of a board
/// shares, from both threads. The layer's own holder is retained instead, and the layout reads
/// the font through `reference` without retaining it.
final class ResolvedFont: Sendable {
    let font: Font
    /// `font`, not retained: valid while this holder lives.
    let reference: Unmanaged<Font>

    init(_ font: Font) {
        self.font = font
        reference = .passUnretained(font)
    }
}

/// A text layer's text, as the renderer sees it.
///
/// Immutable, and a class: as an optional value it was copied and destroyed through its type's
/// metadata a dozen times each time a layer's content was described (a line of a board whose
/// figures change every frame is described every frame).
final class TextDescription: Sendable, Equatable {
    /// A string in the layer's style, or styled runs. (A string is kept as it is: a run made of
    /// it would be an array made, and freed, for every text described.)
    enum Text: Equatable, Sendable {
        case string(String)
        case runs([TextRun])
    }

    let text: Text
    let font: String
    let fontSize: CGFloat
    let color: Color
    let alignment: TextAlignment
    let wrapped: Bool
    let truncation: TextTruncation
    /// The font `font` names (the default family's when it names none), when the layer resolved
    /// it already: the layout takes it instead of asking `Font.named` again. Not compared: it
    /// follows from `font`.
    let resolvedFont: ResolvedFont?

    init(text: Text, font: String, fontSize: CGFloat, color: Color, alignment: TextAlignment, wrapped: Bool,
         truncation: TextTruncation, resolvedFont: ResolvedFont? = nil) {
        self.text = text
        self.font = font
        self.fontSize = fontSize
        self.color = color
        self.alignment = alignment
        self.wrapped = wrapped
        self.truncation = truncation
        self.resolvedFont = resolvedFont
    }

    static func == (a: TextDescription, b: TextDescription) -> Bool {
        a === b || a.text == b.text && a.font == b.font && a.fontSize == b.fontSize && a.color == b.color &&
            a.alignment == b.alignment && a.wrapped == b.wrapped && a.truncation == b.truncation
    }

    /// The one color every run is drawn in, or nil when runs differ.
    var singleColor: Color? {
        guard case let .runs(runs) = text else { return color }
        let first = runs.first?.color ?? color
        return runs.allSatisfy { ($0.color ?? color) == first } ? first : nil
    }
}
