import Foundation
import Synchronization

/// A rectangle of content in a tree of layers, with Core Animation's properties, names and
/// defaults.
///
/// A layer is a plane: its content (background, contents image, custom drawing, border) is drawn
/// in its own bounds space and placed in its superlayer by `position`, `anchorPoint` and
/// `transform`. Layers are reference types used from one isolation domain at a time; a
/// `Renderer` snapshots them into immutable render trees.
open class Layer {
    /// Identifies the layer in render trees and caches, unique for the process's lifetime.
    public let id: LayerID

    // MARK: Geometry

    /// The layer's own coordinate space: its origin is what the top-left corner shows, its size
    /// the size of the layer.
    public var bounds: CGRect = .zero {
        didSet {
            guard bounds != oldValue else { return }
            if bounds.size != oldValue.size {
                didChange("bounds", .content, from: .rect(oldValue))
                if needsDisplayOnBoundsChange { setNeedsDisplay() }
            } else {
                didChange("bounds", .geometry, from: .rect(oldValue))
            }
        }
    }

    /// Where the anchor point sits, in the superlayer's coordinate space.
    public var position: CGPoint = .zero { didSet { if position != oldValue { didChange("position", .geometry, from: .point(oldValue)) } } }

    /// The point of the bounds, in unit coordinates, that `position` refers to and `transform`
    /// turns about: (0.5, 0.5) is the centre, (0.5, 1) the middle of the bottom edge.
    public var anchorPoint = CGPoint(x: 0.5, y: 0.5) { didSet { if anchorPoint != oldValue { didChange("anchorPoint", .geometry, from: .point(oldValue)) } } }

    /// The anchor point's z, in points.
    public var anchorPointZ: CGFloat = 0 { didSet { if anchorPointZ != oldValue { didChange("anchorPointZ", .geometry, from: .scalar(Double(oldValue))) } } }

    /// The layer's position on the z axis; sublayers draw in order of increasing `zPosition`,
    /// ties in array order.
    public var zPosition: CGFloat = 0 { didSet { if zPosition != oldValue { didChange("zPosition", .geometry, from: .scalar(Double(oldValue))) } } }

    /// The transform applied about the anchor point.
    public var transform: Transform3D = .identity { didSet { if transform != oldValue { didChange("transform", .geometry, from: .transform(oldValue)) } } }

    /// A transform applied to every sublayer, about this layer's anchor point (the usual place
    /// for a shared perspective, `m34 = -1/d`).
    public var sublayerTransform: Transform3D = .identity {
        didSet { if sublayerTransform != oldValue { didChange("sublayerTransform", .geometry, from: .transform(oldValue)) } }
    }

    /// Whether the layer and its subtree are left out of rendering.
    public var isHidden = false { didSet { if isHidden != oldValue { changed(.geometry) } } }

    /// Whether the back of the layer is drawn when a transform turns it away from the viewer.
    public var isDoubleSided = true { didSet { if isDoubleSided != oldValue { changed(.geometry) } } }

    /// Whether sublayer geometry is flipped vertically within this layer's bounds
    /// (y grows upward for the sublayers). The layer's own content is not flipped.
    public var isGeometryFlipped = false { didSet { if isGeometryFlipped != oldValue { changed(.geometry) } } }

    // MARK: Hierarchy

    /// The layer this one is a sublayer of.
    public internal(set) weak var superlayer: Layer? { didSet { tracking.listedInParent = 0 } }

    var sublayerStorage: [Layer] = []

    /// The sublayers, back to front; nil when there are none (as in Core Animation).
    ///
    /// Setting the array moves every layer in it here (out of any other superlayer).
    public var sublayers: [Layer]? {
        get { sublayerStorage.isEmpty ? nil : sublayerStorage }
        set { setSublayers(newValue ?? []) }
    }

    /// The layer whose alpha masks this layer (in this layer's coordinate space). A mask has no
    /// superlayer; setting one used elsewhere takes it from there.
    public var mask: Layer? {
        didSet {
            guard mask !== oldValue else { return }
            oldValue?.maskOwner = nil
            if let mask {
                precondition(mask !== self, "layer \(debugName) cannot be its own mask")
                mask.removeFromSuperlayer()
                mask.maskOwner?.mask = nil
                mask.maskOwner = self
            }
            changed(.content)
        }
    }

