import Foundation
import Testing
@testable import LayerKit

/// Frames submitted without waiting for their painting (`Renderer.submit`): the next frame's
/// update and stores overlap the last one's painting, and every frame is still exactly what
/// `render` paints; the bitmap is the renderer's until it is waited for.
@Suite struct SubmittedFrameTests {
    /// Random trees of every layer kind under random changes, each frame submitted while the
    /// tree changes for the next: into one bitmap (waited for once the next frame's changes are
    /// made), and into two taken in turn (each compared once the next frame, submitted into the
    /// other, has updated the tree and redrawn its stores while the first still painted). Each
    /// frame is compared with a fresh renderer's frame of a twin scene at the same step, drawn
    /// beforehand so that nothing slow comes between one submission and the next. Frames are
    /// large enough to be painted in bands by the helpers.
    @Test(arguments: [UInt64(11), 12, 13])
    func submittedFramesAreRenderedFrames(seed: UInt64) throws {
        let (width, height, layers, count) = (400, 300, 24, 60)
        var rng = SeededGenerator(seed: seed ^ 0x5EED)
        var time = 0.0
        let steps = (0..<count).map { _ in
            let changes = Int.random(in: 0..<4, using: &rng)
            time += [0, 1.0 / 30, 0.25][Int.random(in: 0..<3, using: &rng)]
            return (changes: changes, time: time)
        }
        func scene() throws -> RandomScene {
            try RandomScene(seed: seed, twins: 1, width: CGFloat(width), height: CGFloat(height), layers: layers)
        }
        func advance(_ scene: RandomScene, to step: Int) {
            for _ in 0..<steps[step].changes { scene.change() }
            scene.roots[0].setCurrentTime(steps[step].time)
        }
        let fresh = try scene()
        let references = try (0..<count).map { step in
            advance(fresh, to: step)
            return try Renderer(threadCount: 1).render(fresh.roots[0], at: steps[step].time)
        }

        let alone = try scene(), one = Renderer(threadCount: 2)
        let target = try Bitmap(width: width, height: height)
        for step in 0..<count {
            // The painting of the last frame goes on while the tree changes.
            advance(alone, to: step)
            one.waitUntilPainted()
            if step > 0 { #expect(target.hasSamePixels(as: references[step - 1]), "seed \(seed), step \(step - 1): one bitmap") }
            if step.isMultiple(of: 7) { one.invalidate() }
            one.submit(alone.roots[0], at: steps[step].time, into: target)
        }
        one.waitUntilPainted()
        #expect(target.hasSamePixels(as: references[count - 1]))

        let inTurns = try scene(), turns = Renderer(threadCount: 4)
        let pair = try [Bitmap(width: width, height: height), Bitmap(width: width, height: height)]
        for step in 0..<count {
            advance(inTurns, to: step)
            // The other bitmap's frame, submitted last step, is waited for by this one.
            turns.submit(inTurns.roots[0], at: steps[step].time, into: pair[step % 2])
            if step > 0 {
                let last = pair[(step + 1) % 2]
                #expect(!last.isBeingPainted)
                #expect(last.hasSamePixels(as: references[step - 1]), "seed \(seed), step \(step - 1): two bitmaps")
            }
        }
        turns.waitUntilPainted()
        #expect(pair[(count - 1) % 2].hasSamePixels(as: references[count - 1]))
    }

    /// A text board whose every line changes every frame: each frame's stores are redrawn while
    /// the last frame still paints from them (the crew's fence keeps the redraws after the
    /// painting), frame after frame, and the frames are one thread's. Frames are submitted into
    /// two bitmaps in turn, each compared once the next frame has been submitted.
    @Test func storesRedrawnWhileTheLastFramePaintsAreDrawnAfterIt() throws {
        let root = rootLayer(640, 480)
        root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.2)
        // Turned panels under the lines, sampled every frame: painting takes long enough for
        // the next frame's update to hand stores over while the bands still paint.
        for k in 0..<6 {
            let panel = Layer()
            panel.bounds = CGRect(x: 0, y: 0, width: 700, height: 520)
            panel.position = CGPoint(x: 320 + CGFloat(k % 2) * 3, y: 240 + CGFloat(k) * 2)
            panel.backgroundColor = Color(red: 0.2 + Double(k) * 0.1, green: 0.3, blue: 0.4, alpha: 0.3)
            panel.cornerRadius = 40
            panel.transform = Transform3DMakeRotation(0.05 + CGFloat(k) * 0.02, 0, 0, 1)
            root.addSublayer(panel)
        }
        let lines = ChangingLines(in: root)
        // One thread's frames first, so that nothing slow comes between two submissions.
        let one = Renderer(threadCount: 1)
        let expected = try (0..<24).map { frame in
            lines.show(frame: frame)
            return try one.render(root, at: 0)
        }
        let two = Renderer(threadCount: 4)
        let pair = try [Bitmap(width: 640, height: 480), Bitmap(width: 640, height: 480)]
        for frame in 0..<24 {
            lines.show(frame: frame)
            two.submit(root, at: 0, into: pair[frame % 2])
            #expect(two.isPainting)
            if frame > 0 {
                let last = pair[(frame + 1) % 2]
                let differing = last.differingPixels(from: expected[frame - 1])
                #expect(differing == 0, "frame \(frame - 1): \(differing) pixels differ from one thread's")
            }
        }
        two.waitUntilPainted()
        #expect(!two.isPainting)
        #expect(pair[1].hasSamePixels(as: expected[23]))
    }

