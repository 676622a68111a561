import Foundation

/// A renderer's retained view of one layer tree at one device scale and viewport: an object per
/// drawn layer, brought up to date each frame by revisiting only what changed.
///
/// A frame walks down from the root only into subtrees whose change stamp is newer than the
/// last frame's, or that run animations; an unchanged subtree under unchanged inputs keeps its
/// objects and their paint items as they are. A frame with no change and no animation walks
/// nothing. While walking it resolves geometry into homographies, flattens each layer's subtree
/// into its plane (except under transform layers), culls what cannot be seen, decides which
/// subtrees need an offscreen group, emits paint items and collects the damage.
///
/// Runs on the model's isolation domain (it reads layers); what it hands to painting is immutable.
final class RenderTree {
    let root: Layer
    /// Device pixels per point.
    let deviceScale: CGFloat
    /// The device pixels that matter (the frame); geometry outside only costs nothing.
    let viewport: PixelRect
    let cache: BackingStoreCache
    /// What a frame may draw at most.
    let limits: RenderLimits
    /// The object of the root layer (nil when nothing is drawn).
    private(set) var rootObject: RenderObject?
    /// The change stamp the objects are up to date with (0: never built).
    private(set) var seen: UInt64 = 0
    private var built = false

    /// Deeper trees are cut here so that pathological nesting cannot exhaust the stack.
    static let maximumDepth = Layer.maximumDrawingDepth

    /// Layers whose objects were built or revisited since the tree was made (for tests: an idle
    /// frame must add nothing).
    private(set) var visits = 0
    /// Layers whose objects were brought up to date by a content-only refresh (for tests).
    private(set) var contentRefreshes = 0

    init(root: Layer, deviceScale: CGFloat, viewport: PixelRect, cache: BackingStoreCache, limits: RenderLimits = RenderLimits()) {
        self.root = root
        self.deviceScale = deviceScale
        self.viewport = viewport
        self.cache = cache
        self.limits = limits
    }

    /// The tree time of the last update.
    private(set) var time: TimeInterval = .nan
    /// Updates that walked the tree, counting the current one.
    private(set) var updates: UInt64 = 0

    /// Whether a frame at `time` would show exactly the last one: nothing in the tree changed
    /// since, and nothing in it animates or the time is the last frame's (animations are a
    /// function of time).
    func isUpToDate(at time: TimeInterval) -> Bool {
        built && root.tracking.subtreeStamp <= seen &&
            (!(rootObject?.subtreeAnimated ?? false) || time == self.time && !lastUpdateEndedAnimations)
    }

    /// Whether the last update removed ended animations (so the next frame differs even at the
    /// same time: it shows the model values).
    private var lastUpdateEndedAnimations = false

    /// Brings the objects up to date with the tree at tree time `time`: every layer that needs
    /// it is read through its presentation at its own local time, and the tree's current time
    /// becomes `time`. What changed is recorded in `frame`.
    func update(at time: TimeInterval, _ frame: FrameChanges) {
        root.treeTime = time
        frame.time = time
        guard !isUpToDate(at: time) else { return }
        self.time = time
        updates += 1
        let previous = seen
        seen = ChangeClock.beginSnapshot()
        let walk = Walk(tree: self, seenBefore: built ? previous : 0, frame: frame, earlierCopies: lastPresentations)
        let rootTime = root.localTime(fromParent: time)
        let presented = walk.present(root, at: rootTime)
        let rootToDevice = Transform3D(translationX: -presented.bounds.minX, y: -presented.bounds.minY)
            .concatenating(Transform3D(scaleX: deviceScale, y: deviceScale))
        let inputs = NodeInputs(toTarget: rootToDevice, opacity: 1, targetArea: viewport.cgRect, clip: nil, depth: 0,
                                tint: nil, isRoot: true, parentAtRest: true, copies: 1)
        let sublayer = Walk.Sublayer(model: root, presented: presented, time: rootTime, toParent: .identity)
        let old = rootObject
        rootObject = walk.visit(old, sublayer, inputs: inputs, position: [])
        if let old, old !== rootObject { walk.dispose(old, position: []) }
        built = true
        lastUpdateEndedAnimations = frame.endedAnimations
        lastPresentations = frame.presentations
    }

    /// The presentation copies the last update made, which only this tree holds: the next
    /// update resets and reuses them (`Layer.resetPresentationCopy`) rather than copying every
    /// property of every animated layer anew. Those of layers no longer presented are dropped.
    private var lastPresentations: [ObjectIdentifier: (time: TimeInterval, layer: Layer)] = [:]

    /// Every item of the frame, in painter's order.
    func allItems() -> [PaintItem] {
        var items: [PaintItem] = []
        rootObject?.appendItems(to: &items)
        return items
    }

    /// Releases every store the objects hold (the tree is being replaced).
    func discard() {
        if let rootObject { Walk.releaseStores(of: rootObject, cache: cache) }
        rootObject = nil
        lastPresentations = [:]
    }

    fileprivate func countVisit() { visits += 1 }
    fileprivate func countContentRefresh() { contentRefreshes += 1 }
}

/// What one frame's update changed: damaged target pixels, the earliest painter's-order position
/// that changed, and the animation handlers to run once the frame is done.
final class FrameChanges {
    // `@exclusivity(unchecked)` below: these are touched for every changed layer, and the
    // runtime's check on each access (made because one is passed `inout`) cost more than the
    // appends. Safe: a frame's changes are reached only by its renderer's update, on one
    // thread, and the only access held across a call is `damage` passed to `appendInked`,
    // which touches nothing but its arguments.

    /// Target pixels whose paint may differ from the last frame. (Changed items add to it
    /// only when the frame `paintsDamage`: otherwise nothing reads it.)
    @exclusivity(unchecked) var damage: [PixelRect] = []
    /// The earliest position in painter's order whose paint changed (nil: none).
    @exclusivity(unchecked) var firstChange: PaintPosition?
    /// Animation start and stop handlers found while presenting layers, run after the frame (so
    /// that user code never changes the tree while it is being read).
    var callbacks: [() -> Void] = []
    /// The presentation copies made this frame, so that a layer is presented once per frame.
    @exclusivity(unchecked) var presentations: [ObjectIdentifier: (time: TimeInterval, layer: Layer)] = [:]
    /// The frame's tree time.
    var time: TimeInterval = 0
    /// The earliest tree time at which an animation changes what is shown: the frame's own
    /// time while one runs, nil when none will.
    var nextAnimationChange: TimeInterval?
    /// Whether an animation ended and was removed: then even a frame at the same time differs.
    var endedAnimations = false
    /// The layers whose animations ended and were removed in this frame.
    var endedAnimationsOf: Set<ObjectIdentifier> = []

    /// Coverage items that changed: their pixels are only where their masks' ink lands, which
    /// for a mask drawn this frame is known once the content pass has drawn it
    /// (`resolveInkedDamage()`). A line of text whose figures change damages its ink, old and
    /// new, not its whole line box.
    @exclusivity(unchecked) var inkedDamage: [InkedDamage] = []

