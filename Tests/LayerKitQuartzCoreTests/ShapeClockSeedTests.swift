import LayerKitQuartzCore
import Testing

/// Seed 003 (a clock's hands as CAShapeLayers turned by endless CABasicAnimations), written in
/// Swift 1–2 in 2015. The layer code — the hour hand's shape layer and `rotateLayer` — is the
/// seed's as published, through LayerKitQuartzCore's Swift 2 spellings (`CGPathCreateMutable`,
/// `kCALineCapRound`, `UIColor.blackColor().CGColor`, `addAnimation`). Changes, all of them
/// Swift language changes no library can absorb, are marked `// Swift 6:`.
class ShapeClockController: CAAnimationDelegate {
    let view = UIView(frame: CGRect(x: 0, y: 0, width: 200, height: 200))

    func timeCoords(x:CGFloat,y:CGFloat,time:(h:Int,m:Int,s:Int),radius:CGFloat,adjustment:CGFloat=90)->(h:CGPoint, m:CGPoint,s:CGPoint) {
        let cx = x // x origin
        let cy = y // y origin
        var r = radius // radius of circle
        var points = [CGPoint]()
        let angle = degree2radian(6)   // Swift 6: let (was var; never mutated)
        func newPoint (t:Int) {
            let xpo = cx - r * cos(angle * CGFloat(t)+degree2radian(adjustment))
            let ypo = cy - r * sin(angle * CGFloat(t)+degree2radian(adjustment))
            points.append(CGPoint(x: xpo, y: ypo))
        }
        // work out hours first
        // Swift 6: the seed's `var hours = time.h; if hours > 12 { hours = hours-12 }` is never read; dropped.
        let hoursInSeconds = time.h*3600 + time.m*60 + time.s
        newPoint(t: hoursInSeconds*5/3600)   // Swift 6: argument label t:
        // work out minutes second
        r = radius * 1.25
        let minutesInSeconds = time.m*60 + time.s
        newPoint(t: minutesInSeconds/60)   // Swift 6: argument label t:
        // work out seconds last
        r = radius * 1.5
        newPoint(t: time.s)   // Swift 6: argument label t:
        return (h:points[0],m:points[1],s:points[2])
    }

    /// The seed's hour hand, as published.
    func addHourHand(newView: UIView, time: (h: CGPoint, m: CGPoint, s: CGPoint)) -> CAShapeLayer {
        let hourLayer = CAShapeLayer()
        hourLayer.frame = newView.frame
        let path = CGPathCreateMutable()
        CGPathMoveToPoint(path, nil, CGRectGetMidX(newView.frame), CGRectGetMidY(newView.frame))
        CGPathAddLineToPoint(path, nil, time.h.x, time.h.y)
        hourLayer.path = path
        hourLayer.lineWidth = 4
        hourLayer.lineCap = kCALineCapRound
        hourLayer.strokeColor = UIColor.blackColor().CGColor
        // see for rasterization advice http://stackoverflow.com/questions/24316705/how-to-draw-a-smooth-circle-with-cashapelayer-and-uibezierpath
        hourLayer.rasterizationScale = UIScreen.mainScreen().scale; hourLayer.shouldRasterize = true
        self.view.layer.addSublayer(hourLayer)
        return hourLayer
    }

    func rotateLayer(currentLayer:CALayer,dur:CFTimeInterval){
        let angle = degree2radian(360)   // Swift 6: let (was var; never mutated)
        // rotation http://stackoverflow.com/questions/1414923/how-to-rotate-uiimageview-with-fix-point
        let theAnimation = CABasicAnimation(keyPath:"transform.rotation.z")   // Swift 6: let (was var)
        theAnimation.duration = dur
        // Make this view controller the delegate so it knows when the animation starts and ends
        theAnimation.delegate = self
        theAnimation.timingFunction = CAMediaTimingFunction(name: kCAMediaTimingFunctionLinear)
        // Use fromValue and toValue
        theAnimation.fromValue = 0
        theAnimation.repeatCount = Float.infinity
        theAnimation.toValue = angle
        // Add the animation to the layer
        currentLayer.addAnimation(theAnimation, forKey:"rotate")
    }
}

@Suite struct ShapeClockSeedTests {
    /// The clock at 3:00:00, its hour hand turning once in 12 hours.
    private func clock() -> (ShapeClockController, CAShapeLayer) {
        let controller = ShapeClockController()
        controller.view.layer.backgroundColor = UIColor.white.cgColor
        let time = controller.timeCoords(x: 100, y: 100, time: (h: 3, m: 0, s: 0), radius: 50)
        let hand = controller.addHourHand(newView: controller.view, time: time)
        controller.rotateLayer(currentLayer: hand, dur: 43200)
        return (controller, hand)
    }

    private func isBlack(_ c: UIColor) -> Bool { c.red < 0.1 && c.green < 0.1 && c.blue < 0.1 && c.alpha > 0.9 }

    @Test func theHourHandPointsAtThreeWhenTheClockStarts() throws {
        let (controller, _) = clock()
        // timeCoords: 3 h is 15 of 60 steps, 15·6° + 90° = 180°, so (100 − 50·cos 180°, 100 − 50·sin 180°) = (150, 100).
        let shown = try frame(of: controller.view.layer, at: 0, scale: 2)
        #expect(isBlack(shown.pixel(x: 2 * 130, y: 2 * 100)))
        #expect(!isBlack(shown.pixel(x: 2 * 100, y: 2 * 130)))
        #expect(!isBlack(shown.pixel(x: 2 * 70, y: 2 * 100)))
    }

    @Test func threeHoursLaterTheHandHasTurnedAQuarterClockwise() throws {
        let (controller, _) = clock()
        // 10800 s of 43200: a quarter of 2π about the layer's centre, clockwise on screen: down.
        let shown = try frame(of: controller.view.layer, at: 10_800, scale: 2)
        #expect(isBlack(shown.pixel(x: 2 * 100, y: 2 * 130)))
        #expect(!isBlack(shown.pixel(x: 2 * 130, y: 2 * 100)))
        // An hour and a half in: 45°, towards (100 + 30/√2, 100 + 30/√2).
        let half = try frame(of: controller.view.layer, at: 5_400, scale: 2)
        #expect(isBlack(half.pixel(x: Int(2 * (100 + 30 / 2.0.squareRoot())), y: Int(2 * (100 + 30 / 2.0.squareRoot())))))
    }

    @Test func theRoundCapReachesPastTheEnd() throws {
        let (controller, hand) = clock()
        #expect(hand.lineCap == .round && hand.path?.currentPoint == CGPoint(x: 150, y: 100))
        // The path ends at x = 150; the round cap of a 4-point line reaches 2 points further.
        let shown = try frame(of: controller.view.layer, at: 0, scale: 2)
        #expect(isBlack(shown.pixel(x: 2 * 151, y: 2 * 100)))
        #expect(!isBlack(shown.pixel(x: 2 * 153, y: 2 * 100)))
    }
}
