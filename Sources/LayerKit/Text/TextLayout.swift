import Foundation

/// A stretch of text with its own style (the attributed runs of a text layer).
public struct TextRun: Hashable, Sendable {
    /// The characters.
    public var text: String
    /// A family name; nil uses the layer's font.
    public var font: String?
    /// Points; nil uses the layer's font size.
    public var fontSize: CGFloat?
    /// nil uses the layer's foreground color.
    public var color: Color?

    /// A run of `text`, with whatever style it overrides.
    public init(_ text: String, font: String? = nil, fontSize: CGFloat? = nil, color: Color? = nil) {
        self.text = text; self.font = font; self.fontSize = fontSize; self.color = color
    }
}

/// How lines sit horizontally in the bounds (Core Animation's alignmentMode). Justified lines
/// end flush at both margins, all but a paragraph's last, which sits left.
public enum TextAlignment: String, Hashable, Sendable {
    /// The script's own direction: left for left-to-right text (the default).
    case natural
    /// Flush left.
    case left
    /// Flush right.
    case right
    /// Centred.
    case center
    /// Flush at both margins, a paragraph's last line left.
    case justified
}

/// Where a line too long for the bounds is cut, with an ellipsis (Core Animation's
/// truncationMode); `.none` lets it run past the bounds.
public enum TextTruncation: String, Hashable, Sendable {
    /// Not cut: the line runs past the bounds (the default).
    case none
    /// The start is replaced by an ellipsis.
    case start
    /// The end is replaced by an ellipsis.
    case end
    /// The middle is replaced by an ellipsis.
    case middle
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
///
/// Work is linear in the text: each word is shaped once (and the font caches the result), a
/// character's combining marks are capped at `maximumScalarsPerCluster`, and truncation finds
/// its cut from the advances of one shaping of the line.
struct TextLayout {
    struct PlacedGlyph {
        /// Not retained: each glyph retained its font when placed and released it when the
        /// layout went. The fonts a layout's glyphs name live as long as the layout (see
        /// `Style.fontReference`); glyphs are read only through their layout.
        let fontReference: Unmanaged<Font>
        let id: UInt32
        let origin: CGPoint
        /// Design units → points.
        let scale: CGFloat
        let color: Color
        /// How far the pen moves after it, in points (before justification).
        let advance: CGFloat

        /// The font, retained by the caller (`fontReference._withUnsafeGuaranteedRef` reads it
        /// without).
        var font: Font { fontReference.takeUnretainedValue() }
    }

    /// The most Unicode scalars one character (a base and its combining marks) keeps; Unicode's
    /// stream-safe format allows 31. More are dropped: HarfBuzz positions each mark against
    /// those before it, so one character with 30,000 marks took seconds.
    static let maximumScalarsPerCluster = 32

    // (No defaults: every path of `init` sets each field once. With defaults, the finished
    // layout was copied, and the copy's source destroyed, at the end of every init.)
    private(set) var glyphs: [PlacedGlyph]
    /// Each line's glyphs, as ranges of `glyphs`, top to bottom.
    private(set) var lines: [Range<Int>]
    private(set) var metrics: TextMetrics
    /// The runs' styles.
    private var styles: [Style]
    /// The fonts the layout found by name, held for as long as it lives; the caller's
    /// `explicitFont` is not among them (see `Style.fontReference`).
    private var namedFonts: [Font]

    /// A word (with its trailing space) or a line break, in one style.
    struct Piece {
        let text: String
        let font: Font
        let size: CGFloat
        let color: Color
        let isNewline: Bool
        /// Whether the last character is a space (where a line may break), noted when the
        /// piece is cut: asking the string walks grapheme clusters backwards each time.
        let endsWithSpace: Bool

        init(text: String, font: Font, size: CGFloat, color: Color, isNewline: Bool, endsWithSpace: Bool? = nil) {
            self.text = text; self.font = font; self.size = size; self.color = color; self.isNewline = isNewline
            self.endsWithSpace = endsWithSpace ?? (text.last == " ")
        }
    }

