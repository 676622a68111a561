import Foundation

/// Drives a layer tree frame by frame into a presenter: offline over an exact timeline, or
/// live at a target rate. Each frame the model may be updated (`update`), then the tree is
/// rendered incrementally into one bitmap and only the damage goes to the presenter.
///
/// Live, the loop costs what changes: a frame whose damage is empty presents nothing, and when
/// no animation runs the loop sleeps until the next animation begins, an update the app asked
/// for (`requestUpdate(at:)`), or the presenter has an event — a clock whose hands move once a
/// second wakes once a second.
public final class FrameLoop {
    /// The tree drawn.
    public let layer: Layer
    /// The renderer that draws it (keep one per tree: it caches what it drew).
    public let renderer: Renderer
    /// Where frames go.
    public let presenter: any Presenter
    /// The longest a live loop sleeps with nothing due: then it calls `update` (and
    /// `shouldContinue`) anyway, so that an app that changes its model on its own schedule
    /// without asking for updates is not left asleep for long. 1 s by default.
    public var maximumIdleInterval: TimeInterval = 1
    /// Frames handed to the presenter so far.
    public private(set) var framesPresented = 0

    private var target: Bitmap?
    private var requestedUpdates: [TimeInterval] = []

    /// Creates a loop drawing `layer` with `renderer` into `presenter`.
    public init(layer: Layer, renderer: Renderer, presenter: any Presenter) {
        self.layer = layer
        self.renderer = renderer
        self.presenter = presenter
    }

    /// Asks a live loop for a frame at `time` (in the loop's frame times), with a call of
    /// `update` before it, although no animation may be running then: what an app calls to be
    /// woken for a change it makes itself, such as a clock's next second. Offline runs render
    /// every frame anyway.
    public func requestUpdate(at time: TimeInterval) {
        guard time.isFinite else { return }
        requestedUpdates.append(time)
    }

    /// Renders every frame of `timeline` and finishes the presenter. Every frame is presented,
    /// changed or not: a video or a frame sequence needs them all.
    public func run(_ timeline: OfflineClock, update: ((FrameTime) -> Void)? = nil) throws {
        for frame in timeline { try step(frame, update: update) }
        try presenter.finish()
    }

    /// Renders live frames from `link` for `duration` seconds (or until `shouldContinue` says
    /// stop), then finishes the presenter. A frame with no damage is not presented; with no
    /// animation running, the loop sleeps (in the presenter's `wait(until:on:)`, which returns
    /// early on an event) until the next animation change or requested update, at most
    /// `maximumIdleInterval`.
    public func run(_ link: DisplayLink, startTime: TimeInterval = 0, duration: TimeInterval = .infinity,
                    update: ((FrameTime) -> Void)? = nil, shouldContinue: @escaping () -> Bool = { true }) throws {
        let presenter = self.presenter, clock = link.clock
        try link.run(startTime: startTime, duration: duration, wait: { presenter.wait(until: $0, on: clock) }) { frame in
            let (bitmap, damage) = try render(frame, update: update)
            if !damage.isEmpty {
                try presenter.present(bitmap, damage: damage, at: frame)
                framesPresented += 1
            }
            guard shouldContinue() else { return .stop }
            return next(after: frame.time)
        }
        try presenter.finish()
    }

    /// One frame: the tree's time becomes the frame's (so changes made in `update` start their
    /// animations there), the model is updated, the frame rendered and presented.
    public func step(_ frame: FrameTime, update: ((FrameTime) -> Void)? = nil) throws {
        let (bitmap, damage) = try render(frame, update: update)
        try presenter.present(bitmap, damage: damage, at: frame)
        framesPresented += 1
    }

    /// Updates the model and renders the frame into the loop's bitmap (made anew, all of it
    /// damaged, when the layer's size changed): the bitmap and what changed in it.
    private func render(_ frame: FrameTime, update: ((FrameTime) -> Void)?) throws -> (Bitmap, Region) {
        layer.setCurrentTime(frame.time)
        requestedUpdates.removeAll { $0 <= frame.time }
        update?(frame)
        // The loop is the run loop: what the update set outside begin()/commit() is committed
        // before the frame, as Core Animation commits its implicit transaction.
        Transaction.flush()
        if let target, target.width == pixels(layer.bounds.width), target.height == pixels(layer.bounds.height) {
            return (target, renderer.render(layer, at: frame.time, into: target))
        }
        let bitmap = try renderer.render(layer, at: frame.time)
        target = bitmap
        return (bitmap, Region(bitmap.bounds))
    }

    /// A side of the frame in device pixels, as `Renderer.render(_:at:)` sizes it.
    private func pixels(_ points: CGFloat) -> Int {
        let value = (points * renderer.scale).rounded(.up)
        return value.isFinite && value >= 1 && value <= CGFloat(Bitmap.maximumDimension) ? Int(value) : 0
    }

    /// When the live loop needs its next frame after one at `time`.
    private func next(after time: TimeInterval) -> DisplayLink.Next {
        if let change = renderer.nextAnimationChange, change <= time { return .nextFrame }
        let due = ([renderer.nextAnimationChange, requestedUpdates.min()].compactMap { $0 } + [time + maximumIdleInterval]).min()!
        return .notBefore(due)
    }
}
