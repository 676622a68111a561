import CKernels
import Foundation

extension TextLayout {
    /// Fills every glyph into `bitmap` through `transform` (points → pixels), offset by `origin`.
    ///
    /// Under a uniform scale and translation (how text layers and contexts draw), each line's
    /// glyphs of one color are combined into one coverage mask from the glyph cache, at
    /// positions rounded to 1/8 pixel, and composited in one call. Other transforms fill the
    /// glyphs' outlines, glyphs of one color in one fill. Safe to call from several threads at
    /// once for different bitmaps.
    func draw(into bitmap: Bitmap, at origin: CGPoint, transform: CGAffineTransform, cache: GlyphCache = .shared) {
        if Self.glyphCacheServes(transform) {
            cache.reading { reading in
                forEachRun(splittingColors: true) { run in drawRun(run, into: bitmap, at: origin, transform: transform, reading: reading) }
            }
            return
        }
        // Glyphs of one color go in one fill, so overlapping glyphs (marks) are not drawn twice.
        let byColor = Dictionary(grouping: glyphs.indices) { glyphs[$0].color }
        for (color, indices) in byColor { bitmap.fill(outlines(of: indices, at: origin), with: color, transform: transform) }
    }

    /// Whether glyphs drawn through `transform` come from the glyph cache: a uniform scale and
    /// a translation (how text layers and contexts draw).
    private static func glyphCacheServes(_ transform: CGAffineTransform) -> Bool {
        transform.b == 0 && transform.c == 0 && transform.a == transform.d && transform.a > 0 && transform.a.isFinite
    }

    /// Calls `body` with each line's stretches of glyphs of one font (the cache is asked per
    /// font) and, when `splittingColors`, of one color, line by line, left to right.
    private func forEachRun(splittingColors: Bool, _ body: (Range<Int>) -> Void) {
        for line in lines {
            var start = line.lowerBound
            while start < line.upperBound {
                var end = start + 1
                while end < line.upperBound, glyphs[end].fontReference.toOpaque() == glyphs[start].fontReference.toOpaque(),
                      !splittingColors || glyphs[end].color == glyphs[start].color {
                    end += 1
                }
                body(start..<end)
                start = end
            }
        }
    }

    /// One color and font's glyphs of a line: their cached coverage combined into one mask over
    /// their pixels, composited once. A pixel inked by one glyph gets exactly that glyph's
    /// coverage (so the result is what compositing glyph by glyph gave); where glyphs overlap,
    /// coverages combine as source-over would (a + b − ab), which for opaque text equals
    /// compositing them one after the other, to within rounding.
    private func drawRun(_ range: Range<Int>, into bitmap: Bitmap, at origin: CGPoint, transform: CGAffineTransform,
                         reading: GlyphCache.Reading) {
        let color = glyphs[range.lowerBound].color
        var run = PlacedRun()
        place(range, at: origin, transform: transform, reading: reading, into: &run)
        let area = run.inked(within: bitmap.bounds)
        if !area.isEmpty {
            ScanConverter.withConverter { converter in
                converter.withClearedMask(for: area) { mask, stride in
                    _ = run.coverage.withUnsafeBufferPointer { Self.add($0, into: mask, stride: stride, area: area, clearFrom: 0) }
                    bitmap.composite(mask: mask, stride: stride, area: area, color: color, clip: nil)
                }
            }
        }
        if !run.large.isEmpty { bitmap.fill(outlines(of: run.large, at: origin), with: color, transform: transform) }
    }

    /// A run's glyphs placed on whole device pixels with their cached coverage, and the glyphs
    /// too large for the cache, whose outlines are filled instead. Kept between the runs of a
    /// text, so that its arrays are allocated once.
    struct PlacedRun {
        /// Each cached glyph's request to the cache (with its whole-pixel origin), as many as
        /// `coverage` holds; the array keeps its longest length (the requests past those are
        /// stale), so that placing writes through a buffer.
        var requests: [GlyphCache.Request] = []
        /// Each request's coverage, placed in device pixels (valid during the reading it was
        /// looked up in, once placed).
        var coverage: [GlyphCache.Coverage] = []
        /// Indices of glyphs whose outlines are filled instead.
        var large: [Int] = []

        /// Emptied, keeping the arrays' storage. (`requests` and `coverage` keep their
        /// elements too: placing and the lookup only write them, and the lookup sets
        /// `coverage`'s length.)
        mutating func removeAll() {
            large.removeAll(keepingCapacity: true)
        }

