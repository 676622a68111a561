import Foundation
import Testing
@testable import LayerKit

/// A group redrawn every frame keeps what did not change in it: the coverage of its rounded
/// bounds, and a picture of its bottom items, over a copy of which only the items above are
/// painted. Frames stay what painting every item makes.
@Suite struct GroupRedrawTests {
    /// A flip clock's page: a card half cut to rounded corners, a label, and a black shade over
    /// all of it whose opacity animates, turning in perspective.
    func page() -> (root: Layer, shade: Layer) {
        let root = rootLayer(160, 120)
        root.backgroundColor = .darkGray
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 400
        root.sublayerTransform = perspective
        let half = Layer()
        half.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        half.anchorPoint = CGPoint(x: 0.5, y: 1)
        half.position = CGPoint(x: 80, y: 60)
        half.backgroundColor = Color(red: 0.17, green: 0.18, blue: 0.23, alpha: 1)
        half.cornerRadius = 7
        half.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMinYCorner]
        half.masksToBounds = true
        root.addSublayer(half)
        let label = TextLayer()
        label.string = "42"
        label.fontSize = 60
        label.alignmentMode = .center
        label.frame = CGRect(x: 0, y: 8, width: 100, height: 72)
        half.addSublayer(label)
        let shade = Layer()
        shade.frame = half.bounds
        shade.backgroundColor = .black
        shade.opacity = 0
        half.addSublayer(shade)
        let turn = BasicAnimation(keyPath: "transform.rotation.x")
        turn.fromValue = 0.0
        turn.toValue = -1.2
        turn.duration = 1
        half.add(turn, forKey: "turn")
        let darken = BasicAnimation(keyPath: "opacity")
        darken.fromValue = 0.0
        darken.toValue = 0.6
        darken.duration = 1
        shade.add(darken, forKey: "darken")
        return (root, shade)
    }

    @Test func aRedrawWhoseShadeAloneChangedPaintsOnlyTheShade() throws {
        let (root, _) = page()
        let renderer = Renderer(scale: 2, threadCount: 1)
        let target = try Bitmap(width: 320, height: 240)
        // The first redraw paints everything, the second sees the bottom held and paints it
        // into a picture as well as the shade.
        renderer.render(root, at: 0.1, into: target)
        renderer.render(root, at: 0.2, into: target)
        let painted = renderer.groupItemsPainted
        renderer.render(root, at: 0.3, into: target)
        #expect(renderer.groupItemsPainted - painted == 1)
    }

    @Test func framesRedrawnOverTheBottomPictureAreThoseOfEveryItemPainted() throws {
        let live = page(), fresh = page()
        let incremental = Renderer(scale: 2, threadCount: 2)
        let target = try Bitmap(width: 320, height: 240)
        for t in stride(from: 0.0, through: 1.1, by: 1.0 / 30) {
            incremental.render(live.root, at: t, into: target)
            let reference = try Renderer(scale: 2, threadCount: 1).render(fresh.root, at: t)
            #expect(target.hasSamePixels(as: reference), "frame at \(t)")
        }
        #expect(incremental.groupItemsPainted < 3 * 31)
    }

    @Test func aChangeBeneathTheShadeIsPaintedAgain() throws {
        let (root, _) = page()
        let renderer = Renderer(scale: 2, threadCount: 1)
        let target = try Bitmap(width: 320, height: 240)
        for t in [0.1, 0.2, 0.3] { renderer.render(root, at: t, into: target) }
        let label = try #require(root.sublayers?.first?.sublayers?.first as? TextLayer)
        Transaction.perform(disableActions: true) { label.string = "43" }
        renderer.render(root, at: 0.4, into: target)
        let reference = try Renderer(scale: 2, threadCount: 1).render(root, at: 0.4)
        #expect(target.hasSamePixels(as: reference))
    }
}
