import Foundation
import Testing
@testable import LayerKit

/// A group's offscreen bitmap is cut to its rounded bounds by rasterizing the outline's
/// coverage only where it can be below one: the result must be what multiplying by the
/// coverage of the whole bitmap gives.
@Suite struct GroupClipTests {
    /// The full-size way: the outline's coverage over the whole bitmap, multiplied in.
    func clippedWhole(_ source: Bitmap, bounds: CGRect, _ group: GroupDescription) throws -> Bitmap {
        let result = try source.copy()
        let coverage = try Bitmap(width: result.width, height: result.height)
        coverage.fill(ContentRasterizer.outline(bounds, radius: group.cornerRadius, corners: group.maskedCorners,
                                                within: group.area, scale: group.scale),
                      with: .white, transform: ContentRasterizer.boundsToStore(area: group.area, scale: group.scale))
        result.composite(coverage, atX: 0, y: 0, operator: .destinationIn)
        return result
    }

    /// Random bounds (fractional edges), radii (none to half the side), scales, the corners
    /// masked or not, and areas cut from huge bounds: every pixel within 1 level of the
    /// full-size result (the small bitmaps' transforms round differently in the last bit), and
    /// nearly every pixel exactly equal.
    @Test(arguments: [UInt64(1), 2, 3])
    func cuttingOnlyThePartlyCoveredPixelsMatchesTheWholeCoverage(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var pixels = 0, unequal = 0
        for _ in 0..<40 {
            let scale = [1, 2, 3, 1.5][Int.random(in: 0..<4, using: &rng)] as CGFloat
            var bounds = CGRect(x: CGFloat.random(in: -20...20, using: &rng), y: CGFloat.random(in: -20...20, using: &rng),
                                width: CGFloat.random(in: 1...80, using: &rng), height: CGFloat.random(in: 1...60, using: &rng))
            var area = bounds
            if Bool.random(using: &rng) {
                // Huge bounds, of which the group covers a part.
                bounds = bounds.insetBy(dx: -400, dy: -300)
            }
            area = area.integral
            let radius = [0, 2, 7.5, 25, 1000][Int.random(in: 0..<5, using: &rng)] as CGFloat
            let corners: CornerMask = Bool.random(using: &rng) ? .all : [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
            let group = GroupDescription(scale: scale, area: area, clipsToBounds: true, cornerRadius: radius,
                                         maskedCorners: corners, rasterize: false)
            let size = ContentRasterizer.storeSize(area: area, scale: scale)
            let source = try Bitmap(width: size.width, height: size.height)
            source.fill(Path(rect: CGRect(x: 0, y: 0, width: size.width, height: size.height)),
                        with: Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.9))
            let expected = try clippedWhole(source, bounds: bounds, group)
            // As a redraw cuts it: the kept coverage for these bounds, multiplied in.
            GroupRedraw().clipCoverage(bounds: bounds, group, width: size.width, height: size.height)
                .cut(source, bounds: bounds, group)
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let a = source.premultipliedPixel(x: x, y: y), b = expected.premultipliedPixel(x: x, y: y)
                    pixels += 1
                    guard a != b else { continue }
                    unequal += 1
                    for shift in stride(from: 0, to: 32, by: 8) {
                        let ca = Int((a >> UInt32(shift)) & 0xFF), cb = Int((b >> UInt32(shift)) & 0xFF)
                        #expect(abs(ca - cb) <= 1, "pixel (\(x), \(y)) of \(bounds) at \(scale), radius \(radius)")
                    }
                }
            }
        }
        #expect(pixels > 10_000)
        #expect(unequal * 1000 <= pixels)
    }

    /// What is surely inside is left out: a 100 x 60 group with corners of 10 at scale 1 needs
    /// its corners' squares (and a pixel beside them) only.
    @Test func onlyTheCornersOfAnAlignedGroupAreCut() {
        let region = ItemEmitter.partlyCovered(bounds: CGRect(x: 0, y: 0, width: 100, height: 60), radius: 10,
                                               area: CGRect(x: 0, y: 0, width: 100, height: 60), scale: 1, width: 100, height: 60)
        let count = region.rects.reduce(0) { $0 + $1.width * $1.height }
        #expect(count == 4 * 11 * 11)
        #expect(!region.contains(x: 50, y: 30))
        #expect(region.contains(x: 0, y: 0) && region.contains(x: 99, y: 59))
        // Without corners nothing is partly covered; with a fractional edge its column is.
        #expect(ItemEmitter.partlyCovered(bounds: CGRect(x: 0, y: 0, width: 100, height: 60), radius: 0,
                                          area: CGRect(x: 0, y: 0, width: 100, height: 60), scale: 1, width: 100, height: 60).isEmpty)
        let fractional = ItemEmitter.partlyCovered(bounds: CGRect(x: 0, y: 0, width: 99.5, height: 60), radius: 0,
                                                   area: CGRect(x: 0, y: 0, width: 99.5, height: 60), scale: 1, width: 100, height: 60)
        #expect(fractional.rects.reduce(0) { $0 + $1.width * $1.height } == 60)
    }
}
