import Foundation
import Testing
@testable import LayerKit

/// Small scene helpers for render tests.
func rootLayer(_ width: CGFloat = 200, _ height: CGFloat = 200) -> Layer {
    let root = Layer()
    root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
    return root
}

func solidLayer(_ rect: CGRect, _ color: Color, in parent: Layer) -> Layer {
    let layer = Layer()
    layer.frame = rect
    layer.backgroundColor = color
    parent.addSublayer(layer)
    return layer
}

extension Bitmap {
    func alpha(_ x: Int, _ y: Int) -> Int { Int(premultipliedPixel(x: x, y: y) >> 24) }
}

@Suite struct RendererTests {
    /// A renderer gathers each frame's items in a buffer it keeps: frames whose item counts grow
    /// and shrink still draw what a fresh renderer draws, the buffer is empty between frames
    /// (it holds no store or mask), and a buffer far bigger than the frames fill is let go.
    @Test func framesOfChangingItemCountsMatchFreshFramesAndKeepNoItems() throws {
        let root = rootLayer(120, 90)
        root.backgroundColor = .gray
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 120, height: 90)
        Transaction.begin()
        Transaction.setDisableActions(true)
        defer { Transaction.commit() }
        for (frame, count) in [3, 2000, 0, 40, 1].enumerated() {
            root.sublayers = nil
            for i in 0 ..< count {
                let x = CGFloat(i * 7 % 110), y = CGFloat(i * 13 % 80)
                _ = solidLayer(CGRect(x: x, y: y, width: 9, height: 9),
                               Color(red: Double(i % 5) / 4, green: Double(frame) / 4, blue: 0.5, alpha: 0.75), in: root)
            }
            renderer.render(root, at: 0, into: target)
            #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(root, at: 0)), "frame \(frame): \(count) layers")
            #expect(renderer.itemBuffer.isEmpty)
            #expect(renderer.itemBuffer.capacity <= max(1024, 4 * (count + 1)))
        }
    }

    /// A full frame whose stores helpers draw while the frame's thread goes on has its painting
    /// planned meanwhile (`Painter.plan`, bands and all): its frames are those of one thread,
    /// bit for bit, frame after frame of changing lines.
    @Test func fullFramesPlannedWhileStoresAreDrawnMatchOneThread() throws {
        let root = rootLayer(640, 480)
        root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.2)
        let lines = ChangingLines(in: root)
        let one = Renderer(threadCount: 1), two = Renderer(threadCount: 2)
        let a = try Bitmap(width: 640, height: 480), b = try Bitmap(width: 640, height: 480)
        for frame in 0..<12 {
            lines.show(frame: frame)
            one.invalidate()
            two.invalidate()
            one.render(root, at: 0, into: a)
            two.render(root, at: 0, into: b)
            let differing = b.differingPixels(from: a)
            #expect(differing == 0, "frame \(frame): \(differing) pixels differ from one thread's")
        }
        #expect(two.paintsPlannedAhead > 0, "no frame was planned while its stores were drawn")
        #expect(one.paintsPlannedAhead == 0)
    }

    @Test func handWithBottomAnchorAtNinetyDegreesPointsRight() throws {
        let face = rootLayer()
        let hand = Layer()
        hand.bounds = CGRect(x: 0, y: 0, width: 4, height: 80)
        hand.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.position = CGPoint(x: 100, y: 100)
        hand.backgroundColor = .black
        face.addSublayer(hand)
        hand.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let frame = try Renderer(threadCount: 1).render(face)
        // Right of the centre, along the hand: covered.
        for x in [105, 140, 175] { #expect(frame.alpha(x, 100) == 255, "x = \(x)") }
        // Above the centre (where an unturned hand would be), left of it, and past its tip: empty.
        for (x, y) in [(100, 60), (100, 30), (60, 100), (185, 100)] { #expect(frame.alpha(x, y) == 0, "(\(x), \(y))") }
    }

    @Test func backFaceIsCulledWhenNotDoubleSided() throws {
        let root = rootLayer()
        let card = solidLayer(CGRect(x: 50, y: 50, width: 100, height: 100), .red, in: root)
        card.transform = Transform3D(rotationAngle: .pi, x: 1, y: 0, z: 0)
        let renderer = Renderer(threadCount: 1)
        #expect(try renderer.render(root).alpha(100, 100) == 255)   // double-sided: its back shows
        card.isDoubleSided = false
        let frame = try renderer.render(root)
        #expect(frame.withUnsafePixels { $0.allSatisfy { $0 == 0 } })
    }

    @Test func perspectiveWidensTheNearEdgeAsTheMatrixPredicts() throws {
        let root = rootLayer(300, 300)
        root.sublayerTransform.m34 = -1.0 / 500
        let card = solidLayer(CGRect(x: 100, y: 100, width: 100, height: 100), .white, in: root)
        card.transform = Transform3D(rotationAngle: .pi / 3, x: 1, y: 0, z: 0)
        let frame = try Renderer(threadCount: 1).render(root)
        let quad = Homography(card.transformToSuperlayer()).projectedPolygon(of: card.bounds)
        func coverage(_ y: Int) -> CGFloat { (0..<300).reduce(0) { $0 + CGFloat(frame.alpha($1, y)) / 255 } }
        func expected(_ y: CGFloat) -> CGFloat {
            let l = quad[0].x + (quad[3].x - quad[0].x) * (y - quad[0].y) / (quad[3].y - quad[0].y)
            let r = quad[1].x + (quad[2].x - quad[1].x) * (y - quad[1].y) / (quad[2].y - quad[1].y)
            return r - l
        }
        let top = Int(quad[0].y.rounded(.up)) + 1, bottom = Int(quad[3].y.rounded(.down)) - 1
        #expect(abs(coverage(top) - expected(CGFloat(top) + 0.5)) < 1.5)
        #expect(abs(coverage(bottom) - expected(CGFloat(bottom) + 0.5)) < 1.5)
        #expect(coverage(bottom) > coverage(top) + 10)
    }

    @Test func groupOpacityFadesTheSubtreeAsOne() throws {
        let root = rootLayer(100, 50)
        let group = Layer()
        group.frame = root.bounds
        root.addSublayer(group)
        _ = solidLayer(CGRect(x: 0, y: 0, width: 60, height: 50), .red, in: group)
        _ = solidLayer(CGRect(x: 40, y: 0, width: 60, height: 50), .red, in: group)
        group.opacity = 0.5
        let renderer = Renderer(threadCount: 1)
        var frame = try renderer.render(root)
        // As one group: the overlap is no more opaque than the rest.
        #expect(frame.alpha(50, 25) == frame.alpha(10, 25))
        #expect(abs(frame.alpha(10, 25) - 128) <= 1)
        group.allowsGroupOpacity = false
        frame = try renderer.render(root)
        // Separately: the overlap is 1 − 0.5² = 75% opaque.
        #expect(abs(frame.alpha(50, 25) - 191) <= 1)
    }

    @Test func masksToBoundsClipsSublayersAlignedAndRotated() throws {
        let root = rootLayer()
        let clip = Layer()
        clip.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        clip.masksToBounds = true
        root.addSublayer(clip)
        _ = solidLayer(CGRect(x: -50, y: -50, width: 300, height: 300), .blue, in: clip)
        let renderer = Renderer(threadCount: 1)
        var frame = try renderer.render(root)
        #expect(frame.alpha(49, 100) == 0 && frame.alpha(50, 100) == 255 && frame.alpha(149, 100) == 255 && frame.alpha(150, 100) == 0)
        // After the first frame, changes animate implicitly; this one should show at once.
        Transaction.perform(disableActions: true) {
            clip.transform = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        }
        frame = try renderer.render(root)
        // The rotated square's corners reach 70.7 points from the centre along the axes …
        #expect(frame.alpha(100, 100 - 65) == 255)
        // … but its edges' midpoints only 50 along the diagonals: beyond, the clip holds.
        #expect(frame.alpha(100 - 45, 100 - 45) == 0)
        #expect(frame.alpha(160, 160) == 0)
    }

    @Test func roundedCornersAndBorder() throws {
        let root = rootLayer(100, 100)
        let box = solidLayer(CGRect(x: 10, y: 10, width: 80, height: 80), .white, in: root)
        box.cornerRadius = 20
        box.borderWidth = 4
        box.borderColor = .red
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.alpha(11, 11) == 0)                            // cut corner
        #expect(frame.pixel(x: 50, y: 12) == .red)                   // border along the top edge
        #expect(frame.pixel(x: 50, y: 50) == .white)                 // inside
        #expect(frame.alpha(50, 9) == 0)                             // outside the bounds
    }

    @Test func borderIsDrawnAboveSublayers() throws {
        let root = rootLayer(100, 100)
        let box = Layer()
        box.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
        box.borderWidth = 5
        box.borderColor = .red
        root.addSublayer(box)
        _ = solidLayer(CGRect(x: 0, y: 0, width: 80, height: 80), .blue, in: box)
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 12, y: 50) == .red)
        #expect(frame.pixel(x: 50, y: 50) == .blue)
    }

    @Test func maskLayerCutsByItsAlpha() throws {
        let root = rootLayer(100, 100)
        let box = solidLayer(CGRect(x: 0, y: 0, width: 100, height: 100), .green, in: root)
        let mask = Layer()
        mask.frame = CGRect(x: 0, y: 0, width: 50, height: 100)
        mask.backgroundColor = .black
        box.mask = mask
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.alpha(25, 50) == 255 && frame.alpha(75, 50) == 0)
    }

    @Test func shadowFallsBesideTheLayerAndFadesOut() throws {
        let root = rootLayer(120, 120)
        let box = solidLayer(CGRect(x: 30, y: 30, width: 40, height: 40), .white, in: root)
        box.shadowOpacity = 1
        box.shadowOffset = CGSize(width: 10, height: 10)
        box.shadowRadius = 3
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 50, y: 50) == .white)
        // Just past the right edge, inside the offset shadow: dark and opaque-ish.
        let inShadow = frame.pixel(x: 75, y: 55)
        #expect(inShadow.alpha > 0.8 && inShadow.red < 0.05)
        // The shadow's soft edge: partial alpha around x = 80 (the shadow's edge).
        let edge = frame.alpha(80, 55)
        #expect(edge > 60 && edge < 200)
        // Far away: nothing.
        #expect(frame.alpha(110, 110) == 0)
        // Above-left (away from the offset): no shadow beyond the box.
        #expect(frame.alpha(27, 27) == 0)
    }

    @Test func shadowPathShapesTheShadowInsteadOfTheContent() throws {
        let root = rootLayer(120, 120)
        let box = solidLayer(CGRect(x: 20, y: 20, width: 40, height: 40), .white, in: root)
        box.shadowOpacity = 1
        box.shadowRadius = 0
        box.shadowOffset = .zero
        // A shadow only to the right of the box, as a 30x10 bar in its own space.
        box.shadowPath = Path(rect: CGRect(x: 45, y: 15, width: 30, height: 10))
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 90, y: 40) == .black)           // the bar, beyond the box
        #expect(frame.alpha(90, 30) == 0 && frame.alpha(90, 50) == 0)
        #expect(frame.pixel(x: 40, y: 40) == .white)           // the box itself
        // Changing the path changes the shadow without touching the content store.
        let renderer = Renderer(threadCount: 1)
        _ = try renderer.render(root)
        let stores = renderer.rasterizationCount
        box.shadowPath = Path(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 40))
        _ = try renderer.render(root)
        #expect(renderer.rasterizationCount == stores + 1)
    }

    @Test func contentsGravityPlacesTheImage() throws {
        let image = try Image(try Bitmap(width: 20, height: 10, color: .red))
        let root = rootLayer(100, 100)
        let layer = Layer()
        layer.frame = root.bounds
        layer.contents = image
        layer.contentsGravity = .topLeft
        root.addSublayer(layer)
        let renderer = Renderer(threadCount: 1)
        var frame = try renderer.render(root)
        #expect(frame.alpha(5, 5) == 255 && frame.alpha(25, 5) == 0 && frame.alpha(5, 15) == 0)
        layer.contentsGravity = .bottomRight
        frame = try renderer.render(root)
        #expect(frame.alpha(95, 95) == 255 && frame.alpha(75, 95) == 0)
        layer.contentsGravity = .resizeAspect
        frame = try renderer.render(root)
        // 20x10 fit into 100x100: 100x50, centred vertically.
        #expect(frame.alpha(50, 50) == 255 && frame.alpha(50, 20) == 0 && frame.alpha(50, 80) == 0)
    }

    @Test func changesAfterTheFirstFrameAnimateImplicitly() throws {
        let root = rootLayer(100, 100)
        let box = solidLayer(CGRect(x: 0, y: 0, width: 20, height: 20), .black, in: root)
        let renderer = Renderer(threadCount: 1)
        _ = try renderer.render(root, at: 1)
        box.position = CGPoint(x: 90, y: 10)          // from x = 10 over 0.25 s, starting at 1
        let start = try renderer.render(root, at: 1)
        #expect(start.alpha(5, 10) == 255 && start.alpha(85, 10) == 0)
        // Half way in time, the default curve has covered v of the distance.
        let v = TimingFunction.default.value(at: 0.5)
        let middle = try renderer.render(root, at: 1.125)
        let centre = Int((10 + 80 * v).rounded())
        #expect(middle.alpha(centre, 10) == 255 && middle.alpha(centre - 12, 10) == 0 && middle.alpha(centre + 12, 10) == 0)
        let end = try renderer.render(root, at: 1.25)
        #expect(end.alpha(5, 10) == 0 && end.alpha(85, 10) == 255)
        #expect(box.animationKeys() == nil)           // finished and removed
    }

    @Test func animatedRotationAtHalfTimeShowsHalfATurn() throws {
        let root = rootLayer()
        let hand = Layer()
        hand.bounds = CGRect(x: 0, y: 0, width: 4, height: 80)
        hand.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.position = CGPoint(x: 100, y: 100)
        hand.backgroundColor = .black
        root.addSublayer(hand)
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 1
        spin.timingFunction = TimingFunction(name: .linear)
        hand.add(spin, forKey: "spin")
        let frame = try Renderer(threadCount: 1).render(root, at: 0.5)
        // At 180° the hand points down.
        #expect(frame.alpha(100, 150) == 255)
        #expect(frame.alpha(100, 50) == 0)
    }
}