    /// A run's font, size and color, which its pieces share.
    struct Style {
        /// The font, not retained: it lives while the layout does, held by the layout
        /// (`namedFonts`) or, as `explicitFont`, by the layout's caller. One font is shared by
        /// every line of a board, and the threads of a content pass laying out lines at once
        /// retained and released it several times a line each: its reference count's cache
        /// line went back and forth between their cores (about 180 ns a trip on the 2-core
        /// machine of docs/benchmarks.md). Read through `withFont`: an `unowned(unsafe)` font
        /// (or one taken out of the reference) is retained for each use all the same.
        let fontReference: Unmanaged<Font>
        let size: CGFloat
        let color: Color
        /// Design units → points.
        let scale: CGFloat

        /// Runs `body` with the style's font, not retained.
        @inline(__always)
        func withFont<R>(_ body: (Font) throws -> R) rethrows -> R { try fontReference._withUnsafeGuaranteedRef(body) }

        /// Runs `body` with the font's shape cache, neither retained.
        @inline(__always)
        func withShapes<R>(_ body: (ShapeCache) throws -> R) rethrows -> R {
            try withFont { try $0.shapesReference._withUnsafeGuaranteedRef(body) }
        }

        /// The font, retained by the caller (for the colder paths: truncation, text that is not ASCII).
        var font: Font { fontReference.takeUnretainedValue() }
    }

    /// A piece shaped: a word (with its trailing space) or a line break, in one style.
    struct Shaped {
        /// Its style: an index in the layout's styles.
        let style: Int
        let glyphs: [Font.Glyph]
        /// Advance in points, and without a trailing space.
        let width: CGFloat, trimmedWidth: CGFloat
        let isNewline: Bool
        let endsWithSpace: Bool
        /// Where its text is (read only to truncate a line).
        let text: PieceText
    }

    /// A piece's text: bytes of an ASCII run's text (a word found without making a string of
    /// it), or a string of its own.
    enum PieceText {
        case bytes(run: Int, Range<Int>)
        case string(String)
    }

    /// Lays out `runs`, wrapping at spaces to `width` when `wrapped`, otherwise cutting a long
    /// line per `truncation`; lines are placed per `alignment` within `width`.
    init<Runs: RandomAccessCollection<TextRun>>(runs: Runs, font defaultFamily: String, fontSize: CGFloat, color: Color,
                                                width: CGFloat?, wrapped: Bool, truncation: TextTruncation, alignment: TextAlignment,
                                                explicitFont: Font? = nil) {
        self.init(runs: runs, font: defaultFamily, fontSize: fontSize, color: color, width: width, wrapped: wrapped,
                  truncation: truncation, alignment: alignment, explicitFont: explicitFont.map { Unmanaged.passUnretained($0) },
                  holding: explicitFont)
    }

