import CFontconfig
import Foundation

/// fontconfig's configuration, loaded once (the installed fonts and the rules for matching
/// family names), and the matching of a family name to a font file.
///
/// A thin owning wrapper: the FcConfig is destroyed with it. Loading the configuration reads
/// every font directory's cache, so it happens once per process, not once per lookup.
final class FontconfigLookup: @unchecked Sendable {
    // Safe to share: the FcConfig is only touched under `lock` (fontconfig's own locking has
    // varied between versions), and `config` itself never changes.
    private let config: OpaquePointer
    private let lock = NSLock()

    /// A face in a font file.
    struct Match: Hashable, Sendable {
        let path: String
        let index: Int
    }

    /// The process's configuration; nil when fontconfig cannot load one.
    static let shared: FontconfigLookup? = FontconfigLookup()

    private init?() {
        guard let config = FcInitLoadConfigAndFonts() else { return nil }
        self.config = config
    }

    deinit {
        FcConfigDestroy(config)
    }

    /// fontconfig's best match for a family (its closest font when the family is missing).
    func match(family: String) -> Match? {
        lock.withLock {
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
            return Match(path: String(cString: file), index: Int(index))
        }
    }
}
