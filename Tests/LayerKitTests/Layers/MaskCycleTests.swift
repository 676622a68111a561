import Foundation
import Testing
@testable import LayerKit

/// A mask that would make the tree a cycle is refused like a sublayer cycle: the tree is left as
/// it was and one diagnostic names both layers.
@Suite struct MaskCycleTests {
    func named(_ prefix: String) -> Layer {
        let layer = Layer()
        layer.name = uniqueName(prefix)
        return layer
    }

    func refusals(_ layers: Layer...) -> [String] {
        Array(Set(layers.flatMap { DiagnosticLog.messages(mentioning: $0.name!) }))
    }

    @Test func layerCannotBeItsOwnMask() {
        DiagnosticLog.start()
        let layer = named("self")
        layer.mask = layer
        #expect(layer.mask == nil)
        #expect(refusals(layer).count == 1)
    }

    @Test func twoLayersCannotMaskEachOther() throws {
        DiagnosticLog.start()
        let a = named("a"), b = named("b")
        a.mask = b
        b.mask = a
        #expect(a.mask === b && b.mask == nil && a.maskOwner == nil)
        #expect(refusals(a, b).count == 1)
        // Changes still travel up without end: the masked layer hears its mask's change.
        let before = a.contentVersion
        b.opacity = 0.5
        #expect(a.contentVersion > before)
        let root = rootLayer(20, 20)
        root.addSublayer(a)
        a.frame = root.bounds
        a.backgroundColor = .red
        b.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
        b.backgroundColor = .black
        b.opacity = 1
        let frame = try Renderer(threadCount: 1).render(root)
        #expect(frame.pixel(x: 5, y: 10) == .red && frame.alpha(15, 10) == 0)
    }

    @Test func anAncestorCannotBecomeAMask() {
        DiagnosticLog.start()
        let root = named("root"), child = named("child"), grandchild = named("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        grandchild.mask = root
        child.mask = root
        #expect(grandchild.mask == nil && child.mask == nil && child.superlayer === root)
        #expect(refusals(root, child, grandchild).count == 2)
    }

    @Test func theMaskOfAnAncestorCannotBecomeAMaskBelowIt() {
        DiagnosticLog.start()
        let top = named("top"), mask = named("mask"), inner = named("inner")
        top.mask = mask
        mask.addSublayer(inner)
        // `inner` is under top's mask: making top (through its mask) inner's mask closes a loop.
        inner.mask = top
        #expect(inner.mask == nil && top.mask === mask)
        #expect(refusals(top, inner).count == 1)
    }

    @Test func aLayerCannotBeAddedUnderItsOwnMask() {
        DiagnosticLog.start()
        let a = named("a"), b = named("b")
        a.mask = b
        b.addSublayer(a)
        #expect(a.superlayer == nil && b.sublayers == nil)
        #expect(refusals(a, b).count == 1)
    }

    @Test func aLongChainOfMasksChangesWithoutRecursion() {
        var layers = [Layer()]
        for _ in 0..<2_000 {
            let mask = Layer()
            layers.last!.mask = mask
            layers.append(mask)
        }
        let before = layers[0].contentVersion
        layers.last!.backgroundColor = .red
        #expect(layers[0].contentVersion > before)
    }

    /// Found by scripts/fuzz (LeakSanitizer): a layer that once masked `a` and changed while it
    /// did was kept in `a`'s list of changed children; made `a`'s own mask owner later, the two
    /// held each other and were never freed. Each tree change here is allowed; all four layers
    /// must go with the last reference to them, as must a tree whose children changed between
    /// frames.
    @Test func layersThatSwappedMaskRolesAreFreed() throws {
        final class Watch { weak var layer: Layer?; init(_ layer: Layer) { self.layer = layer } }
        var watches: [Watch] = []
        do {
            let root = Layer(), a = Layer(), b = Layer(), c = Layer(), d = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            root.addSublayer(a)
            a.mask = b
            b.mask = c      // b's change is noted in a, through which it reached the root
            a.mask = d      // b leaves
            b.mask = a      // b holds a; a must not hold b
            #expect(b.mask === a && a.superlayer == nil)
            _ = try Renderer(threadCount: 1).render(root, at: 0)
            c.backgroundColor = .red
            watches = [root, a, b, c, d].map(Watch.init)
        }
        #expect(watches.allSatisfy { $0.layer == nil })
    }
}