    /// The layer this one masks, if it is a mask.
    weak var maskOwner: Layer? { didSet { tracking.listedInParent = 0 } }

    // MARK: Appearance

    /// The color filling the bounds behind the contents (none by default).
    public var backgroundColor: Color? { didSet { if backgroundColor != oldValue { didChange("backgroundColor", .content, from: .color(oldValue ?? .clear)) } } }

    /// How opaque the layer and its subtree are, 0…1.
    public var opacity: Float = 1 { didSet { if opacity != oldValue { didChange("opacity", .geometry, from: .scalar(Double(oldValue))) } } }

    /// The radius of the rounded corners of the background and border (and of the clip when
    /// `masksToBounds` is set).
    public var cornerRadius: CGFloat = 0 { didSet { if cornerRadius != oldValue { didChange("cornerRadius", .content, from: .scalar(Double(oldValue))) } } }

    /// Which corners `cornerRadius` rounds (all four by default).
    public var maskedCorners: CornerMask = .all { didSet { if maskedCorners != oldValue { changed(.content) } } }

    /// The width of the border drawn inside the bounds, above the contents and sublayers.
    public var borderWidth: CGFloat = 0 { didSet { if borderWidth != oldValue { didChange("borderWidth", .content, from: .scalar(Double(oldValue))) } } }

    /// The border's color (opaque black by default, as in Core Animation).
    public var borderColor: Color? = .black { didSet { if borderColor != oldValue { didChange("borderColor", .content, from: .color(oldValue ?? .clear)) } } }

    /// Whether sublayers (and contents) are clipped to the bounds, with the rounded corners.
    public var masksToBounds = false { didSet { if masksToBounds != oldValue { changed(.content) } } }

    /// Whether an opacity below 1 applies to the layer and its sublayers as one group (drawn
    /// together, then faded), rather than to each separately.
    public var allowsGroupOpacity = true { didSet { if allowsGroupOpacity != oldValue { changed(.geometry) } } }

    /// The image shown in the bounds, placed by `contentsGravity`.
    public var contents: Image? { didSet { if contents !== oldValue { changed(.content) } } }

    /// How `contents` is placed in the bounds.
    public var contentsGravity: ContentsGravity = .resize { didSet { if contentsGravity != oldValue { changed(.content) } } }

