import Foundation

/// A layer that shows text (Core Animation's CATextLayer): a string or styled runs, set in a
/// font found by family name through fontconfig, shaped by HarfBuzz, drawn from the font's
/// outlines at the scale the layer is shown at. Core Animation's defaults: 36-point white text,
/// natural alignment, no wrapping, no truncation.
open class TextLayer: Layer {
    /// The text (ignored when `runs` is set).
    public var string: String? { didSet { if string != oldValue { changed(.content) } } }
    /// Styled text, each run with its own font, size and color.
    public var runs: [TextRun]? { didSet { if runs != oldValue { changed(.content) } } }
    /// The font family (fontconfig's sans-serif by default).
    public var font: String = Font.defaultFamily { didSet { if font != oldValue { changed(.content) } } }
    public var fontSize: CGFloat = 36 { didSet { if fontSize != oldValue { didChange("fontSize", .content, from: .scalar(Double(oldValue))) } } }
    public var foregroundColor: Color = .white {
        didSet { if foregroundColor != oldValue { didChange("foregroundColor", .content, from: .color(oldValue)) } }
    }
    public var alignmentMode: TextAlignment = .natural { didSet { if alignmentMode != oldValue { changed(.content) } } }
    /// Whether lines wrap at spaces to the bounds' width.
    public var isWrapped = false { didSet { if isWrapped != oldValue { changed(.content) } } }
    public var truncationMode: TextTruncation = .none { didSet { if truncationMode != oldValue { changed(.content) } } }

    public override init() { super.init() }

    public required init(layer: Layer) {
        super.init(layer: layer)
        guard let text = layer as? TextLayer else { return }
        string = text.string; runs = text.runs; font = text.font; fontSize = text.fontSize
        foregroundColor = text.foregroundColor; alignmentMode = text.alignmentMode; isWrapped = text.isWrapped
        truncationMode = text.truncationMode
    }

    /// The size the text needs (one line per newline, or wrapped to the bounds' width).
    public func preferredSize() -> CGSize {
        layout(width: isWrapped ? bounds.width : nil).metrics.size
    }

    func layout(width: CGFloat?) -> TextLayout {
        TextLayout(runs: runs ?? [TextRun(string ?? "")], font: font, fontSize: fontSize, color: foregroundColor,
                   width: width, wrapped: isWrapped, truncation: truncationMode, alignment: alignmentMode)
    }

    override var textDescription: TextDescription? {
        let content = runs ?? [TextRun(string ?? "")]
        guard content.contains(where: { !$0.text.isEmpty }) else { return nil }
        return TextDescription(runs: content, font: font, fontSize: fontSize, color: foregroundColor,
                               alignment: alignmentMode, wrapped: isWrapped, truncation: truncationMode)
    }

    override class func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        switch keyPath {
        case "fontSize":
            return AnimatableProperty(kind: .scalar, get: { .scalar(Double(($0 as? TextLayer)?.fontSize ?? 0)) },
                                      set: { layer, v in if let d = v.scalarValue { (layer as? TextLayer)?.fontSize = CGFloat(d) } })
        case "foregroundColor":
            return AnimatableProperty(kind: .color, get: { .color(($0 as? TextLayer)?.foregroundColor ?? .clear) },
                                      set: { layer, v in if case let .color(c) = v { (layer as? TextLayer)?.foregroundColor = c } })
        default:
            return super.animatableProperty(forKeyPath: keyPath)
        }
    }
}

/// A text layer's text, as the renderer sees it.
struct TextDescription: Sendable, Hashable {
    let runs: [TextRun]
    let font: String
    let fontSize: CGFloat
    let color: Color
    let alignment: TextAlignment
    let wrapped: Bool
    let truncation: TextTruncation
}
