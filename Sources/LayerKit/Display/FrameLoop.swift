import Foundation

/// Drives a layer tree frame by frame into a presenter: offline over an exact timeline, or
/// live at a target rate. Each frame the model may be updated (`update`), then the tree is
/// rendered incrementally into one bitmap and only the damage goes to the presenter.
public final class FrameLoop {
    public let layer: Layer
    public let renderer: Renderer
    public let presenter: any Presenter
    private var target: Bitmap?

    public init(layer: Layer, renderer: Renderer, presenter: any Presenter) {
        self.layer = layer
        self.renderer = renderer
        self.presenter = presenter
    }

    /// Renders every frame of `timeline` and finishes the presenter.
    public func run(_ timeline: OfflineClock, update: ((FrameTime) -> Void)? = nil) throws {
        for frame in timeline { try step(frame, update: update) }
        try presenter.finish()
    }

    /// Renders live frames from `link` for `duration` seconds (or until `shouldContinue` says
    /// stop), then finishes the presenter.
    public func run(_ link: DisplayLink, startTime: TimeInterval = 0, duration: TimeInterval = .infinity,
                    update: ((FrameTime) -> Void)? = nil, shouldContinue: @escaping () -> Bool = { true }) throws {
        try link.run(startTime: startTime, duration: duration) { frame in
            try step(frame, update: update)
            return shouldContinue()
        }
        try presenter.finish()
    }

    /// One frame: the tree's time becomes the frame's (so changes made in `update` start their
    /// animations there), the model is updated, the frame rendered and presented.
    public func step(_ frame: FrameTime, update: ((FrameTime) -> Void)? = nil) throws {
        layer.setCurrentTime(frame.time)
        update?(frame)
        let bitmap = try target ?? renderer.render(layer, at: frame.time)
        let damage: Region
        if target == nil {
            target = bitmap
            damage = Region(bitmap.bounds)
        } else {
            damage = renderer.render(layer, at: frame.time, into: bitmap)
        }
        try presenter.present(bitmap, damage: damage, at: frame)
    }
}