    /// A changed coverage item whose damage is where its mask's ink lands (`inkedDamage`).
    /// (A struct, not a tuple: an array of tuples was copied, retained and destroyed through the
    /// runtime's generic tuple witnesses: about half of what resolving a text board's ink cost.)
    struct InkedDamage {
        let mask: AlphaMask
        let transform: Homography
        let footprint: [PixelRect]
    }
    /// Whether the frame paints only its damage (the same target as the last frame): otherwise
    /// the damage is not used, and not refined to ink.
    let paintsDamage: Bool

    init(paintsDamage: Bool) { self.paintsDamage = paintsDamage }

    func noteChange(at path: [Int]) {
        let position = PaintPosition(path: path)
        if firstChange.map({ position < $0 }) ?? true { firstChange = position }
    }

    /// `noteChange(at: path + [mark])`, making that path only when it is the new first change
    /// (a frame notes a change per changed layer, almost all after the first).
    func noteChange(at path: [Int], then mark: Int) {
        if let first = firstChange, !PaintPosition.precedes(path, then: mark, first.path) { return }
        firstChange = PaintPosition(path: PaintPosition.path(path, then: mark))
    }

    /// `noteChange(at: path + [mark, last])`, making that path only when it is the new first
    /// change (a child redrawn in place notes its change from its superlayer's path).
    func noteChange(at path: [Int], then mark: Int, _ last: Int) {
        if let first = firstChange, !PaintPosition.precedes(path, then: mark, last, first.path) { return }
        var position = PaintPosition.path(path, then: mark)
        position.append(last)
        firstChange = PaintPosition(path: position)
    }

    /// Adds the inked parts of `inkedDamage`'s footprints to `damage`: after the content pass,
    /// when every mask holds what will be painted from it.
    func resolveInkedDamage() {
        for i in inkedDamage.indices {
            Self.appendInked(inkedDamage[i].footprint, ink: inkedDamage[i].mask.inkBounds, through: inkedDamage[i].transform,
                             to: &damage)
        }
        inkedDamage = []
    }

    /// Appends to `damage` the parts of `footprint` where a mask whose ink is `ink`, drawn
    /// through `transform`, lands (all of it when the ink is not known): the pixels the painter
    /// composites it into. (Appended in place: a line of text damages a rectangle or two, and
    /// an array of them made and dropped per item cost more than finding them.)
    static func appendInked(_ footprint: [PixelRect], ink: PixelRect?, through transform: Homography, to damage: inout [PixelRect]) {
        guard let ink = ink.flatMap({ Painter.inkedPixels(ofInk: $0, through: transform) }) else {
            damage.append(contentsOf: footprint)
            return
        }
        for rect in footprint {
            let inked = rect.intersection(ink)
            if !inked.isEmpty { damage.append(inked) }
        }
    }
}

/// One frame's walk down a render tree.
private struct Walk {
    let tree: RenderTree
    /// Subtrees whose stamps are not newer than this are as the objects show them.
    let seenBefore: UInt64
    let frame: FrameChanges
    /// The last update's presentation copies, to reuse (`RenderTree.lastPresentations`).
    let earlierCopies: [ObjectIdentifier: (time: TimeInterval, layer: Layer)]

    var deviceScale: CGFloat { tree.deviceScale }
    var cache: BackingStoreCache { tree.cache }

    /// A sublayer about to be visited: its model, presentation, local time, map into its
    /// superlayer's space, and (under replicators) which instance it is and its tint.
    struct Sublayer {
        let model: Layer
        let presented: Layer
        let time: TimeInterval
        let toParent: Transform3D
        var instance: Int = 0
        var tint: Color? = nil
        /// How many copies of the layer the replicators above it make together (their instance
        /// counts multiplied), bounded by `RenderLimits.maximumReplicatedInstances`.
        var copies: Int = 1
    }

    // MARK: Visiting

    /// The up-to-date object for `sublayer` under `inputs`: `old` untouched when nothing it shows
    /// changed, `old` updated in place, or a new object; nil when nothing is drawn.
    /// `position` is the object's path in the frame's painter's order (nil inside a group, whose
    /// changes reach the frame through the group's own paint).
    func visit(_ old: RenderObject?, _ sublayer: Sublayer, inputs: NodeInputs, position: [Int]?) -> RenderObject? {
        // Each level recurses a few frames deep; every so many levels the walk goes on on a
        // thread with a fresh stack, so that a tree as deep as drawing allows cannot overflow a
        // small thread stack (a pool thread's, or any under AddressSanitizer's larger frames).
        if inputs.depth > 0, inputs.depth % DeepStack.levelsPerStack == 0 {
            return DeepStack.run { visitOnThisStack(old, sublayer, inputs: inputs, position: position) }
        }
        return visitOnThisStack(old, sublayer, inputs: inputs, position: position)
    }

    private func visitOnThisStack(_ old: RenderObject?, _ sublayer: Sublayer, inputs: NodeInputs, position: [Int]?) -> RenderObject? {
        let model = sublayer.model
        if let old, old.inputs == inputs {
            if !old.subtreeAnimated, model.tracking.subtreeStamp <= seenBefore { return old }
            if !old.selfAnimated, old.culledAnimated.isEmpty, model.tracking.ownStamp <= seenBefore, old.childSlots != nil,
               updateChangedChildren(of: old, time: sublayer.time, position: position) {
                return old
            }
        }
        return build(old, sublayer, inputs: inputs, position: position)
    }

    /// The layer as shown at its local time: its presentation copy when animations run.
    ///
    /// Presenting has effects — animations that ended are removed, handlers are queued — so a
    /// layer presented twice in a frame (its superlayer rebuilt after a look at its changed
    /// sublayers) gets the first presentation again, not one without the removed animations.
    func present(_ layer: Layer, at localTime: TimeInterval, notify: Bool = true) -> Layer {
        layer.hasBeenRendered = true
        layer.displayIfNeeded()
        let key = ObjectIdentifier(layer)
        // (Most frames present no copy: then there is no earlier one to look up.)
        if notify, !frame.presentations.isEmpty, let earlier = frame.presentations[key], earlier.time == localTime {
            return earlier.layer
        }
        guard !layer.animationEntries.isEmpty else { return layer }
        noteNextAnimationChange(of: layer, after: localTime)
        if !notify { return layer.presentationCopy(atLocalTime: localTime, notify: false) ?? layer }
        let running = layer.animationEntries.count
        // The last frame's copy is reused only for the layer's first presentation in this frame
        // (a copy handed out already must not change under the walk).
        let reusable = frame.presentations[key] == nil ? earlierCopies[key]?.layer : nil
        let presented = layer.presentationCopy(atLocalTime: localTime, notify: true, reusing: reusable,
                                               callbacks: &frame.callbacks) ?? layer
        if presented !== layer { frame.presentations[key] = (localTime, presented) }
        if layer.animationEntries.count < running {
            frame.endedAnimations = true
            frame.endedAnimationsOf.insert(key)
        }
        return presented
    }

