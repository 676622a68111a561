import Foundation

/// One layer (one replicator instance of it) as the renderer keeps it from frame to frame: what
/// it draws (`node`), the paint items made from that, and its sublayers' objects.
///
/// Objects are rebuilt only when their layer, a descendant or an input from above changed (or
/// an animation runs in their subtree); everything else is reused as it was, items included, so
/// that a frame costs what changed. They belong to one `Renderer` and never leave its isolation
/// domain; painting reads only the items, which are immutable values.
final class RenderObject {
    enum Kind {
        /// Content and sublayers composited straight into the target.
        case plain
        /// The subtree drawn offscreen and composited as one quad (its sublayers are inside).
        case group
        /// A transform layer: nothing of its own; sublayers kept in 3D and depth-sorted.
        case transformLayer
    }

    struct Key: Hashable {
        let layer: LayerID
        let instance: Int
    }

    // The fields marked `@exclusivity(unchecked)` are read for every changed layer, and the
    // runtime's check on each access (made because some are held across a mutating call)
    // cost more than the reads. Safe: an object is reached only by its renderer's update (and
    // the item lists it hands out), on one thread, and the accesses held across calls —
    // `node.replace`, `before[i].redraw` — touch only the value they mutate. `children` is
    // otherwise read whole or written whole or at one index; what a call made while it is
    // read reaches (a child's own `appendItems`) is another object's field, since an object
    // is never its own descendant, and a child released by a write frees fields only.

    let model: Layer
    let key: Key
    @exclusivity(unchecked) var kind: Kind = .plain
    /// What the object was built from, besides its own layer's state.
    @exclusivity(unchecked) var inputs: NodeInputs
    /// What the layer draws in the target (for a group: the group's composite).
    @exclusivity(unchecked) var node: RenderNode
    /// For a group, the layer's own content and border, drawn inside its offscreen bitmap.
    var inner: RenderNode?
    /// The presented zPosition, which orders sublayers.
    var zPosition: CGFloat = 0

    /// Sublayers' objects in painter's order (for a group: inside the offscreen bitmap).
    @exclusivity(unchecked) var children: [RenderObject] = []
    /// Plain and group objects whose sublayers are not replicated: the index in `children` of
    /// each sublayer's object, for updating only the sublayers that changed.
    var childSlots: [ObjectIdentifier: Int]? = nil
    /// Indices in `children` of objects with animations in their subtrees: revisited every frame.
    var animatedChildren: Set<Int> = []
    /// A group's mask layer, inside the offscreen bitmap.
    var mask: RenderObject?
    /// Sublayers (or the mask) that draw nothing now but animate — faded to 0, turned away —
    /// and so may draw in a later frame: the object is rebuilt every frame while there are any.
    var culledAnimated: [Layer] = []
    /// What sublayers are placed with: the map into the target (or offscreen), the opacity they
    /// inherit, the target area, the clip their items get, and whether they are at rest.
    @exclusivity(unchecked) var childPlacement = ChildPlacement()

    /// Whether the layer itself has animations (it is presented anew every frame).
    var selfAnimated = false
    /// Whether anything in the subtree (mask included) has animations.
    @exclusivity(unchecked) var subtreeAnimated = false

    /// Items painted beneath the sublayers (shadow, content; for a group: shadow, composite).
    @exclusivity(unchecked) var before: [PaintItem] = []
    /// Items painted over the sublayers (the border).
    @exclusivity(unchecked) var after: [PaintItem] = []
    /// For a group: its own content and border inside the offscreen bitmap.
    var innerBefore: [PaintItem] = [], innerAfter: [PaintItem] = []
    /// For a group: what redrawing its bitmap keeps from one redraw to the next.
    var groupRedraw: GroupRedraw?
    /// The backing stores the items above draw from, each once (released when the object goes).
    @exclusivity(unchecked) var storeKeys: [PaintItem.Key] = []
    /// The target area the items above were emitted into (nil: none emitted yet).
    @exclusivity(unchecked) var emittedArea: PixelRect?
    /// The target area of the inputs the items were emitted under, whose pixels are
    /// `emittedArea`: while the inputs' area is this very rectangle, so are its pixels, known
    /// without rounding the rectangle out again (as every line of a text board asked each frame).
    @exclusivity(unchecked) var emittedTargetArea: CGRect?

    init(model: Layer, instance: Int, inputs: NodeInputs, node: RenderNode) {
        self.model = model
        self.key = Key(layer: model.id, instance: instance)
        self.inputs = inputs
        self.node = node
    }

    /// Every item of the subtree in painter's order.
    func appendItems(to items: inout [PaintItem]) {
        // Most objects have no items after their children (a border, a group's): an empty
        // array appended is still a call into the generic append.
        items.append(contentsOf: before)
        if kind != .group { for child in children { child.appendItems(to: &items) } }
        if !after.isEmpty { items.append(contentsOf: after) }
    }

