import Foundation
import Testing
@testable import LayerKit

@Suite struct LayerHierarchyTests {
    @Test func defaultsMatchCoreAnimation() {
        let layer = Layer()
        #expect(layer.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(layer.opacity == 1)
        #expect(layer.backgroundColor == nil)
        #expect(layer.borderColor == .black && layer.borderWidth == 0)
        #expect(layer.shadowColor == .black && layer.shadowOpacity == 0)
        #expect(layer.shadowOffset == CGSize(width: 0, height: -3) && layer.shadowRadius == 3)
        #expect(layer.contentsGravity == .resize && layer.contentsScale == 1)
        #expect(layer.contentsRect == CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(layer.isDoubleSided && !layer.isHidden && !layer.masksToBounds)
        #expect(layer.allowsGroupOpacity)
        #expect(layer.transform.isIdentity && layer.sublayerTransform.isIdentity)
        #expect(layer.sublayers == nil && layer.superlayer == nil)
    }

    @Test func addInsertAndRemove() {
        let root = Layer(), a = Layer(), b = Layer(), c = Layer(), d = Layer()
        root.addSublayer(a)
        root.addSublayer(b)
        root.insertSublayer(c, at: 0)
        #expect(root.sublayers! == [c, a, b])
        root.insertSublayer(d, above: a)
        #expect(root.sublayers! == [c, a, d, b])
        root.insertSublayer(b, below: c)
        #expect(root.sublayers! == [b, c, a, d])
        #expect(a.superlayer === root)
        a.removeFromSuperlayer()
        #expect(root.sublayers! == [b, c, d] && a.superlayer == nil)
        root.replaceSublayer(c, with: a)
        #expect(root.sublayers! == [b, a, d] && c.superlayer == nil)
        root.insertSublayer(a, at: 99)
        #expect(root.sublayers! == [b, d, a])
    }

    @Test func addingMovesFromThePreviousSuperlayer() {
        let one = Layer(), two = Layer(), child = Layer()
        one.addSublayer(child)
        two.addSublayer(child)
        #expect(one.sublayers == nil)
        #expect(two.sublayers! == [child] && child.superlayer === two)
    }

    @Test func addingUnderOwnDescendantIsRefusedAndTreeStaysIntact() {
        let root = Layer(), child = Layer(), grandchild = Layer()
        root.name = "root"
        grandchild.name = "grandchild"
        root.addSublayer(child)
        child.addSublayer(grandchild)
        grandchild.addSublayer(root)
        #expect(root.superlayer == nil)
        #expect(grandchild.sublayers == nil)
        #expect(root.sublayers! == [child] && child.sublayers! == [grandchild])
        root.addSublayer(root)
        #expect(root.sublayers! == [child])
        let message = LayerTreeError.cycle(layer: "'root'", newSuperlayer: "'grandchild'").description
        #expect(message.contains("'root'") && message.contains("'grandchild'"))
    }

    @Test func settingSublayersAdoptsEveryLayer() {
        let root = Layer(), a = Layer(), b = Layer()
        root.sublayers = [a, b, a]
        #expect(root.sublayers! == [a, b])
        #expect(a.superlayer === root && b.superlayer === root)
        root.sublayers = nil
        #expect(root.sublayers == nil && a.superlayer == nil)
    }

    @Test func maskIsOwnedAndHasNoSuperlayer() {
        let layer = Layer(), mask = Layer(), other = Layer()
        other.addSublayer(mask)
        layer.mask = mask
        #expect(mask.superlayer == nil && other.sublayers == nil)
        let second = Layer()
        second.mask = mask
        #expect(layer.mask == nil && second.mask === mask)
        mask.removeFromSuperlayer()
        #expect(second.mask == nil)
    }

    @Test func drawingOrderSortsStablyByZPosition() {
        let root = Layer()
        let layers = (0..<5).map { _ in Layer() }
        layers.forEach(root.addSublayer)
        layers[1].zPosition = 2
        layers[3].zPosition = -1
        layers[4].zPosition = 2
        #expect(root.sublayersInDrawingOrder.map(\.id) == [layers[3], layers[0], layers[2], layers[1], layers[4]].map(\.id))
    }

    @Test func sublayerNamedFindsDepthFirst() {
        let root = Layer(), a = Layer(), b = Layer()
        b.name = "hand"
        root.addSublayer(a)
        a.addSublayer(b)
        #expect(root.sublayer(named: "hand") === b)
        #expect(root.sublayer(named: "none") == nil)
    }

    @Test func contentChangesBumpTheContentVersionOnly() {
        let layer = Layer()
        let content = layer.contentVersion
        layer.position = CGPoint(x: 5, y: 5)
        layer.transform = Transform3D(rotationAngle: 1, x: 0, y: 0, z: 1)
        layer.opacity = 0.5
        #expect(layer.contentVersion == content)
        layer.backgroundColor = .red
        #expect(layer.contentVersion == content + 1)
        layer.backgroundColor = .red
        #expect(layer.contentVersion == content + 1)
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        #expect(layer.contentVersion == content + 2)
        layer.bounds.origin = CGPoint(x: 3, y: 3)
        #expect(layer.contentVersion == content + 2)
    }
}