    /// Records in the frame the tree time at which the layer's animations next change what it
    /// shows (the frame's own time while one runs).
    private func noteNextAnimationChange(of layer: Layer, after localTime: TimeInterval) {
        let next = layer.animationEntries.compactMap { $0.animation.timing.nextChange(afterParentTime: localTime) }.min()
        guard let next else { return }
        let treeTime = next == localTime ? frame.time : layer.convertTime(next, to: nil)
        guard treeTime.isFinite else { return }
        frame.nextAnimationChange = min(frame.nextAnimationChange ?? .infinity, max(treeTime, frame.time))
    }

    /// Revisits only the sublayers that changed (or animate) of an object whose own layer did not
    /// change. Returns false, having changed nothing that matters, when that is not enough — a
    /// changed sublayer was not drawn before, is no longer drawn, or moved in drawing order —
    /// and the object must be rebuilt.
    private func updateChangedChildren(of object: RenderObject, time: TimeInterval, position: [Int]?) -> Bool {
        guard let slots = object.childSlots else { return false }
        let model = object.model
        // The slots of the children to revisit (each child's layer is its object's model).
        var targets: [Int] = []
        targets.reserveCapacity(slots.count)
        var maskChanged = false
        let maskLayer = model.mask
        // Each changed child is listed once (`takeChangedChildren`, or each sublayer once).
        func list(_ layer: Layer) -> Bool {
            if layer === maskLayer { maskChanged = true; return true }
            guard let index = slots[ObjectIdentifier(layer)] else { return false }
            targets.append(index)
            return true
        }
        switch model.takeChangedChildren(after: seenBefore, list) {
        case false?:
            return false
        case nil:
            for layer in model.sublayerStorage + (maskLayer.map { [$0] } ?? []) where layer.tracking.subtreeStamp > seenBefore {
                guard list(layer) else { return false }
            }
        case true?:
            break
        }
        if !object.animatedChildren.isEmpty {
            let listed = Set(targets)
            for index in object.animatedChildren where !listed.contains(index) { targets.append(index) }
        }
        if maskChanged, object.mask == nil { return false }
        // Children whose content alone changed are brought up to date as they are found, so that
        // their stores are queued (and helper threads start drawing them) while the rest are
        // presented: a text board's first line was queued only once all its lines had been
        // presented and checked. Should a later child send the object back to be rebuilt
        // (`return false`), that is still right: the rebuild asks the store cache for the same
        // fingerprints, so nothing is queued twice, and the damage the refreshes added is the
        // damage their lines make. The other children are presented and checked before any is
        // visited.
        let space = model.sublayerSpaceTransform
        var visits: [(index: Int, sublayer: Sublayer)] = []
        let refreshPosition = object.kind == .group ? nil : position
        for index in targets {
            let child = object.children[index], layer = child.model
            let t = layer.localTime(fromParent: time)
            let p = present(layer, at: t)
            if refreshesContentOnly(child, presented: p) {
                refreshContent(of: child, slot: index, under: refreshPosition)
                continue
            }
            guard p.zPosition == child.zPosition, !p.isHidden, p.opacity > 0 else { return false }
            visits.append((index, Sublayer(model: layer, presented: p, time: t, toParent: p.transformToSuperlayer(sublayerSpace: space),
                                           instance: child.key.instance, tint: child.inputs.tint, copies: child.inputs.copies)))
        }
        tree.countVisit()
        for (index, sublayer) in visits {
            let old = object.children[index]
            let inputs = childInputs(sublayer, object.childPlacement)
            let childPosition = object.kind == .group ? nil : PaintPosition.child(index, of: position)
            // Culled now: the caller rebuilds the object, which also lets the old child go.
            guard let updated = visit(old, sublayer, inputs: inputs, position: childPosition) else { return false }
            if updated !== old {
                dispose(old, position: childPosition)
                object.children[index] = updated
            }
            if updated.subtreeAnimated { object.animatedChildren.insert(index) } else { object.animatedChildren.remove(index) }
        }
        if maskChanged, let mask = object.mask, let maskLayer = model.mask {
            let t = maskLayer.localTime(fromParent: time)
            let p = present(maskLayer, at: t)
            let sublayer = Sublayer(model: maskLayer, presented: p, time: t, toParent: p.transformToSuperlayer(sublayerSpace: .identity),
                                    copies: mask.inputs.copies)
            let updated = visit(mask, sublayer, inputs: childInputs(sublayer, object.childPlacement), position: nil)
            if updated !== mask { dispose(mask, position: nil) }
            object.mask = updated
        }
        object.subtreeAnimated = object.selfAnimated || !object.animatedChildren.isEmpty || !object.culledAnimated.isEmpty ||
            (object.mask?.subtreeAnimated ?? false)
        if object.kind == .group { reemit(object, position: position) }
        return true
    }

    // MARK: Content only

    /// Whether the object of a sublayer whose subtree changed is brought up to date by
    /// `refreshContent(of:position:)`: the layer (shown as `presented`, after `present`) is a
    /// leaf drawn straight into its target, nothing animates it, and only its content changed
    /// since the last frame. Then everything but what its stores show is as the object has it:
    /// its inputs (its superlayer and its own geometry did not change), its transform, opacity,
    /// clip, shadow and raster scale. Content can still decide whether the layer needs an
    /// offscreen group (contents under rounded clipping bounds, `shouldRasterize`), so that is
    /// checked as `build` decides it.
    private func refreshesContentOnly(_ object: RenderObject, presented: Layer) -> Bool {
        let model = object.model
        return presented === model && object.kind == .plain && !object.subtreeAnimated && object.children.isEmpty &&
            model.animationEntries.isEmpty && model.sublayerStorage.isEmpty && model.mask == nil &&
            model.changedOnlyContent(after: seenBefore) &&
            !Self.needsGroup(model, hasMask: false, hasChildren: false, opacity: object.node.opacity, transform: object.node.transform)
    }

    /// Brings up to date the object of a layer that `refreshesContentOnly` admitted: its content
    /// and border are described anew and its items emitted from them (its stores redrawn where
    /// their fingerprints changed), the rest of its node kept. The object is child `slot` of
    /// an object at `parent` in painter's order (nil inside a group); its own path is made only
    /// when needed (a line redrawn in place notes its change without one).
    private func refreshContent(of object: RenderObject, slot: Int, under parent: [Int]?) {
        let layer = object.model
        tree.countVisit()
        tree.countContentRefresh()
        let content = contentDescription(of: layer, scale: object.node.rasterScale), border = borderDescription(of: layer)
        object.node.replace(content: content, border: border)
        if reemitSoleCoverage(object, position: parent, slot: slot) { return }
        reemit(object, position: PaintPosition.child(slot, of: parent))
    }

    /// Whether a layer (its presentation) is drawn through an offscreen group: for rasterizing,
    /// a mask, a shadow cast by a subtree, clipping bounds that are not whole pixels or have
    /// rounded corners, or group opacity over sublayers. `transform` maps its bounds to target
    /// pixels; `opacity` is what it is drawn with.
    static func needsGroup(_ layer: Layer, hasMask: Bool, hasChildren: Bool, opacity: Double, transform: Homography) -> Bool {
        if layer.shouldRasterize || hasMask { return true }
        if layer.masksToBounds, layer.cornerRadius > 0, layer.contents != nil { return true }
        guard hasChildren else { return false }
        if layer.shadowOpacity > 0, layer.shadowPath == nil { return true }
        if opacity < 1, layer.allowsGroupOpacity { return true }
        return layer.masksToBounds &&
            !(layer.cornerRadius <= 0 && RenderTree.pixelAlignedImage(of: layer.bounds, under: transform) != nil)
    }