    /// The items a group's offscreen bitmap is painted from.
    func innerItems() -> [PaintItem] {
        var items = innerBefore
        for child in children { child.appendItems(to: &items) }
        items.append(contentsOf: innerAfter)
        return items
    }

    /// The items of the subtree at or after `position` (a path below this object) in painter's
    /// order.
    func appendItems(from position: ArraySlice<Int>, to items: inout [PaintItem]) {
        guard let first = position.first, first != PaintPosition.beforeMark else {
            appendItems(to: &items)
            return
        }
        if first != PaintPosition.afterMark, kind != .group {
            let index = PaintPosition.childIndex(first)
            if index < children.count {
                children[index].appendItems(from: position.dropFirst(), to: &items)
                for child in children[(index + 1)...] { child.appendItems(to: &items) }
            }
        }
        if !after.isEmpty { items.append(contentsOf: after) }
    }

    /// The items of the subtree strictly before `position`, in painter's order.
    func appendItems(before position: ArraySlice<Int>, to items: inout [PaintItem]) {
        guard let first = position.first, first != PaintPosition.beforeMark else { return }
        items.append(contentsOf: before)
        guard kind != .group else { return }
        if first == PaintPosition.afterMark {
            for child in children { child.appendItems(to: &items) }
            return
        }
        let index = PaintPosition.childIndex(first)
        for child in children.prefix(min(index, children.count)) { child.appendItems(to: &items) }
        if index < children.count { children[index].appendItems(before: position.dropFirst(), to: &items) }
    }
}

/// How an object's sublayers are placed.
struct ChildPlacement {
    var toTarget: Transform3D = .identity
    var opacity: Double = 1
    var targetArea: CGRect = .zero
    var clip: PixelRect? = nil
    var atRest = false
    var depth = 0
}

/// Everything a layer's object depends on besides the layer itself: equal inputs, an unchanged
/// subtree and no animation mean the object from the last frame is still right.
struct NodeInputs: Equatable {
    var toTarget: Transform3D
    var opacity: Double
    var targetArea: CGRect
    var clip: PixelRect?
    var depth: Int
    var tint: Color?
    var isRoot: Bool
    var parentAtRest: Bool
    /// How many copies of the layer the replicators above it make (it bounds theirs below).
    var copies: Int
}

/// A place in a frame's painter's order: the path of sublayer slots from the root, each level
/// `beforeMark` (the layer's own paint beneath its sublayers), a child slot, or `afterMark` (its
/// border, over them). Lexicographic order is painter's order.
struct PaintPosition: Comparable {
    static let beforeMark = 0
    static let afterMark = Int.max

    var path: [Int]

    static func childMark(_ index: Int) -> Int { 2 * index + 1 }
    static func childIndex(_ mark: Int) -> Int { (mark - 1) / 2 }

    static func < (a: PaintPosition, b: PaintPosition) -> Bool {
        a.path.lexicographicallyPrecedes(b.path)
    }

    /// `path + [mark]`, made in one allocation (the literal and the sum made two).
    static func path(_ path: [Int], then mark: Int) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(path.count + 1)
        result.append(contentsOf: path)
        result.append(mark)
        return result
    }

    /// The path of child `index` of an object at `path` (nil stays nil: the object is inside a
    /// group, whose children are not ordered in the frame).
    static func child(_ index: Int, of path: [Int]?) -> [Int]? {
        path.map { Self.path($0, then: childMark(index)) }
    }

    /// Whether the path `path + [mark, last]` comes before `other` (`<` without making it).
    static func precedes(_ path: [Int], then mark: Int, _ last: Int, _ other: [Int]) -> Bool {
        guard precedes(path, then: mark, other) else { return false }
        // `path + [mark]` is before `other`: so is the longer path, unless `other` continues
        // `path + [mark]` (then `last` decides) or is it (then the longer path comes after).
        guard path.count < other.count, other[path.count] == mark, path.elementsEqual(other.prefix(path.count)) else { return true }
        return path.count + 1 < other.count && (last < other[path.count + 1] || last == other[path.count + 1] && path.count + 2 < other.count)
    }

    /// Whether the path `path + [mark]` comes before `other` (`<` without making the path).
    static func precedes(_ path: [Int], then mark: Int, _ other: [Int]) -> Bool {
        for (i, step) in path.enumerated() {
            guard i < other.count else { return false }
            if step != other[i] { return step < other[i] }
        }
        guard path.count < other.count else { return false }
        return mark < other[path.count] || mark == other[path.count] && path.count + 1 < other.count
    }
}
