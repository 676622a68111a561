import ExampleScenes
import ExampleSupport
import Foundation
import Testing
@testable import LayerKit

@Suite struct FlipClockTests {
    func render(_ scene: FlipClockScene, at t: TimeInterval, with renderer: Renderer = Renderer(scale: 1, threadCount: 1)) throws -> Bitmap {
        scene.root.setCurrentTime(t)
        scene.update(elapsed: t)
        return try renderer.render(scene.root, at: t)
    }

    @Test func atFiftyNineAndAHalfTheFlippingHalfIsForeshortened() throws {
        let scene = FlipClockScene(size: CGSize(width: 480, height: 200), startTime: 12 * 3600 + 34 * 60 + 59)
        let frame = try render(scene, at: 0.5)
        let seconds = scene.cards[2]
        let leaf = seconds.topLeaf.layer.presentation(at: 0.5)
        let angle = atan2(leaf.transform.m23, leaf.transform.m22)   // rotation about x
        #expect(angle < -0.3 && angle > -.pi / 2 + 0.3, "angle \(angle)")
        // Seen through the card's perspective the folded half is shorter than a flat one, and its
        // near (top) edge wider than its hinge.
        let quad = Homography(leaf.transformToSuperlayer(sublayerSpace: seconds.layer.sublayerSpaceTransform))
            .projectedPolygon(of: leaf.bounds)
        let height = quad[3].y - quad[0].y, top = quad[1].x - quad[0].x, hinge = quad[2].x - quad[3].x
        #expect(height < leaf.bounds.height * 0.9 && top > hinge + 1)
        // Minutes change too (34 → 35): their card is flipping as well; hours (12) are not.
        #expect(!scene.cards[1].topLeaf.layer.isHidden && scene.cards[0].topLeaf.layer.isHidden)
        // The back of the page (the new lower half) is turned away at this point: culled.
        #expect(seconds.bottomLeaf.layer.presentation(at: 0.5).transform.m22 < 0)
        _ = frame
    }

    @Test func atTheNewSecondTheNewDigitsShow() throws {
        let flipping = FlipClockScene(size: CGSize(width: 480, height: 200), startTime: 12 * 3600 + 34 * 60 + 59)
        let renderer = Renderer(scale: 1, threadCount: 1)
        for t in stride(from: 0.0, through: 0.9, by: 0.1) { _ = try render(flipping, at: t, with: renderer) }
        let arrived = try render(flipping, at: 1.0, with: renderer)
        let fresh = try render(FlipClockScene(size: CGSize(width: 480, height: 200), startTime: 12 * 3600 + 35 * 60), at: 0)
        #expect(arrived.hasSamePixels(as: fresh))
    }

    /// As the seed describes it: past half the flip the upper half shows the next value (the
    /// falling page has uncovered it), the lower half still the current one. Checked on the
    /// minutes card (09 → 10 over the minute's last second), above and below the hinge, against
    /// the card at rest half a minute before and after (the seconds card is never at rest).
    @Test func pastHalfTheFlipTheUpperHalfShowsTheNextDigits() throws {
        let size = CGSize(width: 480, height: 200), start: TimeInterval = 10 * 3600 + 9 * 60 + 59
        let flipping = FlipClockScene(size: size, startTime: start)
        let renderer = Renderer(scale: 1, threadCount: 1)
        for t in stride(from: 0.0, through: 0.6, by: 0.1) { _ = try render(flipping, at: t, with: renderer) }
        let frame = try render(flipping, at: 0.7, with: renderer)
        let old = try render(FlipClockScene(size: size, startTime: start - 29), at: 0)
        let new = try render(FlipClockScene(size: size, startTime: start + 31), at: 0)
        let card = flipping.cards[1].layer.frame
        /// The largest channel difference between two bitmaps over rows y0..<y1 of the card.
        func distance(_ a: Bitmap, _ b: Bitmap, _ y0: Int, _ y1: Int) -> Int {
            var worst = 0
            for y in y0..<y1 {
                for x in Int(card.minX)..<Int(card.maxX) {
                    worst = max(worst, KernelFixtures.channelDistance(a.premultipliedPixel(x: x, y: y), b.premultipliedPixel(x: x, y: y)))
                }
            }
            return worst
        }
        // A band of the upper half well above the hinge (clear of the falling page), and one of
        // the lower half well below it (the page's back has not come down that far).
        let upper = (Int(card.minY + card.height * 0.15), Int(card.minY + card.height * 0.4))
        let lower = (Int(card.minY + card.height * 0.75), Int(card.minY + card.height * 0.9))
        #expect(distance(old, new, upper.0, upper.1) > 100, "the digits' upper halves differ")
        #expect(distance(frame, new, upper.0, upper.1) <= 1, "the upper half shows the next minute")
        #expect(distance(frame, old, lower.0, lower.1) <= 1, "the lower half still shows this minute")
    }

    @Test func twelveHourAndNoSeconds() {
        let scene = FlipClockScene(size: CGSize(width: 480, height: 200), startTime: 15 * 3600 + 5 * 60, twelveHour: true, showsSeconds: false)
        #expect(scene.cards.count == 2)
        #expect(scene.values(at: 15 * 3600 + 5 * 60) == [3, 5])
        #expect(scene.values(at: 0) == [12, 0])
    }

    @Test func twelveHourModeSaysAMOrPM() throws {
        let scene = FlipClockScene(size: CGSize(width: 480, height: 200), startTime: 11 * 3600 + 59 * 60 + 59, twelveHour: true)
        #expect(scene.values(at: scene.startTime) == [11, 59, 59] && scene.meridiem?.string == "AM")
        scene.update(elapsed: 1)   // noon
        #expect(scene.values(at: scene.startTime + 1) == [12, 0, 0] && scene.meridiem?.string == "PM")
        #expect(FlipClockScene.meridiem(at: 0) == "AM" && FlipClockScene.meridiem(at: 13 * 3600) == "PM")
        // Under the hours card, inside the scene, below the cards; and drawn.
        let label = try #require(scene.meridiem)
        let card = scene.cards[0].layer
        #expect(abs(label.position.x - card.position.x) < 0.5)
        #expect(label.frame.minY >= card.frame.maxY && label.frame.maxY <= 200)
        #expect(FlipClockScene(size: CGSize(width: 480, height: 200), startTime: 0).meridiem == nil)
        let frame = try Renderer(scale: 1, threadCount: 1).render(scene.root, at: 1)
        var lit = 0
        for y in Int(label.frame.minY)..<Int(label.frame.maxY) {
            for x in Int(label.frame.minX)..<Int(label.frame.maxX) where frame.pixel(x: x, y: y).red > 0.5 { lit += 1 }
        }
        #expect(lit > 20, "the PM text should be drawn: \(lit) light pixels")
    }
}