    /// The inputs of a sublayer placed by `placement`.
    private func childInputs(_ sublayer: Sublayer, _ placement: ChildPlacement) -> NodeInputs {
        NodeInputs(toTarget: sublayer.toParent.concatenating(placement.toTarget), opacity: placement.opacity,
                   targetArea: placement.targetArea, clip: placement.clip, depth: placement.depth + 1,
                   tint: sublayer.tint, isRoot: false, parentAtRest: placement.atRest, copies: sublayer.copies)
    }

    // MARK: Building

    /// Builds the object of a layer whose own state, inputs or animations changed: its node,
    /// its sublayers (reusing their objects where they are unchanged) and its items.
    private func build(_ old: RenderObject?, _ sublayer: Sublayer, inputs: NodeInputs, position: [Int]?) -> RenderObject? {
        let model = sublayer.model, layer = sublayer.presented
        tree.countVisit()
        let layerOpacity = inputs.isRoot ? 1 : Double(layer.opacity)
        guard !layer.isHidden, layerOpacity > 0, inputs.depth < RenderTree.maximumDepth, inputs.toTarget.isFinite else { return nil }
        let opacity = inputs.opacity * min(layerOpacity, 1)
        let transform = Homography(inputs.toTarget)
        // Presented through a copy when animations ran, even one that ended in this very frame
        // (and was removed): its last value may differ from the model's, so the next frame must
        // look again.
        let selfAnimated = layer !== model || model.animationKeys() != nil
        let atRest = inputs.parentAtRest && !selfAnimated
        let sublayers = presentedSublayers(of: model, presented: layer, localTime: sublayer.time, instance: sublayer.instance,
                                           tint: sublayer.tint, copies: sublayer.copies)
        let isReplicated = layer is ReplicatorLayer

        if layer is TransformLayer {
            let node = RenderNode(id: layer.id, transform: transform, bounds: layer.bounds, opacity: opacity,
                                  rasterScale: deviceScale, content: nil, border: nil, shadow: nil, childClip: nil, group: nil,
                                  instance: sublayer.instance, tint: sublayer.tint)
            let object = prepare(old, model: model, instance: sublayer.instance, inputs: inputs, node: node, kind: .transformLayer, position: position)
            object.zPosition = layer.zPosition
            object.selfAnimated = selfAnimated
            object.childPlacement = ChildPlacement(toTarget: inputs.toTarget, opacity: opacity, targetArea: inputs.targetArea,
                                                   clip: inputs.clip, atRest: atRest, depth: inputs.depth)
            // Depth in the transform layer's own space, before projection: larger is nearer.
            let depths = Dictionary(sublayers.map { s -> (RenderObject.Key, CGFloat) in
                let c = CGPoint(x: s.presented.bounds.midX, y: s.presented.bounds.midY)
                return (RenderObject.Key(layer: s.model.id, instance: s.instance), s.toParent.apply(x: c.x, y: c.y, epsilon: -.infinity)?.z ?? 0)
            }, uniquingKeysWith: { a, _ in a })
            // Children are sorted after they are built, so each records its changes at the
            // transform layer's first child slot: never later in painter's order than it is.
            buildChildren(of: object, sublayers, position: position, childPosition: { _ in PaintPosition.child(0, of: position) },
                          slots: false) { children in
                children.enumerated().sorted { a, b in
                    (depths[a.element.key] ?? 0, a.offset) < (depths[b.element.key] ?? 0, b.offset)
                }.map(\.element)
            }
            finish(object, old: old, position: position)
            return object
        }

        let bounds = layer.bounds
        guard RenderLimits.isSane(bounds), transform.kind != .degenerate else { return nil }
        if !layer.isDoubleSided, RenderTree.isBackFacing(transform, bounds: bounds) { return nil }

        let rasterScale = RenderTree.rasterScale(of: transform, at: CGPoint(x: bounds.midX, y: bounds.midY), deviceScale: deviceScale)
        let hasChildren = sublayers.contains { !$0.presented.isHidden && $0.presented.opacity > 0 }
        let needsGroup = Self.needsGroup(layer, hasMask: model.mask != nil, hasChildren: hasChildren, opacity: opacity, transform: transform)
        let shadow = shadowDescription(of: layer)

        if needsGroup {
            // A rasterization scale beyond a store's side in pixels per point could only overflow
            // (the store is capped below anyway).
            var scale = layer.shouldRasterize
                ? min(max(layer.rasterizationScale, 1e-3), RenderLimits.maximumStoreSide) * deviceScale : rasterScale
            // The offscreen covers the bounds, or the part of them that can be seen.
            var area = bounds
            if let inverse = transform.inverted(), let visible = inverse.projectedBounds(of: inputs.targetArea.insetBy(dx: -2, dy: -2)) {
                if area.width * scale > RenderLimits.maximumStoreSide || area.height * scale > RenderLimits.maximumStoreSide {
                    area = area.intersection(visible)
                }
            }
            guard !area.isNull, area.width > 0, area.height > 0 else { return nil }
            let largest = max(area.width, area.height) * scale
            if largest > RenderLimits.maximumStoreSide { scale *= RenderLimits.maximumStoreSide / largest }
            if atRest { area = RenderTree.pixelAligned(area, scale: scale, under: transform) ?? area }

            let toOffscreen = Transform3D(translationX: -area.minX, y: -area.minY)
                .concatenating(Transform3D(scaleX: scale, y: scale))
            let offscreenArea = CGRect(x: 0, y: 0, width: (area.width * scale).rounded(.up), height: (area.height * scale).rounded(.up))
            let group = GroupDescription(scale: scale, area: area, clipsToBounds: layer.masksToBounds,
                                         cornerRadius: layer.cornerRadius, maskedCorners: layer.maskedCorners,
                                         rasterize: layer.shouldRasterize)
            let node = RenderNode(id: layer.id, transform: transform, bounds: bounds, opacity: opacity, rasterScale: scale,
                                  content: nil, border: nil, shadow: shadow, childClip: nil, group: group,
                                  instance: sublayer.instance, tint: sublayer.tint, isAtRest: atRest)
            let object = prepare(old, model: model, instance: sublayer.instance, inputs: inputs, node: node, kind: .group, position: position)
            object.zPosition = layer.zPosition
            object.selfAnimated = selfAnimated
            // The group's own content is drawn inside the offscreen at the group's scale; its
            // sublayers there are at rest unless the group itself animates.
            object.inner = RenderNode(id: layer.id, transform: Homography(toOffscreen), bounds: bounds, opacity: 1,
                                      rasterScale: scale, content: contentDescription(of: layer, scale: scale),
                                      border: borderDescription(of: layer), shadow: nil, childClip: nil, group: nil,
                                      instance: sublayer.instance, tint: sublayer.tint, isAtRest: !selfAnimated)
            object.childPlacement = ChildPlacement(toTarget: toOffscreen, opacity: 1, targetArea: offscreenArea, clip: nil,
                                                   atRest: !selfAnimated, depth: inputs.depth)
            buildChildren(of: object, sublayers, position: nil, slots: !isReplicated)
            // The mask, in the offscreen space.
            let oldMask = object.mask
            if let maskLayer = model.mask {
                let t = maskLayer.localTime(fromParent: sublayer.time)
                let p = present(maskLayer, at: t)
                let s = Sublayer(model: maskLayer, presented: p, time: t, toParent: p.transformToSuperlayer(sublayerSpace: .identity),
                                 copies: sublayer.copies)
                object.mask = visit(oldMask?.model === maskLayer ? oldMask : nil, s,
                                    inputs: childInputs(s, object.childPlacement), position: nil)
                if object.mask == nil, mayChangeByItself(s) { object.culledAnimated.append(maskLayer) }
            } else {
                object.mask = nil
            }
            if let oldMask, oldMask !== object.mask { dispose(oldMask, position: nil) }
            finish(object, old: old, position: position)
            return object
        }

        let flattened = Layer.flattened(inputs.toTarget)
        let childClip = layer.masksToBounds ? RenderTree.pixelAlignedImage(of: bounds, under: transform) : nil
        let node = RenderNode(id: layer.id, transform: transform, bounds: bounds, opacity: opacity, rasterScale: rasterScale,
                              content: contentDescription(of: layer, scale: rasterScale), border: borderDescription(of: layer),
                              shadow: shadow, childClip: childClip, group: nil, instance: sublayer.instance, tint: sublayer.tint,
                              isAtRest: atRest)
        let object = prepare(old, model: model, instance: sublayer.instance, inputs: inputs, node: node, kind: .plain, position: position)
        object.zPosition = layer.zPosition
        object.selfAnimated = selfAnimated
        let clip = childClip.map { c in inputs.clip.map { $0.intersection(c) } ?? c } ?? inputs.clip
        object.childPlacement = ChildPlacement(toTarget: flattened, opacity: opacity,
                                               targetArea: childClip.map { $0.cgRect.intersection(inputs.targetArea) } ?? inputs.targetArea,
                                               clip: clip, atRest: atRest, depth: inputs.depth)
        object.mask = nil
        buildChildren(of: object, sublayers, position: position, slots: !isReplicated)
        finish(object, old: old, position: position)
        return object
    }

