import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// A store holding one opaque value throughout (a layer showing only an opaque background color)
/// is known as such once drawn (`Bitmap.knownUniformPixel`), and painted as a fill of that value
/// (`Painter.opaqueFill`): the first item of a band that covers its damage becomes the band's
/// base. Frames are the same bit for bit as frames that composite the store.
@Suite struct OneColorStoreTests {
    private func item(_ source: PaintItem.Source, _ transform: Homography, opacity: Double = 1, clip: PixelRect? = nil,
                      in target: PixelRect) -> PaintItem? {
        PaintItem(key: PaintItem.Key(layer: LayerID.next(), part: .content), source: source, sourceIdentity: 1,
                  transform: transform, opacity: opacity, filter: .bilinear, clip: clip, targetArea: target)
    }

    /// A bitmap of one value, known as such, as a store's drawing leaves it.
    private func plain(width: Int, height: Int, _ pixel: UInt32) throws -> Bitmap {
        let bitmap = try Bitmap(width: width, height: height)
        bitmap.fill(bitmap.bounds, premultiplied: pixel, operator: .source)
        bitmap.knownUniformPixel = bitmap.uniformPixel()
        #expect(bitmap.knownUniformPixel == pixel)
        return bitmap
    }

    /// Frames of plain stores (covering the frame, partly off it, clipped, at fractional offsets,
    /// turned, translucent, at part opacity), images, and lines of text on the base above them,
    /// over solid and picture bases, through damage of several rectangles, in bands: the same
    /// pixels as the frames painted with the stores' values unknown (every store composited).
    @Test func framesFillingPlainStoresAreTheFramesCompositingThem() throws {
        var g = SeededGenerator(seed: 4711)
        let (width, height) = (150, 110)
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        var folded = 0, filled = 0, composited = 0
        for trial in 0..<150 {
            var items: [PaintItem] = [], plains: [Bitmap] = []
            func addPlain(_ rect: PixelRect, at transform: Homography? = nil, pixel: UInt32? = nil, opacity: Double = 1,
                          clip: PixelRect? = nil) throws {
                let value = pixel ?? (KernelFixtures.pixel(&g) | 0xFF00_0000)
                let bitmap = try plain(width: rect.width, height: rect.height, value)
                plains.append(bitmap)
                let placed = transform ?? Homography(translationX: CGFloat(rect.minX), y: CGFloat(rect.minY))
                if let made = item(.bitmap(bitmap), placed, opacity: opacity, clip: clip, in: bounds) { items.append(made) }
            }
            // The bottom: a root's background over the whole frame, or one reaching past it, or none.
            switch trial % 4 {
            case 0: try addPlain(bounds)
            case 1: try addPlain(PixelRect(x: -3, y: -2, width: width + 9, height: height + 4))
            case 2: try addPlain(PixelRect(x: 0, y: Int.random(in: 1...40, using: &g), width: width, height: 60))
            default: break
            }
            for _ in 0..<Int.random(in: 1...14, using: &g) {
                let w = Int.random(in: 1...70, using: &g), h = Int.random(in: 1...50, using: &g)
                let rect = PixelRect(x: Int.random(in: -20...140, using: &g), y: Int.random(in: -20...100, using: &g),
                                     width: w, height: h)
                switch Int.random(in: 0..<9, using: &g) {
                case 0: try addPlain(rect, at: Homography(translationX: CGFloat(rect.minX) + 0.5, y: CGFloat(rect.minY) + 0.25))
                case 1: try addPlain(rect, at: Homography(CGAffineTransform(rotationAngle: 0.4)
                                                            .translatedBy(x: CGFloat(rect.minX), y: CGFloat(rect.minY))))
                case 2: try addPlain(rect, pixel: 0x8040_2010)                                     // translucent
                case 3: try addPlain(rect, opacity: [0.5, 0.999][Int.random(in: 0...1, using: &g)])
                case 4: try addPlain(rect, clip: PixelRect(x: 30, y: 20, width: 80, height: 60))
                case 5:
                    let picture = try KernelFixtures.bitmap(width: w, height: h, &g)
                    if let made = item(.bitmap(picture), Homography(translationX: CGFloat(rect.minX), y: CGFloat(rect.minY)),
                                       in: bounds) { items.append(made) }
                case 6, 7:
                    let line = try KernelFixtures.mask(width: w, height: min(h, 20), &g)
                    if let made = item(.coverage(line, Color(red: 0.9, green: 0.92, blue: 0.85)),
                                       Homography(translationX: CGFloat(rect.minX), y: CGFloat(rect.minY)), in: bounds) {
                        items.append(made)
                    }
                default: try addPlain(rect)
                }
            }
            for index in items.indices {
                if let (_, rect) = Painter.opaqueFill(items[index]) {
                    filled += 1
                    if rect.contains(bounds) { folded += 1 }
                } else {
                    composited += 1
                }
            }
            let base: Painter.Base = trial % 3 == 2 ? .bitmap(try KernelFixtures.bitmap(width: width, height: height, &g))
                : .solid([0, 0xFF20_3040, 0x8010_2030][trial % 3])
            let damage = trial % 2 == 0 ? Region(bounds) : KernelFixtures.damage(width: width, height: height, count: 1...5, &g)
            let before = try KernelFixtures.bitmap(width: width, height: height, &g)
            let fast = try before.copy(), slow = try before.copy()
            let cuts = KernelFixtures.bandEdges(height: height, cuts: 0...3, &g)
            for (top, bottom) in zip(cuts, cuts.dropFirst()) {
                Painter.paintBand(items, into: fast, rows: top..<bottom, damage: damage, base: base)
            }
            for bitmap in plains { bitmap.knownUniformPixel = nil }
            #expect(items.allSatisfy { Painter.opaqueFill($0) == nil })
            for (top, bottom) in zip(cuts, cuts.dropFirst()) {
                Painter.paintBand(items, into: slow, rows: top..<bottom, damage: damage, base: base)
            }
            #expect(fast.hasSamePixels(as: slow), "trial \(trial): \(items.count) items, cuts \(cuts), damage \(damage)")
        }
        #expect(folded > 50 && filled > 200 && composited > 300, "folded \(folded), filled \(filled), composited \(composited)")
    }

