import Foundation
import Testing
@testable import LayerKit

@Suite struct FootprintTests {
    /// Every pixel a composite changes lies in its item's footprint, under rotation, scale,
    /// shear and perspective; and a turned item's footprint is well inside its bounding box.
    @Test func footprintHoldsEveryPixelACompositeChanges() throws {
        let source = try Bitmap(width: 60, height: 40, color: .white)
        let target = PixelRect(x: 0, y: 0, width: 200, height: 200)
        var transforms: [Homography] = []
        for angle in stride(from: 0.05, to: 6.3, by: 0.37) {
            for scale in [0.3, 1.0, 2.7] {
                let rotate = CGAffineTransform(rotationAngle: angle).scaledBy(x: scale, y: scale)
                transforms.append(Homography(CGAffineTransform(translationX: -30, y: -20).concatenating(rotate)
                    .concatenating(CGAffineTransform(translationX: 100.3, y: 95.7))))
            }
        }
        var perspective = Transform3D(rotationAngle: 0.9, x: 0, y: 1, z: 0)
        perspective.m34 = -1.0 / 150
        transforms.append(Homography(Transform3D(translationX: -30, y: -20, z: 0).concatenating(perspective)
            .concatenating(Transform3D(translationX: 100, y: 100, z: 0))))
        transforms.append(Homography(CGAffineTransform(a: 1, b: 0.6, c: -0.8, d: 1, tx: 90, ty: 40)))

        for transform in transforms {
            guard let item = PaintItem(key: .init(layer: LayerID.next(), part: .content), source: source, sourceIdentity: 0,
                                       transform: transform, opacity: 1, filter: .bilinear, clip: nil,
                                       targetArea: target) else { continue }
            let frame = try Bitmap(width: 200, height: 200)
            try frame.composite(source, transform: transform, filter: .bilinear)
            let footprint = Region(item.footprint)
            var outside = 0
            for y in 0..<200 {
                for x in 0..<200 where frame.premultipliedPixel(x: x, y: y) != 0 && !footprint.contains(x: x, y: y) {
                    outside += 1
                }
            }
            #expect(outside == 0, "\(outside) changed pixels outside the footprint of \(transform)")
            #expect(footprint.area <= item.extent.area)
        }
        // Turned by 45° (and scaled to several bands): the footprint is far smaller than the
        // bounding box.
        let turned = Homography(CGAffineTransform(translationX: -30, y: -20)
            .concatenating(CGAffineTransform(rotationAngle: .pi / 4)).concatenating(CGAffineTransform(scaleX: 2.5, y: 2.5))
            .concatenating(CGAffineTransform(translationX: 100, y: 100)))
        let item = try #require(PaintItem(key: .init(layer: LayerID.next(), part: .content), source: source, sourceIdentity: 0,
                                          transform: turned, opacity: 1, filter: .bilinear, clip: nil,
                                          targetArea: target))
        #expect(Double(Region(item.footprint).area) < 0.8 * Double(item.extent.area))
    }

    @Test func rectilinearItemsKeepTheirExtent() throws {
        let source = try Bitmap(width: 30, height: 30, color: .white)
        let target = PixelRect(x: 0, y: 0, width: 100, height: 100)
        for transform in [Homography(translationX: 10, y: 12), Homography(scaleX: 1.5, y: 0.7),
                          Homography(CGAffineTransform(rotationAngle: .pi / 2).translatedBy(x: 40, y: -60))] {
            let item = try #require(PaintItem(key: .init(layer: LayerID.next(), part: .content), source: source, sourceIdentity: 0,
                                              transform: transform, opacity: 1, filter: .bilinear, clip: nil,
                                              targetArea: target))
            #expect(item.footprint == [item.extent])
        }
    }

    /// Footprint bands lie on the target's grid of `bandHeight` rows, so that footprints share
    /// band edges: a clock hand's footprints before and after a tick's small turn unite into
    /// one rectangle a band (a frame's damage), where bands starting at each extent's own top
    /// would split every band in two.
    @Test func bandsLieOnTheTargetsGrid() throws {
        let source = try Bitmap(width: 20, height: 400, color: .white)
        let target = PixelRect(x: 0, y: 0, width: 1000, height: 1000)
        func item(_ angle: CGFloat) throws -> PaintItem {
            let map = CGAffineTransform(translationX: -10, y: -400).concatenating(CGAffineTransform(rotationAngle: angle))
                .concatenating(CGAffineTransform(translationX: 500.4, y: 497.3))
            return try #require(PaintItem(key: .init(layer: LayerID.next(), part: .content), source: source, sourceIdentity: 0,
                                          transform: Homography(map), opacity: 1, filter: .bilinear, clip: nil, targetArea: target))
        }
        let before = try item(1.0), after = try item(1.0 + 0.5 * .pi / 180)
        #expect(before.extent.minY != after.extent.minY, "the turn moves the extent's top")
        for footprint in [before.footprint, after.footprint] {
            let rows = (footprint.last?.maxY ?? 0) - (footprint.first?.minY ?? 0)
            #expect(rows > 4 * PaintItem.bandHeight && footprint.count >= rows / PaintItem.bandHeight)
            for band in footprint {
                #expect(band.minY % PaintItem.bandHeight == 0 || band.minY == footprint.first?.minY)
                #expect(band.maxY % PaintItem.bandHeight == 0 || band.maxY == footprint.last?.maxY)
                #expect(band.height <= PaintItem.bandHeight)
            }
        }
        let union = Region(before.footprint + after.footprint)
        let gridBands = Set((before.footprint + after.footprint).map { $0.minY / PaintItem.bandHeight }).count
        #expect(union.rects.count <= gridBands, "\(union.rects.count) rectangles for \(gridBands) bands")
    }
}

