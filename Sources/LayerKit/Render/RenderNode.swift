import Foundation

/// What one layer draws in a frame: an immutable value the rest of the pipeline reads without
/// touching the model tree. (Its sublayers are in the retained `RenderObject` that holds it.)
///
/// Geometry is resolved: `transform` maps the layer's bounds space to the pixels of the
/// surface it is composited into (the frame, or the offscreen bitmap of an enclosing group).
struct RenderNode: Sendable {
    let id: LayerID
    /// Bounds space → target pixels.
    let transform: Homography
    /// Bounds space → target space in 3D, kept for sublayers of transform layers and for depth.
    let bounds: CGRect
    /// Opacity applied when this node's own paint and (if not a group) its children's land.
    let opacity: Double
    /// Device pixels per point the layer's content is rasterized at.
    let rasterScale: CGFloat
    /// What is drawn in the bounds beneath the sublayers. (A `var`, as `border`, only for
    /// `replace(content:border:)`.)
    var content: ContentDescription?
    /// What is drawn over the sublayers.
    var border: BorderDescription?
    let shadow: ShadowDescription?
    /// A pixel-aligned clip for children (a rectilinear `masksToBounds`), in target pixels.
    let childClip: PixelRect?
    /// Set when the subtree is drawn offscreen and composited as one quad.
    let group: GroupDescription?
    /// Which replicator instance this is (0 outside replicators): part of its paint identity.
    var instance: Int = 0
    /// A replicator's instance color, multiplying what the node paints (nil: none).
    var tint: Color? = nil
    /// Whether neither the layer nor an ancestor is animated: then a store shown through a pure
    /// translation is rasterized at its device sub-pixel offset and composited as a copy.
    var isAtRest = false

    /// Gives the node another content and border, everything else as it is (the layer changed
    /// only what its stores show). In place: a node built anew copied, and then released,
    /// every field of the old one.
    mutating func replace(content: ContentDescription?, border: BorderDescription?) {
        self.content = content
        self.border = border
    }

    /// The paint identity of one of this node's paints.
    func key(_ part: PaintItem.Part) -> PaintItem.Key { PaintItem.Key(layer: id, part: part, instance: instance) }

    /// The cache identity of a store: shared by untinted instances, which draw the same pixels.
    func storeKey(_ part: PaintItem.Part) -> PaintItem.Key {
        PaintItem.Key(layer: id, part: part, instance: tint == nil && part != .group && part != .shadow ? 0 : instance)
    }
}

/// Everything rasterized into a layer's backing store; equal descriptions draw equal pixels.
///
/// Immutable, and a class: a node, a store's fingerprint and the cache's entry each hold it, and
/// as a value its ~500 bytes were copied at every step of a frame's update.
final class ContentDescription: Sendable, Equatable {
    let bounds: CGRect
    let backgroundColor: Color?
    let cornerRadius: CGFloat
    let maskedCorners: CornerMask
    let contents: ContentsDescription?
    /// What the layer drew itself (`draw(in:)`), at its raster scale, over its bounds.
    let drawn: Image?
    /// A shape layer's path drawing.
    let shape: ShapeDescription?
    /// A text layer's text.
    let text: TextDescription?
    /// A gradient layer's gradient, in bounds space.
    let gradient: Gradient?
    /// The layer's content version when snapshotted: any content change bumps it.
    let version: UInt64

