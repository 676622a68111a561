import ExampleScenes
import Foundation
import Testing
@testable import LayerKit

/// The retained render tree: frames revisit only what changed, idle frames look at nothing, the
/// raster cache flattens the unchanging bottom of a frame — and every frame is still exactly
/// what a fresh renderer draws.
@Suite struct RetainedRenderTests {
    /// Random trees of every layer kind under random changes and animations, 1,000 steps in
    /// all: each incremental frame (one thread; four threads; the raster cache off) is the same
    /// bit for bit as a fresh renderer's full frame of an identical twin tree at the same time.
    /// (RETAINED_SEED=n in the environment runs seed n alone, to replay or to try more seeds.)
    @Test(arguments: ProcessInfo.processInfo.environment["RETAINED_SEED"].map { [UInt64($0)!] } ?? [UInt64(1), 2, 3, 4])
    func randomChangesRenderExactlyAsFreshFrames(seed: UInt64) throws {
        let scene = try RandomScene(seed: seed, twins: 4)
        let roots = scene.roots
        let oneThread = Renderer(threadCount: 1)
        let fourThreads = Renderer(threadCount: 4)
        let uncached = Renderer(threadCount: 1)
        uncached.rasterCacheBudget = 0
        let renderers = [oneThread, fourThreads, uncached]
        let targets = try renderers.map { _ in try Bitmap(width: 120, height: 90) }
        var time = 0.0
        var rng = SeededGenerator(seed: seed ^ 0xABCDEF)
        for step in 0..<250 {
            let changes = Int.random(in: 0..<4, using: &rng)
            for _ in 0..<changes { scene.change() }
            time += [0, 0, 1.0 / 30, 0.1, 0.4][Int.random(in: 0..<5, using: &rng)]
            for layer in roots { layer.setCurrentTime(time) }
            let reference = try Renderer(threadCount: 1).render(roots[0], at: time)
            for (k, renderer) in renderers.enumerated() {
                renderer.render(roots[k + 1], at: time, into: targets[k])
                guard targets[k].hasSamePixels(as: reference) else {
                    Issue.record("seed \(seed), step \(step), t = \(time): renderer \(k) differs from a fresh frame")
                    let out = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-retained-\(seed)-\(step)")
                    try? FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                    try? reference.writePNG(to: out.appendingPathComponent("fresh.png").path)
                    try? targets[k].writePNG(to: out.appendingPathComponent("incremental-\(k).png").path)
                    return
                }
            }
        }
        // The cache was used: without pictures the cached and uncached runs test the same thing.
        #expect(oneThread.rasterCachePictures > 0)
        #expect(uncached.rasterCachePictures == 0)
    }