        /// The union of the glyphs' coverage boxes within `area` (device pixels).
        func inked(within area: PixelRect) -> PixelRect {
            var inked = PixelRect(x: 0, y: 0, width: 0, height: 0)
            for placed in coverage where placed.blit.coverage != nil {
                let b = placed.blit
                inked = inked.union(PixelRect(x: Int(b.x), y: Int(b.y), width: Int(b.width), height: Int(b.height)).intersection(area))
            }
            return inked
        }
    }

    /// `range`'s glyphs (all of one font) placed on whole device pixels and their coverage
    /// found in the cache in `reading`, into `run` (emptied first). Glyphs placed beyond any
    /// bitmap are left out.
    private func place(_ range: Range<Int>, at origin: CGPoint, transform: CGAffineTransform,
                       reading: GlyphCache.Reading, into run: inout PlacedRun) {
        run.removeAll()
        // Read without retaining it (`PlacedGlyph.fontReference`): the layout holds it.
        let font = glyphs[range.lowerBound].fontReference
        let phases = CGFloat(GlyphCache.phases)
        let largest = font._withUnsafeGuaranteedRef { $0.face.largestGlyphExtent }
        let extent = largest > 0 ? CGFloat(largest) : .infinity
        // The requests are written through a buffer at least as long as the range (the array
        // keeps its longest length from run to run): appended one by one, each checked the
        // array's uniqueness and capacity, a good part of placing a glyph.
        if run.requests.count < range.count {
            run.requests.reserveCapacity(range.count)
            while run.requests.count < range.count { run.requests.append(GlyphCache.Request(glyph: 0, scale: 0, phaseX: 0, phaseY: 0)) }
        }
        var placed = 0
        var large: [Int] = []
        // The coverage array is moved out for the lookup, which the requests' buffer is still
        // open for (borrowing the requests again retained and released them for every run).
        var coverage: [GlyphCache.Coverage] = []
        swap(&coverage, &run.coverage)
        defer { swap(&coverage, &run.coverage) }
        // Fields read in place: copying a placed glyph out would retain and release its font.
        run.requests.withUnsafeMutableBufferPointer { requests in
            glyphs.withUnsafeBufferPointer { glyphs in
                for i in range {
                    let x = (origin.x + glyphs[i].origin.x) * transform.a + transform.tx
                    let y = (origin.y + glyphs[i].origin.y) * transform.d + transform.ty
                    // (False for NaN and infinities too.)
                    guard abs(x) < 1e7, abs(y) < 1e7 else { continue }
                    let scale = glyphs[i].scale * transform.a, id = glyphs[i].id
                    // A glyph too large for the cache is filled from its outline instead.
                    // Only text whose font's largest glyph would not fit has each glyph's box checked.
                    if scale * extent > CGFloat(GlyphCache.largestSide - 2) {
                        let box = font._withUnsafeGuaranteedRef { $0.outline(ofGlyph: id).boundingBox }
                        if !box.isNull, max(box.width, box.height) * scale > CGFloat(GlyphCache.largestSide - 2) {
                            large.append(i)
                            continue
                        }
                    }
                    // Whole pixels and eighths: 7.99 rounds to 8 + 0/8, not 7 + 8/8.
                    let sx = Self.roundedHalfAway(x * phases), sy = Self.roundedHalfAway(y * phases)
                    // |x|, |y| < 10⁷: the whole pixels fit 32 bits without a check.
                    requests[placed] = GlyphCache.Request(glyph: id, scale: scale, phaseX: sx & 7, phaseY: sy & 7,
                                                          x: Int32(truncatingIfNeeded: sx >> 3), y: Int32(truncatingIfNeeded: sy >> 3))
                    placed += 1
                }
            }
            font._withUnsafeGuaranteedRef { reading.look(font: $0, for: UnsafeBufferPointer(rebasing: requests[..<placed]), into: &coverage) }
        }
        if !large.isEmpty { run.large += large }
    }

    /// `v` rounded to the nearest whole number, halves away from zero (`rounded()`), for
    /// |v| < 2⁵² (the caller checks): truncation and an exact remainder, without a call into
    /// the C library, and inlined from C without the range checks of Swift's conversion.
    @inline(__always)
    private static func roundedHalfAway(_ v: CGFloat) -> Int { Int(lk_rounded_half_away(Double(v))) }