    init(bounds: CGRect, backgroundColor: Color?, cornerRadius: CGFloat, maskedCorners: CornerMask,
         contents: ContentsDescription?, drawn: Image?, shape: ShapeDescription?, text: TextDescription?,
         gradient: Gradient?, version: UInt64) {
        self.bounds = bounds
        self.backgroundColor = backgroundColor
        self.cornerRadius = cornerRadius
        self.maskedCorners = maskedCorners
        self.contents = contents
        self.drawn = drawn
        self.shape = shape
        self.text = text
        self.gradient = gradient
        self.version = version
        // Decided once here, from the arguments: each is asked for every time the layer's items
        // are emitted, and reading a description's optional fields copies them.
        // (The gradient and the contents are matched, not compared with nil or mapped: that
        // copied them, and destroyed the copies through their types' metadata.)
        var hasGradient = false, hasContents = false
        if case .some = gradient { hasGradient = true }
        if case .some = contents { hasContents = true }
        let plain = backgroundColor == nil && drawn == nil && !hasGradient
        mayBeOneColor = (backgroundColor.map { $0.alpha >= 1 } ?? false) && drawn == nil && !hasGradient && !hasContents &&
            shape == nil && text == nil
        isContentsOnly = plain && shape == nil && text == nil && contents?.center == CGRect(x: 0, y: 0, width: 1, height: 1)
        // (Asked through optional chaining: binding the text would copy it.)
        if !plain || hasContents || (shape == nil) == (text == nil) {
            coverageColor = nil
        } else {
            coverageColor = shape?.singleColor ?? text?.singleColor
        }
    }

    /// Whether the layer shows only an opaque background color: its store may then be that
    /// color's pixel throughout (not when rounded corners or a fractional edge shade some), which
    /// drawing it checks (`Bitmap.knownUniformPixel`).
    let mayBeOneColor: Bool

    /// Whether the layer shows only its contents image, placed without nine-part stretching:
    /// then it is composited straight from the image, resampled once.
    let isContentsOnly: Bool

    /// The color of content that is coverage alone — text of one color, or a shape drawn in one
    /// color, with no background, image, gradient or drawing — or nil. Such content is stored
    /// as 8-bit coverage and painted through it in this color: a quarter of a bitmap's bytes to
    /// clear, draw and sample, and painting costs little where there is no ink.
    let coverageColor: Color?

    static func == (a: ContentDescription, b: ContentDescription) -> Bool {
        a === b || a.version == b.version && a.bounds == b.bounds && a.backgroundColor == b.backgroundColor &&
            a.cornerRadius == b.cornerRadius && a.maskedCorners == b.maskedCorners &&
            a.contents == b.contents && a.drawn === b.drawn && a.shape == b.shape && a.text == b.text && a.gradient == b.gradient
    }
}

/// The contents image and how it is placed.
struct ContentsDescription: Sendable, Equatable {
    let image: Image
    let gravity: ContentsGravity
    /// Unit rect of the image that is shown.
    let rect: CGRect
    /// Unit rect of the image that stretches (nine-part).
    let center: CGRect
    let scale: CGFloat
    let minificationFilter: ContentsFilter
    let magnificationFilter: ContentsFilter

    static func == (a: ContentsDescription, b: ContentsDescription) -> Bool {
        a.image === b.image && a.gravity == b.gravity && a.rect == b.rect && a.center == b.center &&
            a.scale == b.scale && a.minificationFilter == b.minificationFilter && a.magnificationFilter == b.magnificationFilter
    }
}

/// A border inside the bounds.
struct BorderDescription: Sendable, Equatable {
    let bounds: CGRect
    let width: CGFloat
    let color: Color
    let cornerRadius: CGFloat
    let maskedCorners: CornerMask
}

/// A layer's shadow, drawn in its own space beneath it.
struct ShadowDescription: Sendable, Equatable {
    let color: Color
    let opacity: Double
    let offset: CGSize
    let radius: CGFloat
    let path: Path?
}

/// Why and how a subtree is drawn offscreen first.
struct GroupDescription: Sendable {
    /// Offscreen pixels per point.
    let scale: CGFloat
    /// The part of the bounds space the offscreen bitmap covers (the bounds, or the visible
    /// part of huge bounds).
    let area: CGRect
    /// Clip the group to the bounds (with rounded corners).
    let clipsToBounds: Bool
    let cornerRadius: CGFloat
    let maskedCorners: CornerMask
    /// Cache the result while `signature` stays the same (`shouldRasterize`).
    let rasterize: Bool
}
