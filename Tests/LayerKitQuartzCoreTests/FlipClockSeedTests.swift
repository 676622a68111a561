import LayerKitQuartzCore
import Testing

/// Seed 002 (OneClock's flip clock): the page turns as `transform.rotation.x` animations.
/// `rotationFirst` and `rotationSecond` are the seed's code as published, with one change: the
/// seed's `selfas?` typo (which compiles nowhere) is `self as?`. The seed's `rotation(A:B:C:)`
/// schedules with `perform(#selector(…), afterDelay:)`, Objective-C's runtime, and is the UIKit
/// around the code: the test calls the two functions itself.
class FlipController {   // the seed's view controller; not final, as UIKit's are, so `self as?` may succeed
    func rotationFirst(view:UIView){

        //旧值标签，先出来

        let animation = CABasicAnimation(keyPath: "transform.rotation.x")

        animation.fromValue = (-10/360)*Double.pi

        animation.toValue = (-355/360)*Double.pi

        animation.duration = 1.0

        animation.repeatCount = 0

        animation.delegate = self as? CAAnimationDelegate

        view.layer.add(animation, forKey: "rotationSecond")

        view.alpha = 1

    }

    func rotationSecond(view:UIView) {

        //新值标签，后

        let animation = CABasicAnimation(keyPath: "transform.rotation.x")

        animation.fromValue = (355/360) * Double.pi

        animation.toValue = (10/360) * Double.pi

        animation.duration = 1.0

        animation.repeatCount = 0

        animation.delegate = self as? CAAnimationDelegate

        view.layer.add(animation, forKey: "rotationFirst")

        view.alpha = 1

    }
}

@Suite struct FlipClockSeedTests {
    /// The card of the seed's figure, 100x100: X and Y (green) already show the new time, A
    /// (orange) the old lower half, B (red) the old upper half that falls about the hinge, C
    /// (blue) the new lower half that falls from above. Layers facing away are not drawn.
    struct Card {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let a, b, c: UIView

        init() {
            root.layer.backgroundColor = UIColor.white.cgColor
            root.layer.sublayerTransform.m34 = -1.0 / 500   // the perspective, about the hinge at the centre
            _ = Self.half(of: root, top: true, .green)    // X
            _ = Self.half(of: root, top: false, .green)   // Y
            a = Self.half(of: root, top: false, .orange)
            c = Self.half(of: root, top: false, .blue, anchorY: 0)
            b = Self.half(of: root, top: true, .red, anchorY: 1)
        }

        /// A half of the card, turning about the hinge when given the anchor there.
        static func half(of root: UIView, top: Bool, _ color: UIColor, anchorY: CGFloat? = nil) -> UIView {
            let view = UIView(frame: .zero)
            if let anchorY { view.layer.anchorPoint = CGPoint(x: 0.5, y: anchorY) }
            view.frame = CGRect(x: 0, y: top ? 0 : 50, width: 100, height: 50)
            view.layer.backgroundColor = color.cgColor
            view.layer.isDoubleSided = false
            root.addSubview(view)
            return view
        }
    }

    @Test func aQuarterInTheOldUpperHalfFallsAndTheNewLowerHalfIsStillBehind() throws {
        let card = Card()
        let controller = FlipController()
        controller.rotationFirst(view: card.b)
        controller.rotationSecond(view: card.c)
        // t = 0.25: B at −5° − 172.5°/4 = −48.1° about x; its top edge at 50 − 50·cos / (1 − 50·sin/500) ≈ 13.9.
        let shown = try frame(of: card.root.layer, at: 0.25)
        #expect(shown.pixel(x: 50, y: 5).isClose(to: .green))     // above B's falling edge: X
        #expect(shown.pixel(x: 50, y: 40).isClose(to: .red))      // B
        #expect(shown.pixel(x: 50, y: 60).isClose(to: .orange))   // C at 134° faces away: A
    }

    @Test func threeQuartersInTheNewLowerHalfCoversTheOld() throws {
        let card = Card()
        let controller = FlipController()
        controller.rotationFirst(view: card.b)
        controller.rotationSecond(view: card.c)
        // t = 0.75: B at −134° faces away; C at 177.5° − 129.4° = 48.1°, its free edge at
        // 50 + 50·cos / (1 − 50·sin/500) ≈ 86.1.
        let shown = try frame(of: card.root.layer, at: 0.75)
        #expect(shown.pixel(x: 50, y: 40).isClose(to: .green))    // the new upper half, X
        #expect(shown.pixel(x: 50, y: 60).isClose(to: .blue))     // C
        #expect(shown.pixel(x: 50, y: 80).isClose(to: .blue))
        #expect(shown.pixel(x: 50, y: 95).isClose(to: .orange))   // below C's edge: A
    }

    @Test func afterTheFlipTheAnimationsAreGone() throws {
        let card = Card()
        let controller = FlipController()
        controller.rotationFirst(view: card.b)
        controller.rotationSecond(view: card.c)
        // Removed on completion with fill mode `.removed`: the model shows, flat.
        let shown = try frame(of: card.root.layer, at: 1.5)
        #expect(shown.pixel(x: 50, y: 25).isClose(to: .red))
        #expect(shown.pixel(x: 50, y: 75).isClose(to: .blue))
        #expect(card.b.layer.animationKeys() == nil && card.c.layer.animationKeys() == nil)
    }
}
