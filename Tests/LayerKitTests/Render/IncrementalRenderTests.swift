import Foundation
import Testing
@testable import LayerKit

/// A scene with every kind of paint: rotated and perspective layers, a group with opacity,
/// a rounded clip, shadows, borders, an image; animated so that every frame differs.
func animatedScene() throws -> Layer {
    let root = rootLayer(320, 240)
    root.backgroundColor = try Color(hex: "#20242E")
    let face = solidLayer(CGRect(x: 20, y: 20, width: 200, height: 200), .white, in: root)
    face.cornerRadius = 100
    face.borderWidth = 3
    face.borderColor = .darkGray
    for (i, color) in [Color.black, .red, .blue].enumerated() {
        let hand = Layer()
        hand.bounds = CGRect(x: 0, y: 0, width: CGFloat(6 - 2 * i), height: CGFloat(60 + 20 * i))
        hand.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.position = CGPoint(x: 100, y: 100)
        hand.backgroundColor = color
        hand.shadowOpacity = 0.6
        hand.shadowOffset = CGSize(width: 2, height: 2)
        hand.shadowRadius = 2
        face.addSublayer(hand)
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = [43200, 60, 3][i]
        spin.repeatCount = .infinity
        hand.add(spin, forKey: "spin")
    }
    let card = solidLayer(CGRect(x: 240, y: 40, width: 60, height: 80), .orange, in: root)
    card.isDoubleSided = false
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 300
    root.sublayerTransform = perspective
    let flip = BasicAnimation(keyPath: "transform.rotation.x")
    flip.fromValue = 0.0
    flip.toValue = Double.pi
    flip.duration = 2
    flip.repeatCount = .infinity
    card.add(flip, forKey: "flip")
    let group = Layer()
    group.frame = CGRect(x: 230, y: 140, width: 80, height: 80)
    group.opacity = 0.6
    group.masksToBounds = true
    group.cornerRadius = 12
    root.addSublayer(group)
    let bar = solidLayer(CGRect(x: -20, y: 30, width: 120, height: 20), .green, in: group)
    let slide = BasicAnimation(keyPath: "position.x")
    slide.fromValue = 0.0
    slide.toValue = 80.0
    slide.duration = 1.5
    slide.autoreverses = true
    slide.repeatCount = .infinity
    bar.add(slide, forKey: "slide")
    return root
}

@Suite struct IncrementalRenderTests {
    @Test func incrementalBandedAndSingleThreadedFramesAreBitIdenticalToFullFrames() throws {
        let times = stride(from: 0.0, to: 3.0, by: 0.1).map { $0 }
        let full = Renderer(threadCount: 1)
        let incremental = Renderer(threadCount: 4)
        let sceneA = try animatedScene(), sceneB = try animatedScene()
        let target = try Bitmap(width: 320, height: 240)
        for t in times {
            let reference = try full.render(sceneA, at: t)
            let damage = incremental.render(sceneB, at: t, into: target)
            #expect(target.hasSamePixels(as: reference), "frame at \(t) (damage \(damage.area) px)")
        }
    }

    @Test func bandsAcrossThreadsEqualOneThread() throws {
        let one = try Renderer(threadCount: 1).render(try animatedScene(), at: 1.234)
        let many = try Renderer(threadCount: 7).render(try animatedScene(), at: 1.234)
        #expect(one.hasSamePixels(as: many))
    }

    @Test func damageCoversOnlyWhatChanged() throws {
        let root = rootLayer(400, 300)
        let still = solidLayer(CGRect(x: 10, y: 10, width: 100, height: 100), .blue, in: root)
        let moving = solidLayer(CGRect(x: 200, y: 200, width: 20, height: 20), .red, in: root)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 400, height: 300)
        #expect(renderer.render(root, into: target) == Region(target.bounds))
        #expect(renderer.render(root, into: target).isEmpty)
        Transaction.perform(disableActions: true) { moving.position.x += 30 }
        let damage = renderer.render(root, into: target)
        // The old and the new place of the moved layer, and nothing of the still one.
        #expect(damage.contains(x: 205, y: 205) && damage.contains(x: 245, y: 205))
        #expect(!damage.contains(x: 50, y: 50))
        #expect(damage.area <= 2 * 22 * 22)
        _ = still
    }

    @Test func movingLayersOnlyRecompositesContentChangesReRasterize() throws {
        let root = rootLayer(200, 200)
        let box = solidLayer(CGRect(x: 10, y: 10, width: 50, height: 50), .red, in: root)
        box.cornerRadius = 8
        let renderer = Renderer(threadCount: 1)
        _ = try renderer.render(root)
        let rasterized = renderer.rasterizationCount
        Transaction.perform(disableActions: true) {
            box.position = CGPoint(x: 120, y: 90)
            box.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            box.opacity = 0.5
        }
        _ = try renderer.render(root)
        #expect(renderer.rasterizationCount == rasterized)
        Transaction.perform(disableActions: true) { box.backgroundColor = .blue }
        _ = try renderer.render(root)
        #expect(renderer.rasterizationCount == rasterized + 1)
    }

    /// A shape whose stroke reaches past its bounds casts its shadow from the same store it
    /// paints with: turning it re-rasterizes nothing, and the shadow includes the overhang.
    @Test func shadowOfAShapeReachingPastItsBoundsSharesTheShapesStore() throws {
        let root = rootLayer(200, 200)
        root.backgroundColor = .white
        let hand = ShapeLayer()
        hand.bounds = CGRect(x: 0, y: 0, width: 20, height: 80)
        var path = Path()
        path.move(to: CGPoint(x: 10, y: 80))
        path.addLine(to: CGPoint(x: 10, y: 10))
        hand.path = path
        hand.strokeColor = .black
        hand.lineWidth = 20
        hand.lineCap = .round  // the caps reach 10 points past the bottom edge
        hand.position = CGPoint(x: 100, y: 100)
        hand.shadowOpacity = 1
        hand.shadowRadius = 0
        hand.shadowOffset = CGSize(width: 40, height: 0)
        root.addSublayer(hand)
        let renderer = Renderer(threadCount: 1)
        let frame = try renderer.render(root)
        // The shadow of the bottom cap, 40 px to the right of it (below the bounds).
        #expect(frame.pixel(x: 140, y: 145).red < 0.05)
        let rasterized = renderer.rasterizationCount
        for step in 1...3 {
            Transaction.perform(disableActions: true) {
                hand.transform = Transform3D(rotationAngle: 0.2 * CGFloat(step), x: 0, y: 0, z: 1)
            }
            _ = try renderer.render(root)
        }
        #expect(renderer.rasterizationCount == rasterized)
    }

    @Test func storesOfRemovedLayersAreReleased() throws {
        let root = rootLayer(100, 100)
        let box = solidLayer(CGRect(x: 10, y: 10, width: 50, height: 50), .red, in: root)
        box.cornerRadius = 5
        let renderer = Renderer(threadCount: 1)
        _ = try renderer.render(root)
        #expect(renderer.cachedStoreCount > 0)
        box.removeFromSuperlayer()
        _ = try renderer.render(root)
        #expect(renderer.cachedStoreCount == 0)
    }
}