    /// Only a whole-pixel placement at full opacity of an opaque value is a fill, on the pixels
    /// the store lands on within the item's extent (its clip).
    @Test func onlyOpaqueValuesAtWholePixelsAndFullOpacityAreFills() throws {
        let target = PixelRect(x: 0, y: 0, width: 100, height: 80)
        let store = try plain(width: 30, height: 20, 0xFF11_2233)
        let at = Homography(translationX: 10, y: 5)
        let fill = try #require(item(.bitmap(store), at, clip: PixelRect(x: 0, y: 0, width: 25, height: 80), in: target))
        #expect(Painter.opaqueFill(fill)?.pixel == 0xFF11_2233)
        #expect(Painter.opaqueFill(fill)?.rect == PixelRect(x: 10, y: 5, width: 15, height: 20))
        #expect(Painter.opaqueFill(try #require(item(.bitmap(store), Homography(translationX: 10.5, y: 5), in: target))) == nil)
        #expect(Painter.opaqueFill(try #require(item(.bitmap(store), at, opacity: 0.99, in: target))) == nil)
        let translucent = try plain(width: 30, height: 20, 0xFE11_2233)
        #expect(Painter.opaqueFill(try #require(item(.bitmap(translucent), at, in: target))) == nil)
        var g = SeededGenerator(seed: 3)
        let unknown = try KernelFixtures.bitmap(width: 30, height: 20, &g)
        #expect(Painter.opaqueFill(try #require(item(.bitmap(unknown), at, in: target))) == nil)
    }

