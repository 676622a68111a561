import CFreeType
import Foundation

/// One face of a font file opened with FreeType: its metrics and its glyphs' outlines.
///
/// A thin owning wrapper (the face and its library are freed with it). FreeType faces and
/// libraries are not thread-safe, so every FreeType call is made under `lock`, held only for
/// that call; each face has its own library, so faces never wait for each other.
final class FreeTypeFace: @unchecked Sendable {
    // Safe to share: `library` and `face` are only used under `lock`; the other stored
    // properties are immutable values read once at creation.
    private let library: FT_Library
    private let face: FT_Face
    private let lock = NSLock()

    /// The family the file declares (nil when it declares none).
    let familyName: String?
    /// Design units per em of the outlines.
    let unitsPerEm: Int
    /// Ascender and descender above and below the baseline, and line gap, in design units.
    let ascender: Int, descender: Int, lineGap: Int
    /// The largest width or height of the box holding every glyph, in design units.
    let largestGlyphExtent: Int

    /// Opens face `index` of the file at `path`.
    ///
    /// - Throws: `FontError` naming the file: missing, a directory, unreadable, not a font
    ///   FreeType knows (with FreeType's reason in words), or without outlines.
    init(path: String, index: Int) throws(FontError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .noSuchFile(path: path) }
        guard !isDirectory.boolValue else { throw .isADirectory(path: path) }
        guard FileManager.default.isReadableFile(atPath: path) else { throw .unreadable(path: path) }
        var library: FT_Library?
        let started = FT_Init_FreeType(&library)
        guard started == 0, let library else {
            throw .cannotOpen(path: path, reason: "FreeType could not start (\(FontError.words(forFreeTypeError: started)))")
        }
        var face: FT_Face?
        let error = FT_New_Face(library, path, index, &face)
        guard error == 0, let face else {
            FT_Done_FreeType(library)
            throw .notAFont(path: path, reason: FontError.words(forFreeTypeError: error))
        }
        guard face.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0, face.pointee.units_per_EM > 0 else {
            FT_Done_Face(face)
            FT_Done_FreeType(library)
            throw .notScalable(path: path)
        }
        self.library = library
        self.face = face
        familyName = face.pointee.family_name.map { String(cString: $0) }
        unitsPerEm = Int(face.pointee.units_per_EM)
        ascender = Int(face.pointee.ascender)
        descender = Int(-face.pointee.descender)
        lineGap = max(0, Int(face.pointee.height) - ascender - descender)
        let box = face.pointee.bbox
        largestGlyphExtent = max(Int(box.xMax - box.xMin), Int(box.yMax - box.yMin))
    }

    deinit {
        FT_Done_Face(face)
        FT_Done_FreeType(library)
    }

    /// The outline of a glyph in design units, y down, origin on the baseline (empty for
    /// glyphs without one, such as spaces, and for glyph ids the face does not have).
    func outline(ofGlyph id: UInt32) -> Path {
        lock.withLock {
            guard FT_Load_Glyph(face, id, Int32(FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP)) == 0,
                  face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return Path() }
            return GlyphOutline.path(of: &face.pointee.glyph.pointee.outline)
        }
    }
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
