import Foundation
import Testing
@testable import LayerKit

@Suite struct ReplicatorLayerTests {
    /// Sixty ticks from one: a tick hanging at 12 o'clock, turned 6° per instance about the
    /// replicator's centre.
    func ticks(count: Int = 60) -> (Layer, ReplicatorLayer, Layer) {
        let root = rootLayer(200, 200)
        let replicator = ReplicatorLayer()
        replicator.frame = root.bounds
        replicator.instanceCount = count
        replicator.instanceTransform = Transform3D(rotationAngle: 2 * .pi / CGFloat(count), x: 0, y: 0, z: 1)
        root.addSublayer(replicator)
        let tick = solidLayer(CGRect(x: 98, y: 5, width: 4, height: 15), .black, in: replicator)
        return (root, replicator, tick)
    }

    @Test func instancesAreTurnedAboutTheCentre() throws {
        let (root, _, _) = ticks()
        let frame = try Renderer(threadCount: 1).render(root)
        // Quarter turns land exactly on the axes: 12, 3, 6 and 9 o'clock.
        for (x, y) in [(100, 10), (190, 100), (100, 190), (10, 100)] { #expect(frame.alpha(x, y) == 255, "(\(x), \(y))") }
        #expect(frame.alpha(100, 100) == 0 && frame.alpha(150, 50) == 0)
        // A tick at 2 o'clock (instance 10, 60°).
        let angle = CGFloat.pi / 3
        #expect(frame.alpha(Int(100 + sin(angle) * 88), Int(100 - cos(angle) * 88)) > 200)
    }

    @Test func instanceColorAndOffsetsTintEachInstance() throws {
        let (root, replicator, tick) = ticks(count: 4)
        tick.backgroundColor = .white
        replicator.instanceColor = Color(red: 1, green: 0, blue: 0)
        replicator.instanceBlueOffset = 0.5
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 100, y: 10) == Color(red: 1, green: 0, blue: 0))              // instance 0
        #expect(frame.pixel(x: 190, y: 100) == Color(red8: 255, green8: 0, blue8: 128))      // instance 1: +0.5 blue
        #expect(frame.pixel(x: 100, y: 190) == Color(red: 1, green: 0, blue: 1))             // instance 2: clamped
    }

    @Test func instanceDelayStaggersAnimations() throws {
        let (root, replicator, tick) = ticks(count: 4)
        replicator.instanceDelay = 1
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 1
        fade.fillMode = .both
        fade.isRemovedOnCompletion = false
        tick.add(fade, forKey: "fade")
        let frame = try Renderer(threadCount: 1).render(root, at: 1.5)
        #expect(frame.alpha(100, 10) == 255)                         // instance 0: done
        #expect(abs(frame.alpha(190, 100) - 128) <= 2)                // instance 1: half way
        #expect(frame.alpha(100, 190) == 0)                           // instance 2: not started
    }

    @Test func untintedInstancesShareOneStore() throws {
        let (root, _, tick) = ticks()
        tick.cornerRadius = 1
        let renderer = Renderer(threadCount: 1)
        _ = try renderer.render(root)
        #expect(renderer.rasterizationCount == 1)
    }
}
