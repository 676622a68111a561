import Foundation
import Testing
@testable import LayerKit

/// The crashes listed in issue 13, each a public call a hostile user could make: every one now
/// refuses the value (the property keeps its own), reports it once, and the frame is right.
@Suite struct HostileValueTests {
    /// A 100x100 frame with a good green square at (10, 10) and a red one, named `name`, at
    /// (50, 50) that `mutate` gets; rendered at several times, as a running app would.
    func frames(_ name: String, _ mutate: (Layer, Layer) throws -> Void) throws -> [Bitmap] {
        DiagnosticLog.start()
        let root = rootLayer(100, 100)
        _ = solidLayer(CGRect(x: 10, y: 10, width: 30, height: 30), .green, in: root)
        let layer = solidLayer(CGRect(x: 50, y: 50, width: 30, height: 30), .red, in: root)
        layer.name = name
        try mutate(root, layer)
        let renderer = Renderer(threadCount: 1)
        return try [0, 0.1, 0.5, 2].map { try renderer.render(root, at: $0).copy() }
    }

    /// The good square drawn, the background around it empty.
    func goodSquareIsIntact(_ frame: Bitmap) -> Bool {
        frame.pixel(x: 25, y: 25) == .green && frame.alpha(5, 5) == 0 && frame.alpha(45, 25) == 0
    }

    /// Refuses `set` on a fresh red square: the square keeps drawing as before, and exactly one
    /// diagnostic names it and the property, however many frames are drawn.
    func expectRefused(_ property: String, _ set: @escaping (Layer) -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let name = uniqueName(property)
        let frames = try frames(name) { _, layer in
            set(layer)
            set(layer)   // twice: still one diagnostic
        }
        for frame in frames {
            #expect(goodSquareIsIntact(frame), sourceLocation: sourceLocation)
            #expect(frame.pixel(x: 65, y: 65) == .red, "the refused value left the square as it was", sourceLocation: sourceLocation)
        }
        let messages = DiagnosticLog.messages(mentioning: name)
        #expect(messages.count == 1, "\(messages)", sourceLocation: sourceLocation)
        #expect(messages.first?.contains(property) ?? false, sourceLocation: sourceLocation)
    }

    @Test func nanCornerRadiusIsRefused() throws {
        try expectRefused("cornerRadius") { $0.cornerRadius = .nan }
    }

    @Test func nanContentsCenterIsRefused() throws {
        try expectRefused("contentsCenter") { layer in
            layer.contents = try! Image(Bitmap(width: 4, height: 4, color: .red))
            layer.contentsCenter = CGRect(x: CGFloat.nan, y: 0, width: 0.5, height: 0.5)
        }
    }

    @Test func nanOrInfiniteRasterizationScaleIsRefused() throws {
        try expectRefused("rasterizationScale") { $0.shouldRasterize = true; $0.rasterizationScale = .nan }
        try expectRefused("rasterizationScale") { $0.shouldRasterize = true; $0.rasterizationScale = .infinity }
    }

    @Test func hugeRasterizationScaleStillDraws() throws {
        for frame in try frames(uniqueName("huge"), { _, layer in
            layer.shouldRasterize = true
            layer.rasterizationScale = 1e308
        }) {
            #expect(goodSquareIsIntact(frame))
            #expect(frame.pixel(x: 65, y: 65) == .red)
        }
    }

    @Test func nanOrInfiniteLayerTimingIsRefused() throws {
        try expectRefused("speed") { $0.speed = .nan }
        try expectRefused("speed") { $0.speed = .infinity }
        try expectRefused("speed") { $0.speed = -.infinity }
        try expectRefused("timeOffset") { $0.timeOffset = .nan }
        try expectRefused("timeOffset") { $0.timeOffset = .infinity }
        try expectRefused("beginTime") { $0.beginTime = .nan }
    }