    /// The outlines of `indices`' glyphs, placed in points (offset by `origin`), as one path.
    private func outlines<Indices: Sequence<Int>>(of indices: Indices, at origin: CGPoint) -> Path {
        var path = Path()
        for i in indices {
            let glyph = glyphs[i]
            let outline = glyph.font.outline(ofGlyph: glyph.id)
            guard !outline.isEmpty else { continue }
            path.addPath(outline, transform: CGAffineTransform(a: glyph.scale, b: 0, c: 0, d: glyph.scale,
                                                               tx: origin.x + glyph.origin.x, ty: origin.y + glyph.origin.y))
        }
        return path
    }

    /// Adds the glyphs' coverage into `mask` through `transform` (points → mask pixels), offset
    /// by `origin`, as source-over combines coverage: what `draw(into:at:transform:cache:)`
    /// composites in a color, without the color. Text of one color is stored so (a quarter of a
    /// bitmap's bytes) and composited through it in its color.
    ///
    /// Under a uniform scale and translation glyphs come from the glyph cache, placed as `draw`
    /// places them, so that the pixels are what `draw` into a clear bitmap gives, times the
    /// color; under other transforms the outlines are filled. Safe to call from several threads
    /// at once for different masks.
    func drawCoverage(into mask: AlphaMask, at origin: CGPoint, transform: CGAffineTransform, cache: GlyphCache = .shared) {
        guard Self.glyphCacheServes(transform) else {
            mask.fill(outlines(of: glyphs.indices, at: origin), transform: transform)
            return
        }
        let area = mask.bounds
        let inkBefore = mask.inkBounds
        var inked = PixelRect(x: 0, y: 0, width: 0, height: 0)
        // The columns from here on are clear in every row (a store cleared for its line, or
        // new: every column), so that glyphs right of every glyph before them are stored as
        // they are; unknown ink, none. Moved past each run's glyphs.
        var clearFrom = inkBefore.map { $0.isEmpty ? 0 : $0.maxX } ?? area.width
        var outlined: [Int] = []
        // The thread's run, its arrays kept from the line before.
        let scratch = TextScratch.current
        var run = PlacedRun()
        swap(&run, &scratch.run)
        defer { if run.requests.capacity <= TextScratch.keptElements { swap(&run, &scratch.run) } }
        mask.withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            cache.reading { reading in
                forEachRun(splittingColors: false) { range in
                    place(range, at: origin, transform: transform, reading: reading, into: &run)
                    // The coverage is handed over as a buffer: the run itself, passed on, was
                    // copied (its three arrays retained and released) for every line.
                    let added = run.coverage.withUnsafeBufferPointer {
                        Self.add($0, into: base, stride: mask.bytesPerRow, area: area, clearFrom: clearFrom)
                    }
                    if !added.isEmpty { clearFrom = max(clearFrom, added.maxX) }
                    inked = inked.union(added)
                    if !run.large.isEmpty { outlined += run.large }
                }
            }
        }
        mask.inkBounds = inkBefore?.union(inked)
        // Glyphs too large for the cache are filled from their outlines.
        if !outlined.isEmpty { mask.fill(outlines(of: outlined, at: origin), transform: transform) }
    }

    /// Adds a run's cached coverage (`PlacedRun.coverage`), each glyph placed with its
    /// whole-pixel origin, into the A8 `mask` (`stride` bytes a row) laid over `area` of device
    /// pixels, as source-over combines coverage (`CoverageOverSink.over`: g where the mask is
    /// still empty), in one call of the kernel. The mask's columns from `clearFrom` (mask
    /// pixels) on are clear in every row (`area.width` or more when that is not known). Returns
    /// the pixels of the mask they may have changed (the union of their visible boxes).
    @discardableResult
    private static func add(_ coverage: UnsafeBufferPointer<GlyphCache.Coverage>, into mask: UnsafeMutablePointer<UInt8>,
                            stride: Int, area: PixelRect, clearFrom: Int) -> PixelRect {
        guard !coverage.isEmpty, !area.isEmpty else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        var inked = lk_box()
        // The blits point at the cache's entries, kept for the reading the run was placed in.
        let status = coverage.withMemoryRebound(to: lk_glyph_blit.self) { blits in
            lk_a8_add_glyphs(mask, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height), Int32(stride),
                             Int32(clamping: clearFrom), blits.baseAddress, Int32(blits.count), &inked, LK_VARIANT_AUTO)
        }
        assert(status == LK_OK, "glyph blits out of range")
        guard inked.x1 < inked.x2 else { return PixelRect(x: 0, y: 0, width: 0, height: 0) }
        return PixelRect(x: area.x + Int(inked.x1), y: area.y + Int(inked.y1), width: Int(inked.x2 - inked.x1),
                         height: Int(inked.y2 - inked.y1))
    }
}
