import Foundation
import Testing
import LayerKit

@Suite struct CompositeListTests {
    /// Replaying the published composites over a cleared bitmap gives the frame `render` paints,
    /// bit for bit: the list is the whole of what a frame is made of.
    @Test func replayingTheCompositesPaintsTheFrame() throws {
        let root = try animatedScene()
        for time in [0.0, 0.4, 1.3] {
            let renderer = Renderer(threadCount: 1)
            let frame = try renderer.render(root, at: time)
            let composites = renderer.composites(for: root, at: time, width: frame.width, height: frame.height)
            #expect(composites.count > 5)
            let replay = try Bitmap.replaying(composites, width: frame.width, height: frame.height)
            #expect(replay.hasSamePixels(as: frame), "replay differs at t = \(time)")
        }
    }

    @Test func compositesLieInsideTheirClipAndTheTarget() throws {
        let root = try animatedScene()
        let composites = Renderer().composites(for: root, at: 0.7, width: 320, height: 240)
        let target = PixelRect(x: 0, y: 0, width: 320, height: 240)
        for composite in composites {
            #expect(composite.extent.intersection(target) == composite.extent)
            if let clip = composite.clip { #expect(composite.extent.intersection(clip) == composite.extent) }
            #expect(composite.opacity > 0 && composite.opacity <= 1)
        }
    }

    /// Listing composites is an inspection: it leaves the damage history alone.
    @Test func listingCompositesDoesNotDisturbDamageTracking() throws {
        let root = try animatedScene()
        let renderer = Renderer(threadCount: 1)
        let frame = try renderer.render(root, at: 0)
        _ = renderer.composites(for: root, at: 0, width: frame.width, height: frame.height)
        #expect(renderer.render(root, at: 0, into: frame).isEmpty)
        // Content re-rasterized for another time counts as changed, and the frame stays exact.
        _ = renderer.composites(for: root, at: 0.5, width: frame.width, height: frame.height)
        #expect(!renderer.render(root, at: 0, into: frame).isEmpty)
        #expect(frame.hasSamePixels(as: try Renderer(threadCount: 1).render(root, at: 0)))
    }

    @Test func invalidateMakesTheNextFrameRepaintEveryPixel() throws {
        let root = try animatedScene()
        let renderer = Renderer(threadCount: 1)
        let frame = try renderer.render(root, at: 0)
        #expect(renderer.render(root, at: 0, into: frame).isEmpty)
        frame.clear(to: .red)
        renderer.invalidate()
        let damage = renderer.render(root, at: 0, into: frame)
        #expect(damage == Region(frame.bounds))
        #expect(frame.hasSamePixels(as: try Renderer(threadCount: 1).render(root, at: 0)))
    }
}
