import LayerKitQuartzCore
import Testing

/// Core Animation code in its own names, rendered: each test is what an iOS tutorial writes,
/// with the expected pixels worked out beside it.
@Suite struct CoreAnimationNamesTests {
    private func root(_ size: CGFloat = 100) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: size, height: size)
        root.backgroundColor = UIColor.white.cgColor
        return root
    }

    @Test func shapeLayerFromABezierPathWithAStrokeEndAnimation() throws {
        let root = root()
        let ring = CAShapeLayer()
        ring.frame = root.bounds
        ring.path = UIBezierPath(arcCenter: CGPoint(x: 50, y: 50), radius: 40, startAngle: -.pi / 2,
                                 endAngle: 1.5 * .pi, clockwise: true).cgPath
        ring.fillColor = UIColor.clear.cgColor
        ring.strokeColor = UIColor.blue.cgColor
        ring.lineWidth = 6
        ring.lineCap = .round
        root.addSublayer(ring)
        let draw = CABasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0
        draw.toValue = 1
        draw.duration = 2
        draw.timingFunction = CAMediaTimingFunction(name: .linear)
        draw.fillMode = .forwards
        draw.isRemovedOnCompletion = false
        ring.add(draw, forKey: "draw")
        // Halfway: clockwise from 12 round to 6, so 3 o'clock (90, 50) is drawn, 9 (10, 50) not.
        let half = try frame(of: root, at: 1)
        #expect(half.pixel(x: 90, y: 50).isClose(to: .blue))
        #expect(half.pixel(x: 10, y: 50).isClose(to: .white))
        // Held by `.forwards` after the end: the whole ring.
        let after = try frame(of: root, at: 5)
        #expect(after.pixel(x: 10, y: 50).isClose(to: .blue))
        #expect(ring.animation(forKey: "draw") != nil)
    }

    @Test func mutablePathBuiltInPlaceAndAnimatedBetweenPaths() throws {
        let root = root()
        let shape = CAShapeLayer()
        let small = CGMutablePath()
        small.addRect(CGRect(x: 10, y: 10, width: 20, height: 20))
        let large = CGMutablePath()
        large.addRect(CGRect(x: 10, y: 10, width: 80, height: 20))
        shape.path = small
        shape.fillColor = UIColor.red.cgColor
        root.addSublayer(shape)
        #expect(shape.path == small)
        let grow = CABasicAnimation(keyPath: "path")
        grow.fromValue = small
        grow.toValue = large
        grow.duration = 1
        shape.add(grow, forKey: nil)
        // Halfway the rectangle is 50 wide: x 10…60.
        let shown = try frame(of: root, at: 0.5)
        #expect(shown.pixel(x: 55, y: 20).isClose(to: .red))
        #expect(shown.pixel(x: 65, y: 20).isClose(to: .white))
    }

    @Test func transform3DFunctionsAndRotationKeyPath() throws {
        let root = root()
        let bar = CALayer()
        bar.bounds = CGRect(x: 0, y: 0, width: 60, height: 10)
        bar.position = CGPoint(x: 50, y: 50)
        bar.backgroundColor = UIColor.black.cgColor
        bar.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        root.addSublayer(bar)
        #expect(CATransform3DEqualToTransform(CATransform3DRotate(CATransform3DIdentity, .pi / 2, 0, 0, 1), bar.transform))
        #expect(CATransform3DIsAffine(bar.transform) && !CATransform3DIsIdentity(bar.transform))
        // A quarter turn: vertical, covering y 20…80 at x 50.
        let shown = try frame(of: root, at: 0)
        #expect(shown.pixel(x: 50, y: 25).isClose(to: .black) && shown.pixel(x: 75, y: 50).isClose(to: .white))
        // transform.rotation.z by a keyframe animation back to 0 at its end.
        let turn = CAKeyframeAnimation(keyPath: "transform.rotation.z")
        turn.values = [Double.pi / 2, 0.0]
        turn.keyTimes = [0, 1]
        turn.duration = 1
        turn.fillMode = .forwards
        turn.isRemovedOnCompletion = false
        bar.add(turn, forKey: "turn")
        let end = try frame(of: root, at: 2)
        #expect(end.pixel(x: 75, y: 50).isClose(to: .black) && end.pixel(x: 50, y: 25).isClose(to: .white))
    }

    @Test func keyframeAnimationAlongACGPath() throws {
        let root = root()
        let dot = CALayer()
        dot.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        dot.backgroundColor = UIColor.red.cgColor
        root.addSublayer(dot)
        let route = CGMutablePath()
        route.move(to: CGPoint(x: 20, y: 20))
        route.addLine(to: CGPoint(x: 80, y: 20))
        let follow = CAKeyframeAnimation(keyPath: "position")
        follow.path = route
        follow.duration = 1
        dot.add(follow, forKey: "follow")
        #expect(follow.path == route)
        // Halfway along the line: (50, 20).
        let shown = try frame(of: root, at: 0.5)
        #expect(shown.pixel(x: 50, y: 20).isClose(to: .red))
        #expect(shown.pixel(x: 20, y: 20).isClose(to: .white))
    }

    @Test func transactionClassMethodsAsCoreAnimationSpellsThem() throws {
        let root = root()
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        box.backgroundColor = UIColor.green.cgColor
        root.addSublayer(box)
        _ = try frame(of: root, at: 0)   // from the first frame on, changes animate implicitly
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        #expect(CATransaction.animationDuration() == 2 && !CATransaction.disableActions())
        box.position = CGPoint(x: 60, y: 10)   // from (10, 10): 50 points in 2 s
        CATransaction.commit()
        let halfway = try frame(of: root, at: 1)
        #expect(halfway.pixel(x: 35, y: 10).isClose(to: .green))   // the box's centre at (35, 10)
        #expect(halfway.pixel(x: 60, y: 10).isClose(to: .white))
        #expect(box.presentation()?.position == CGPoint(x: 35, y: 10))
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.opacity = 0.5
        CATransaction.commit()
        #expect(box.animation(forKey: "opacity") == nil && box.opacity == 0.5)
        let m: CALayer = box.model()
        #expect(m === box)
    }

    @Test func delegateReturningNoneDisablesAnAction() throws {
        final class NoFades: CALayerDelegate {
            func action(for layer: CALayer, forKey event: String) -> CAAction {
                event == "opacity" ? .none : .default
            }
        }
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        let delegate = NoFades()
        layer.delegate = delegate
        _ = try frame(of: layer, at: 0)
        layer.opacity = 0.5
        layer.cornerRadius = 4
        #expect(layer.animationKeys() == ["cornerRadius"])
    }

    @Test func springReplicatorGradientAndTextLayers() throws {
        let root = root(120)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 0, y: 0, width: 120, height: 20)
        gradient.colors = [UIColor.black.cgColor, UIColor.white.cgColor]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        root.addSublayer(gradient)
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 0, y: 40, width: 120, height: 20)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(40, 0, 0)
        let tile = CALayer()
        tile.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        tile.backgroundColor = UIColor.blue.cgColor
        replicator.addSublayer(tile)
        root.addSublayer(replicator)
        let text = CATextLayer()
        text.frame = CGRect(x: 0, y: 70, width: 120, height: 40)
        text.string = "CA"
        text.fontSize = 30
        text.foregroundColor = UIColor.black.cgColor
        text.alignmentMode = .center
        root.addSublayer(text)
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.fromValue = 10
        spring.toValue = 110
        spring.damping = 10
        spring.duration = spring.settlingDuration
        tile.add(spring, forKey: "spring")
        let shown = try frame(of: root, at: 10)   // long settled: the model position
        // The gradient runs from black at the left to white at the right.
        #expect(shown.pixel(x: 2, y: 10).red < 0.1 && shown.pixel(x: 117, y: 10).red > 0.9)
        // Three tiles 40 apart: x 0…20, 40…60, 80…100.
        #expect(shown.pixel(x: 50, y: 50).isClose(to: .blue) && shown.pixel(x: 90, y: 50).isClose(to: .blue))
        #expect(shown.pixel(x: 30, y: 50).isClose(to: .white))
        // The text draws dark pixels in the middle of its line, none at its far left.
        var dark = 0
        for x in 30..<90 { for y in 70..<110 where shown.pixel(x: x, y: y).red < 0.3 { dark += 1 } }
        #expect(dark > 50)
        #expect((0..<10).allSatisfy { x in shown.pixel(x: x, y: 90).red > 0.9 })
    }

    @Test func swift2SpellingsForwardToTheModernOnes() {
        let path = CGPathCreateMutable()
        CGPathMoveToPoint(path, nil, 1, 2)
        CGPathAddLineToPoint(path, nil, 3, 4)
        CGPathAddArc(path, nil, 0, 0, 5, 0, .pi, false)
        CGPathCloseSubpath(path)
        let modern = CGMutablePath()
        modern.move(to: CGPoint(x: 1, y: 2))
        modern.addLine(to: CGPoint(x: 3, y: 4))
        modern.addArc(center: .zero, radius: 5, startAngle: 0, endAngle: .pi, clockwise: false)
        modern.closeSubpath()
        #expect(path == modern)
        #expect(CGRectGetMidX(CGRectMake(0, 0, 10, 20)) == 5 && CGRectGetHeight(CGRectMake(0, 0, 10, 20)) == 20)
        #expect(UIColor.blackColor().CGColor == UIColor.black.cgColor)
        #expect(kCALineCapRound == .round && kCAMediaTimingFunctionLinear == .linear && kCAFillModeForwards == .forwards)
    }
}
