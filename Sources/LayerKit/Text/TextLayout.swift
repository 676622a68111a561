import Foundation

/// A stretch of text with its own style (the attributed runs of a text layer).
public struct TextRun: Hashable, Sendable {
    public var text: String
    /// A family name; nil uses the layer's font.
    public var font: String?
    /// Points; nil uses the layer's font size.
    public var fontSize: CGFloat?
    /// nil uses the layer's foreground color.
    public var color: Color?

    public init(_ text: String, font: String? = nil, fontSize: CGFloat? = nil, color: Color? = nil) {
        self.text = text; self.font = font; self.fontSize = fontSize; self.color = color
    }
}

/// How lines sit horizontally in the bounds (Core Animation's alignmentMode).
public enum TextAlignment: String, Hashable, Sendable {
    case natural, left, right, center, justified
}

/// Where a line too long for the bounds is cut, with an ellipsis (Core Animation's
/// truncationMode); `.none` lets it run past the bounds.
public enum TextTruncation: String, Hashable, Sendable {
    case none, start, end, middle
}

/// Measurements of laid-out text, in points.
public struct TextMetrics: Hashable, Sendable {
    /// The advance width of the widest line and the height of all lines.
    public var size: CGSize
    /// Distance from the top to the first baseline.
    public var ascent: CGFloat
    /// Distance from a baseline down to the bottom of its line.
    public var descent: CGFloat
    /// Distance between baselines.
    public var lineHeight: CGFloat
}

/// Text shaped and broken into lines: glyphs placed in points, y down, the first line's top at 0.
struct TextLayout {
    struct PlacedGlyph {
        let font: Font
        let id: UInt32
        let origin: CGPoint
        let scale: CGFloat
        let color: Color
    }

    private(set) var glyphs: [PlacedGlyph] = []
    private(set) var metrics: TextMetrics

    /// Lays out `runs`, wrapping at spaces to `width` when `wrapped`, otherwise cutting a long
    /// line per `truncation`; lines are placed per `alignment` within `width`.
    init(runs: [TextRun], font defaultFamily: String, fontSize: CGFloat, color: Color,
         width: CGFloat?, wrapped: Bool, truncation: TextTruncation, alignment: TextAlignment, explicitFont: Font? = nil) {
        let size = fontSize.isFinite && fontSize > 0 ? min(fontSize, 10_000) : 36
        let defaultFont = explicitFont ?? (try? Font.named(defaultFamily)) ?? (try? Font.named(Font.defaultFamily))
        // Words keep their run's style; spaces and newlines are where lines may break.
        struct Piece { let text: String; let font: Font; let size: CGFloat; let color: Color; let isNewline: Bool }
        var pieces: [Piece] = []
        for run in runs {
            guard let font = run.font.flatMap({ try? Font.named($0) }) ?? defaultFont else { continue }
            let runSize = run.fontSize.map { $0.isFinite && $0 > 0 ? min($0, 10_000) : size } ?? size
            var word = ""
            for character in run.text {
                if character == "\n" {
                    if !word.isEmpty { pieces.append(Piece(text: word, font: font, size: runSize, color: run.color ?? color, isNewline: false)) }
                    pieces.append(Piece(text: "", font: font, size: runSize, color: color, isNewline: true))
                    word = ""
                } else if character == " " {
                    word.append(character)
                    pieces.append(Piece(text: word, font: font, size: runSize, color: run.color ?? color, isNewline: false))
                    word = ""
                } else {
                    word.append(character)
                }
            }
            if !word.isEmpty { pieces.append(Piece(text: word, font: font, size: runSize, color: run.color ?? color, isNewline: false)) }
        }
        guard let baseFont = pieces.first?.font ?? defaultFont else {
            metrics = TextMetrics(size: .zero, ascent: 0, descent: 0, lineHeight: 0)
            return
        }
        let baseSize = pieces.first?.size ?? size
        func unitScale(_ font: Font, _ size: CGFloat) -> CGFloat { size / CGFloat(font.unitsPerEm) }
        let ascent = CGFloat(baseFont.ascender) * unitScale(baseFont, baseSize)
        let descent = CGFloat(baseFont.descender) * unitScale(baseFont, baseSize)
        let lineHeight = ascent + descent + CGFloat(baseFont.lineGap) * unitScale(baseFont, baseSize)

        // Shape every piece once.
        struct Shaped { let piece: Piece; let glyphs: [Font.Glyph]; let width: CGFloat }
        var shaped: [Shaped] = pieces.map { piece in
            let glyphs = piece.font.shape(piece.text)
            let width = CGFloat(glyphs.reduce(0) { $0 + $1.advance }) * unitScale(piece.font, piece.size)
            return Shaped(piece: piece, glyphs: glyphs, width: width)
        }
        // Break into lines.
        var lines: [[Shaped]] = [[]]
        var lineWidth: CGFloat = 0
        for item in shaped {
            if item.piece.isNewline { lines.append([]); lineWidth = 0; continue }
            let trimmed = item.piece.text.hasSuffix(" ") ? item.width - CGFloat(item.glyphs.last?.advance ?? 0) * unitScale(item.piece.font, item.piece.size) : item.width
            if wrapped, let width, lineWidth > 0, lineWidth + trimmed > width {
                lines.append([])
                lineWidth = 0
            }
            lines[lines.count - 1].append(item)
            lineWidth += item.width
        }
        // Truncate a single over-long line.
        if !wrapped, truncation != .none, let width, lines.count == 1 {
            let full = lines[0].reduce(0) { $0 + $1.width }
            if full > width, let style = lines[0].first?.piece {
                var text = lines[0].map(\.piece.text).joined()
                func measure(_ s: String) -> CGFloat {
                    CGFloat(style.font.shape(s).reduce(0) { $0 + $1.advance }) * unitScale(style.font, style.size)
                }
                var characters = Array(text)
                var candidate = text
                while characters.count > 0 {
                    switch truncation {
                    case .end: characters.removeLast(); candidate = String(characters) + "…"
                    case .start: characters.removeFirst(); candidate = "…" + String(characters)
                    case .middle:
                        characters.remove(at: characters.count / 2)
                        let half = characters.count / 2
                        candidate = String(characters[..<half]) + "…" + String(characters[half...])
                    case .none: break
                    }
                    if measure(candidate) <= width { break }
                }
                text = characters.isEmpty ? "…" : candidate
                let glyphs = style.font.shape(text)
                shaped = [Shaped(piece: Piece(text: text, font: style.font, size: style.size, color: style.color, isNewline: false),
                                 glyphs: glyphs, width: measure(text))]
                lines = [shaped]
            }
        }
        // Place the glyphs.
        var widest: CGFloat = 0
        for (index, line) in lines.enumerated() {
            let lineAdvance = line.reduce(0) { $0 + $1.width }
            widest = max(widest, lineAdvance)
            var x: CGFloat
            switch alignment {
            case .right: x = (width ?? lineAdvance) - lineAdvance
            case .center: x = ((width ?? lineAdvance) - lineAdvance) / 2
            default: x = 0
            }
            let baseline = ascent + CGFloat(index) * lineHeight
            for item in line {
                let scale = unitScale(item.piece.font, item.piece.size)
                for glyph in item.glyphs {
                    glyphs.append(PlacedGlyph(font: item.piece.font, id: glyph.id,
                                              origin: CGPoint(x: x + CGFloat(glyph.x) * scale, y: baseline + CGFloat(glyph.y) * scale),
                                              scale: scale, color: item.piece.color))
                }
                x += item.width
            }
        }
        metrics = TextMetrics(size: CGSize(width: widest, height: CGFloat(lines.count) * lineHeight - (lines.isEmpty ? 0 : CGFloat(baseFont.lineGap) * unitScale(baseFont, baseSize))),
                              ascent: ascent, descent: descent, lineHeight: lineHeight)
    }