    /// `old` made ready to be rebuilt in place, or a new object.
    private func prepare(_ old: RenderObject?, model: Layer, instance: Int, inputs: NodeInputs, node: RenderNode,
                         kind: RenderObject.Kind, position: [Int]?) -> RenderObject {
        guard let old else { return RenderObject(model: model, instance: instance, inputs: inputs, node: node).with(kind: kind) }
        if old.kind != kind, old.kind != .group, let position {
            // Sublayers that painted into the frame now paint into an offscreen group: what they
            // painted goes (the group's own paint is compared as usual).
            var items: [PaintItem] = []
            for child in old.children { child.appendItems(to: &items) }
            for item in items { frame.damage.append(contentsOf: item.footprint) }
            if !items.isEmpty { frame.noteChange(at: position, then: PaintPosition.beforeMark) }
        }
        if old.kind == .group, kind != .group, let mask = old.mask {
            dispose(mask, position: nil)
            old.mask = nil
        }
        old.inputs = inputs
        old.node = node
        old.kind = kind
        if kind != .group { old.inner = nil; old.innerBefore = []; old.innerAfter = []; old.groupRedraw = nil }
        return old
    }

    /// Emits the object's items, records what changed and whether the subtree animates.
    private func finish(_ object: RenderObject, old: RenderObject?, position: [Int]?) {
        // The layer's own list of changed children is consumed: the object now reflects them all.
        object.model.forgetChangedChildren()
        object.subtreeAnimated = object.selfAnimated || !object.animatedChildren.isEmpty || !object.culledAnimated.isEmpty ||
            (object.mask?.subtreeAnimated ?? false)
        reemit(object, position: position)
    }

    /// Emits the object's own items anew and damages what differs from the items it had.
    private func reemit(_ object: RenderObject, position: [Int]?) {
        if reemitSoleCoverage(object, position: position) { return }
        let oldBefore = object.before, oldAfter = object.after, oldKeys = object.storeKeys
        // The ink the items painted, read before emitting queues their stores to be drawn again.
        let refines = position != nil && frame.paintsDamage
        let inkBefore = refines ? oldBefore.map(paintedInk) : [], inkAfter = refines ? oldAfter.map(paintedInk) : []
        let area = object.inputs.targetArea.pixelRect
        var emitter = ItemEmitter(cache: cache, targetArea: area,
                                  previous: object.kind != .plain || object.emittedArea != area ? [] : oldAfter.isEmpty ? oldBefore : oldBefore + oldAfter,
                                  previousKeys: oldKeys, update: tree.updates)
        emitter.emit(object)
        let keys = emitter.storeKeys
        // Usually the same stores as before (redrawn or not): nothing to retain or release.
        if keys != oldKeys {
            for key in keys where !oldKeys.contains(key) { cache.retain(key) }
            for key in oldKeys where !keys.contains(key) { cache.release(key) }
        }
        object.storeKeys = keys
        object.emittedArea = area
        object.emittedTargetArea = object.inputs.targetArea
        guard let position else { return }
        if damage(from: oldBefore, ink: inkBefore, to: object.before, refines: refines) {
            frame.noteChange(at: position, then: PaintPosition.beforeMark)
        }
        if damage(from: oldAfter, ink: inkAfter, to: object.after, refines: refines) {
            frame.noteChange(at: position, then: PaintPosition.afterMark)
        }
    }

    /// `reemit` for an object whose one item, of coverage, is redrawn where it lies (a line of
    /// text whose string changed; `ItemEmitter.redrawSoleCoverage`): damaged as
    /// `damage(from:ink:to:refines:)` damages a changed item, read in place. False, having
    /// changed nothing, when the object paints anything else or its item moves. With `slot`,
    /// `position` is the superlayer's and the object is its child `slot`.
    private func reemitSoleCoverage(_ object: RenderObject, position: [Int]?, slot: Int? = nil) -> Bool {
        // The target areas compared field by field, inlined: Foundation's `==` is a call into
        // its library (a line redrawn every frame asks), and standardizes both rects first.
        // Equal fields are what the fast path needs; rects equal only once standardized take
        // the full `reemit`, which is always right.
        guard let area = object.emittedArea, let emitted = object.emittedTargetArea, object.before.count == 1
        else { return false }
        let target = object.inputs.targetArea
        guard emitted.origin.x == target.origin.x, emitted.origin.y == target.origin.y,
              emitted.size.width == target.size.width, emitted.size.height == target.size.height
        else { return false }
        // The ink the item painted, read before its store is queued to be drawn again.
        let refines = position != nil && frame.paintsDamage
        let ink = refines ? paintedInk(object.before[0]) : nil
        guard let redraw = ItemEmitter.redrawSoleCoverage(of: object, cache: cache, targetArea: area) else { return false }
        if let position, redraw != .unchanged {
            // Damaged as `damage(from:ink:to:refines:)` damages a changed item, new and old: both
            // have the same footprint and transform.
            if redraw == .redrawn { damageNew(object.before, 0, byInk: refines && ink != nil) }
            damageOld(object.before, 0, ink: ink)
            if let slot {
                frame.noteChange(at: position, then: PaintPosition.childMark(slot), PaintPosition.beforeMark)
            } else {
                frame.noteChange(at: position, then: PaintPosition.beforeMark)
            }
        }
        if redraw == .gone { object.before = [] }
        return true
    }

