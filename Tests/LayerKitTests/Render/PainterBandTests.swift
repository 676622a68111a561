import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// How a frame's rows are cut into bands for its threads (`Painter.bands`), and that items cut
/// by a band's edges draw the pixels they draw whole.
@Suite struct PainterBandTests {
    private func item(_ source: PaintItem.Source, _ transform: Homography, opacity: Double = 1,
                      in target: PixelRect) throws -> PaintItem? {
        PaintItem(key: PaintItem.Key(layer: LayerID.next(), part: .content), source: source, sourceIdentity: 1,
                  transform: transform, opacity: opacity, filter: .bilinear, clip: nil, targetArea: target)
    }

    /// A bitmap or a coverage mask of that size, at random.
    private func randomSource(width: Int, height: Int, _ g: inout SeededGenerator) throws -> PaintItem.Source {
        Bool.random(using: &g) ? .bitmap(try Bitmap(width: width, height: height))
            : .coverage(try AlphaMask(width: width, height: height), .black)
    }

    /// A few rectangles in and around a 640 × 480 target.
    private func randomDamage(rectangles: ClosedRange<Int>, _ g: inout SeededGenerator) -> Region {
        Region((0..<Int.random(in: rectangles, using: &g)).map { _ in
            PixelRect(x: Int.random(in: -20..<640, using: &g), y: Int.random(in: -20..<480, using: &g),
                      width: Int.random(in: 1...400, using: &g), height: Int.random(in: 1...400, using: &g))
        })
    }

    /// A premultiplied sprite whose ink is a disc, clear around it (a sprite's corners and border).
    private func sprite(side: Int, margin: Int, _ g: inout SeededGenerator) throws -> Bitmap {
        let bitmap = try Bitmap(width: side, height: side)
        let centre = Double(side) / 2, radius = Double(side) / 2 - Double(margin)
        for y in 0..<side {
            for x in 0..<side {
                let (dx, dy) = (Double(x) + 0.5 - centre, Double(y) + 0.5 - centre)
                guard dx * dx + dy * dy <= radius * radius else { continue }
                let alpha = UInt32.random(in: 1...255, using: &g)
                let (r, gr, b) = (UInt32.random(in: 0...alpha, using: &g), UInt32.random(in: 0...alpha, using: &g),
                                  UInt32.random(in: 0...alpha, using: &g))
                bitmap.pixels[y * side + x] = alpha << 24 | r << 16 | gr << 8 | b
            }
        }
        return bitmap
    }

