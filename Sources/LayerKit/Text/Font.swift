import CFontconfig
import CFreeType
import CHarfBuzz
import Foundation
import Synchronization

/// A font face: a file found by family name through fontconfig (or given directly), shaped with
/// HarfBuzz and drawn from its FreeType outlines. Sizes are chosen when text is laid out, so one
/// Font serves every size. Immutable and shared; fonts are cached by name.
public final class Font: @unchecked Sendable {
    // Safe to share: the FreeType face and HarfBuzz font are only used under `lock` (FreeType
    // faces are not thread-safe), and every other stored property is immutable.

    /// The family the file declares.
    public let familyName: String
    /// The font file.
    public let path: String
    /// Design units per em of the face's outlines.
    public let unitsPerEm: Int
    /// Ascender and descender above and below the baseline, and line gap, in design units.
    public let ascender: Int, descender: Int, lineGap: Int

    private let library: FT_Library
    private let face: FT_Face
    private let hbFont: OpaquePointer
    private let lock = Mutex<[UInt32: Path]>([:])

    /// The face in a font file.
    ///
    /// - Throws: `FontError.cannotOpen` when the file is missing, unreadable or not a font
    ///   FreeType knows, naming the file and FreeType's reason.
    public init(fileAt path: String, index: Int = 0) throws(FontError) {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .cannotOpen(path: path, reason: "no readable file there")
        }
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw .cannotOpen(path: path, reason: "FreeType could not start") }
        var face: FT_Face?
        let error = FT_New_Face(library, path, index, &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw .cannotOpen(path: path, reason: Self.describe(error))
        }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0, face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw .cannotOpen(path: path, reason: "not a scalable (outline) font")
        }
        guard let blob = hb_blob_create_from_file_or_fail(path), let hbFace = hb_face_create(blob, UInt32(index)) else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw .cannotOpen(path: path, reason: "HarfBuzz could not read it")
        }
        hb_blob_destroy(blob)
        let hbFont = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        let upem = Int(face.pointee.units_per_EM)
        hb_font_set_scale(hbFont, Int32(upem), Int32(upem))
        self.library = library
        self.face = face
        self.hbFont = hbFont
        self.path = path
        self.familyName = face.pointee.family_name.map { String(cString: $0) } ?? (path as NSString).lastPathComponent
        unitsPerEm = upem
        ascender = Int(face.pointee.ascender)
        descender = Int(-face.pointee.descender)
        lineGap = max(0, Int(face.pointee.height) - ascender - descender)
    }

    deinit {
        hb_font_destroy(hbFont)
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    // MARK: Finding fonts

    /// The family text uses when none is named, or the named one is missing: fontconfig's
    /// "sans-serif" (DejaVu Sans on a fresh Debian machine).
    public static let defaultFamily = "sans-serif"

    private static let cache = Mutex<[String: Font]>([:])

    /// The font fontconfig matches for a family name (cached). When the family is not
    /// installed, fontconfig's closest match is used and the substitution reported through
    /// `TextDiagnostics.handler`.
    ///
    /// - Throws: `FontError.notFound` when fontconfig finds no font at all.
    public static func named(_ family: String) throws(FontError) -> Font {
        if let cached = cache.withLock({ $0[family] }) { return cached }
        guard let match = match(family) else { throw .notFound(family: family) }
        let font = try Font(fileAt: match.path, index: match.index)
        if family != defaultFamily, !family.isEmpty, font.familyName.caseInsensitiveCompare(family) != .orderedSame,
           !["sans-serif", "serif", "monospace", "sans", "mono"].contains(family.lowercased()) {
            TextDiagnostics.handler("font family \"\(family)\" is not installed; using \"\(font.familyName)\" (\(match.path))")
        }
        cache.withLock { $0[family] = font }
        return font
    }

    /// fontconfig's best match for a family.
    private static func match(_ family: String) -> (path: String, index: Int)? {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        defer { FcConfigDestroy(config) }
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { FcPatternAddString(pattern, lk_fc_family, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let font = FcFontMatch(config, pattern, &result) else { return nil }
        defer { FcPatternDestroy(font) }
        var file: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(font, lk_fc_file, 0, &file) == FcResultMatch, let file else { return nil }
        var index: Int32 = 0
        _ = FcPatternGetInteger(font, lk_fc_index, 0, &index)
        return (String(cString: file), Int(index))
    }

    // MARK: Shaping and outlines

    /// One positioned glyph, in design units from the start of the run (y down).
    public struct Glyph: Hashable, Sendable {
        public let id: UInt32
        /// The UTF-8 byte offset of the character it came from.
        public let cluster: UInt32
        public let x: Int, y: Int
        public let advance: Int
    }

    /// Shapes a run of text: kerning, ligatures, right-to-left scripts and combining marks as
    /// HarfBuzz does them, with direction, script and language guessed from the text.
    public func shape(_ text: String) -> [Glyph] {
        lock.withLock { _ in
            guard let buffer = hb_buffer_create() else { return [] }
            defer { hb_buffer_destroy(buffer) }
            text.withCString { hb_buffer_add_utf8(buffer, $0, -1, 0, -1) }
            hb_buffer_guess_segment_properties(buffer)
            hb_shape(hbFont, buffer, nil, 0)
            var count: UInt32 = 0
            guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
                  let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
            var pen = 0
            var glyphs: [Glyph] = []
            glyphs.reserveCapacity(Int(count))
            for i in 0..<Int(count) {
                let p = positions[i]
                glyphs.append(Glyph(id: infos[i].codepoint, cluster: infos[i].cluster,
                                    x: pen + Int(p.x_offset), y: -Int(p.y_offset), advance: Int(p.x_advance)))
                pen += Int(p.x_advance)
            }
            return glyphs
        }
    }

    /// The outline of a glyph in design units, y down, origin on the baseline (cached).
    public func outline(ofGlyph id: UInt32) -> Path {
        lock.withLock { cache in
            if let path = cache[id] { return path }
            var path = Path()
            if FT_Load_Glyph(face, id, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
               face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
                path = GlyphOutline.path(of: &face.pointee.glyph.pointee.outline)
            }
            cache[id] = path
            return path
        }
    }

    private static func describe(_ error: FT_Error) -> String {
        if let text = FT_Error_String(error) { return String(cString: text) }
        return "FreeType error \(error)"
    }
}

/// Why a font could not be had.
public enum FontError: Error, Equatable, CustomStringConvertible {
    case cannotOpen(path: String, reason: String)
    case notFound(family: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason): "cannot use font file \(path): \(reason)"
        case let .notFound(family): "no font found for \"\(family)\" (is fontconfig configured, and a font such as fonts-dejavu-core installed?)"
        }
    }
}