    /// A frame in which nothing changed and nothing animates looks at no layer and paints nothing.
    @Test func anIdleFrameVisitsNoLayerAndHasNoDamage() throws {
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: .layers, startTime: 10 * 3600)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 240, height: 240)
        renderer.render(clock.root, at: 0, into: target)
        let visits = renderer.visitCount
        #expect(visits >= 78)   // root, face, 60 ticks, 12 numerals, 3 hands, cap
        for t in [0.0, 0.5, 0.9] {
            #expect(renderer.render(clock.root, at: t, into: target).isEmpty)
            #expect(renderer.visitCount == visits)
        }
        // A change is seen at once, and costs only the layers on its way.
        clock.update(elapsed: 1)
        let damage = renderer.render(clock.root, at: 1, into: target)
        #expect(!damage.isEmpty)
        #expect(renderer.visitCount - visits <= 5)
    }

    /// Animations are a function of time: an animated tree rendered again at the same time, with
    /// nothing changed, is an idle frame too.
    @Test func anAnimatedTreeAtTheSameTimeIsIdle() throws {
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: .shapes, startTime: 10 * 3600)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 240, height: 240)
        renderer.render(clock.root, at: 2, into: target)
        let visits = renderer.visitCount
        #expect(renderer.render(clock.root, at: 2, into: target).isEmpty)
        #expect(renderer.visitCount == visits)
        #expect(!renderer.render(clock.root, at: 2.5, into: target).isEmpty)
        #expect(renderer.visitCount > visits)
    }

    /// Among many unchanged sublayers, a change revisits the changed one and its ancestors only.
    @Test func aChangeAmongManySiblingsVisitsOnlyItsPath() throws {
        let root = rootLayer(400, 300)
        var boxes: [Layer] = []
        for i in 0..<2000 {
            boxes.append(solidLayer(CGRect(x: CGFloat(i % 50) * 8, y: CGFloat(i / 50) * 7, width: 6, height: 5),
                                    i % 2 == 0 ? .blue : .red, in: root))
        }
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 400, height: 300)
        renderer.render(root, into: target)
        let visits = renderer.visitCount
        Transaction.perform(disableActions: true) { boxes[1234].backgroundColor = .green }
        let damage = renderer.render(root, into: target)
        #expect(renderer.visitCount - visits <= 2)
        #expect(damage.contains(x: 34 * 8 + 2, y: 24 * 7 + 2))
        #expect(damage.area <= 8 * 7)
        #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(root)))
    }

    /// Layers animating among static ones: each frame revisits the animated layers, not the rest.
    @Test func animatedLayersAmongStaticOnesAreTheOnlyOnesRevisited() throws {
        let root = rootLayer(400, 300)
        for i in 0..<500 { _ = solidLayer(CGRect(x: CGFloat(i % 25) * 16, y: CGFloat(i / 25) * 15, width: 12, height: 11), .gray, in: root) }
        let moving = solidLayer(CGRect(x: 10, y: 10, width: 20, height: 20), .red, in: root)
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 20.0
        slide.toValue = 380.0
        slide.duration = 2
        slide.repeatCount = .infinity
        moving.add(slide, forKey: "slide")
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 400, height: 300)
        renderer.render(root, at: 0, into: target)
        let visits = renderer.visitCount
        for k in 1...10 { renderer.render(root, at: Double(k) / 30, into: target) }
        #expect(renderer.visitCount - visits <= 20)
        #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(root, at: 10.0 / 30)))
    }

    /// A layer that draws nothing now — faded to 0, or a one-sided card turned away — but
    /// animates, shows up when its animation brings it back, though nothing else changed.
    @Test func culledLayersThatAnimateComeBack() throws {
        let root = rootLayer(100, 100)
        let fading = solidLayer(CGRect(x: 10, y: 10, width: 30, height: 30), .red, in: root)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 1
        fading.add(fade, forKey: "fade")
        let card = solidLayer(CGRect(x: 60, y: 10, width: 30, height: 60), .blue, in: root)
        card.isDoubleSided = false
        var perspective = Transform3D.identity
        perspective.m34 = -1 / 200
        root.sublayerTransform = perspective
        let flip = BasicAnimation(keyPath: "transform.rotation.y")
        flip.fromValue = Double.pi
        flip.toValue = 2 * Double.pi
        flip.duration = 1
        card.add(flip, forKey: "flip")
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 100, height: 100)
        renderer.render(root, at: 0, into: target)
        #expect(target.pixel(x: 25, y: 25).alpha == 0 && target.pixel(x: 75, y: 40).alpha == 0)
        for t in [0.2, 0.5, 0.9] {
            renderer.render(root, at: t, into: target)
            #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(root, at: t)), "at \(t)")
        }
        #expect(target.pixel(x: 25, y: 25).alpha > 0.8 && target.pixel(x: 75, y: 40).alpha > 0.9)
    }

    /// The clock's ticks repaint through a cached picture of the face, and stay exact.
    @Test func clockTicksRepaintOverACachedPictureOfTheFace() throws {
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: .layers, startTime: 10 * 3600 + 8 * 60)
        let twin = ClockScene(size: CGSize(width: 240, height: 240), style: .layers, startTime: 10 * 3600 + 8 * 60)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 240, height: 240)
        for k in 0..<40 {
            let t = Double(k) * 0.25
            clock.update(elapsed: t)
            twin.update(elapsed: t)
            clock.root.setCurrentTime(t)
            twin.root.setCurrentTime(t)
            renderer.render(clock.root, at: t, into: target)
            #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(twin.root, at: t)), "at \(t)")
        }
        #expect(renderer.rasterCachePictures >= 1)
        #expect(renderer.cachedByteCount <= renderer.rasterCacheBudget + 8 << 20)
    }

    /// Under labels that change every frame, the bottom is a plain backdrop: frames start from a
    /// fill of its one pixel value, not a copy, and stay exact. An opaque backdrop is filled
    /// from its store's known value with no picture made (`Painter.opaqueFill`); a translucent
    /// one over the clear background is a cached picture of one value (whose premultiplied value
    /// a color would not round-trip).
    @Test func framesOverAPlainBackdropStartFromAFill() throws {
        for backdrop in [Color(red: 0.1, green: 0.15, blue: 0.3), Color(red: 0.5, green: 0.2, blue: 0.7, alpha: 0.37)] {
            let root = rootLayer(160, 90)
            root.backgroundColor = backdrop
            let labels = (0..<3).map { k -> TextLayer in
                let label = TextLayer()
                label.frame = CGRect(x: 5, y: 5 + 28 * CGFloat(k), width: 150, height: 26)
                label.fontSize = 18
                root.addSublayer(label)
                return label
            }
            let renderer = Renderer(threadCount: 1)
            let target = try Bitmap(width: 160, height: 90)
            for frame in 0..<8 {
                Transaction.perform(disableActions: true) {
                    for (k, label) in labels.enumerated() { label.string = "\(k): \(frame * 7919 % 1000)" }
                }
                renderer.render(root, at: 0, into: target)
                #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(root, at: 0)), "frame \(frame)")
            }
            let opaque = backdrop.alpha == 1
            #expect(renderer.rasterCacheUniformPictures == (opaque ? 0 : 1))
            #expect(renderer.rasterCachePictures == (opaque ? 0 : 1))
        }
        let uniform = try Bitmap(width: 7, height: 5, color: Color(red: 0.2, green: 0.4, blue: 0.6))
        #expect(uniform.uniformPixel() == uniform.premultipliedPixel(x: 0, y: 0))
        uniform.fill(PixelRect(x: 6, y: 4, width: 1, height: 1), with: .white, operator: .source)
        #expect(uniform.uniformPixel() == nil)
    }

    /// Content at rest under a pure translation is drawn at its sub-pixel offset and composited
    /// as a whole-pixel copy; while it moves it is resampled.
    @Test func layersAtRestAtFractionalPositionsCompositeAsCopies() throws {
        let root = rootLayer(100, 100)
        let box = solidLayer(CGRect(x: 10.3, y: 20.6, width: 30, height: 20), .red, in: root)
        box.cornerRadius = 4
        let renderer = Renderer(threadCount: 1)
        let atRest = renderer.composites(for: root, width: 100, height: 100).filter { $0.extent.width < 100 }
        #expect(!atRest.isEmpty && atRest.allSatisfy { $0.transform.kind.isIntegerTranslation })
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 30.0
        slide.toValue = 60.0
        slide.duration = 1
        box.add(slide, forKey: "slide")
        let moving = renderer.composites(for: root, at: 0.37, width: 100, height: 100).filter { $0.extent.width < 100 }
        #expect(moving.contains { !$0.transform.kind.isIntegerTranslation })
        // Still exact: the same as a fresh frame, whose own choice is the same.
        let frame = try renderer.render(root, at: 0.37)
        #expect(frame.hasSamePixels(as: try Renderer(threadCount: 1).render(root, at: 0.37)))
    }

    /// The raster cache keeps within its budget, dropping its picture when it cannot.
    @Test func theRasterCacheKeepsWithinItsBudget() throws {
        let clock = ClockScene(size: CGSize(width: 240, height: 240), style: .shapes, startTime: 0)
        let renderer = Renderer(threadCount: 1)
        renderer.rasterCacheBudget = 100 * 100 * 4
        let target = try Bitmap(width: 240, height: 240)
        for k in 0..<10 { renderer.render(clock.root, at: Double(k) / 10, into: target) }
        #expect(renderer.rasterCachePictures == 0)
        renderer.rasterCacheBudget = 240 * 240 * 4
        for k in 10..<20 { renderer.render(clock.root, at: Double(k) / 10, into: target) }
        #expect(renderer.rasterCachePictures >= 1)
        #expect(renderer.rasterCacheByteCount == 240 * 240 * 4)
        renderer.rasterCacheBudget = 0
        #expect(renderer.rasterCacheByteCount == 0)
    }
}