    /// Bands are the damage's rows, top to bottom, without gap or overlap, none thinner than the
    /// minimum (but a frame thinner than two), and there are more of them than threads.
    @Test(arguments: [1, 2, 3, 4])
    func bandsCoverTheDamagesRowsInOrder(threads: Int) throws {
        var g = SeededGenerator(seed: UInt64(threads) * 31)
        let target = PixelRect(x: 0, y: 0, width: 640, height: 480)
        for trial in 0..<60 {
            var items: [PaintItem] = []
            for _ in 0..<Int.random(in: 0...40, using: &g) {
                let side = Int.random(in: 4...120, using: &g)
                let transform = Homography(CGAffineTransform(translationX: .random(in: -60...660, using: &g),
                                                             y: .random(in: -60...500, using: &g))
                    .rotated(by: .random(in: 0...6.3, using: &g)))
                let source = try randomSource(width: side, height: side, &g)
                if let made = try item(source, transform, in: target) { items.append(made) }
            }
            let damage = trial % 3 == 0 ? Region(target) : randomDamage(rectangles: 1...5, &g)
            let extents = damage.extents
            let bands = Painter.bands(items, damage: damage, threads: threads)
            #expect(bands.first?.lowerBound == extents.minY && bands.last?.upperBound == extents.maxY, "trial \(trial)")
            for (upper, lower) in zip(bands, bands.dropFirst()) { #expect(upper.upperBound == lower.lowerBound) }
            if extents.height >= 2 * Painter.minimumBandHeight {
                #expect(bands.allSatisfy { $0.count >= Painter.minimumBandHeight }, "trial \(trial): \(bands)")
                if threads > 1 && extents.height >= 8 * threads * Painter.minimumBandHeight {
                    #expect(bands.count > threads, "trial \(trial): \(bands)")
                }
            } else {
                #expect(bands.count == 1)
            }
        }
    }

    /// The bands' definition, row by row: each row's cost summed from the rectangles painted in
    /// it, a band ended after the first row its cost reaches the goal and the heights allow.
    private func bandsRowByRow(_ items: [PaintItem], damage: Region, threads: Int) -> [Range<Int>] {
        let extents = damage.extents
        guard extents.height > 0 else { return [] }
        var rowCost = [Int](repeating: 0, count: extents.height)
        func add(_ rect: PixelRect, _ cost: Int) {
            let cut = rect.intersection(extents)
            guard !cut.isEmpty else { return }
            for y in cut.minY..<cut.maxY { rowCost[y - extents.minY] += cut.width * cost }
        }
        for rect in damage.rects { add(rect, 1) }
        for item in items {
            switch item.source {
            case .bitmap: add(item.extent, item.transform.kind == .projective ? Painter.projectivePixelCost : Painter.bitmapPixelCost)
            case .coverage: add(item.extent, Painter.coveragePixelCost)
            }
        }
        let height = extents.height, total = rowCost.reduce(0, +)
        let smallest = total / max(1, threads * Painter.smallestBandShare)
        var bands: [Range<Int>] = [], start = 0, cost = 0, remaining = total
        var goal = max(smallest, remaining / max(1, threads * Painter.bandShare))
        for y in 0..<height {
            cost += rowCost[y]
            guard cost >= goal, y + 1 - start >= Painter.minimumBandHeight, height - (y + 1) >= Painter.minimumBandHeight
            else { continue }
            bands.append(extents.minY + start..<extents.minY + y + 1)
            remaining -= cost
            (start, cost) = (y + 1, 0)
            goal = max(smallest, remaining / max(1, threads * Painter.bandShare))
        }
        bands.append(extents.minY + start..<extents.minY + height)
        return bands
    }

    /// The sweep over the rows where the cost changes cuts the bands the row-by-row definition
    /// cuts, for random items (flat, turned, in perspective, coverage) over random damage.
    @Test(arguments: [1, 2, 3, 4])
    func bandsAreTheRowByRowDefinitions(threads: Int) throws {
        var g = SeededGenerator(seed: UInt64(threads) * 977)
        let target = PixelRect(x: 0, y: 0, width: 640, height: 480)
        var eye = Transform3D.identity
        eye.m34 = -1.0 / 700
        for trial in 0..<150 {
            var items: [PaintItem] = []
            for _ in 0..<Int.random(in: 0...30, using: &g) {
                let (w, h) = (Int.random(in: 1...300, using: &g), Int.random(in: 1...200, using: &g))
                let (x, y) = (CGFloat.random(in: -80...660, using: &g), CGFloat.random(in: -80...500, using: &g))
                let transform: Homography
                switch Int.random(in: 0..<3, using: &g) {
                case 0: transform = Homography(translationX: x.rounded(), y: y.rounded())
                case 1: transform = Homography(CGAffineTransform(translationX: x, y: y).rotated(by: .random(in: 0...6.3, using: &g)))
                default:
                    transform = Homography(Transform3D(rotationAngle: .random(in: -1...1, using: &g), x: 0, y: 1, z: 0)
                        .concatenating(eye).concatenating(Transform3D(translationX: x, y: y, z: 0)))
                }
                let source = try randomSource(width: w, height: h, &g)
                if let made = try item(source, transform, in: target) { items.append(made) }
            }
            let damage = trial % 4 == 0 ? Region(target) : randomDamage(rectangles: 1...6, &g)
            #expect(Painter.bands(items, damage: damage, threads: threads) == bandsRowByRow(items, damage: damage, threads: threads),
                    "trial \(trial)")
        }
    }

    /// A frame even across its rows gives each thread its share first, then bands that shrink;
    /// items crowding the top rows make the top bands fewer rows.
    @Test func bandsFollowTheCostOfTheRows() throws {
        let target = PixelRect(x: 0, y: 0, width: 1000, height: 1024)
        let even = Painter.bands([], damage: Region(target), threads: 2)
        #expect(even.first == 0..<512, "\(even)")
        #expect(zip(even, even.dropFirst()).allSatisfy { $0.count >= $1.count || $1 == even.last }, "\(even)")
        #expect(even.dropLast().last.map { $0.count < 64 } == true, "\(even)")

        let picture = try Bitmap(width: 100, height: 100)
        let crowded = try (0..<40).compactMap { i in
            try item(.bitmap(picture), Homography(translationX: CGFloat(i % 10 * 100), y: CGFloat(i / 10 * 25)), in: target)
        }
        let top = Painter.bands(crowded, damage: Region(target), threads: 2)
        #expect(top.first!.count < 200, "\(top)")
        #expect(top.first!.upperBound <= 200)
    }