    /// A renderer knows the stores of layers showing only an opaque background color whose
    /// edges fall on whole pixels, and no others; a store drawn again is known anew.
    @Test func storesOfOneOpaqueColorAreKnownWhenDrawn() throws {
        /// The known value of the store of the one bitmap composite of `width`...`width + 1` by `height` pixels
        /// (`.some(nil)`: the store is not known to be one value).
        func knownValue(width: Int, height: Int, in root: Layer, renderer: Renderer) throws -> UInt32?? {
            renderer.render(root, into: try Bitmap(width: 120, height: 90))
            let composites = renderer.composites(for: root, width: 120, height: 90).filter {
                $0.color == nil && (width...width + 1).contains($0.source.width) && $0.source.height == height
            }
            #expect(composites.count == 1)
            return composites.first.map(\.source.knownUniformPixel)
        }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 120, height: 90)
        root.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3)
        let panel = Layer()
        panel.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        panel.backgroundColor = .white
        root.addSublayer(panel)
        let renderer = Renderer(threadCount: 1)
        #expect(try knownValue(width: 120, height: 90, in: root, renderer: renderer) == .some(Color(red: 0.1, green: 0.2, blue: 0.3).premultipliedARGB32))
        #expect(try knownValue(width: 40, height: 30, in: root, renderer: renderer) == .some(0xFFFF_FFFF))
        // Rounded corners: not one value.
        Transaction.perform(disableActions: true) { panel.cornerRadius = 6 }
        #expect(try knownValue(width: 40, height: 30, in: root, renderer: renderer) == .some(nil))
        Transaction.perform(disableActions: true) { panel.cornerRadius = 0 }
        #expect(try knownValue(width: 40, height: 30, in: root, renderer: renderer) == .some(0xFFFF_FFFF))
        // A fractional edge shades its pixels.
        Transaction.perform(disableActions: true) { panel.frame = CGRect(x: 10, y: 10, width: 40.5, height: 30) }
        #expect(try knownValue(width: 40, height: 30, in: root, renderer: renderer) == .some(nil))
        Transaction.perform(disableActions: true) { panel.frame = CGRect(x: 10, y: 10, width: 40, height: 30) }
        // A translucent color, and a color under drawn content, are not asked about.
        Transaction.perform(disableActions: true) { panel.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5) }
        #expect(try knownValue(width: 40, height: 30, in: root, renderer: renderer) == .some(nil))
        Transaction.perform(disableActions: true) { panel.backgroundColor = Color(red: 0, green: 1, blue: 0) }
        #expect(try knownValue(width: 40, height: 30, in: root, renderer: renderer) == .some(Color(red: 0, green: 1, blue: 0).premultipliedARGB32))
        let image = try Bitmap(width: 4, height: 4, color: .black)
        let contents = try Image(image)
        Transaction.perform(disableActions: true) { panel.contents = contents }
        #expect(try knownValue(width: 40, height: 30, in: root, renderer: renderer) == .some(nil))
    }

    /// Frames of scenes with plain layers (the root's background, panels at whole and fractional
    /// places, rounded, translucent, in a replicator's tinted instances, under text and images),
    /// full and after changes, on one thread and four: the frame that replaying the renderer's
    /// composites through pixman's general path paints, bit for bit.
    @Test func framesWithPlainLayersAreTheirCompositesReplayed() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 180)
        root.backgroundColor = Color(red: 0.08, green: 0.1, blue: 0.16)
        var panels: [Layer] = []
        for i in 0..<6 {
            let panel = Layer()
            panel.frame = CGRect(x: 12 + CGFloat(i) * 36 + (i == 2 ? 0.5 : 0), y: 20 + CGFloat(i % 3) * 40, width: 30, height: 34)
            panel.backgroundColor = i == 4 ? Color(red: 1, green: 1, blue: 1, alpha: 0.4) : Color(red: 0.9, green: 0.3 + 0.1 * Double(i), blue: 0.2)
            if i == 3 { panel.cornerRadius = 5 }
            root.addSublayer(panel)
            panels.append(panel)
        }
        let replicator = ReplicatorLayer()
        replicator.frame = CGRect(x: 10, y: 140, width: 220, height: 30)
        replicator.instanceCount = 5
        replicator.instanceTransform = Transform3D(translationX: 40, y: 0, z: 0)
        replicator.instanceColor = Color(red: 0.5, green: 1, blue: 1)
        let tile = Layer()
        tile.frame = CGRect(x: 0, y: 0, width: 30, height: 20)
        tile.backgroundColor = .white
        replicator.addSublayer(tile)
        root.addSublayer(replicator)
        let label = TextLayer()
        label.frame = CGRect(x: 20, y: 60, width: 200, height: 30)
        label.string = "12:34"
        label.fontSize = 20
        root.addSublayer(label)
        for threads in [1, 4] {
            let renderer = Renderer(threadCount: threads)
            let target = try Bitmap(width: 240, height: 180)
            for step in 0..<5 {
                if step > 0 {
                    Transaction.perform(disableActions: true) {
                        panels[step].frame.origin.y += 7
                        label.string = "12:3\(step)"
                        if step == 3 { root.backgroundColor = Color(red: 0.2, green: 0.1, blue: 0.1) }
                    }
                }
                if step % 2 == 0 { renderer.invalidate() }
                renderer.render(root, into: target)
                let composites = renderer.composites(for: root, width: 240, height: 180)
                #expect(composites.contains { $0.source.knownUniformPixel != nil })
                let replay = try Bitmap.replaying(composites, width: 240, height: 180)
                #expect(replay.hasSamePixels(as: target), "\(threads) threads, step \(step)")
            }
        }
    }
}
