import Foundation
import Testing
@testable import LayerKit

/// Hard bounds a frame keeps whatever the tree asks for (`RenderLimits`).
@Suite struct RenderLimitsTests {
    /// Three replicators nested, each at the per-layer cap: 10¹² copies of the dot asked for.
    func nestedReplicators(name: String) -> (root: Layer, dot: Layer) {
        let root = rootLayer(100, 100)
        var parent = root
        for level in 0..<3 {
            let replicator = ReplicatorLayer()
            replicator.name = level == 0 ? name : nil
            replicator.frame = root.bounds
            replicator.instanceCount = ReplicatorLayer.maximumInstanceCount
            replicator.instanceTransform = Transform3D(translationX: level == 2 ? 1 : 0, y: level == 1 ? 1 : 0)
            parent.addSublayer(replicator)
            parent = replicator
        }
        let dot = solidLayer(CGRect(x: 0, y: 0, width: 1, height: 1), .red, in: parent)
        return (root, dot)
    }

    @Test func nestedReplicatorsMakeAtMostTheLimitOfCopies() throws {
        DiagnosticLog.start()
        let name = uniqueName("replicator")
        let (root, _) = nestedReplicators(name: name)
        let renderer = Renderer(threadCount: 1)
        renderer.limits.maximumReplicatedInstances = 2_500
        let composites = renderer.composites(for: root, width: 100, height: 100)
        // The outer replicator gets its 10,000 instances cut to 2,500 copies of everything
        // below it, drawn as its first instances (all at the same place, the inner ones at 1).
        #expect(composites.count <= 2_500)
        #expect(composites.count >= 1)
        let messages = DiagnosticLog.messages(mentioning: name)
        #expect(messages.count == 1 && messages[0].contains("2500"), "\(messages)")
    }

    @Test func theLimitIsOnTheProductOfNestedCounts() throws {
        // 3 x 4 x 5 = 60 copies of the dot, each at its own pixel: all drawn under a limit of 60,
        // the innermost cut under 30 (the outer two make 12, leaving 2 each for the innermost).
        func scene() -> Layer {
            let root = rootLayer(60, 40)
            var parent = root
            for (count, step) in [(3, (20.0, 0.0)), (4, (0.0, 5.0)), (5, (2.0, 0.0))] {
                let replicator = ReplicatorLayer()
                replicator.frame = root.bounds
                replicator.instanceCount = count
                replicator.instanceTransform = Transform3D(translationX: step.0, y: step.1)
                parent.addSublayer(replicator)
                parent = replicator
            }
            _ = solidLayer(CGRect(x: 0, y: 0, width: 1, height: 1), .red, in: parent)
            return root
        }
        func dots(limit: Int) throws -> Int {
            let renderer = Renderer(threadCount: 1)
            renderer.limits.maximumReplicatedInstances = limit
            let frame = try renderer.render(scene())
            var count = 0
            for y in 0..<40 { for x in 0..<60 where frame.alpha(x, y) > 0 { count += 1 } }
            return count
        }
        #expect(try dots(limit: 10_000) == 60)
        #expect(try dots(limit: 60) == 60)
        #expect(try dots(limit: 30) == 24)
        #expect(try dots(limit: 1) == 1)
    }

    @Test func aPathOverTheSegmentLimitIsNotDrawnButTheRestIs() throws {
        DiagnosticLog.start()
        let name = uniqueName("zigzag")
        let root = rootLayer(100, 100)
        let shape = ShapeLayer()
        shape.name = name
        shape.frame = root.bounds
        shape.backgroundColor = .blue
        var path = Path()
        path.move(to: CGPoint(x: 10, y: 10))
        for i in 0..<10_000 { path.addLine(to: CGPoint(x: 10 + CGFloat(i % 80), y: i % 2 == 0 ? 10 : 90)) }
        shape.path = path
        shape.fillColor = .red
        root.addSublayer(shape)
        let renderer = Renderer(threadCount: 1)
        renderer.limits = RenderLimits(maximumReplicatedInstances: 10_000, maximumPathSegments: 5_000)
        var frame = try renderer.render(root)
        #expect(frame.pixel(x: 50, y: 50) == .blue, "the path is not drawn, the background is")
        #expect(DiagnosticLog.messages(mentioning: name).count == 1)
        renderer.limits.maximumPathSegments = 20_000
        frame = try renderer.render(root)
        #expect(frame.pixel(x: 50, y: 50) == .red, "within the limit the path is drawn")
        #expect(DiagnosticLog.messages(mentioning: name).count == 1)
    }

    @Test func aShadowPathOverTheLimitCastsNoShadow() throws {
        let root = rootLayer(100, 100)
        let layer = solidLayer(CGRect(x: 20, y: 20, width: 20, height: 20), .red, in: root)
        var path = Path()
        path.move(to: CGPoint(x: 0, y: 0))
        for i in 0..<2_000 { path.addLine(to: CGPoint(x: 60, y: CGFloat(i % 60))) }
        layer.shadowPath = path
        layer.shadowOpacity = 1
        layer.shadowRadius = 0
        layer.shadowOffset = .zero
        let renderer = Renderer(threadCount: 1)
        renderer.limits.maximumPathSegments = 1_000
        let frame = try renderer.render(root)
        #expect(frame.pixel(x: 30, y: 30) == .red && frame.alpha(70, 30) == 0)
    }

    @Test func defaultsAreTheDocumentedOnes() {
        let limits = RenderLimits()
        #expect(limits.maximumReplicatedInstances == 10_000)
        #expect(limits.maximumPathSegments == 100_000)
        #expect(Renderer().limits == limits)
        #expect(RenderLimits(maximumReplicatedInstances: -5, maximumPathSegments: -1) ==
                RenderLimits(maximumReplicatedInstances: 0, maximumPathSegments: 0))
    }
}
