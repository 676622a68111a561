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
    @Declared(Properties.bounds) public var bounds: CGRect

    /// Where the anchor point sits, in the superlayer's coordinate space.
    @Declared(Properties.position) public var position: CGPoint

    /// The point of the bounds, in unit coordinates, that `position` refers to and `transform`
    /// turns about: (0.5, 0.5) is the centre, (0.5, 1) the middle of the bottom edge.
    @Declared(Properties.anchorPoint) public var anchorPoint: CGPoint

    /// The anchor point's z, in points.
    @Declared(Properties.anchorPointZ) public var anchorPointZ: CGFloat

    /// The layer's position on the z axis; sublayers draw in order of increasing `zPosition`,
    /// ties in array order.
    @Declared(Properties.zPosition) public var zPosition: CGFloat

    /// The transform applied about the anchor point.
    @Declared(Properties.transform) public var transform: Transform3D

    /// A transform applied to every sublayer, about this layer's anchor point (the usual place
    /// for a shared perspective, `m34 = -1/d`).
    @Declared(Properties.sublayerTransform) public var sublayerTransform: Transform3D

    /// Whether the layer and its subtree are left out of rendering.
    @Declared(Properties.isHidden) public var isHidden: Bool

    /// Whether the back of the layer is drawn when a transform turns it away from the viewer.
    @Declared(Properties.isDoubleSided) public var isDoubleSided: Bool

    /// Whether sublayer geometry is flipped vertically within this layer's bounds
    /// (y grows upward for the sublayers). The layer's own content is not flipped.
    @Declared(Properties.isGeometryFlipped) public var isGeometryFlipped: Bool

    // MARK: Hierarchy

    /// The layer this one is a sublayer of.
    ///
    /// Unchecked for exclusive access, as `maskOwner`: every change a layer records walks up
    /// through them (`recordChange`), and the runtime's check cost as much as the weak load.
    /// Safe because no access to either can overlap another: each is one weak load or store (a
    /// weak store releases no strong reference, so no deinit runs within it; the observer runs
    /// after it), and neither is passed `inout` or reached through a key path.
    @exclusivity(unchecked) public internal(set) weak var superlayer: Layer? { didSet { left(oldValue, for: superlayer) } }

    /// The sublayers. (Checked for exclusive access, unlike the bookkeeping below: a write can
    /// release the last reference to a sublayer, and a subclass's deinit is the user's code,
    /// which may reach this layer's sublayers; the runtime's check turns that into a clear trap.)
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
    ///
    /// A mask that is this layer, one of its ancestors, or masks one of them would make the tree
    /// a cycle: it is refused, as adding a layer under its own descendant is (see
    /// `LayerTreeDiagnostics`), and the tree is left as it was.
    public var mask: Layer? {
        get { maskStorage }
        set { setMask(newValue) }
    }

    var maskStorage: Layer?

    /// The layer this one masks, if it is a mask. (Unchecked: see `superlayer`.)
    @exclusivity(unchecked) weak var maskOwner: Layer? { didSet { left(oldValue, for: maskOwner) } }

    /// Notes that the layer hangs under `newParent` now instead of `oldParent`: it is not yet
    /// listed among the new one's changed children, and the old one forgets its list, which may
    /// hold this layer without a reference count (`ListedLayer`). (Forgetting it all costs
    /// nothing more: the old parent records a change of its sublayers or mask with this, and is
    /// rebuilt rather than revisited through the list.)
    private func left(_ oldParent: Layer?, for newParent: Layer?) {
        tracking.listedInParent = 0
        if let oldParent, oldParent !== newParent { oldParent.forgetChangedChildren() }
    }

    // MARK: Appearance

    /// The color filling the bounds behind the contents (none by default).
    @Declared(Properties.backgroundColor) public var backgroundColor: Color?

    /// How opaque the layer and its subtree are, 0…1.
    @Declared(Properties.opacity) public var opacity: Float

    /// The radius of the rounded corners of the background and border (and of the clip when
    /// `masksToBounds` is set).
    @Declared(Properties.cornerRadius) public var cornerRadius: CGFloat

    /// Which corners `cornerRadius` rounds (all four by default).
    @Declared(Properties.maskedCorners) public var maskedCorners: CornerMask

    /// The width of the border drawn inside the bounds, above the contents and sublayers.
    @Declared(Properties.borderWidth) public var borderWidth: CGFloat

    /// The border's color (opaque black by default, as in Core Animation).
    @Declared(Properties.borderColor) public var borderColor: Color?

    /// Whether sublayers (and contents) are clipped to the bounds, with the rounded corners.
    @Declared(Properties.masksToBounds) public var masksToBounds: Bool

    /// Whether an opacity below 1 applies to the layer and its sublayers as one group (drawn
    /// together, then faded), rather than to each separately.
    @Declared(Properties.allowsGroupOpacity) public var allowsGroupOpacity: Bool

    /// The image shown in the bounds, placed by `contentsGravity`.
    @Declared(Properties.contents) public var contents: Image?

    /// How `contents` is placed in the bounds.
    @Declared(Properties.contentsGravity) public var contentsGravity: ContentsGravity

    /// The part of `contents` shown, in unit coordinates of the image.
    @Declared(Properties.contentsRect) public var contentsRect: CGRect

    /// The stretchable middle of `contents` in unit coordinates: outside it, the image keeps its
    /// scale (nine-part stretching); the default, the whole image, stretches everything.
    @Declared(Properties.contentsCenter) public var contentsCenter: CGRect

    /// Image pixels per point of `contents` (2 for a @2x image).
    @Declared(Properties.contentsScale) public var contentsScale: CGFloat

    /// The filter used when `contents` is drawn smaller than its pixels.
    @Declared(Properties.minificationFilter) public var minificationFilter: ContentsFilter

    /// The filter used when `contents` is drawn larger than its pixels.
    @Declared(Properties.magnificationFilter) public var magnificationFilter: ContentsFilter

    // MARK: Shadow

    /// The shadow's color (opaque black).
    @Declared(Properties.shadowColor) public var shadowColor: Color?

    /// The shadow's opacity, 0…1; 0 (the default) draws no shadow.
    @Declared(Properties.shadowOpacity) public var shadowOpacity: Float

    /// The shadow's offset in the layer's own space ((0, -3): slightly above, as on iOS).
    @Declared(Properties.shadowOffset) public var shadowOffset: CGSize

    /// The shadow's shape in the layer's own space; when nil the shadow follows what the layer
    /// (and its sublayers) draw. Giving the shape is cheaper and lets it differ from the content.
    @Declared(Properties.shadowPath) public var shadowPath: Path?

    /// The blur radius of the shadow, in points.
    @Declared(Properties.shadowRadius) public var shadowRadius: CGFloat

    // MARK: Caching

    /// Whether the layer's composited subtree is cached as one bitmap and reused while nothing
    /// inside it changes.
    @Declared(Properties.shouldRasterize) public var shouldRasterize: Bool

    /// Pixels per point of the cached bitmap when `shouldRasterize` is set.
    @Declared(Properties.rasterizationScale) public var rasterizationScale: CGFloat

    // MARK: Timing

    /// When the layer's local time starts, in its superlayer's time.
    @Declared(Properties.beginTime) public var beginTime: TimeInterval
    /// How fast the layer's local time (and so its sublayers' animations) runs; 0 pauses it.
    @Declared(Properties.speed) public var speed: Float
    /// Added to the layer's local time.
    @Declared(Properties.timeOffset) public var timeOffset: TimeInterval

    /// The running animations, in the order they were added. (Checked for exclusive access: a
    /// write can release the last reference to an animation and its delegate, whose deinit is
    /// the user's code and may reach this list.)
    var animationEntries: [AnimationEntry] = []

    /// Per-key actions that replace or (with `.none`) disable the implicit animation of a
    /// property change, as Core Animation's `actions` dictionary.
    public var actions: [String: LayerAction]?

    /// Supplies actions and custom drawing.
    public weak var delegate: (any LayerDelegate)?

    // The bookkeeping below marked `@exclusivity(unchecked)` is read and written on every
    // change and every frame a layer is drawn in; the runtime's exclusivity check on each
    // access (a class's stored property that other modules can see, or that a mutating call
    // holds, is checked at run time) cost more than the work. That is safe because no access
    // to one of them can overlap another to the same layer's: each is a single read or write
    // of a number or flag, or for `tracking` a call to one of `ChangeTracking`'s mutating
    // methods, which reach no layer (a child is listed, nothing more); none is passed
    // `inout` or reached through a key path. The compiler still checks each function on its own.

    /// Set once the layer has been drawn in a frame: from then on property changes animate.
    @exclusivity(unchecked) var hasBeenRendered = false
    /// Set on presentation copies, which never start implicit animations.
    @exclusivity(unchecked) var isPresentationCopy = false
    /// For a presentation copy, the model it was made from.
    var modelLayerStorage: Layer?
    /// On a model: bumped by every change of a declared property, even one that invalidates
    /// nothing. On a presentation copy: the model's count when the copy was made or last reset.
    @exclusivity(unchecked) var declaredChanges: UInt64 = 0
    /// On a presentation copy: the storage of each declared property set on it since it was
    /// made or last reset (`resetPresentationCopy`), repeats allowed.
    var writtenSlots: [DeclaredStorageSlot] = []
    /// For the root of a tree, the time of its last frame (see `currentTime`).
    var treeTime: TimeInterval = 0
    /// The properties and limits whose problems were reported already (`reportValueProblem`):
    /// each is reported once for the layer, not once per frame.
    var reportedValueProblems: Set<String> = []

    // MARK: Display

    /// Whether `display()` must run before the layer is next drawn.
    @exclusivity(unchecked) public internal(set) var needsDisplay = false

    /// Whether a change of bounds size calls `setNeedsDisplay()`.
    @Declared(Properties.needsDisplayOnBoundsChange) public var needsDisplayOnBoundsChange: Bool

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
    @Declared(Properties.name) public var name: String?

    /// Creates a layer with Core Animation's defaults.
    public init() {
        id = LayerID.next()
        _ = LayerPropertyTable.of(self)   // the class's typed key paths are known from here on
    }

    /// Creates a presentation copy of `layer`: the same identity and property values, no
    /// sublayers, no animations (Core Animation's `init(layer:)`).
    ///
    /// Every declared property is copied, those of subclasses too; a subclass overrides this
    /// only to copy state it keeps outside declared properties.
    public required init(layer: Layer) {
        id = layer.id
        isPresentationCopy = true
        modelLayerStorage = layer.modelLayerStorage ?? layer
        LayerPropertyTable.of(self).copyProperties(from: layer, to: self)
        drawsContent = layer.drawsContent
        contentVersion = layer.contentVersion; changeCount = layer.changeCount
        declaredChanges = layer.declaredChanges
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
    @exclusivity(unchecked) public internal(set) var contentVersion: UInt64 = 0
    /// Bumped on every change to the layer, its sublayer list or anything it draws.
    @exclusivity(unchecked) public internal(set) var changeCount: UInt64 = 0
    /// Change stamps that let a renderer revisit only what changed (Layer+ChangeTracking.swift).
    /// (Unchecked: see `hasBeenRendered`.)
    @exclusivity(unchecked) var tracking = ChangeTracking()

    /// Records a change: the one place every change to the layer arrives, with what it
    /// invalidates (declared properties pass their declaration's; see `propertyDidChange`).
    /// Content changes invalidate the backing store.
    /// A mask's change is a content change of the layer it masks (and so on up a chain of
    /// masks, walked without recursion).
    func changed(_ change: Invalidation) {
        var layer = self, change = change
        while true {
            layer.changeCount &+= 1
            if change.contains(.content) { layer.contentVersion &+= 1 }
            layer.recordChange(change)
            guard let owner = layer.maskOwner else { return }
            layer = owner
            change = .content
        }
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