    /// `init(runs:font:fontSize:color:width:wrapped:truncation:alignment:explicitFont:)` with the
    /// explicit font not retained: the caller keeps it alive for as long as the layout lives
    /// (see `Style.fontReference`). `holding`, when given, is kept by the layout instead.
    init<Runs: RandomAccessCollection<TextRun>>(runs: Runs, font defaultFamily: String, fontSize: CGFloat, color: Color,
                                                width: CGFloat?, wrapped: Bool, truncation: TextTruncation, alignment: TextAlignment,
                                                explicitFont: Unmanaged<Font>?, holding: Font? = nil) {
        let size = fontSize.isFinite && fontSize > 0 ? min(fontSize, 10_000) : 36
        var namedFonts: [Font] = holding.map { [$0] } ?? []
        var defaultFont = explicitFont
        if defaultFont == nil, let named = (try? Font.named(defaultFamily)) ?? (try? Font.named(Font.defaultFamily)) {
            namedFonts.append(named)
            defaultFont = .passUnretained(named)
        }
        // The arrays come from the thread's scratch (kept from a layout recycled before).
        let scratch = TextScratch.current
        var styles = TextScratch.take(&scratch.styles)
        styles.reserveCapacity(runs.count)
        var shaped = TextScratch.take(&scratch.shaped)
        defer { TextScratch.give(&shaped, to: &scratch.shaped) }
        // The runs' fields are read in place: a run copied out (twice a run) was copied and
        // destroyed field by field through its type's witnesses.
        // About a piece per four bytes of text (words and their spaces).
        var pieces = 0
        for i in runs.indices { pieces += runs[i].text.utf8.count / 4 + 1 }
        shaped.reserveCapacity(pieces)
        var index = 0   // runs are numbered from 0 (`PieceText.bytes`)
        for i in runs.indices {
            defer { index += 1 }
            let font: Unmanaged<Font>
            if let family = runs[i].font, let named = try? Font.named(family) {
                if !namedFonts.contains(where: { $0 === named }) { namedFonts.append(named) }
                font = .passUnretained(named)
            } else if let defaultFont {
                font = defaultFont
            } else {
                continue
            }
            let runSize = runs[i].fontSize.map { $0.isFinite && $0 > 0 ? min($0, 10_000) : size } ?? size
            let style = Style(fontReference: font, size: runSize, color: runs[i].color ?? color,
                              scale: font._withUnsafeGuaranteedRef { Self.unitScale($0, runSize) })
            styles.append(style)
            Self.shapePieces(of: runs[i].text, run: index, style: styles.count - 1, style, layerColor: color, into: &shaped)
        }
        self.namedFonts = namedFonts
        guard let baseFont = shaped.first.map({ styles[$0.style].fontReference }) ?? defaultFont else {
            glyphs = []
            lines = []
            self.styles = styles
            metrics = TextMetrics(size: .zero, ascent: 0, descent: 0, lineHeight: 0)
            return
        }
        let baseSize = shaped.first.map { styles[$0.style].size } ?? size
        let (ascent, descent, lineGap) = baseFont._withUnsafeGuaranteedRef { font in
            let scale = Self.unitScale(font, baseSize)
            return (CGFloat(font.ascender) * scale, CGFloat(font.descender) * scale, CGFloat(font.lineGap) * scale)
        }
        let lineHeight = ascent + descent + lineGap

        // Break into lines (stretches of `shaped`, read in place rather than copied out), noting
        // which end a paragraph (justified text leaves those alone).
        var lines = TextScratch.take(&scratch.breaks)
        defer { TextScratch.give(&lines, to: &scratch.breaks) }
        var lineStart = 0
        var lineWidth: CGFloat = 0
        for i in shaped.indices {
            if shaped[i].isNewline {
                lines.append((lineStart..<i, true))
                lineStart = i + 1
                lineWidth = 0
                continue
            }
            if wrapped, let width, lineWidth > 0, lineWidth + shaped[i].trimmedWidth > width {
                lines.append((lineStart..<i, false))
                lineStart = i
                lineWidth = 0
            }
            lineWidth += shaped[i].width
        }
        lines.append((lineStart..<shaped.count, true))
        if !wrapped, truncation != .none, let width, lines.count == 1,
           let cut = Self.truncated(shaped[lines[0].pieces], styles: styles, runText: { runs[runs.index(runs.startIndex, offsetBy: $0)].text }, to: width, truncation) {
            shaped.append(cut)
            lines = [(shaped.count - 1..<shaped.count, true)]
        }
        // Place the glyphs.
        var placed = TextScratch.take(&scratch.glyphs), placedLines = TextScratch.take(&scratch.lines)
        placed.reserveCapacity(shaped.reduce(0) { $0 + $1.glyphs.count })
        placedLines.reserveCapacity(lines.count)
        var widest: CGFloat = 0
        shaped.withUnsafeBufferPointer { shaped in
            for (index, (line, endsParagraph)) in lines.enumerated() {
                var lineAdvance: CGFloat = 0
                for k in line { lineAdvance += shaped[k].width }
                widest = max(widest, lineAdvance)
                var x: CGFloat
                switch alignment {
                case .right: x = (width ?? lineAdvance) - lineAdvance
                case .center: x = ((width ?? lineAdvance) - lineAdvance) / 2
                default: x = 0
                }
                // Justified: the space left on the line goes into the gaps between its words.
                var gap: CGFloat = 0
                if alignment == .justified, let width, !endsParagraph, let last = line.last {
                    let gaps = line.dropLast().filter { shaped[$0].endsWithSpace }.count
                    let visible = lineAdvance - shaped[last].width + shaped[last].trimmedWidth
                    if gaps > 0, width > visible { gap = (width - visible) / CGFloat(gaps) }
                }
                let baseline = ascent + CGFloat(index) * lineHeight
                let first = placed.count
                for k in line {
                    let style = shaped[k].style
                    let scale = styles[style].scale, color = styles[style].color
                    // The piece's glyphs read in place, by index: borrowed whole (for a buffer
                    // pointer, or a loop over the array), they were retained and released for
                    // every piece of every line.
                    for j in 0..<shaped[k].glyphs.count {
                        let glyph = shaped[k].glyphs[j]
                        placed.append(PlacedGlyph(fontReference: styles[style].fontReference, id: glyph.id,
                                                  origin: CGPoint(x: x + CGFloat(glyph.x) * scale, y: baseline + CGFloat(glyph.y) * scale),
                                                  scale: scale, color: color, advance: CGFloat(glyph.advance) * scale))
                    }
                    x += shaped[k].width
                    if k < line.upperBound - 1, shaped[k].endsWithSpace { x += gap }
                }
                placedLines.append(first..<placed.count)
            }
        }
        glyphs = placed
        self.lines = placedLines
        self.styles = styles
        let height = CGFloat(lines.count) * lineHeight - (lines.isEmpty ? 0 : lineGap)
        metrics = TextMetrics(size: CGSize(width: widest, height: height), ascent: ascent, descent: descent, lineHeight: lineHeight)
    }