    /// The ink of the mask a coverage item of the last frame painted from, while the mask is as
    /// it was then (not yet queued to be drawn again this frame, by this object or another
    /// sharing the store); nil when not known, or when it fills most of the mask (a shadow's,
    /// a hand's), where cutting the footprint to it would cost more than it saves.
    private func paintedInk(_ item: PaintItem) -> PixelRect? {
        guard case let .coverage(mask, _) = item.source, cache.pendingLevel(of: mask) == nil,
              let ink = mask.inkBounds, ink.area * 4 <= mask.width * mask.height * 3 else { return nil }
        return ink
    }

    /// Adds to the frame's damage the pixels of items that appeared, went or changed; returns
    /// whether any did. With `refines`, a coverage item counts only where its ink lands: for
    /// `old`, the ink each painted (`ink`); for `new`, known once its mask is drawn, so added
    /// after the content pass — unless the item it replaces had ink over most of its mask.
    private func damage(from old: [PaintItem], ink: [PixelRect?], to new: [PaintItem], refines: Bool) -> Bool {
        // Items are read in place, by index: copying one out retains its source and footprint.
        var changed = false
        for i in new.indices {
            let previous = old.firstIndex { $0.key == new[i].key }
            if let previous, old[previous].paintsSame(as: new[i]) { continue }
            damageNew(new, i, byInk: refines && (previous.map { ink[$0] != nil } ?? true))
            changed = true
        }
        for index in old.indices {
            if let current = new.firstIndex(where: { $0.key == old[index].key }), new[current].paintsSame(as: old[index]) { continue }
            damageOld(old, index, ink: refines ? ink[index] : nil)
            changed = true
        }
        return changed
    }

    /// Damages what a changed item of this frame, `items[i]`, paints: with `byInk`, a coverage
    /// item's ink, once the content pass has drawn its mask (`FrameChanges.inkedDamage`); else
    /// its footprint. (The item is read in place: copied out, it was retained and released.)
    @inline(__always)
    private func damageNew(_ items: [PaintItem], _ i: Int, byInk: Bool) {
        // A frame that repaints everything reads no damage (`FrameChanges.paintsDamage`).
        guard frame.paintsDamage else { return }
        if byInk, case let .coverage(mask, _) = items[i].source {
            frame.inkedDamage.append(FrameChanges.InkedDamage(mask: mask, transform: items[i].transform, footprint: items[i].footprint))
        } else {
            frame.damage.append(contentsOf: items[i].footprint)
        }
    }

    /// Damages what an item of the last frame, `items[i]`, painted: its `ink` (`paintedInk`)
    /// within its footprint when known, else its footprint. (Read in place, as `damageNew`.)
    @inline(__always)
    private func damageOld(_ items: [PaintItem], _ i: Int, ink: PixelRect?) {
        guard frame.paintsDamage else { return }
        if let ink {
            FrameChanges.appendInked(items[i].footprint, ink: ink, through: items[i].transform, to: &frame.damage)
        } else {
            frame.damage.append(contentsOf: items[i].footprint)
        }
    }

