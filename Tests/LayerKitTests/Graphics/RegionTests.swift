import Foundation
import Testing
@testable import LayerKit

@Suite struct RegionTests {
    @Test func unionIntersectionAndSubtraction() {
        let a = Region(PixelRect(x: 0, y: 0, width: 10, height: 10))
        let b = Region(PixelRect(x: 5, y: 5, width: 10, height: 10))
        #expect(a.union(b).area == 175)
        #expect(a.intersection(b) == Region(PixelRect(x: 5, y: 5, width: 5, height: 5)))
        #expect(a.subtracting(b).area == 75)
        #expect(a.union(b).extents == PixelRect(x: 0, y: 0, width: 15, height: 15))
        #expect(a.contains(x: 9, y: 9) && !a.contains(x: 10, y: 9))
    }

    /// Many overlapping rectangles make the same region as their unions one at a time.
    @Test func manyOverlappingRectanglesAtOnce() {
        var state: UInt64 = 12345
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        let rects = (0..<500).map { _ in PixelRect(x: next(300) - 20, y: next(200) - 20, width: next(40), height: next(40)) }
        var oneByOne = Region()
        for rect in rects { oneByOne.formUnion(Region(rect)) }
        let atOnce = Region(rects)
        #expect(atOnce == oneByOne)
        #expect(atOnce.area == oneByOne.area)
        #expect(Region([]).isEmpty)
        #expect(Region([PixelRect(x: 5, y: 5, width: 0, height: 9)]).isEmpty)
    }

    @Test func valueSemantics() {
        var a = Region(PixelRect(x: 0, y: 0, width: 4, height: 4))
        let copy = a
        a.formUnion(Region(PixelRect(x: 10, y: 10, width: 1, height: 1)))
        #expect(copy.area == 16 && a.area == 17)
    }

    @Test func emptyRegions() {
        #expect(Region().isEmpty)
        #expect(Region(PixelRect(x: 3, y: 3, width: 0, height: 5)).isEmpty)
        #expect(Region().rects.isEmpty)
        #expect(Region().extents.isEmpty)
    }

    @Test func translation() {
        let r = Region(PixelRect(x: 1, y: 2, width: 3, height: 4)).translatedBy(x: 10, y: -2)
        #expect(r.rects == [PixelRect(x: 11, y: 0, width: 3, height: 4)])
    }

    @Test func coveringRectRoundsOutwardAndSurvivesNonsense() {
        #expect(PixelRect(covering: CGRect(x: 0.5, y: 1.2, width: 2, height: 2)) == PixelRect(x: 0, y: 1, width: 3, height: 3))
        #expect(PixelRect(covering: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)).isEmpty)
        let huge = PixelRect(covering: CGRect(x: -1e300, y: 0, width: 2e300, height: 1))
        #expect(huge.width == 1 << 31)
        #expect(!Region(huge).isEmpty)
    }
}