    private static func unitScale(_ font: Font, _ size: CGFloat) -> CGFloat { size / CGFloat(font.unitsPerEm) }

    /// Gives the layout's storage to the calling thread's next layout (`TextScratch`), leaving
    /// it empty: for a layout drawn once and dropped (the content pass's).
    mutating func recycle() {
        let scratch = TextScratch.current
        TextScratch.give(&glyphs, to: &scratch.glyphs)
        TextScratch.give(&lines, to: &scratch.lines)
        TextScratch.give(&styles, to: &scratch.styles)
        glyphs = []
        lines = []
        styles = []
    }

    /// A run's pieces, shaped, appended to `shaped`: words keep the run's style; spaces and
    /// newlines are where lines may break. Each character keeps at most
    /// `maximumScalarsPerCluster` scalars. An ASCII run's words are shaped from its bytes.
    private static func shapePieces(of text: String, run: Int, style index: Int, _ style: Style, layerColor: Color,
                                    into shaped: inout [Shaped]) {
        var text = text
        // (Asked of the bytes in place: through the string's UTF-8 view it cost more than the rest.)
        guard text.withUTF8({ bytes in bytes.allSatisfy { $0 < 0x80 } }) else {
            var pieces: [Piece] = []
            characterPieces(of: text, font: style.font, size: style.size, color: style.color, newlineColor: layerColor, into: &pieces)
            for piece in pieces {
                if piece.isNewline {
                    shaped.append(Shaped(style: index, glyphs: [], width: 0, trimmedWidth: 0, isNewline: true, endsWithSpace: false,
                                         text: .string("")))
                } else if let last = shaped.last, case let .string(lastText) = last.text, last.style == index, lastText == piece.text {
                    shaped.append(last)
                } else {
                    shaped.append(shape(piece.text, style: index, style, endsWithSpace: piece.endsWithSpace))
                }
            }
            return
        }
        text.withUTF8 { bytes in
            // The words are looked up in the thread's front of the font's shape cache, without a
            // lock; those it lacks in the cache, under one lock; those not kept are shaped last.
            var missing: [Int] = []
            style.withShapes { $0.lookingUp { find in
                asciiPieces(of: bytes) { range, isNewline in
                    guard !isNewline else {
                        shaped.append(Shaped(style: index, glyphs: [], width: 0, trimmedWidth: 0, isNewline: true, endsWithSpace: false,
                                             text: .bytes(run: run, range)))
                        return
                    }
                    let word = UnsafeBufferPointer(rebasing: bytes[range])
                    let endsWithSpace = word[word.count - 1] == UInt8(ascii: " ")
                    // Runs of spaces come as one piece a space: a piece like the one before is shaped once.
                    if let last = shaped.last, case let .bytes(lastRun, lastRange) = last.text, lastRun == run, !last.isNewline,
                       missing.last != shaped.count - 1, lastRange.count == range.count,
                       ShapeCache.equal(UnsafeBufferPointer(rebasing: bytes[lastRange]), word) {
                        shaped.append(Shaped(style: index, glyphs: last.glyphs, width: last.width, trimmedWidth: last.trimmedWidth,
                                             isNewline: false, endsWithSpace: endsWithSpace, text: .bytes(run: run, range)))
                        return
                    }
                    if word.count <= Font.longestShapeKept, let glyphs = find(word) {
                        shaped.append(measured(glyphs, style: index, style, endsWithSpace: endsWithSpace, text: .bytes(run: run, range)))
                    } else {
                        missing.append(shaped.count)
                        shaped.append(Shaped(style: index, glyphs: [], width: 0, trimmedWidth: 0, isNewline: false,
                                             endsWithSpace: endsWithSpace, text: .bytes(run: run, range)))
                    }
                }
            } }
            guard !missing.isEmpty else { return }
            let words = missing.map { i -> UnsafeBufferPointer<UInt8> in
                guard case let .bytes(_, range) = shaped[i].text else { return UnsafeBufferPointer(start: nil, count: 0) }
                return UnsafeBufferPointer(rebasing: bytes[range])
            }
            let kept = style.withShapes { $0.glyphs(forUTF8: words.lazy.filter { $0.count <= Font.longestShapeKept }) }
            var next = kept.startIndex
            for (i, word) in zip(missing, words) {
                var glyphs: [Font.Glyph]?
                if word.count <= Font.longestShapeKept {
                    glyphs = kept[next]
                    next += 1
                }
                // (Not kept: asked again, for a word shaped just before may be the same.)
                shaped[i] = measured(glyphs ?? style.withFont { $0.shape(utf8: word) }, style: index, style,
                                     endsWithSpace: shaped[i].endsWithSpace, text: shaped[i].text)
            }
        }
    }

