import LayerKitQuartzCore

// The UIKit and SwiftUI around the seeds' code: just enough of UIView, UIScreen and Canvas
// for the seeds' layer code to run as written. These are the only stand-ins; everything the
// seeds call on layers, animations, paths, colors and contexts is LayerKitQuartzCore's.

/// A view is its layer: `frame`, `alpha` and subviews map to the layer's.
class UIView {
    /// The view's layer.
    let layer: CALayer

    init(frame: CGRect, layer: CALayer = CALayer()) {
        self.layer = layer
        layer.frame = frame
    }

    var frame: CGRect {
        get { layer.frame }
        set { layer.frame = newValue }
    }

    var alpha: CGFloat {
        get { CGFloat(layer.opacity) }
        set { layer.opacity = Float(newValue) }
    }

    func addSubview(_ view: UIView) { layer.addSublayer(view.layer) }
}

/// The screen: two pixels per point, as the frames below are rendered.
final class UIScreen {
    static func mainScreen() -> UIScreen { UIScreen() }
    let scale: CGFloat = 2
}

/// SwiftUI's Canvas as a layer: the closure draws the layer's content, in its bounds.
final class Canvas: CALayer {
    let renderer: (GraphicsContext, CGSize) -> Void

    init(_ renderer: @escaping (GraphicsContext, CGSize) -> Void) {
        self.renderer = renderer
        super.init()
        setNeedsDisplay()
    }

    required init(layer: CALayer) {
        renderer = (layer as? Canvas)?.renderer ?? { _, _ in }
        super.init(layer: layer)
    }

    override func draw(in ctx: CGContext) { renderer(ctx, bounds.size) }
}

extension GraphicsContext {
    /// SwiftUI's bridge to CoreGraphics: here the context is already a CGContext.
    func withCGContext(_ body: (CGContext) -> Void) { body(self) }
}

/// Degrees to radians, from part 1 of the clock tutorial the 003 seed continues.
func degree2radian(_ a: CGFloat) -> CGFloat { CGFloat.pi * a / 180 }

/// Renders a frame of `layer` at `time` (the harness: LayerKit's renderer, one thread).
func frame(of layer: CALayer, at time: CFTimeInterval, scale: CGFloat = 1) throws -> Bitmap {
    try Renderer(scale: scale, threadCount: 1).render(layer, at: time)
}

extension UIColor {
    /// Whether the color is within `tolerance` of `other` in every component.
    func isClose(to other: UIColor, _ tolerance: Double = 0.02) -> Bool {
        abs(red - other.red) <= tolerance && abs(green - other.green) <= tolerance &&
            abs(blue - other.blue) <= tolerance && abs(alpha - other.alpha) <= tolerance
    }
}
