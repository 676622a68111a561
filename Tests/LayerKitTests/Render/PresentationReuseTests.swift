import Foundation
import Testing
@testable import LayerKit

/// A frame's presentation copies are reset and reused by the next frame (only the properties
/// the animations set are copied back from the model): each reused copy must equal, property by
/// property, a fresh `init(layer:)` copy with the same animations applied.
@Suite struct PresentationReuseTests {
    /// A shape layer under a group (position, width by keyframes, an additive turn, strokeEnd)
    /// and a spring on opacity, its model changed now and then — an animated property, a drawn
    /// one, one that invalidates nothing (`name`) — over 200 frames.
    @Test func reusedCopiesEqualFreshOnes() {
        let shape = ShapeLayer()
        shape.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
        shape.position = CGPoint(x: 50, y: 50)
        shape.path = Path(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 30))
        shape.strokeColor = .black
        let move = BasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 0, y: 0)
        move.toValue = CGPoint(x: 100, y: 80)
        let widen = KeyframeAnimation(keyPath: "bounds.size.width")
        widen.values = [CGFloat(40), 90, 20]
        widen.keyTimes = [0, 0.3, 1]
        let turn = BasicAnimation(keyPath: "transform.rotation.z")
        turn.byValue = CGFloat.pi
        turn.isAdditive = true
        let draw = BasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = CGFloat(0)
        draw.toValue = CGFloat(1)
        let group = AnimationGroup()
        group.animations = [move, widen, turn, draw]
        group.duration = 2
        group.repeatCount = .infinity
        shape.add(group, forKey: "group")
        let fade = SpringAnimation(keyPath: "opacity", mass: 1, stiffness: 50, damping: 3)
        fade.fromValue = Float(0)
        fade.toValue = Float(1)
        fade.duration = 4
        shape.add(fade, forKey: "fade")

        let declarations = LayerPropertyTable.of(shape).declarations
        var earlier: Layer?
        var reuses = 0
        for step in 0..<200 {
            switch step % 9 {
            case 2: shape.name = "step \(step)"
            case 4: shape.lineWidth = CGFloat(step % 5) + 1
            case 6: shape.position.x += 1
            default: break
            }
            let time = Double(step) * 0.037
            var callbacks: [() -> Void] = []
            guard let reused = shape.presentationCopy(atLocalTime: time, notify: false, reusing: earlier, callbacks: &callbacks),
                  let fresh = shape.presentationCopy(atLocalTime: time, notify: false, callbacks: &callbacks) else {
                Issue.record("no presentation at step \(step)")
                return
            }
            if reused === earlier { reuses += 1 }
            // Reused exactly when the model's declared properties did not change since.
            #expect((reused === earlier) == (step > 0 && ![2, 4, 6].contains(step % 9)), "step \(step)")
            for declaration in declarations {
                #expect(declaration.hasSameValue(reused, fresh), "\(declaration.name) differs at step \(step)")
            }
            #expect(reused.contentVersion == fresh.contentVersion)
            #expect(reused.changeCount == fresh.changeCount)
            #expect(reused.drawsContent == fresh.drawsContent)
            earlier = reused
        }
        #expect(reuses > 100)
    }

    /// A subclass may keep state of its own in `init(layer:)`: its copies are never reused.
    @Test func copiesOfSubclassesAreNotReused() {
        final class Tinted: Layer {
            var tint = 0
            override init() { super.init() }
            required init(layer: Layer) {
                tint = (layer as? Tinted)?.tint ?? 0
                super.init(layer: layer)
            }
        }
        let layer = Tinted()
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.toValue = CGFloat.pi
        spin.duration = 1
        layer.add(spin, forKey: "spin")
        var callbacks: [() -> Void] = []
        let first = layer.presentationCopy(atLocalTime: 0.1, notify: false, callbacks: &callbacks)
        layer.tint = 7
        let second = layer.presentationCopy(atLocalTime: 0.2, notify: false, reusing: first, callbacks: &callbacks)
        #expect(second !== first)
        #expect((second as? Tinted)?.tint == 7)
    }
}