    /// A run's words and line breaks, character by character (newlines take `newlineColor`,
    /// the layer's color).
    static func characterPieces(of text: String, font: Font, size: CGFloat, color: Color, newlineColor: Color,
                                into pieces: inout [Piece]) {
        var word = ""
        for character in text {
            if character == "\n" || character == "\r\n" {
                if !word.isEmpty {
                    pieces.append(Piece(text: word, font: font, size: size, color: color, isNewline: false, endsWithSpace: false))
                }
                pieces.append(Piece(text: "", font: font, size: size, color: newlineColor, isNewline: true, endsWithSpace: false))
                word = ""
            } else if character == " " {
                word.append(character)
                pieces.append(Piece(text: word, font: font, size: size, color: color, isNewline: false, endsWithSpace: true))
                word = ""
            } else if character.unicodeScalars.count > maximumScalarsPerCluster {
                word.unicodeScalars.append(contentsOf: character.unicodeScalars.prefix(maximumScalarsPerCluster))
            } else {
                word.append(character)
            }
        }
        if !word.isEmpty { pieces.append(Piece(text: word, font: font, size: size, color: color, isNewline: false, endsWithSpace: false)) }
    }

    /// `characterPieces` for ASCII text, byte by byte: every byte is a character of one scalar,
    /// except "\r\n", which is one character (a line break), as Swift's grapheme breaking has
    /// it. The same pieces, without walking grapheme clusters.
    static func asciiPieces(of text: String, font: Font, size: CGFloat, color: Color, newlineColor: Color,
                            into pieces: inout [Piece]) {
        var text = text
        text.withUTF8 { bytes in
            asciiPieces(of: bytes) { range, isNewline in
                if isNewline {
                    pieces.append(Piece(text: "", font: font, size: size, color: newlineColor, isNewline: true, endsWithSpace: false))
                } else {
                    pieces.append(Piece(text: String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self), font: font,
                                        size: size, color: color, isNewline: false,
                                        endsWithSpace: bytes[range.upperBound - 1] == UInt8(ascii: " ")))
                }
            }
        }
    }