    /// Builds the children of `object` from `sublayers` (in drawing order), reusing the objects
    /// of sublayers that are unchanged, and damages what appeared, went or moved in painter's
    /// order.
    private func buildChildren(of object: RenderObject, _ sublayers: [Sublayer], position: [Int]?,
                               childPosition: (([Int]?) -> [Int]?)? = nil, slots: Bool,
                               order: (([RenderObject]) -> [RenderObject])? = nil) {
        // A leaf before and now (most changed layers): nothing to build, order or damage.
        if sublayers.isEmpty, object.children.isEmpty {
            object.culledAnimated = []
            object.animatedChildren = []
            object.childSlots = slots ? [:] : nil
            return
        }
        let oldChildren = object.children
        var oldByKey = Dictionary(oldChildren.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var children: [RenderObject] = []
        var culled: [Layer] = []
        children.reserveCapacity(sublayers.count)
        for sublayer in sublayers {
            let key = RenderObject.Key(layer: sublayer.model.id, instance: sublayer.instance)
            let oldIndex = oldByKey.removeValue(forKey: key)
            let old = oldIndex.map { oldChildren[$0] }
            let natural = PaintPosition.child(children.count, of: position)
            let place = childPosition.map { $0(natural) } ?? natural
            let child = visit(old, sublayer, inputs: childInputs(sublayer, object.childPlacement), position: place)
            if let old, old !== child {
                dispose(old, position: childPosition == nil ? oldIndex.flatMap { PaintPosition.child($0, of: position) } : place)
            }
            if let child {
                children.append(child)
            } else if mayChangeByItself(sublayer) {
                culled.append(sublayer.model)
            }
        }
        for (_, index) in oldByKey {
            let natural = PaintPosition.child(index, of: position)
            dispose(oldChildren[index], position: childPosition.map { $0(natural) } ?? natural)
        }
        if let order { children = order(children) }

        if let position {
            // Painter's order changed where the sequences first differ; objects that moved
            // relative to the others (not on the longest run kept in order) repaint where they are.
            let firstDifference = zip(oldChildren, children).enumerated().first { $0.element.0 !== $0.element.1 }?.offset
                ?? min(oldChildren.count, children.count)
            if firstDifference < max(oldChildren.count, children.count) {
                frame.noteChange(at: position, then: PaintPosition.childMark(firstDifference))
            }
            let oldIndex = Dictionary(oldChildren.enumerated().map { (ObjectIdentifier($0.element), $0.offset) }, uniquingKeysWith: { a, _ in a })
            let kept = children.compactMap { oldIndex[ObjectIdentifier($0)] }
            let inOrder = Set(Self.longestIncreasingRun(kept))
            for child in children {
                if let i = oldIndex[ObjectIdentifier(child)], !inOrder.contains(i) {
                    var items: [PaintItem] = []
                    child.appendItems(to: &items)
                    for item in items { frame.damage.append(contentsOf: item.footprint) }
                }
            }
        }
        object.children = children
        object.culledAnimated = culled
        object.animatedChildren = Set(children.indices.filter { children[$0].subtreeAnimated })
        object.childSlots = slots ? Dictionary(children.enumerated().map { (ObjectIdentifier($0.element.model), $0.offset) },
                                               uniquingKeysWith: { a, _ in a }) : nil
    }

    /// Whether what a culled sublayer shows may change with time alone: it has an animation
    /// running or yet to begin, or one ended and was removed in this frame (the frame showed its
    /// last value; the next shows the model's). One whose animations have all ended and are
    /// held at their last values (as a flip clock's hidden pages hold their last flip) shows the
    /// same until its model or its superlayer changes, which revisits it anyway: its superlayer
    /// need not be rebuilt every frame to look again.
    func mayChangeByItself(_ sublayer: Sublayer) -> Bool {
        let model = sublayer.model
        return model.animationEntries.contains { $0.animation.timing.nextChange(afterParentTime: sublayer.time) != nil } ||
            frame.endedAnimationsOf.contains(ObjectIdentifier(model))
    }

    /// The values of the longest strictly increasing subsequence of `values`.
    static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = [], tailIndex: [Int] = [], previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi { let mid = (lo + hi) / 2; if tails[mid] < v { lo = mid + 1 } else { hi = mid } }
            if lo > 0 { previous[i] = tailIndex[lo - 1] }
            if lo == tails.count { tails.append(v); tailIndex.append(i) } else { tails[lo] = v; tailIndex[lo] = i }
        }
        var result: [Int] = []
        var i = tailIndex.last ?? -1
        while i >= 0 { result.append(values[i]); i = previous[i] }
        return result.reversed()
    }

    /// Lets an object that is no longer drawn go: its stores are released and, in the frame,
    /// what it painted is damaged.
    func dispose(_ object: RenderObject, position: [Int]?) {
        if let position {
            var items: [PaintItem] = []
            object.appendItems(to: &items)
            for item in items { frame.damage.append(contentsOf: item.footprint) }
            if !items.isEmpty { frame.noteChange(at: position) }
        }
        Self.releaseStores(of: object, cache: cache)
    }

    static func releaseStores(of object: RenderObject, cache: BackingStoreCache) {
        var pending = [object]
        while let o = pending.popLast() {
            for key in o.storeKeys { cache.release(key) }
            o.storeKeys = []
            pending.append(contentsOf: o.children)
            if let mask = o.mask { pending.append(mask) }
        }
    }

    // MARK: Sublayers

    /// The sublayers of `model` (shown as `presented`) with their presentations and local
    /// times, in drawing order (by presented zPosition, ties in array order). A replicator's
    /// sublayers come once per instance.
    private func presentedSublayers(of model: Layer, presented: Layer, localTime: TimeInterval,
                                    instance: Int, tint: Color?, copies: Int) -> [Sublayer] {
        let space = presented.sublayerSpaceTransform
        var result = model.sublayerStorage.map { child -> Sublayer in
            let time = child.localTime(fromParent: localTime)
            let p = present(child, at: time)
            return Sublayer(model: child, presented: p, time: time, toParent: p.transformToSuperlayer(sublayerSpace: space),
                            instance: instance, tint: tint, copies: copies)
        }
        if result.contains(where: { $0.presented.zPosition != 0 }) {
            result = result.enumerated()
                .sorted { ($0.element.presented.zPosition, $0.offset) < ($1.element.presented.zPosition, $1.offset) }
                .map(\.element)
        }
        if let replicator = presented as? ReplicatorLayer {
            result = replicate(result, by: replicator, localTime: localTime, copies: copies)
        }
        return result
    }

    /// The instances of a replicator's sublayers: instance i is turned by the instance transform
    /// i times (about the replicator's anchor point), runs `i · instanceDelay` behind, and is
    /// tinted by the instance color plus i times the offsets.
    ///
    /// The replicator is itself drawn `copies` times (by the replicators above it): together
    /// they make at most `RenderLimits.maximumReplicatedInstances` copies of each sublayer, the
    /// first instances, and going over is reported once.
    private func replicate(_ sublayers: [Sublayer], by replicator: ReplicatorLayer, localTime: TimeInterval,
                           copies: Int) -> [Sublayer] {
        let requested = min(max(replicator.instanceCount, 0), ReplicatorLayer.maximumInstanceCount)
        let limit = tree.limits.maximumReplicatedInstances
        let count = min(requested, max(1, limit / max(copies, 1)))
        if count < requested {
            replicator.reportValueProblem("instanceCount over RenderLimits", .tooManyInstances(
                layer: replicator.debugName, requested: Double(copies) * Double(requested), limit: limit))
        }
        guard count != 1 else { return sublayers.map { var s = $0; s.tint = Self.combine(s.tint, replicator.instanceTint(0)); return s } }
        let a = replicator.anchorPointInBounds
        let step = Transform3D(translationX: -a.x, y: -a.y, z: -replicator.anchorPointZ)
            .concatenating(replicator.instanceTransform)
            .concatenating(Transform3D(translationX: a.x, y: a.y, z: replicator.anchorPointZ))
        var result: [Sublayer] = []
        var accumulated = Transform3D.identity
        for i in 0..<count {
            let delay = Double(i) * replicator.instanceDelay
            for sublayer in sublayers {
                let child = sublayer.model
                let time = sublayer.time - delay
                let p = i == 0 ? sublayer.presented : present(child, at: time, notify: false)
                var hasher = Hasher()
                hasher.combine(sublayer.instance)
                hasher.combine(i)
                result.append(Sublayer(model: child, presented: p, time: time,
                                       toParent: p.transformToSuperlayer(sublayerSpace: replicator.sublayerSpaceTransform)
                                           .concatenating(accumulated),
                                       instance: i == 0 ? sublayer.instance : hasher.finalize(),
                                       tint: Self.combine(sublayer.tint, replicator.instanceTint(i)),
                                       copies: copies * count))
            }
            accumulated = accumulated.concatenating(step)
        }
        return result
    }

    /// Two tints applied one after the other (nil is no tint).
    static func combine(_ a: Color?, _ b: Color?) -> Color? {
        guard let a else { return b }
        guard let b else { return a }
        return Color(red: a.red * b.red, green: a.green * b.green, blue: a.blue * b.blue, alpha: a.alpha * b.alpha)
    }

    // MARK: Descriptions

    private func contentDescription(of layer: Layer, scale: CGFloat) -> ContentDescription? {
        // (The model without `model()`'s cast: a copy's model is of the copy's class.)
        let drawn = (layer.modelLayerStorage ?? layer).drawnContent(scale: scale)
        let contents = layer.contents.map {
            ContentsDescription(image: $0, gravity: layer.contentsGravity, rect: layer.contentsRect,
                                center: layer.contentsCenter, scale: max(layer.contentsScale, 1e-3),
                                minificationFilter: layer.minificationFilter, magnificationFilter: layer.magnificationFilter)
        }
        let background = layer.backgroundColor.flatMap { $0.alpha > 0 ? $0 : nil }
        let shape = layer.shapeDescription.flatMap { withinPathLimit($0.path, "path", of: layer) ? $0 : nil }
        let text = layer.textDescription, gradient = layer.gradientDescription
        // Read once: each read of a layer's property is checked for exclusive access.
        let bounds = layer.bounds
        // A shape draws even with empty bounds; everything else needs an area. (The contents and
        // the gradient are matched, not compared with nil: a comparison copied them, and
        // destroyed the copy through their type's metadata, for every layer described.)
        var drawsInBounds = background != nil || drawn != nil || text != nil
        if case .some = contents { drawsInBounds = true }
        if case .some = gradient { drawsInBounds = true }
        guard shape != nil || (drawsInBounds && bounds.width > 0 && bounds.height > 0) else { return nil }
        return ContentDescription(bounds: bounds, backgroundColor: background, cornerRadius: max(layer.cornerRadius, 0),
                                  maskedCorners: layer.maskedCorners, contents: contents, drawn: drawn, shape: shape, text: text, gradient: gradient,
                                  version: layer.contentVersion)
    }

    private func borderDescription(of layer: Layer) -> BorderDescription? {
        guard layer.borderWidth > 0, layer.borderWidth.isFinite, let color = layer.borderColor, color.alpha > 0,
              layer.bounds.width > 0, layer.bounds.height > 0 else { return nil }
        return BorderDescription(bounds: layer.bounds, width: layer.borderWidth, color: color,
                                 cornerRadius: max(layer.cornerRadius, 0), maskedCorners: layer.maskedCorners)
    }

    private func shadowDescription(of layer: Layer) -> ShadowDescription? {
        guard layer.shadowOpacity > 0, let color = layer.shadowColor, color.alpha > 0,
              layer.shadowRadius.isFinite, layer.shadowOffset.width.isFinite, layer.shadowOffset.height.isFinite
        else { return nil }
        if let path = layer.shadowPath, !withinPathLimit(path, "shadowPath", of: layer) { return nil }
        return ShadowDescription(color: color, opacity: Double(min(layer.shadowOpacity, 1)), offset: layer.shadowOffset,
                                 radius: max(layer.shadowRadius, 0), path: layer.shadowPath)
    }

    /// Whether a path the layer draws is within `RenderLimits.maximumPathSegments`; one that is
    /// not is reported once and not drawn.
    private func withinPathLimit(_ path: Path, _ property: String, of layer: Layer) -> Bool {
        let segments = path.elements.count, limit = tree.limits.maximumPathSegments
        guard segments > limit else { return true }
        layer.reportValueProblem(property + " over RenderLimits", .tooManyPathSegments(
            layer: layer.debugName, property: property, segments: segments, limit: limit))
        return false
    }

}