/// A culled sublayer makes its superlayer look again every frame only while its animations
/// may change what it shows.
@Suite struct CulledAnimationTests {
    /// A hidden page holding its last flip (ended, not removed) and a spinner elsewhere that
    /// keeps frames coming.
    func scene() -> (root: Layer, card: Layer, page: Layer) {
        let root = rootLayer(120, 80)
        let card = solidLayer(CGRect(x: 10, y: 10, width: 40, height: 40), .blue, in: root)
        let page = solidLayer(CGRect(x: 0, y: 0, width: 40, height: 20), .red, in: card)
        let flip = BasicAnimation(keyPath: "transform.rotation.x")
        flip.fromValue = 0.0
        flip.toValue = Double.pi
        flip.duration = 1
        flip.fillMode = .both
        flip.isRemovedOnCompletion = false
        page.add(flip, forKey: "flip")
        page.isHidden = true
        let spinner = solidLayer(CGRect(x: 70, y: 10, width: 30, height: 10), .green, in: root)
        let spin = BasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0.0
        spin.toValue = 2 * Double.pi
        spin.duration = 4
        spin.repeatCount = .infinity
        spinner.add(spin, forKey: "spin")
        return (root, card, page)
    }

    @Test func aHiddenLayerHoldingAnEndedAnimationIsNotRevisited() throws {
        let (root, _, page) = scene()
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 120, height: 80)
        for t in [1.5, 1.6] { renderer.render(root, at: t, into: target) }
        let visits = renderer.visitCount
        renderer.render(root, at: 1.7, into: target)
        // The root and the spinner; not the card, which would present the page again.
        #expect(renderer.visitCount - visits <= 2)
        // Shown again, the page is drawn at its held angle.
        Transaction.perform(disableActions: true) { page.isHidden = false }
        renderer.render(root, at: 1.8, into: target)
        let fresh = scene()
        Transaction.perform(disableActions: true) { fresh.page.isHidden = false }
        #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(fresh.root, at: 1.8)))
    }

    @Test func aLayerCulledByAnAnimationThatEndsIsDrawnOnceItIsRemoved() throws {
        let root = rootLayer(120, 80)
        let card = solidLayer(CGRect(x: 10, y: 10, width: 40, height: 40), .blue, in: root)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        // Held at 0 once it ends, in the frame that removes it.
        fade.fillMode = .forwards
        card.add(fade, forKey: "fade")
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 120, height: 80)
        for t in [0.5, 1.0, 1.1, 1.2] { renderer.render(root, at: t, into: target) }
        #expect(target.premultipliedPixel(x: 30, y: 30) == Color.blue.premultipliedARGB32)
    }
}
