import Foundation
import Testing
@testable import LayerKit

/// A layer's list of changed children holds them without a reference count, so it may list only
/// current children: one that leaves must not stay listed in its former parent.
@Suite struct ChangedChildrenTests {
    @Test func aSublayerThatLeavesIsNoLongerListedInItsFormerParent() {
        let parent = Layer(), child = Layer(), sibling = Layer()
        parent.addSublayer(child)
        parent.addSublayer(sibling)
        child.backgroundColor = .red
        sibling.backgroundColor = .blue
        #expect(parent.tracking.changedChildren.count == 2)
        child.removeFromSuperlayer()
        #expect(!parent.tracking.changedChildren.contains { $0.layer === child })
    }

    @Test func aSublayerMovedToAnotherParentIsNoLongerListedInItsFormerParent() {
        let first = Layer(), second = Layer(), child = Layer()
        first.addSublayer(child)
        child.opacity = 0.5
        #expect(first.tracking.changedChildren.contains { $0.layer === child })
        second.addSublayer(child)
        #expect(!first.tracking.changedChildren.contains { $0.layer === child })
        first.sublayers = [Layer()]
        #expect(first.tracking.changedChildren.allSatisfy { $0.layer.superlayer === first })
    }

    @Test func aMaskThatIsReplacedIsNoLongerListedInTheLayerItMasked() {
        let layer = Layer(), mask = Layer()
        layer.mask = mask
        mask.backgroundColor = .white
        #expect(layer.tracking.changedChildren.contains { $0.layer === mask })
        layer.mask = Layer()
        #expect(!layer.tracking.changedChildren.contains { $0.layer === mask })
    }

    /// A child added, changed, then taken out and freed between frames: the next frame draws
    /// the tree as it is (the list it was in is not read for it).
    @Test func aChildFreedAfterItChangedAndLeftLeavesTheNextFrameRight() throws {
        final class Watch { weak var layer: Layer?; init(_ layer: Layer) { self.layer = layer } }
        let root = rootLayer(40, 20)
        let keep = solidLayer(CGRect(x: 0, y: 0, width: 10, height: 10), .blue, in: root)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 40, height: 20)
        renderer.render(root, into: target)
        var watch: Watch?
        do {
            let gone = solidLayer(CGRect(x: 20, y: 0, width: 10, height: 10), .red, in: root)
            Transaction.perform(disableActions: true) { gone.backgroundColor = .green }
            gone.removeFromSuperlayer()
            watch = Watch(gone)
        }
        #expect(watch?.layer == nil)
        Transaction.perform(disableActions: true) { keep.backgroundColor = .yellow }
        renderer.render(root, into: target)
        #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(root)))
    }
}
