import Foundation
import Testing
@testable import LayerKit

@Suite struct LayerGeometryTests {
    @Test func frameFollowsPositionAnchorAndBounds() {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        layer.position = CGPoint(x: 200, y: 100)
        #expect(layer.frame == CGRect(x: 150, y: 80, width: 100, height: 40))
        layer.anchorPoint = CGPoint(x: 0, y: 1)
        #expect(layer.frame == CGRect(x: 200, y: 60, width: 100, height: 40))
    }

    @Test func settingFrameSetsPositionAndSize() {
        let layer = Layer()
        layer.anchorPoint = CGPoint(x: 0.5, y: 1)
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        #expect(layer.position == CGPoint(x: 25, y: 60))
        #expect(layer.bounds.size == CGSize(width: 30, height: 40))
        #expect(layer.frame == CGRect(x: 10, y: 20, width: 30, height: 40))
    }

    @Test func frameOfARotatedLayerIsItsBoundingBox() {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 20)
        layer.position = CGPoint(x: 50, y: 50)
        layer.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let f = layer.frame
        #expect(close(f.minX, 40) && close(f.minY, 0) && close(f.width, 20) && close(f.height, 100))
    }

    @Test func handWithBottomAnchorTurnsAboutItsFoot() {
        // The iOS clock hand: bounds 1x90, anchorPoint (0.5, 1), position at the face centre.
        let face = Layer()
        face.bounds = CGRect(x: 0, y: 0, width: 240, height: 240)
        let hand = Layer()
        hand.bounds = CGRect(x: 0, y: 0, width: 1, height: 90)
        hand.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.position = CGPoint(x: 120, y: 120)
        face.addSublayer(hand)
        // Unturned, the tip (top middle) is 90 points above the centre.
        #expect(close(hand.convert(CGPoint(x: 0.5, y: 0), to: face), CGPoint(x: 120, y: 30)))
        // At 15 s (90°) it points right.
        hand.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        #expect(close(hand.convert(CGPoint(x: 0.5, y: 0), to: face), CGPoint(x: 210, y: 120), 1e-9))
        #expect(close(hand.convert(CGPoint(x: 0.5, y: 90), to: face), CGPoint(x: 120, y: 120), 1e-9))
    }

    @Test func conversionRoundTripsThroughBoundsOriginsAndSublayerTransforms() {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 300, height: 300)
        let container = Layer()
        container.bounds = CGRect(x: 10, y: 20, width: 100, height: 100)
        container.position = CGPoint(x: 150, y: 150)
        container.sublayerTransform = Transform3D(scaleX: 2, y: 2)
        root.addSublayer(container)
        let child = Layer()
        child.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        child.position = CGPoint(x: 60, y: 70)   // the container's anchor point (its centre)
        container.addSublayer(child)
        // The child's centre sits on the container's anchor, which the sublayer scale keeps fixed.
        #expect(close(child.convert(CGPoint(x: 5, y: 5), to: root), CGPoint(x: 150, y: 150), 1e-9))
        // One point right in the child is two points right on screen.
        #expect(close(child.convert(CGPoint(x: 6, y: 5), to: root), CGPoint(x: 152, y: 150), 1e-9))
        let p = CGPoint(x: 3, y: 7)
        #expect(close(child.convert(child.convert(p, to: root), from: root), p, 1e-9))
        #expect(close(root.convert(p, to: child), child.convert(p, from: root)))
    }

    @Test func geometryFlippedMirrorsSublayersVertically() {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.isGeometryFlipped = true
        let child = Layer()
        child.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        child.anchorPoint = .zero
        child.position = CGPoint(x: 0, y: 0)
        root.addSublayer(child)
        // Flipped, the child's origin is at the root's bottom-left and its y grows upward.
        #expect(close(child.convert(CGPoint(x: 0, y: 0), to: root), CGPoint(x: 0, y: 100)))
        #expect(close(child.convert(CGPoint(x: 0, y: 10), to: root), CGPoint(x: 0, y: 90)))
    }

    @Test func hitTestFindsTheTopmostDeepestLayer() {
        let root = Layer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)   // a root's hit point is in the space it sits in
        let below = Layer(), above = Layer(), inner = Layer()
        for l in [below, above] {
            l.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
            l.position = CGPoint(x: 40, y: 40)
            root.addSublayer(l)
        }
        inner.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        inner.position = CGPoint(x: 5, y: 5)
        above.addSublayer(inner)
        #expect(root.hitTest(CGPoint(x: 16, y: 16)) === inner)
        #expect(root.hitTest(CGPoint(x: 40, y: 40)) === above)
        #expect(root.hitTest(CGPoint(x: 90, y: 90)) === root)
        #expect(root.hitTest(CGPoint(x: 150, y: 10)) == nil)
        above.isHidden = true
        #expect(root.hitTest(CGPoint(x: 40, y: 40)) === below)
        below.zPosition = -1
        above.isHidden = false
        above.zPosition = -2
        #expect(root.hitTest(CGPoint(x: 40, y: 40)) === below)
    }

    @Test func hitTestFollowsRotation() {
        let root = Layer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let bar = Layer()
        bar.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
        bar.position = CGPoint(x: 100, y: 100)
        bar.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        root.addSublayer(bar)
        #expect(root.hitTest(CGPoint(x: 100, y: 140)) === bar)
        #expect(root.hitTest(CGPoint(x: 140, y: 100)) === root)
    }

    @Test func nonFiniteGeometryConvertsToNaNNotACrash() {
        let root = Layer()
        let child = Layer()
        // A NaN position is refused (the layer keeps its own); geometry that overflows still
        // converts to non-finite numbers, not a crash.
        child.position = CGPoint(x: CGFloat.nan, y: 0)
        #expect(child.position == .zero)
        child.transform = Transform3D(scaleX: 1e308, y: 1e308)
        child.position = CGPoint(x: 1e308, y: 0)
        root.addSublayer(child)
        let p = child.convert(CGPoint(x: 10, y: 10), to: root)
        #expect(!p.x.isFinite || !p.y.isFinite)
        child.transform = .identity
        child.position = .zero
        child.transform = Transform3D(scaleX: 0, y: 0)
        #expect(root.convert(CGPoint(x: 1, y: 1), to: child).x.isNaN)
        root.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        child.bounds = root.bounds
        child.position = CGPoint(x: CGFloat.nan, y: 5)
        child.transform = .identity
        // A layer nowhere cannot be hit; the search carries on past it.
        #expect(root.hitTest(CGPoint(x: 5, y: 5)) === root)
    }
}
