import Foundation
import Testing
@testable import LayerKit

@Suite struct BadGeometryRenderTests {
    /// A scene whose one good layer must render correctly whatever its sibling does.
    func frame(with mutate: (Layer) -> Void) throws -> Bitmap {
        let root = rootLayer(100, 100)
        _ = solidLayer(CGRect(x: 10, y: 10, width: 30, height: 30), .green, in: root)
        let bad = solidLayer(CGRect(x: 50, y: 50, width: 30, height: 30), .red, in: root)
        bad.shadowOpacity = 1
        bad.cornerRadius = 4
        mutate(bad)
        return try Renderer(threadCount: 2).render(root)
    }

    func goodLayerIsIntact(_ frame: Bitmap) -> Bool {
        frame.pixel(x: 25, y: 25) == .green && frame.alpha(5, 5) == 0
    }

    @Test func nonFiniteGeometrySkipsOnlyThatLayer() throws {
        #expect(goodLayerIsIntact(try frame { $0.position = CGPoint(x: CGFloat.nan, y: 5) }))
        #expect(goodLayerIsIntact(try frame { $0.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 4) }))
        #expect(goodLayerIsIntact(try frame { $0.transform.m41 = .infinity }))
        #expect(goodLayerIsIntact(try frame { $0.transform.m22 = .nan }))
        #expect(goodLayerIsIntact(try frame { $0.shadowRadius = .nan }))
        #expect(goodLayerIsIntact(try frame { $0.cornerRadius = .infinity }))
        #expect(goodLayerIsIntact(try frame { $0.opacity = .nan }))
    }

    @Test func singularAndEdgeOnTransformsDrawNothing() throws {
        let singular = try frame { $0.transform = Transform3D(scaleX: 0, y: 1) }
        #expect(goodLayerIsIntact(singular) && singular.alpha(65, 65) == 0)
        let edgeOn = try frame { $0.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0) }
        #expect(goodLayerIsIntact(edgeOn) && edgeOn.alpha(65, 65) == 0)
    }

    @Test func hugeLayerIsDrawnWhereVisibleWithoutAHugeStore() throws {
        let f = try frame { layer in
            layer.bounds = CGRect(x: 0, y: 0, width: 1e9, height: 1e9)
            layer.position = CGPoint(x: 60, y: 60)
            layer.anchorPoint = .zero
        }
        #expect(goodLayerIsIntact(f))
        #expect(f.pixel(x: 80, y: 80) == .red)
    }

    @Test func layerCrossingTheEyePlaneIsClippedNotMirrored() throws {
        let root = rootLayer(200, 200)
        root.sublayerTransform.m34 = -1.0 / 60
        let floor = solidLayer(CGRect(x: 0, y: 0, width: 200, height: 200), .white, in: root)
        floor.transform = Transform3D(rotationAngle: 80 * .pi / 180, x: 1, y: 0, z: 0)
        let frame = try Renderer(threadCount: 1).render(root)
        let topEdge = Homography(floor.transformToSuperlayer()).apply(to: CGPoint(x: 100, y: 0))!.y
        var above = 0
        for y in 0..<max(0, Int(topEdge) - 1) { for x in 0..<200 where frame.alpha(x, y) > 0 { above += 1 } }
        #expect(above == 0)
    }

    @Test func tenThousandDeepTreeRendersWithoutCrashing() throws {
        let root = rootLayer(100, 100)
        var parent = root
        for i in 0..<10_000 {
            let layer = Layer()
            layer.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            if i == 10 { layer.backgroundColor = .blue }
            parent.addSublayer(layer)
            parent = layer
        }
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 50, y: 50) == .blue)
    }

    @Test func invalidFrameSizeIsATypedError() {
        let root = Layer()
        #expect(throws: RenderError.self) { try Renderer().render(root) }
        root.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10)
        #expect(throws: RenderError.self) { try Renderer().render(root) }
    }
}