    /// The part of `contents` shown, in unit coordinates of the image.
    public var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1) {
        didSet { if contentsRect != oldValue { didChange("contentsRect", .content, from: .rect(oldValue)) } }
    }

    /// The stretchable middle of `contents` in unit coordinates: outside it, the image keeps its
    /// scale (nine-part stretching); the default, the whole image, stretches everything.
    public var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1) {
        didSet { if contentsCenter != oldValue { didChange("contentsCenter", .content, from: .rect(oldValue)) } }
    }

    /// Image pixels per point of `contents` (2 for a @2x image).
    public var contentsScale: CGFloat = 1 { didSet { if contentsScale != oldValue { changed(.content) } } }

    /// The filter used when `contents` is drawn smaller than its pixels.
    public var minificationFilter: ContentsFilter = .linear { didSet { if minificationFilter != oldValue { changed(.content) } } }

    /// The filter used when `contents` is drawn larger than its pixels.
    public var magnificationFilter: ContentsFilter = .linear { didSet { if magnificationFilter != oldValue { changed(.content) } } }

    // MARK: Shadow

    /// The shadow's color (opaque black).
    public var shadowColor: Color? = .black { didSet { if shadowColor != oldValue { didChange("shadowColor", .shadow, from: .color(oldValue ?? .clear)) } } }

    /// The shadow's opacity, 0…1; 0 (the default) draws no shadow.
    public var shadowOpacity: Float = 0 { didSet { if shadowOpacity != oldValue { didChange("shadowOpacity", .shadow, from: .scalar(Double(oldValue))) } } }

    /// The shadow's offset in the layer's own space ((0, -3): slightly above, as on iOS).
    public var shadowOffset = CGSize(width: 0, height: -3) { didSet { if shadowOffset != oldValue { didChange("shadowOffset", .shadow, from: .size(oldValue)) } } }

    /// The shadow's shape in the layer's own space; when nil the shadow follows what the layer
    /// (and its sublayers) draw. Giving the shape is cheaper and lets it differ from the content.
    public var shadowPath: Path? { didSet { if shadowPath != oldValue { changed(.shadow) } } }

    /// The blur radius of the shadow, in points.
    public var shadowRadius: CGFloat = 3 { didSet { if shadowRadius != oldValue { didChange("shadowRadius", .shadow, from: .scalar(Double(oldValue))) } } }

    // MARK: Caching

    /// Whether the layer's composited subtree is cached as one bitmap and reused while nothing
    /// inside it changes.
    public var shouldRasterize = false { didSet { if shouldRasterize != oldValue { changed(.content) } } }

    /// Pixels per point of the cached bitmap when `shouldRasterize` is set.
    public var rasterizationScale: CGFloat = 1 { didSet { if rasterizationScale != oldValue { changed(.content) } } }

    // MARK: Timing

    /// When the layer's local time starts, in its superlayer's time.
    public var beginTime: TimeInterval = 0 { didSet { if beginTime != oldValue { changed(.geometry) } } }
    /// How fast the layer's local time (and so its sublayers' animations) runs; 0 pauses it.
    public var speed: Float = 1 { didSet { if speed != oldValue { changed(.geometry) } } }
    /// Added to the layer's local time.
    public var timeOffset: TimeInterval = 0 { didSet { if timeOffset != oldValue { changed(.geometry) } } }

    /// The running animations, in the order they were added.
    var animationEntries: [AnimationEntry] = []

    /// Per-key actions that replace or (with `.none`) disable the implicit animation of a
    /// property change, as Core Animation's `actions` dictionary.
    public var actions: [String: LayerAction]?

    /// Supplies actions and custom drawing.
    public weak var delegate: (any LayerDelegate)?

    /// Set once the layer has been drawn in a frame: from then on property changes animate.
    var hasBeenRendered = false
    /// Set on presentation copies, which never start implicit animations.
    var isPresentationCopy = false
    /// For a presentation copy, the model it was made from.
    var modelLayerStorage: Layer?
    /// For the root of a tree, the time of its last frame (see `currentTime`).
    var treeTime: TimeInterval = 0

    // MARK: Display

    /// Whether `display()` must run before the layer is next drawn.
    public internal(set) var needsDisplay = false

    /// Whether a change of bounds size calls `setNeedsDisplay()`.
    public var needsDisplayOnBoundsChange = false

    /// Updates the layer's content; called before a frame when `needsDisplay` is set.
    ///
    /// The default arranges for `draw(in:)` to paint the content (at the scale the layer is
    /// shown at). Subclasses may instead override this to set `contents` directly.
    open func display() {
        drawsContent = true
        drawnCache = nil
    }

    /// Paints the layer's content in its bounds space; the default asks the delegate. Runs
    /// after `setNeedsDisplay()`, and again when the layer is shown at another scale.
    open func draw(in context: GraphicsContext) {
        delegate?.draw(self, in: context)
    }

    /// The animatable key paths of this class; subclasses add their own and fall back to this.
    class func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        baseAnimatableProperty(forKeyPath: keyPath)
    }

    /// What a gradient layer fills its bounds with (nil for other layers).
    var gradientDescription: Gradient? { nil }

    /// What a text layer shows (nil for other layers).
    var textDescription: TextDescription? { nil }

    /// What a shape layer draws (nil for plain layers).
    var shapeDescription: ShapeDescription? { nil }

    /// Whether the content comes from `draw(in:)`.
    var drawsContent = false
    /// The last drawing, with the scale and content version it was made for.
    var drawnCache: (image: Image, scale: CGFloat, version: UInt64)?

    // MARK: Identity

    /// A name for debugging and lookups.
    public var name: String?

    /// Creates a layer with Core Animation's defaults.
    public init() {
        id = LayerID.next()
    }

    /// Creates a presentation copy of `layer`: the same identity and property values, no
    /// sublayers, no animations (Core Animation's `init(layer:)`). Subclasses with properties
    /// of their own override this to copy them.
    public required init(layer: Layer) {
        id = layer.id
        bounds = layer.bounds; position = layer.position; anchorPoint = layer.anchorPoint
        anchorPointZ = layer.anchorPointZ; zPosition = layer.zPosition; transform = layer.transform
        sublayerTransform = layer.sublayerTransform; isHidden = layer.isHidden; isDoubleSided = layer.isDoubleSided
        isGeometryFlipped = layer.isGeometryFlipped; backgroundColor = layer.backgroundColor; opacity = layer.opacity
        cornerRadius = layer.cornerRadius; maskedCorners = layer.maskedCorners; borderWidth = layer.borderWidth; borderColor = layer.borderColor
        masksToBounds = layer.masksToBounds; allowsGroupOpacity = layer.allowsGroupOpacity; contents = layer.contents
        contentsGravity = layer.contentsGravity; contentsRect = layer.contentsRect; contentsCenter = layer.contentsCenter
        contentsScale = layer.contentsScale; minificationFilter = layer.minificationFilter
        magnificationFilter = layer.magnificationFilter; shadowColor = layer.shadowColor
        shadowOpacity = layer.shadowOpacity; shadowOffset = layer.shadowOffset; shadowRadius = layer.shadowRadius
        shadowPath = layer.shadowPath
        shouldRasterize = layer.shouldRasterize; rasterizationScale = layer.rasterizationScale; name = layer.name
        beginTime = layer.beginTime; speed = layer.speed; timeOffset = layer.timeOffset
        needsDisplayOnBoundsChange = layer.needsDisplayOnBoundsChange
        drawsContent = layer.drawsContent
        contentVersion = layer.contentVersion; changeCount = layer.changeCount
        isPresentationCopy = true
        modelLayerStorage = layer.modelLayerStorage ?? layer
        // The mask is read from the model when rendering; the copy keeps no tree links.
    }

    /// Whether a point in the layer's own bounds space lies inside it (its bounds, by default).
    open func contains(_ point: CGPoint) -> Bool {
        bounds.contains(point)
    }

    /// Releases the subtree without recursion: a chain of ten thousand layers would otherwise
    /// release itself ten thousand calls deep and overflow the stack.
    deinit {
        guard !sublayerStorage.isEmpty else { return }
        var pending = sublayerStorage
        sublayerStorage = []
        while var layer = pending.popLast() {
            if isKnownUniquelyReferenced(&layer) {
                pending.append(contentsOf: layer.sublayerStorage)
                layer.sublayerStorage = []
            }
        }
    }

    /// Trees deeper than this are cut when drawn and hit-tested, so that pathological nesting
    /// cannot exhaust the stack (interfaces nest a few dozen levels).
    public static let maximumDrawingDepth = 256

    /// The name, or the type and id, for messages.
    var debugName: String { name.map { "'\($0)'" } ?? "\(type(of: self))#\(id.rawValue)" }

    // MARK: Change tracking

    /// Bumped whenever anything that is rasterized into the layer's backing store changes.
    public internal(set) var contentVersion: UInt64 = 0
    /// Bumped on every change to the layer, its sublayer list or anything it draws.
    public internal(set) var changeCount: UInt64 = 0
    /// Change stamps that let a renderer revisit only what changed (Layer+ChangeTracking.swift).
    var tracking = ChangeTracking()

    enum Change { case geometry, content, shadow }

    /// Records a change of an animatable property and runs its implicit action, if any.
    func didChange(_ key: String, _ change: Change, from old: AnimatableValue) {
        changed(change)
        runImplicitAction(forKey: key, from: old)
    }

    /// Records a change; content changes invalidate the backing store.
    func changed(_ change: Change) {
        changeCount &+= 1
        if change == .content { contentVersion &+= 1 }
        recordChange()
        maskOwner?.changed(.content)
    }
}

/// A layer's identity in render trees and caches.
public struct LayerID: Hashable, Sendable, Comparable {
    /// The raw counter value.
    public let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    static func next() -> LayerID {
        LayerID(rawValue: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    public static func < (a: LayerID, b: LayerID) -> Bool { a.rawValue < b.rawValue }
}

extension Layer: CustomStringConvertible {
    public var description: String {
        "<\(type(of: self)) \(debugName) bounds=\(bounds) position=\(position)>"
    }
}

extension Layer: Hashable {
    /// Layers are equal only to themselves, as Core Animation's are.
    public static func == (a: Layer, b: Layer) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