    /// Fills every glyph into `bitmap` through `transform` (points → pixels), offset by `origin`.
    ///
    /// Under a uniform scale and translation (how text layers and contexts draw) each glyph is
    /// composited from the glyph cache at its position rounded to 1/8 pixel. Other transforms
    /// fill the glyphs' outlines, glyphs of one color in one fill.
    func draw(into bitmap: Bitmap, at origin: CGPoint, transform: CGAffineTransform) {
        if transform.b == 0, transform.c == 0, transform.a == transform.d, transform.a > 0, transform.a.isFinite {
            drawCached(into: bitmap, at: origin, transform: transform)
            return
        }
        // Glyphs of one color go in one fill, so overlapping glyphs (marks) are not drawn twice.
        var byColor: [Color: Path] = [:]
        for glyph in glyphs {
            let outline = glyph.font.outline(ofGlyph: glyph.id)
            guard !outline.isEmpty else { continue }
            let place = CGAffineTransform(a: glyph.scale, b: 0, c: 0, d: glyph.scale,
                                          tx: origin.x + glyph.origin.x, ty: origin.y + glyph.origin.y)
            byColor[glyph.color, default: Path()].addPath(outline, transform: place)
        }
        for (color, path) in byColor { bitmap.fill(path, with: color, transform: transform) }
    }

    private func drawCached(into bitmap: Bitmap, at origin: CGPoint, transform: CGAffineTransform) {
        let phases = CGFloat(GlyphCache.phases)
        for glyph in glyphs {
            let x = (origin.x + glyph.origin.x) * transform.a + transform.tx
            let y = (origin.y + glyph.origin.y) * transform.d + transform.ty
            guard x.isFinite, y.isFinite, abs(x) < 1e7, abs(y) < 1e7 else { continue }
            // Whole pixels and eighths: 7.99 rounds to 8 + 0/8, not 7 + 8/8.
            let sx = (x * phases).rounded(), sy = (y * phases).rounded()
            let px = Int((sx / phases).rounded(.down)), py = Int((sy / phases).rounded(.down))
            let phaseX = Int(sx) - px * GlyphCache.phases, phaseY = Int(sy) - py * GlyphCache.phases
            guard let entry = GlyphCache.shared.coverage(font: glyph.font, glyph: glyph.id, scale: glyph.scale * transform.a,
                                                         phaseX: phaseX, phaseY: phaseY) else { continue }
            let area = PixelRect(x: px + entry.area.x, y: py + entry.area.y, width: entry.area.width, height: entry.area.height)
            guard !area.intersection(bitmap.bounds).isEmpty else { continue }
            bitmap.composite(coverage: entry.coverage, area: area, color: glyph.color, clip: nil)
        }
    }
}

extension Font {
    /// The size and vertical metrics of `text` set at `fontSize` points on one line (newlines
    /// start new lines).
    public func metrics(of text: String, fontSize: CGFloat) -> TextMetrics {
        TextLayout(runs: [TextRun(text)], font: familyName, fontSize: fontSize, color: .black, width: nil,
                   wrapped: false, truncation: .none, alignment: .left, explicitFont: self).metrics
    }
}