/// A coverage item that changes damages where its ink lands, before and after, not its whole
/// store: a line of text whose figures change repaints its glyphs, not its line box.
@Suite struct InkedDamageTests {
    @Test(arguments: [1, 2])
    func aChangedLineOfTextDamagesItsInkOldAndNew(threads: Int) throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 420, height: 70)
        root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.2)
        let label = TextLayer()
        label.frame = CGRect(x: 10.3, y: 12, width: 400, height: 40)
        label.fontSize = 22
        label.foregroundColor = Color(red: 0.9, green: 0.92, blue: 0.85)
        label.string = "ALPHA-07  123.45"
        root.addSublayer(label)
        let renderer = Renderer(threadCount: threads)
        let frame = try Bitmap(width: 420, height: 70)
        renderer.render(root, at: 0, into: frame)
        func inkedColumns(_ bitmap: Bitmap) -> Range<Int> {
            let background = bitmap.premultipliedPixel(x: 0, y: 0)
            var columns = (lo: Int.max, hi: Int.min)
            for y in 0..<bitmap.height { for x in 0..<bitmap.width where bitmap.premultipliedPixel(x: x, y: y) != background {
                columns = (min(columns.lo, x), max(columns.hi, x + 1))
            } }
            return columns.lo..<columns.hi
        }
        // Longer, then much shorter (the old glyphs must go), then moved by a fraction.
        for (string, x) in [("ALPHA-07  123.45  +1.23%  WIDER", 10.3), ("AB", 10.3), ("AB 1", 30.6)] {
            let before = inkedColumns(frame)
            label.string = string
            label.frame.origin.x = x
            let damage = renderer.render(root, at: 0, into: frame)
            let fresh = try Renderer(threadCount: 1).render(root)
            #expect(frame.hasSamePixels(as: fresh), "\"\(string)\" on \(threads) thread(s): the frame differs from a fresh render")
            let after = inkedColumns(fresh)
            // The damage reaches every column inked before or after, and not much beyond.
            let extents = damage.extents
            #expect(extents.minX <= min(before.lowerBound, after.lowerBound) && extents.maxX >= max(before.upperBound, after.upperBound),
                    "\"\(string)\": damage \(extents) misses ink \(before) / \(after)")
            #expect(extents.width <= max(before.upperBound, after.upperBound) - min(before.lowerBound, after.lowerBound) + 4,
                    "\"\(string)\": damage \(extents) is wider than the ink \(before) / \(after)")
            #expect(extents.height < 40)
        }
    }
}