    @Test func refusedLayerSpeedLeavesAnimationsRunning() throws {
        let name = uniqueName("speed")
        let frames = try frames(name) { _, layer in
            layer.speed = .nan
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 0.0
            fade.duration = 10
            layer.add(fade, forKey: "fade")
        }
        // The layer's own time runs at speed 1: the animation hides the square in every frame.
        for frame in frames { #expect(goodSquareIsIntact(frame) && frame.alpha(65, 65) == 0) }
    }

    @Test func nonFiniteGeometryIsRefusedWhichLeavesTheLayerWhereItWas() throws {
        try expectRefused("position") { $0.position = CGPoint(x: CGFloat.nan, y: 5) }
        try expectRefused("bounds") { $0.bounds.size.width = .infinity }
        try expectRefused("transform") { $0.transform.m22 = .nan }
        try expectRefused("anchorPoint") { $0.anchorPoint.x = -.infinity }
        try expectRefused("opacity") { $0.opacity = .nan }
        try expectRefused("shadowRadius") { $0.shadowRadius = .nan }
    }

    @Test func gradientStartPointNaNIsRefusedForEveryType() throws {
        for type in [GradientLayer.GradientType.axial, .conic, .radial] {
            let name = uniqueName("gradient")
            let frames = try frames(uniqueName("unused")) { root, _ in
                let gradient = GradientLayer()
                gradient.name = name
                gradient.type = type
                gradient.frame = CGRect(x: 60, y: 5, width: 30, height: 30)
                gradient.colors = [.blue, .blue]
                gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
                gradient.endPoint = CGPoint(x: 1.5, y: 1.5)   // the radial one covers the bounds
                gradient.startPoint = CGPoint(x: CGFloat.nan, y: 0)
                gradient.endPoint = CGPoint(x: 0.5, y: .infinity)
                root.addSublayer(gradient)
            }
            for frame in frames {
                #expect(goodSquareIsIntact(frame) && frame.pixel(x: 65, y: 65) == .red)
                #expect(frame.pixel(x: 80, y: 28) == .blue, "\(type): drawn with the points it had")
            }
            #expect(DiagnosticLog.messages(mentioning: name).count == 2, "startPoint and endPoint, once each")
        }
    }

    @Test func hugeGradientPointsDrawNothingAndCrashNothing() throws {
        for type in [GradientLayer.GradientType.axial, .conic, .radial] {
            for frame in try frames(uniqueName("unused"), { root, _ in
                let gradient = GradientLayer()
                gradient.type = type
                gradient.frame = CGRect(x: 60, y: 5, width: 30, height: 30)
                gradient.colors = [.blue, .white]
                gradient.startPoint = CGPoint(x: 1e308, y: -1e308)
                gradient.endPoint = CGPoint(x: -1e308, y: 1e308)
                root.addSublayer(gradient)
            }) {
                #expect(goodSquareIsIntact(frame) && frame.pixel(x: 65, y: 65) == .red)
            }
        }
    }

    @Test func hugeShadowRadiusDrawsABoundedShadow() throws {
        let frames = try frames(uniqueName("shadow")) { _, layer in
            layer.shadowOpacity = 1
            layer.shadowRadius = 1e308
        }
        for frame in frames {
            #expect(goodSquareIsIntact(frame) || frame.pixel(x: 25, y: 25).green > 0.9)
            #expect(frame.pixel(x: 65, y: 65) == .red)
        }
    }

    @Test func refusedValuesOfSubclassesAreReported() throws {
        let name = uniqueName("shape")
        _ = try frames(uniqueName("unused")) { root, _ in
            let shape = ShapeLayer()
            shape.name = name
            shape.path = Path(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
            shape.lineWidth = .nan
            shape.strokeEnd = .infinity
            var path = Path()
            path.move(to: .zero)
            path.addLine(to: CGPoint(x: CGFloat.nan, y: 3))
            shape.path = path
            #expect(shape.lineWidth == 1 && shape.strokeEnd == 1 && shape.path == Path(rect: CGRect(x: 0, y: 0, width: 10, height: 10)))
            root.addSublayer(shape)
        }
        #expect(DiagnosticLog.messages(mentioning: name).count == 3)
    }
}
