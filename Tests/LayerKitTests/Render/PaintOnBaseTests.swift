import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Over a solid base, coverage whose window meets no earlier item's is drawn over the base
/// without a fill under it (`Painter.windowsOnBase`): frames are the same bit for bit as frames
/// painted with every item over the fill.
@Suite struct PaintOnBaseTests {
    private func item(_ source: PaintItem.Source, _ transform: Homography, opacity: Double = 1, clip: PixelRect? = nil,
                      in target: PixelRect) throws -> PaintItem {
        try #require(PaintItem(key: PaintItem.Key(layer: LayerID.next(), part: .content), source: source, sourceIdentity: 1,
                               transform: transform, opacity: opacity, filter: .bilinear, clip: clip, targetArea: target))
    }

    /// A line's store: coverage in its middle rows, or (`edges`) up to its edges, so that lines
    /// placed side by side have windows that abut.
    private func line(width: Int, height: Int, edges: Bool, _ g: inout SeededGenerator) throws -> AlphaMask {
        let mask = try AlphaMask(width: width, height: height)
        let rows = edges ? 0..<height : min(2, height - 1)..<max(min(2, height - 1) + 1, height - 2)
        for y in rows {
            for x in 0..<width where Int.random(in: 0..<3, using: &g) > 0 {
                mask[x, y] = Bool.random(using: &g) ? 255 : UInt8.random(in: 1...255, using: &g)
            }
        }
        return mask
    }

    /// Earlier windows are found by the buckets of rows they span: in bands at any top, with
    /// windows one row high, abutting bucket edges, or spanning many buckets, a window meets
    /// an earlier one exactly when some window added before it shares a pixel with it.
    @Test(arguments: [PixelRect(x: 0, y: 0, width: 300, height: 400), PixelRect(x: 17, y: 333, width: 90, height: 130),
                      PixelRect(x: -40, y: -70, width: 200, height: 64), PixelRect(x: 0, y: 5, width: 50, height: 1)])
    func earlierWindowsMeetExactlyWhatAScanOfAllMeets(band: PixelRect) {
        var g = SeededGenerator(seed: UInt64(band.minY + 1000))
        var earlier = Painter.EarlierWindows(bounds: band, capacity: 8), all: [Painter.Box] = []
        var met = 0
        for _ in 0..<600 {
            let tall = Int.random(in: 0..<6, using: &g) == 0
            let h = tall ? Int.random(in: 1...band.height, using: &g) : Int.random(in: 1...min(band.height, 40), using: &g)
            let w = Int.random(in: 1...min(band.width, 60), using: &g)
            let window = PixelRect(x: band.minX + Int.random(in: 0...(band.width - w), using: &g),
                                   y: band.minY + Int.random(in: 0...(band.height - h), using: &g), width: w, height: h)
            let box = Painter.Box(window)
            let meets = all.contains { $0.meets(box) }
            #expect(earlier.meetAny(box) == meets, "\(window) in \(band)")
            if meets { met += 1 }
            earlier.append(box)
            all.append(box)
        }
        #expect(earlier.count == all.count)
        #expect(met > 0 && met < all.count, "the windows all met or none did: \(met)")
    }

    @Test func windowsOnBaseTakeAbuttingLinesButNotOverlappingOnes() throws {
        var g = SeededGenerator(seed: 15)
        let target = PixelRect(x: 0, y: 0, width: 100, height: 60)
        let full = try AlphaMask(width: 10, height: 4)
        for y in 0..<4 { for x in 0..<10 { full[x, y] = 255 } }
        let inkInside = try AlphaMask(width: 30, height: 10)
        inkInside[12, 5] = 40
        let picture = try KernelFixtures.bitmap(width: 8, height: 8, &g)
        let items = [
            try item(.coverage(full, .white), Homography(translationX: 0, y: 0), in: target),          // 0: taken
            try item(.coverage(full, .white), Homography(translationX: 10, y: 0), in: target),         // 1: abuts 0 on the right
            try item(.coverage(full, .white), Homography(translationX: 0, y: 4), in: target),          // 2: abuts 0 below
            try item(.coverage(full, .white), Homography(translationX: 19, y: 3), in: target),         // 3: one pixel on 1
            try item(.coverage(inkInside, .black), Homography(translationX: 0, y: 0), in: target),     // 4: its ink (12, 5) is clear of all
            try item(.bitmap(picture), Homography(translationX: 40, y: 20), in: target),               // 5: a bitmap, never
            try item(.coverage(full, .white), Homography(translationX: 45, y: 26), in: target),        // 6: on the bitmap
            try item(.coverage(full, .white), Homography(translationX: 60.5, y: 40), in: target),      // 7: a fractional offset
            try item(.coverage(full, .white), Homography(translationX: 80, y: 50), opacity: 0.4, in: target),  // 8: taken
        ]
        let taken = Painter.windowsOnBase(items, bounds: target)
        #expect(taken.map(\.index) == [0, 1, 2, 4, 8])
        let windows: [PixelRect] = [PixelRect(x: 0, y: 0, width: 10, height: 4), PixelRect(x: 10, y: 0, width: 10, height: 4),
                                    PixelRect(x: 0, y: 4, width: 10, height: 4), PixelRect(x: 12, y: 5, width: 1, height: 1),
                                    PixelRect(x: 80, y: 50, width: 10, height: 4)]
        #expect(taken.map(\.window) == windows)
        // Cut to the bounds (a band, a damage): the windows are cut too, and what misses is not taken.
        let cut = Painter.windowsOnBase(items, bounds: PixelRect(x: 5, y: 2, width: 10, height: 58))
        #expect(cut.map(\.index) == [0, 1, 2, 4])
        #expect(cut.first?.window == PixelRect(x: 5, y: 2, width: 5, height: 2))
    }

    /// A band tests each item against at most `windowsOnBaseBudget` windows before it: later
    /// items are painted over the fill, and the frame is the same.
    @Test func windowsOnBaseStopAfterTheirBudget() throws {
        let target = PixelRect(x: 0, y: 0, width: 400, height: 400)
        let dot = try AlphaMask(width: 1, height: 1)
        dot[0, 0] = 200
        var items: [PaintItem] = []
        for i in 0..<300 {
            let at = Homography(translationX: CGFloat(i % 20 * 3), y: CGFloat(i / 20 * 3))
            items.append(try item(.coverage(dot, .white), at, in: target))
        }
        let taken = Painter.windowsOnBase(items, bounds: target)
        #expect(taken.count == Painter.windowsOnBaseBudget)
        #expect(taken.map(\.index) == Array(0..<Painter.windowsOnBaseBudget))
        let fast = try Bitmap(width: 400, height: 400), slow = try Bitmap(width: 400, height: 400)
        Painter.paintBand(items, into: fast, rows: 0..<400, damage: Region(target), base: .solid(0xFF10_2030))
        Painter.paintBand(items, into: slow, rows: 0..<400, damage: Region(target), base: .solid(0xFF10_2030), onBase: false)
        #expect(fast.hasSamePixels(as: slow))
    }

    /// Boards of lines (abutting, overlapping, some without known ink, some turned or at
    /// fractional offsets, under bitmaps and over them) in several colors and opacities, over
    /// bases clear, opaque and translucent, through damage of several rectangles, painted in
    /// bands: the same pixels as every item composited over the fill, and pixels outside the
    /// damage untouched.
    @Test func framesDrawnOnTheBaseAreTheFramesOverTheFill() throws {
        var g = SeededGenerator(seed: 1515)
        let (width, height) = (160, 120)
        let bounds = PixelRect(x: 0, y: 0, width: width, height: height)
        let colors = [Color(red: 0.9, green: 0.92, blue: 0.85), .black, Color(red: 0.2, green: 0.5, blue: 1, alpha: 0.6)]
        var tookSome = 0, tookNot = 0
        for trial in 0..<120 {
            var items: [PaintItem] = []
            let (lineWidth, lineHeight) = (Int.random(in: 8...60, using: &g), Int.random(in: 3...16, using: &g))
            let edges = trial % 2 == 0
            for _ in 0..<Int.random(in: 1...30, using: &g) {
                let mask = try line(width: lineWidth, height: lineHeight, edges: edges, &g)
                if Int.random(in: 0..<8, using: &g) == 0 {
                    mask.withUnsafeMutableBytes { _ in }                      // ink no longer known
                }
                let transform: Homography
                switch Int.random(in: 0..<10, using: &g) {
                case 0: transform = Homography(translationX: CGFloat.random(in: -10...150, using: &g),
                                               y: CGFloat.random(in: -10...110, using: &g))
                case 1: transform = Homography(CGAffineTransform(rotationAngle: 0.3).translatedBy(x: 40, y: 10))
                case 2, 3: transform = Homography(translationX: CGFloat(Int.random(in: -10...150, using: &g)),
                                                  y: CGFloat(Int.random(in: -5...110, using: &g)))
                default:       // on a grid: lines abut
                    transform = Homography(translationX: CGFloat(Int.random(in: -1...4, using: &g) * lineWidth),
                                           y: CGFloat(Int.random(in: -1...12, using: &g) * lineHeight))
                }
                let color = colors[Int.random(in: 0..<colors.count, using: &g)]
                let opacity = [1, 1, 0.5, Double.random(in: 0.01...1, using: &g)][Int.random(in: 0..<4, using: &g)]
                let clip = Int.random(in: 0..<6, using: &g) == 0 ? PixelRect(x: 20, y: 10, width: 100, height: 70) : nil
                if let made = PaintItem(key: PaintItem.Key(layer: LayerID.next(), part: .content), source: .coverage(mask, color),
                                        sourceIdentity: 1, transform: transform, opacity: opacity, filter: .bilinear, clip: clip,
                                        targetArea: bounds) { items.append(made) }
                if Int.random(in: 0..<12, using: &g) == 0 {
                    let picture = try KernelFixtures.bitmap(width: Int.random(in: 4...40, using: &g), height: Int.random(in: 4...30, using: &g), &g)
                    let at = Homography(translationX: CGFloat(Int.random(in: -5...140, using: &g)), y: CGFloat(Int.random(in: -5...100, using: &g)))
                    items.append(try item(.bitmap(picture), at, in: bounds))
                }
            }
            let base: UInt32 = [0, 0xFF20_3040, 0x8010_2030, KernelFixtures.pixel(&g)][trial % 4]
            let damage = trial % 3 == 0 ? Region(bounds) : KernelFixtures.damage(width: width, height: height, count: 1...6, &g)
            let before = try KernelFixtures.bitmap(width: width, height: height, &g)
            let fast = try before.copy(), slow = try before.copy()
            let cuts = KernelFixtures.bandEdges(height: height, cuts: 0...3, &g)
            for (top, bottom) in zip(cuts, cuts.dropFirst()) {
                Painter.paintBand(items, into: fast, rows: top..<bottom, damage: damage, base: .solid(base))
                let band = damage.intersection(Region(PixelRect(x: 0, y: top, width: width, height: bottom - top)))
                if !band.isEmpty, !Painter.windowsOnBase(items, bounds: band.extents).isEmpty { tookSome += 1 } else { tookNot += 1 }
            }
            Painter.paintBand(items, into: slow, rows: 0..<height, damage: damage, base: .solid(base), onBase: false)
            #expect(fast.hasSamePixels(as: slow), "trial \(trial): \(items.count) items, cuts \(cuts), damage \(damage)")
            for y in 0..<height {
                for x in 0..<width where !damage.contains(x: x, y: y) {
                    if fast.premultipliedPixel(x: x, y: y) != before.premultipliedPixel(x: x, y: y) {
                        Issue.record("trial \(trial): (\(x), \(y)) outside the damage changed")
                    }
                }
            }
        }
        #expect(tookSome > 150, "only \(tookSome) bands drew lines on the base")
        #expect(tookNot > 10)
    }
}
