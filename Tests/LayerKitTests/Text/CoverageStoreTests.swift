import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Text of one color is stored as 8-bit coverage and painted through it in its color; text of
/// several colors, or over a background, keeps a color store. Both must look the same.
@Suite struct CoverageStoreTests {
    static let color = Color(red: 0.9, green: 0.35, blue: 0.2, alpha: 0.8)

    /// The largest difference of any channel between two bitmaps of one size.
    static func worstDifference(_ a: Bitmap, _ b: Bitmap) -> Int {
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.premultipliedPixel(x: x, y: y), q = b.premultipliedPixel(x: x, y: y)
                for shift in stride(from: UInt32(0), through: 24, by: 8) {
                    worst = max(worst, abs(Int(p >> shift & 0xFF) - Int(q >> shift & 0xFF)))
                }
            }
        }
        return worst
    }

    /// The text drawn in its color into a clear bitmap, and its coverage drawn into a mask then
    /// composited in the same color. Returns both and how many pixels have ink.
    static func drawBothWays(_ layout: TextLayout, transform: CGAffineTransform, width: Int, height: Int) throws
        -> (drawn: Bitmap, throughCoverage: Bitmap, inked: Int) {
        let cache = GlyphCache(capacity: 4 << 20)
        let drawn = try Bitmap(width: width, height: height)
        layout.draw(into: drawn, at: CGPoint(x: 2, y: 3), transform: transform, cache: cache)
        let mask = try AlphaMask(width: width, height: height)
        layout.drawCoverage(into: mask, at: CGPoint(x: 2, y: 3), transform: transform, cache: cache)
        let throughCoverage = try Bitmap(width: width, height: height)
        try throughCoverage.composite(mask, color: color)
        var inked = 0
        for y in 0..<height { for x in 0..<width where mask[x, y] > 0 { inked += 1 } }
        return (drawn, throughCoverage, inked)
    }

    static func layout(_ text: String, fontSize: CGFloat, width: CGFloat? = nil) throws -> TextLayout {
        let font = try Font(fileAt: TextTests.dejaVu)
        return TextLayout(runs: [TextRun(text)], font: font.familyName, fontSize: fontSize, color: color, width: width,
                          wrapped: width != nil, truncation: .none, alignment: .left, explicitFont: font)
    }

    /// From the glyph cache (a uniform scale), coverage times the color is exactly what drawing
    /// in the color gives: the same glyph masks, combined the same way, composited by pixman.
    @Test(arguments: [0.0, 0.3, 0.875])
    func cachedGlyphsThroughCoverageAreTheColorDrawingBitForBit(_ offset: Double) throws {
        let layout = try Self.layout("Hamburgefonstiv AVATAR Tj ffi 0123 ÅÉ e\u{301}\u{308} wrapped onto lines", fontSize: 19,
                                     width: 260)
        #expect(layout.lines.count > 1)
        let transform = CGAffineTransform(a: 1.5, b: 0, c: 0, d: 1.5, tx: offset, ty: offset / 2)
        let (drawn, throughCoverage, inked) = try Self.drawBothWays(layout, transform: transform, width: 420, height: 160)
        #expect(inked > 2000)
        #expect(Self.worstDifference(drawn, throughCoverage) == 0)
    }

    /// Under transforms the cache does not serve (a stretch, a turn) and for glyphs too large
    /// for it, the outlines are filled: coverage times the color is within a level of the color
    /// fill (which blends the color at each pixel, and rounds once differently).
    @Test(arguments: [CGAffineTransform(a: 1.4, b: 0, c: 0, d: 0.8, tx: 1, ty: 2),
                      CGAffineTransform(a: 0.9, b: 0.3, c: -0.3, d: 0.9, tx: 40, ty: 1.5),
                      CGAffineTransform(a: 1.25, b: 0, c: 0, d: 1.25, tx: 0.4, ty: 0)])
    func outlinesThroughCoverageAreTheColorFill(_ transform: CGAffineTransform) throws {
        let large = transform.a == 1.25
        let layout = try Self.layout(large ? "Ag" : "Wave ffi Tj", fontSize: large ? 420 : 30)
        let (drawn, throughCoverage, inked) = try Self.drawBothWays(layout, transform: transform, width: 720, height: large ? 640 : 120)
        #expect(inked > (large ? 40_000 : 1000))
        #expect(Self.worstDifference(drawn, throughCoverage) <= 1)
    }

    /// Coverage already in a mask is combined with, not overwritten: a second drawing of the
    /// same text over the first gives m + m − m² per pixel (source-over of coverage).
    @Test func coverageIsAddedAsSourceOver() throws {
        let layout = try Self.layout("Overlap", fontSize: 30)
        for transform in [CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0),
                          CGAffineTransform(a: 1, b: 0, c: 0, d: 1.2, tx: 0.5, ty: 0)] {
            let once = try AlphaMask(width: 160, height: 60), twice = try AlphaMask(width: 160, height: 60)
            layout.drawCoverage(into: once, at: .zero, transform: transform)
            layout.drawCoverage(into: twice, at: .zero, transform: transform)
            layout.drawCoverage(into: twice, at: .zero, transform: transform)
            var partial = 0
            for y in 0..<60 {
                for x in 0..<160 {
                    let m = Int(once[x, y])
                    if m > 0, m < 255 { partial += 1 }
                    #expect(Int(twice[x, y]) == Int(CoverageOverSink.over(once[x, y], once[x, y])))
                    #expect(twice[x, y] >= once[x, y])
                }
            }
            #expect(partial > 50)
        }
    }

    /// A scene of text in every arrangement that reaches the coverage stores: opacity, a
    /// shadow cast by the text, a replicator tinting its instances, a fractional position,
    /// a turn, a group. `nudge` gives one run of each label a color that differs from the
    /// others by less than an 8-bit level: the same pixels, but no longer "one color", so the
    /// label keeps a color store.
    static func scene(nudge: Bool) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 420, height: 300)
        root.backgroundColor = Color(red: 0.12, green: 0.14, blue: 0.2)
        func label(_ text: String, at origin: CGPoint) -> TextLayer {
            let label = TextLayer()
            label.font = "DejaVu Sans"
            label.fontSize = 22
            label.frame = CGRect(x: origin.x, y: origin.y, width: 230, height: 30)
            let other = nudge ? Color(red: color.red + 1e-9, green: color.green, blue: color.blue, alpha: color.alpha) : color
            let half = text.index(text.startIndex, offsetBy: text.count / 2)
            label.runs = [TextRun(String(text[..<half]), color: color), TextRun(String(text[half...]), color: other)]
            return label
        }
        root.addSublayer(label("Plain 0123.45", at: CGPoint(x: 10.25, y: 8.5)))
        let faded = label("Faded +1.25%", at: CGPoint(x: 10, y: 44))
        faded.opacity = 0.6
        root.addSublayer(faded)
        let shadowed = label("Shadowed text", at: CGPoint(x: 10, y: 80))
        shadowed.shadowOpacity = 0.8
        shadowed.shadowRadius = 3
        shadowed.shadowOffset = CGSize(width: 3, height: 4)
        root.addSublayer(shadowed)
        let turned = label("Turned", at: CGPoint(x: 250, y: 60))
        turned.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1)
        root.addSublayer(turned)
        let replicator = Self.replicator(CGRect(x: 10, y: 120, width: 400, height: 120), step: Transform3D(translationX: 20, y: 32, z: 0),
                                         color: Color(red: 1, green: 0.9, blue: 0.7, alpha: 1), of: label("Replicated 42", at: .zero))
        replicator.instanceRedOffset = -0.2
        replicator.instanceAlphaOffset = -0.25
        root.addSublayer(replicator)
        root.addSublayer(Self.clippingGroup(CGRect(x: 250, y: 240, width: 160, height: 50), cornerRadius: 12,
                                            around: label("Clipped words", at: CGPoint(x: 4, y: 10))))
        return root
    }

    /// Three instances of `child`, each `step` from the last and tinted by `color` (and by the
    /// offsets the caller sets): the coverage scenes' replicator.
    static func replicator(_ frame: CGRect, step: Transform3D, color: Color, of child: Layer) -> ReplicatorLayer {
        let replicator = ReplicatorLayer()
        replicator.frame = frame
        replicator.instanceCount = 3
        replicator.instanceTransform = step
        replicator.instanceColor = color
        replicator.addSublayer(child)
        return replicator
    }

    /// A layer at `frame` with rounded corners that clips `child`: drawn offscreen as a group,
    /// so the child's store is painted inside the group's bitmap.
    static func clippingGroup(_ frame: CGRect, cornerRadius: CGFloat, around child: Layer) -> Layer {
        let group = Layer()
        group.frame = frame
        group.cornerRadius = cornerRadius
        group.masksToBounds = true
        group.addSublayer(child)
        return group
    }

    /// Every label of the scene is painted through coverage (and its nudged twin is not), and
    /// the frames agree within 2 levels: storing text as coverage changes its cost, not its look.
    /// (Faded and tinted text round twice either way, in a different order: color × coverage,
    /// then × opacity or tint, against color × opacity or tint, then × coverage.)
    @Test(arguments: [1, 4])
    func textThroughCoverageLooksAsTextInAColorStore(threads: Int) throws {
        // Seven labels (three instances of the replicated one) and one shadow; the clipped
        // label is inside its group's bitmap.
        try Self.expectSameLook(Self.scene(nudge: false), asTwin: Self.scene(nudge: true), width: 420, height: 300,
                                coverageItems: 8, threads: threads)
    }

    /// A scene painted through coverage stores and its twin kept in color stores (whose only
    /// coverage is one shadow): `coverageItems` composites of the scene are coverage, and the
    /// frames agree within 2 levels at scale 1 and 2.
    static func expectSameLook(_ coverage: Layer, asTwin colorStores: Layer, width: Int, height: Int, coverageItems expected: Int,
                               threads: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        func coverageItems(_ root: Layer) -> Int {
            Renderer(threadCount: 1).composites(for: root, width: width, height: height).filter { $0.color != nil }.count
        }
        #expect(coverageItems(coverage) == expected, sourceLocation: sourceLocation)
        #expect(coverageItems(colorStores) == 1, sourceLocation: sourceLocation)
        for scale in [1.0, 2.0] {
            let a = try Renderer(scale: scale, threadCount: threads).render(coverage, at: 0)
            let b = try Renderer(scale: scale, threadCount: threads).render(colorStores, at: 0)
            #expect(worstDifference(a, b) <= 2, "at scale \(scale)", sourceLocation: sourceLocation)
        }
    }

    /// A mask knows where its ink is: nothing when new, the glyphs' boxes after text is drawn
    /// (every covered pixel inside, and far less than the store), nothing once cleared, and
    /// anything after an unknown write.
    @Test func masksKnowWhereTheirInkIs() throws {
        let mask = try AlphaMask(width: 600, height: 40)
        #expect(mask.inkBounds?.isEmpty == true)
        let layout = try Self.layout("ALPHA-07   123.45", fontSize: 22)
        layout.drawCoverage(into: mask, at: CGPoint(x: 3, y: 2), transform: CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0.25, ty: 0))
        let ink = try #require(mask.inkBounds)
        var covered = 0
        for y in 0..<40 {
            for x in 0..<600 where mask[x, y] > 0 {
                covered += 1
                #expect(ink.contains(x: x, y: y), "coverage at (\(x), \(y)) outside the ink \(ink)")
            }
        }
        #expect(covered > 500)
        #expect(ink.area * 2 < mask.width * mask.height, "ink \(ink) is most of the mask")
        // Drawing again adds to what is there: the ink grows, never shrinks.
        layout.drawCoverage(into: mask, at: CGPoint(x: 300, y: 2), transform: .identity)
        let grown = try #require(mask.inkBounds)
        #expect(grown.intersection(ink) == ink && grown.maxX > ink.maxX)
        mask.clearPixels()
        #expect(mask.inkBounds?.isEmpty == true)
        var left = 0
        for y in 0..<40 { for x in 0..<600 where mask[x, y] > 0 { left += 1 } }
        #expect(left == 0)
        mask.withUnsafeMutableBytes { $0[5] = 9 }
        #expect(mask.inkBounds == nil)
        mask.clearPixels()
        #expect(mask[5, 0] == 0)
    }

    /// The bytes of a mask, read through its subscript (which keeps what it knows of its ink).
    static func bytes(of mask: AlphaMask) -> [UInt8] {
        var bytes: [UInt8] = []
        for y in 0..<mask.height { for x in 0..<mask.width { bytes.append(mask[x, y]) } }
        return bytes
    }

    /// A line's store cleared and redrawn with another string (shorter, longer, different,
    /// glyphs that overlap or kern, marks, at fractional offsets) holds exactly what a new
    /// store drawn once holds: glyphs are stored onto the columns known clear, added where an
    /// earlier glyph reached. And text drawn right of coverage already in a mask combines with
    /// it as it would with the mask's ink unknown.
    @Test func aRedrawnStoreEqualsANewOneBitForBit() throws {
        let lines = ["ALPHA-07    123.45  +1.23%", "ALPHA-07   9123.45  -0.02%", "ZULU-9", "AVATAR Tj ffi WAVE LT",
                     "e\u{301}\u{308} ÅÉ 0123 %%", "", "BRAVO-11  88231.07  +4.50%  and a longer tail"]
        let reused = try AlphaMask(width: 600, height: 40)
        for (i, line) in (lines + lines.reversed()).enumerated() {
            let layout = try Self.layout(line, fontSize: 22)
            let at = CGPoint(x: 3 + Double(i % 3), y: 2)
            let transform = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: Double(i % 8) / 8, ty: Double(i % 5) / 5)
            reused.clearPixels()
            layout.drawCoverage(into: reused, at: at, transform: transform)
            let new = try AlphaMask(width: 600, height: 40)
            layout.drawCoverage(into: new, at: at, transform: transform)
            #expect(Self.bytes(of: reused) == Self.bytes(of: new), "line \(i): \(line)")
        }
        // Text right of other coverage: the same bytes as with the mask's ink unknown.
        let left = try Self.layout("AVA 12", fontSize: 22), right = try Self.layout("T0 WAVE 3.5%", fontSize: 22)
        let known = try AlphaMask(width: 600, height: 40), unknown = try AlphaMask(width: 600, height: 40)
        for mask in [known, unknown] { left.drawCoverage(into: mask, at: CGPoint(x: 2, y: 3), transform: .identity) }
        #expect(known.inkBounds.map { !$0.isEmpty && $0.maxX < 200 } == true)
        unknown.inkBounds = nil
        for mask in [known, unknown] { right.drawCoverage(into: mask, at: CGPoint(x: 200, y: 1), transform: .identity) }
        #expect(Self.bytes(of: known) == Self.bytes(of: unknown))
        #expect(Self.bytes(of: known).filter { $0 > 0 }.count > 800)
    }

    /// Painting a coverage item only where its mask has ink changes no pixel: under whole and
    /// fractional offsets, a scale and a turn, over a busy target, the frame is the one painted
    /// with the ink unknown.
    @Test func paintingOnlyTheInkChangesNothing() throws {
        var g = SeededGenerator(seed: 5)
        let mask = try AlphaMask(width: 300, height: 40)
        try Self.layout("Ink 0123 AVA", fontSize: 24).drawCoverage(into: mask, at: CGPoint(x: 20, y: 4), transform: .identity)
        let ink = try #require(mask.inkBounds)
        let target = try KernelFixtures.bitmap(width: 360, height: 200, &g)
        for map in [CGAffineTransform(translationX: 17, y: 30), CGAffineTransform(translationX: 17.4, y: 30.7),
                    CGAffineTransform(a: 1.3, b: 0, c: 0, d: 0.9, tx: 3.5, ty: 60),
                    CGAffineTransform(rotationAngle: 0.3).concatenating(CGAffineTransform(translationX: 40, y: 20))] {
            let transform = Homography(map)
            let item = try #require(PaintItem(key: PaintItem.Key(layer: LayerID(rawValue: 1), part: .content), source: .coverage(mask, Self.color),
                                              sourceIdentity: 1, transform: transform, opacity: 0.9, filter: .bilinear, clip: nil,
                                              targetArea: target.bounds))
            let knowing = try target.copy(), unknowing = try target.copy()
            mask.inkBounds = ink
            #expect(Painter.inkedPixels(of: mask, through: transform).map { $0.area < 300 * 40 } == true)
            Painter.paintBand([item], into: knowing, rows: 0..<200, damage: Region(target.bounds), base: .bitmap(target))
            mask.inkBounds = nil
            Painter.paintBand([item], into: unknowing, rows: 0..<200, damage: Region(target.bounds), base: .bitmap(target))
            #expect(knowing.hasSamePixels(as: unknowing), "through \(map)")
            #expect(!knowing.hasSamePixels(as: target))
        }
        mask.inkBounds = ink
    }

    /// `composites(for:…)` hands coverage out as bitmaps: asked again for an unchanged frame it
    /// gives the same copies; once the text changes, a copy of the new coverage.
    @Test func compositesKeepTheirCopiesOfUnchangedCoverage() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 60)
        let label = TextLayer()
        label.frame = CGRect(x: 10, y: 10, width: 180, height: 40)
        label.fontSize = 24
        label.string = "12:30"
        root.addSublayer(label)
        let renderer = Renderer(threadCount: 1)
        func text() -> Renderer.Composite? { renderer.composites(for: root, width: 200, height: 60).first { $0.color != nil } }
        let first = try #require(text()), again = try #require(text())
        #expect(first.source === again.source)
        Transaction.perform(disableActions: true) { label.string = "12:31" }
        let changed = try #require(text())
        #expect(changed.source !== first.source)
        #expect(!changed.source.hasSamePixels(as: first.source))
        let fresh = try #require(Renderer(threadCount: 1).composites(for: root, width: 200, height: 60).first { $0.color != nil })
        #expect(changed.source.hasSamePixels(as: fresh.source))
    }
}
