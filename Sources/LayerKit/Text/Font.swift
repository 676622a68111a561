import Foundation
import Synchronization

/// A font face: a file found by family name through fontconfig (or given directly), shaped with
/// HarfBuzz and drawn from its FreeType outlines. Sizes are chosen when text is laid out, so one
/// Font serves every size. Immutable and shared between threads.
///
/// `Font.named` keeps the fonts it loads in a cache bounded by `cacheCapacity` (least recently
/// used first out); family names that resolve to the same file share one font.
public final class Font: Sendable {
    /// The family the file declares.
    public let familyName: String
    /// The font file.
    public let path: String
    /// Design units per em of the face's outlines.
    public let unitsPerEm: Int
    /// Ascender and descender above and below the baseline, and line gap, in design units.
    public let ascender: Int, descender: Int, lineGap: Int

    let face: FreeTypeFace
    let shaper: HarfBuzzFont
    /// Unique for the process's lifetime: the glyph cache's name for this font.
    let serial: UInt32
    private let outlines = Locked<[UInt32: Path]>([:])
    let shapes = ShapeCache(capacity: Font.shapesKept)
    /// `shapes`, read without retaining it: a board's lines, laid out on several threads at
    /// once, retained and released the one cache of their font for each line.
    var shapesReference: Unmanaged<ShapeCache> { .passUnretained(shapes) }

    /// Shaping results kept per font, and the longest text (UTF-8 bytes) kept.
    static let shapesKept = 4096, longestShapeKept = 256

    /// The face in a font file.
    ///
    /// - Throws: `FontError` naming the file and what is wrong with it: missing, a directory,
    ///   unreadable, not a font (with FreeType's reason), or without outlines.
    public init(fileAt path: String, index: Int = 0) throws(FontError) {
        let face = try FreeTypeFace(path: path, index: index)
        shaper = try HarfBuzzFont(path: path, index: index, unitsPerEm: face.unitsPerEm)
        self.face = face
        self.path = path
        familyName = face.familyName ?? (path as NSString).lastPathComponent
        unitsPerEm = face.unitsPerEm
        ascender = face.ascender
        descender = face.descender
        lineGap = face.lineGap
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
    }

    private static let serials = Atomic<UInt32>(0)

    // MARK: Finding fonts

    /// The family text uses when none is named, or the named one is missing: fontconfig's
    /// "sans-serif" (DejaVu Sans on a fresh Debian machine).
    public static let defaultFamily = "sans-serif"

    /// Family names already matched to a file.
    private static let families = LeastRecentlyUsedCache<String, FontconfigLookup.Match>(capacity: 512)
    /// Fonts loaded, by file.
    private static let loaded = LeastRecentlyUsedCache<FontconfigLookup.Match, Font>(capacity: 32)

    /// The most fonts `named(_:)` keeps loaded (32 by default, at least 1); the least recently
    /// used are dropped first. A dropped font lives on while text still holds it, and is
    /// loaded again when next named.
    public static var cacheCapacity: Int {
        get { loaded.capacity }
        set {
            loaded.capacity = newValue
            lastNamed.withLock { $0 = nil }
        }
    }

    /// The last family named and its font: text set line after line in one family finds it
    /// here with one string comparison, instead of two lookups of hashed names.
    private static let lastNamed = Locked<(family: String, font: Font)?>(nil)

    /// The font fontconfig matches for a family name (cached). When the family is not
    /// installed, fontconfig's closest match is used and the substitution reported through
    /// `TextDiagnostics.handler`, once per name.
    ///
    /// - Throws: `FontError.notFound` when fontconfig finds no font at all, or the error of the
    ///   file it found.
    public static func named(_ family: String) throws(FontError) -> Font {
        // Compared under the lock: the last pair copied out retained (and released) its name too.
        if let last = lastNamed.withLock({ $0?.family == family ? $0?.font : nil }) { return last }
        var match = families.value(for: family)
        let matchedNow = match == nil
        if match == nil {
            guard let found = FontconfigLookup.shared?.match(family: family) else { throw .notFound(family: family) }
            families.insert(found, for: family)
            match = found
        }
        guard let match else { throw .notFound(family: family) }
        let font: Font
        if let cached = loaded.value(for: match) {
            font = cached
        } else {
            // Loaded outside the cache's lock (a file read); two threads that both missed keep
            // the font stored first, so a family is one Font object (one set of glyph and shape
            // cache entries) however many threads ask for it at once.
            font = loaded.insertIfAbsent(try Font(fileAt: match.path, index: match.index), for: match)
        }
        if matchedNow, family != defaultFamily, !family.isEmpty, font.familyName.caseInsensitiveCompare(family) != .orderedSame,
           !["sans-serif", "serif", "monospace", "sans", "mono"].contains(family.lowercased()) {
            TextDiagnostics.handler("font family \"\(family)\" is not installed; using \"\(font.familyName)\" (\(match.path))")
        }
        lastNamed.withLock { $0 = (family, font) }
        return font
    }

    // MARK: Shaping and outlines

    /// One positioned glyph, in design units from the start of the run (y down).
    public struct Glyph: Hashable, Sendable {
        /// The glyph's index in the font.
        public let id: UInt32
        /// The UTF-8 byte offset of the character it came from.
        public let cluster: UInt32
        /// Where the glyph's origin sits, from the run's start.
        public let x: Int, y: Int
        /// How far the pen moves after it.
        public let advance: Int
    }

    /// Shapes a run of text: kerning, ligatures, right-to-left scripts and combining marks as
    /// HarfBuzz does them, with direction, script and language guessed from the text. Every
    /// character is shaped, NULs included. Results for short runs are cached while the font
    /// is, so text set again (a label redrawn at another size or color) is not shaped again.
    public func shape(_ text: String) -> [Glyph] {
        var text = text
        return text.withUTF8 { shape(utf8: $0) }
    }

    /// `shape(_:)` for text given as its UTF-8 bytes (well-formed: a string's, or a part of
    /// one cut between characters).
    func shape(utf8 bytes: UnsafeBufferPointer<UInt8>) -> [Glyph] {
        let cacheable = bytes.count <= Self.longestShapeKept
        if cacheable, let cached = shapes.glyphs(forUTF8: bytes) { return cached }
        let glyphs = shaper.shape(utf8: bytes)
        if cacheable { shapes.insert(glyphs, forUTF8: bytes) }
        return glyphs
    }

    /// The outline of a glyph in design units, y down, origin on the baseline (cached).
    public func outline(ofGlyph id: UInt32) -> Path {
        if let path = outlines.withLock({ $0[id] }) { return path }
        let path = face.outline(ofGlyph: id)
        outlines.withLock { $0[id] = path }
        return path
    }
}

/// Where font substitutions are reported (standard error by default).
public enum TextDiagnostics {
    /// Receives one message per substitution; replace it to collect or silence them.
    public static var handler: @Sendable (String) -> Void {
        get { channel.current }
        set { channel.current = newValue }
    }

    private static let channel = DiagnosticHandler<String>()
}