/// Where font substitutions are reported (standard error by default).
public enum TextDiagnostics {
    public static var handler: @Sendable (String) -> Void {
        get { channel.current }
        set { channel.current = newValue }
    }

    private static let channel = DiagnosticHandler<String>()
}

/// Converts FreeType outlines to paths.
enum GlyphOutline {
    final class Builder {
        var path = Path()
        func point(_ v: UnsafePointer<FT_Vector>?) -> CGPoint {
            guard let v else { return .zero }
            return CGPoint(x: CGFloat(v.pointee.x), y: -CGFloat(v.pointee.y))   // y down
        }
    }

    static func path(of outline: inout FT_Outline) -> Path {
        let builder = Builder()
        var funcs = FT_Outline_Funcs()
        funcs.move_to = { to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            if !b.path.isEmpty { b.path.closeSubpath() }
            b.path.move(to: b.point(to))
            return 0
        }
        funcs.line_to = { to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            b.path.addLine(to: b.point(to))
            return 0
        }
        funcs.conic_to = { control, to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            b.path.addQuadCurve(to: b.point(to), control: b.point(control))
            return 0
        }
        funcs.cubic_to = { c1, c2, to, user in
            let b = Unmanaged<Builder>.fromOpaque(user!).takeUnretainedValue()
            b.path.addCurve(to: b.point(to), control1: b.point(c1), control2: b.point(c2))
            return 0
        }
        funcs.shift = 0
        funcs.delta = 0
        _ = FT_Outline_Decompose(&outline, &funcs, Unmanaged.passUnretained(builder).toOpaque())
        if !builder.path.isEmpty { builder.path.closeSubpath() }
        return builder.path
    }
}