extension RenderTree {
    // MARK: Geometry helpers

    /// Whether the plane shows its back: its projected outline runs the other way round.
    static func isBackFacing(_ h: Homography, bounds: CGRect) -> Bool {
        let probe = bounds.width > 0 && bounds.height > 0 ? bounds : CGRect(x: bounds.minX, y: bounds.minY, width: 1, height: 1)
        let polygon = h.projectedPolygon(of: probe)
        return polygon.count >= 3 && signedArea(of: polygon) < 0
    }

    /// The device pixels exactly covered by `rect`, when the map is a pure scale and translation
    /// landing on whole pixels; nil otherwise.
    static func pixelAlignedImage(of rect: CGRect, under h: Homography) -> PixelRect? {
        guard h.m12 == 0, h.m21 == 0, h.m13 == 0, h.m23 == 0, h.m33 == 1, h.m11 > 0, h.m22 > 0,
              let image = h.projectedBounds(of: rect) else { return nil }
        let tolerance: CGFloat = 1e-6
        let edges = [image.minX, image.minY, image.maxX, image.maxY]
        guard edges.allSatisfy({ abs($0 - $0.rounded()) < tolerance }) else { return nil }
        return PixelRect(covering: image.insetBy(dx: tolerance, dy: tolerance))
    }

    /// `area` (bounds space) grown to start on a device pixel, when `h` shows the bounds space
    /// as a pure translation of `scale` pixels per point: a store covering the result lands on
    /// whole device pixels, its content rasterized at the layer's sub-pixel offset, and is
    /// composited as a copy. Nil when `h` is anything else.
    static func pixelAligned(_ area: CGRect, scale: CGFloat, under h: Homography) -> CGRect? {
        let tolerance: CGFloat = 1e-9
        guard h.m12 == 0, h.m21 == 0, h.m13 == 0, h.m23 == 0, h.m33 == 1,
              abs(h.m11 - scale) <= tolerance * scale, abs(h.m22 - scale) <= tolerance * scale else { return nil }
        // Device x of the area's left edge, snapped down to a pixel (a hair's rounding noise is
        // not a pixel), mapped back to bounds space.
        let x = area.minX * scale + h.m31, y = area.minY * scale + h.m32
        let px = (x + 1e-6).rounded(.down), py = (y + 1e-6).rounded(.down)
        let minX = (px - h.m31) / scale, minY = (py - h.m32) / scale
        guard minX.isFinite, minY.isFinite else { return nil }
        return CGRect(x: minX, y: minY, width: area.maxX - minX, height: area.maxY - minY)
    }

    /// The device pixels per point a layer is shown at, on a ladder of steps (√2 apart, anchored
    /// at the device scale) so that a scale animation re-rasterizes a few times, not every frame.
    static func rasterScale(of h: Homography, at point: CGPoint, deviceScale: CGFloat) -> CGFloat {
        let largest = h.largestScale(at: point)
        guard largest.isFinite, largest > 0 else { return deviceScale }
        let steps = (2 * log2(largest / deviceScale) - 1e-6).rounded(.up)   // rounding noise is not a zoom
        let clamped = min(max(steps, -12), 12)
        return deviceScale * pow(2, clamped / 2)
    }
}

extension RenderObject {
    fileprivate func with(kind: Kind) -> RenderObject {
        self.kind = kind
        return self
    }
}

extension CGRect {
    /// The pixels this rect covers (for target areas, which are whole pixels).
    var pixelRect: PixelRect { PixelRect(covering: self) }
}

/// Runs deep recursion on a thread of its own with a large stack.
enum DeepStack {
    /// Tree levels walked on one stack: a level takes a few frames of a few kilobytes.
    static let levelsPerStack = 48
    /// Bytes of stack each fresh thread gets.
    static let stackSize = 16 << 20

    /// Runs `body` on a new thread with `stackSize` bytes of stack and returns its result; the
    /// calling thread waits meanwhile.
    static func run<R>(_ body: () -> R) -> R {
        withoutActuallyEscaping(body) { body in
            let call = Call(body)
            let thread = Thread { call.run() }
            thread.stackSize = stackSize
            thread.start()
            call.done.wait()
            return call.result!
        }
    }

    /// One call handed to the deep thread.
    ///
    /// `@unchecked Sendable` is safe here: the caller blocks on `done` from `start()` until the
    /// body has returned, so the body — and whatever non-Sendable state of the caller's it uses —
    /// runs on exactly one thread at a time; the semaphore orders the body's effects, `result`
    /// included, before the caller reads them.
    private final class Call<R>: @unchecked Sendable {
        private var body: (() -> R)?
        var result: R?
        let done = DispatchSemaphore(value: 0)
        init(_ body: @escaping () -> R) { self.body = body }
        func run() {
            result = body?()
            // Let go of the body before the caller resumes: it must not outlive the call (the
            // thread object may linger a moment longer).
            body = nil
            done.signal()
        }
    }
}