    /// Back to back, as a frame loop submits: only the last frame is waited for, and every
    /// frame before it was finished by the next one's update.
    @Test func framesSubmittedBackToBackEndAsTheLastRenderedFrame() throws {
        let scene = try RandomScene(seed: 21, twins: 2, width: 320, height: 240, layers: 30)
        let submitter = Renderer(threadCount: 2)
        let target = try Bitmap(width: 320, height: 240)
        for step in 0..<40 {
            scene.change()
            for layer in scene.roots { layer.setCurrentTime(Double(step) / 30) }
            submitter.submit(scene.roots[1], at: Double(step) / 30, into: target)
        }
        submitter.waitUntilPainted()
        let reference = try Renderer(threadCount: 1).render(scene.roots[0], at: 39.0 / 30)
        #expect(target.hasSamePixels(as: reference))
    }

    /// `render`, `composites(for:)`, a change of thread count and the renderer's release each
    /// wait for a submitted frame: its bitmap is then complete and the renderer's no longer.
    @Test func whatNeedsTheFrameWaitsForIt() throws {
        let scene = try RandomScene(seed: 5, twins: 2, width: 320, height: 240, layers: 20)
        let reference = try Renderer(threadCount: 1).render(scene.roots[0], at: 0)
        let waits: [(String, (Renderer, Bitmap) throws -> Void)] = [
            ("render", { renderer, _ in renderer.render(scene.roots[1], at: 0, into: try Bitmap(width: 320, height: 240)) }),
            ("composites", { renderer, _ in _ = renderer.composites(for: scene.roots[1], at: 0, width: 320, height: 240) }),
            ("threadCount", { renderer, _ in renderer.threadCount = 3 }),
            ("waitUntilPainted", { renderer, _ in renderer.waitUntilPainted() }),
        ]
        for (name, wait) in waits {
            let renderer = Renderer(threadCount: 2)
            let target = try Bitmap(width: 320, height: 240)
            renderer.submit(scene.roots[1], at: 0, into: target)
            #expect(target.isBeingPainted, "\(name)")
            try wait(renderer, target)
            #expect(!target.isBeingPainted, "\(name)")
            #expect(!renderer.isPainting, "\(name)")
            #expect(target.hasSamePixels(as: reference), "\(name)")
        }
        var renderer: Renderer? = Renderer(threadCount: 2)
        let target = try Bitmap(width: 320, height: 240)
        renderer?.submit(scene.roots[1], at: 0, into: target)
        renderer = nil
        #expect(!target.isBeingPainted)
        #expect(target.hasSamePixels(as: reference))
    }

    /// A frame with nothing to repaint leaves its bitmap free; one with something is the
    /// renderer's until waited for, even when painted before `submit` returned (one thread), so
    /// that code reading too early fails on every machine, not only on one with cores to spare.
    @Test func aSubmittedBitmapIsTheRenderersUntilWaitedFor() throws {
        let root = rootLayer(64, 48)
        root.backgroundColor = .white
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 64, height: 48)
        #expect(!renderer.submit(root, at: 0, into: target).isEmpty)
        #expect(target.isBeingPainted && renderer.isPainting)
        renderer.waitUntilPainted()
        renderer.waitUntilPainted()
        #expect(target.pixel(x: 3, y: 3) == .white)
        #expect(renderer.submit(root, at: 0, into: target).isEmpty)
        #expect(!target.isBeingPainted && !renderer.isPainting)
    }

    /// Reading a submitted frame before waiting for it, or rendering into it with another
    /// renderer, stops the program with the reason, instead of reading pixels half painted.
    @Test func readingASubmittedFrameTraps() async {
        await #expect(processExitsWith: .failure) {
            let root = rootLayer(64, 48)
            root.backgroundColor = .white
            let renderer = Renderer(threadCount: 2)
            let target = try Bitmap(width: 64, height: 48)
            renderer.submit(root, at: 0, into: target)
            _ = target.pixel(x: 0, y: 0)
        }
        // Nor may another renderer draw into it: its helpers would paint beside the first's.
        await #expect(processExitsWith: .failure) {
            let root = rootLayer(64, 48)
            let target = try Bitmap(width: 64, height: 48)
            let first = Renderer(threadCount: 2), second = Renderer(threadCount: 2)
            first.submit(root, at: 0, into: target)
            second.render(root, at: 0, into: target)
            withExtendedLifetime(first) {}
        }
    }
}
