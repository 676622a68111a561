import Foundation
import Testing
@testable import LayerKit

/// What a tree update records of a changed line of text: where painter's order first changed,
/// always; the pixels it damaged, only for a frame that paints just its damage (a frame that
/// repaints everything reads none).
@Suite struct FrameChangesTests {
    @Test func onlyAFrameThatPaintsItsDamageCollectsIt() {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 60)
        let line = TextLayer()
        line.frame = CGRect(x: 10, y: 10, width: 180, height: 30)
        line.fontSize = 18
        line.string = "12:34"
        root.addSublayer(line)
        let cache = BackingStoreCache()
        let tree = RenderTree(root: root, deviceScale: 1, viewport: PixelRect(x: 0, y: 0, width: 200, height: 60), cache: cache)
        tree.update(at: 0, FrameChanges(paintsDamage: false))
        ContentPass.run(cache.takeJobs())
        for (string, paintsDamage) in [("56:78", true), ("90:12", false), ("34:56", true)] {
            line.string = string
            let frame = FrameChanges(paintsDamage: paintsDamage)
            tree.update(at: 0, frame)
            ContentPass.run(cache.takeJobs())
            frame.resolveInkedDamage()
            #expect(frame.firstChange != nil, "\(string)")
            #expect(frame.damage.isEmpty == !paintsDamage, "\(string): \(frame.damage)")
        }
    }
}
