import ExampleScenes
import Foundation
import Testing
@testable import LayerKit

/// Counts what a frame loop hands it.
final class CountingPresenter: Presenter {
    private(set) var presented: [(time: TimeInterval, damage: Int)] = []
    private(set) var last: Bitmap?
    /// When set, `wait` returns at this clock time even if the deadline is later (an event).
    var eventAt: TimeInterval?
    private(set) var waits = 0

    func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        presented.append((time.time, damage.area))
        last = try? frame.copy()
    }

    func finish() throws(DisplayError) {}

    func wait(until deadline: TimeInterval, on clock: any MonotonicClock) {
        waits += 1
        if let eventAt, eventAt < deadline, clock.now() <= eventAt {
            clock.sleep(until: eventAt)
            self.eventAt = nil
            return
        }
        clock.sleep(until: deadline)
    }
}

/// The live frame loop: frames with nothing to show are not presented, and with nothing
/// animating the loop sleeps until an animation, a requested update or an event.
@Suite struct FrameLoopTests {
    @Test func aStillTreePresentsOneFrameAndSleeps() throws {
        let root = rootLayer(60, 40)
        _ = solidLayer(CGRect(x: 5, y: 5, width: 20, height: 20), .red, in: root)
        let presenter = CountingPresenter()
        let clock = ManualClock()
        let loop = FrameLoop(layer: root, renderer: Renderer(threadCount: 1), presenter: presenter)
        var updates = 0
        try loop.run(try DisplayLink(fps: 30, clock: clock), duration: 10, update: { _ in updates += 1 })
        #expect(presenter.presented.count == 1)
        // Woken once a second (maximumIdleInterval), not 300 times.
        #expect(updates <= 11)
    }

    /// The layers-style Clock: hands set once a second with a 0.25 s sweep. The loop presents the
    /// sweep's frames and sleeps the rest of each second, and its last frame is exact.
    @Test func aTickingClockWakesForItsTicksAndSweepsOnly() throws {
        let scene = ClockScene(size: CGSize(width: 120, height: 120), style: .layers, startTime: 3600)
        let presenter = CountingPresenter()
        let clock = ManualClock()
        let loop = FrameLoop(layer: scene.root, renderer: Renderer(threadCount: 1), presenter: presenter)
        loop.maximumIdleInterval = 60
        var updates = 0
        try loop.run(try DisplayLink(fps: 30, clock: clock), duration: 5, update: { frame in
            updates += 1
            scene.update(elapsed: frame.time)
            loop.requestUpdate(at: frame.time.rounded(.down) + 1)
        })
        // Each second: the frame of the tick and the sweep's 0.25 s (8 frames at 30 fps).
        #expect(presenter.presented.count >= 5 && presenter.presented.count <= 5 * 10, "\(presenter.presented.count) frames")
        #expect(updates <= 5 * 11)
        let twin = ClockScene(size: CGSize(width: 120, height: 120), style: .layers, startTime: 3600)
        for t in stride(from: 0.0, through: 4, by: 1) { twin.update(elapsed: t); twin.root.setCurrentTime(t) }
        let lastTime = try #require(presenter.presented.last?.time)
        let expected = try Renderer(threadCount: 1).render(twin.root, at: lastTime + 1)
        let shown = try Renderer(threadCount: 1).render(scene.root, at: lastTime + 1)
        #expect(shown.hasSamePixels(as: expected))
    }

    @Test func aRunningAnimationPresentsEveryFrame() throws {
        let scene = ClockScene(size: CGSize(width: 120, height: 120), style: .shapes, startTime: 3600)
        let presenter = CountingPresenter()
        let loop = FrameLoop(layer: scene.root, renderer: Renderer(threadCount: 1), presenter: presenter)
        try loop.run(try DisplayLink(fps: 30, clock: ManualClock()), duration: 2)
        #expect(presenter.presented.count == 60)
    }

    /// An animation that begins later wakes the loop at its begin time, not before.
    @Test func theLoopSleepsUntilAnAnimationBegins() throws {
        let root = rootLayer(60, 40)
        let box = solidLayer(CGRect(x: 5, y: 5, width: 20, height: 20), .red, in: root)
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 15.0
        slide.toValue = 45.0
        slide.duration = 1
        slide.beginTime = 3
        box.add(slide, forKey: "slide")
        let presenter = CountingPresenter()
        let loop = FrameLoop(layer: root, renderer: Renderer(threadCount: 1), presenter: presenter)
        loop.maximumIdleInterval = 60
        try loop.run(try DisplayLink(fps: 10, clock: ManualClock()), duration: 5)
        let times = presenter.presented.map(\.time)
        #expect(times.first == 0)
        #expect(times.dropFirst().allSatisfy { $0 >= 3 - 1e-9 && $0 <= 4.1 }, "\(times)")
        #expect(times.count >= 10 && times.count <= 13)
    }

    /// An event (a key, a resize) wakes a sleeping loop at once.
    @Test func anEventWakesTheLoop() throws {
        let root = rootLayer(60, 40)
        let presenter = CountingPresenter()
        let clock = ManualClock(start: 0)
        presenter.eventAt = 2.5
        let loop = FrameLoop(layer: root, renderer: Renderer(threadCount: 1), presenter: presenter)
        loop.maximumIdleInterval = 60
        var seen: [TimeInterval] = []
        try loop.run(try DisplayLink(fps: 30, clock: clock), duration: 10, update: { seen.append($0.time) },
                     shouldContinue: { clock.now() < 2.5 })
        #expect(seen.count == 2)
        #expect(abs(seen[1] - 2.5) < 1.0 / 30 + 1e-9)
    }
}