    /// The pieces of ASCII text as `characterPieces` cuts them, each as a range of the bytes and
    /// whether it is a line break (whose range is the break's bytes), in order.
    static func asciiPieces(of bytes: UnsafeBufferPointer<UInt8>, _ body: (_ range: Range<Int>, _ isNewline: Bool) -> Void) {
        var start = 0, i = 0
        let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), space = UInt8(ascii: " ")
        while i < bytes.count {
            let byte = bytes[i]
            let breakLength = byte == newline ? 1 : byte == carriageReturn && i + 1 < bytes.count && bytes[i + 1] == newline ? 2 : 0
            if breakLength > 0 {
                if i > start { body(start..<i, false) }
                body(i..<i + breakLength, true)
                i += breakLength
                start = i
            } else if byte == space {
                i += 1
                body(start..<i, false)
                start = i
            } else {
                i += 1
            }
        }
        if i > start { body(start..<i, false) }
    }

    /// A word shaped in a style (`index` in the layout's styles).
    private static func shape(_ text: String, style index: Int, _ style: Style, endsWithSpace: Bool) -> Shaped {
        measured(style.font.shape(text), style: index, style, endsWithSpace: endsWithSpace, text: .string(text))
    }

    /// A word's glyphs with their advance, and without a trailing space. (Inlined: a call per
    /// word of a line cost more than the sum.)
    @inline(__always)
    private static func measured(_ glyphs: [Font.Glyph], style index: Int, _ style: Style, endsWithSpace: Bool,
                                 text: PieceText) -> Shaped {
        var advance = 0
        for glyph in glyphs { advance += glyph.advance }
        let width = CGFloat(advance) * style.scale
        let trailing = endsWithSpace ? CGFloat(glyphs.last?.advance ?? 0) * style.scale : 0
        return Shaped(style: index, glyphs: glyphs, width: width, trimmedWidth: width - trailing, isNewline: false,
                      endsWithSpace: endsWithSpace, text: text)
    }

    /// A single over-long line cut to `width` with an ellipsis, in the style of its first
    /// piece; nil when it fits. The cut is found from the advances of one shaping of the line
    /// (a binary search over how many characters to keep), then checked by shaping the result:
    /// linear in the line's length.
    private static func truncated(_ line: ArraySlice<Shaped>, styles: [Style], runText: (Int) -> String, to width: CGFloat,
                                  _ truncation: TextTruncation) -> Shaped? {
        let full = line.reduce(0) { $0 + $1.width }
        guard full > width, let first = line.first else { return nil }
        let styleIndex = first.style, style = styles[styleIndex]
        let text = line.map { piece -> String in
            switch piece.text {
            case let .string(text): return text
            case let .bytes(run, range):
                // The word's bytes read in place (copying the run's collection and its UTF-8 for
                // every word made truncating a long line quadratic).
                var source = runText(run)
                return source.withUTF8 { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
            }
        }.joined()
        let characters = Array(text)
        let scale = style.scale
        // Each character's advance: its glyphs' advances, by cluster (a UTF-8 offset).
        var characterAt: [Int] = []
        characterAt.reserveCapacity(text.utf8.count)
        for (i, character) in characters.enumerated() {
            characterAt.append(contentsOf: repeatElement(i, count: character.utf8.count))
        }
        var advances = [CGFloat](repeating: 0, count: characters.count)
        for glyph in style.font.shape(text) where Int(glyph.cluster) < characterAt.count {
            advances[characterAt[Int(glyph.cluster)]] += CGFloat(glyph.advance) * scale
        }
        var prefix = [CGFloat](repeating: 0, count: characters.count + 1)
        for i in characters.indices { prefix[i + 1] = prefix[i] + advances[i] }
        let total = prefix[characters.count]
        func keptWidth(_ n: Int) -> CGFloat {
            switch truncation {
            case .end: prefix[n]
            case .start: total - prefix[characters.count - n]
            case .middle: prefix[n / 2] + total - prefix[characters.count - (n - n / 2)]
            case .none: total
            }
        }
        func candidate(_ n: Int) -> String {
            guard n > 0 else { return "…" }
            switch truncation {
            case .end: return String(characters[..<n]) + "…"
            case .start: return "…" + String(characters[(characters.count - n)...])
            case .middle: return String(characters[..<(n / 2)]) + "…" + String(characters[(characters.count - (n - n / 2))...])
            case .none: return text
            }
        }
        let ellipsis = CGFloat(style.font.shape("…").reduce(0) { $0 + $1.advance }) * scale
        var low = 0, high = characters.count - 1   // the most characters that fit lies in low...high
        while low < high {
            let mid = (low + high + 1) / 2
            if keptWidth(mid) + ellipsis <= width { low = mid } else { high = mid - 1 }
        }
        // Kerning across the cut can differ from the sum: step back while the shaped result is
        // too wide (a step or two at most).
        var kept = low
        func shaped(_ text: String) -> Shaped { shape(text, style: styleIndex, style, endsWithSpace: text.last == " ") }
        var result = shaped(candidate(kept))
        var steps = 0
        while kept > 0, result.width > width, steps < 8 {
            kept -= 1
            steps += 1
            result = shaped(candidate(kept))
        }
        return result
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