    /// A page turned in perspective weighs more a pixel than a turned sprite (a flip clock's page,
    /// all in the frame's upper half): the first band ends higher than for an affine item over
    /// the same rows.
    @Test func aPerspectivePageWeighsMoreThanATurnedSprite() throws {
        let target = PixelRect(x: 0, y: 0, width: 1000, height: 1024)
        let page = try Bitmap(width: 400, height: 300)
        var eye = Transform3D.identity
        eye.m34 = -1.0 / 900
        let turned = Transform3D(rotationAngle: 0.6, x: 0, y: 1, z: 0).concatenating(eye)
            .concatenating(Transform3D(translationX: 300, y: 150, z: 0))
        let perspective = try #require(try item(.bitmap(page), Homography(turned), in: target))
        #expect(perspective.transform.kind == .projective)
        // The page scaled onto the same rectangle (within a pixel or so at each edge), as a sprite's map.
        let box = perspective.extent
        let flat = try #require(try item(.bitmap(page), Homography(CGAffineTransform(translationX: CGFloat(box.minX) + 0.5,
                                                                                      y: CGFloat(box.minY) + 0.5)
                                                                     .scaledBy(x: CGFloat(box.width - 1) / 400,
                                                                               y: CGFloat(box.height - 1) / 300)),
                                         in: target))
        #expect(flat.transform.kind == .affine && abs(flat.extent.area - box.area) <= 2 * (box.width + box.height) + 4,
                "\(flat.extent) against \(box)")
        let withPage = Painter.bands([perspective], damage: Region(target), threads: 2)
        let withSprite = Painter.bands([flat], damage: Region(target), threads: 2)
        #expect(withPage.first!.upperBound < withSprite.first!.upperBound, "\(withPage) against \(withSprite)")
    }

    /// Turned and scaled sprites with clear borders, painted in bands cut at any rows (their
    /// pieces peel the sprite whole), draw the pixels they draw in one band, in every variant.
    @Test(arguments: KernelVariant.available)
    func spritesCutByBandsDrawWhatTheyDrawWhole(variant: KernelVariant) throws {
        var g = SeededGenerator(seed: 77)
        let (width, height) = (200, 160)
        let target = PixelRect(x: 0, y: 0, width: width, height: height)
        try Bitmap.withCompositeEngine(.kernels(variant)) {
            for trial in 0..<12 {
                var items: [PaintItem] = []
                for _ in 0..<Int.random(in: 5...25, using: &g) {
                    let side = Int.random(in: 8...64, using: &g)
                    let picture = try sprite(side: side, margin: Int.random(in: 0...side / 4, using: &g), &g)
                    let scale = CGFloat.random(in: 0.5...1.6, using: &g)
                    let transform = Homography(CGAffineTransform(translationX: .random(in: -20...220, using: &g),
                                                                 y: .random(in: -20...180, using: &g))
                        .rotated(by: .random(in: 0...6.3, using: &g)).scaledBy(x: scale, y: scale))
                    if let made = try item(.bitmap(picture), transform, opacity: [1, 0.6][trial % 2], in: target) {
                        items.append(made)
                    }
                }
                let before = try KernelFixtures.bitmap(width: width, height: height, &g)
                let banded = try before.copy(), whole = try before.copy()
                let cuts = KernelFixtures.bandEdges(height: height, cuts: 1...8, &g)
                for (top, bottom) in zip(cuts, cuts.dropFirst()) {
                    Painter.paintBand(items, into: banded, rows: top..<bottom, damage: Region(target), base: .solid(0xFF10_2030))
                }
                Painter.paintBand(items, into: whole, rows: 0..<height, damage: Region(target), base: .solid(0xFF10_2030))
                #expect(banded.hasSamePixels(as: whole), "\(variant) trial \(trial): cuts \(cuts)")
            }
        }
    }

    /// A piece's whole peel is the box of texels not clear, found the same as the kernels find it.
    @Test func aBitmapsNotClearBoxIsItsInk() throws {
        let bitmap = try Bitmap(width: 40, height: 30)
        #expect(bitmap.notClearBox().x1 == bitmap.notClearBox().x2, "a clear bitmap has no ink")
        bitmap.pixels[4 * 40 + 7] = 0x0100_0000
        bitmap.pixels[21 * 40 + 30] = 0x8040_2010
        let box = bitmap.notClearBox()
        #expect(box.y1 == 4 && box.y2 == 22, "\(box)")
        #expect(box.x1 <= 7 && box.x2 >= 31, "\(box)")
    }
}
