import Foundation
import Synchronization

/// The process-wide clock of model changes: every change to any layer takes the next stamp.
///
/// A renderer remembers the stamp at which it last looked at a tree; a layer whose subtree stamp
/// is not newer has nothing new to show, so the renderer reuses what it built from it before.
/// Stamps are global rather than per tree so that several renderers (and trees in several
/// isolation domains) can share the counters without coordinating.
enum ChangeClock {
    private static let counter = Atomic<UInt64>(0)
    /// The counter's value when the latest snapshot of any tree began. Changes stamped after it
    /// have not been seen by any renderer yet.
    private static let epoch = Atomic<UInt64>(0)

    /// The next stamp.
    static func tick() -> UInt64 { counter.wrappingAdd(1, ordering: .relaxed).newValue }

    /// The latest stamp handed out.
    static var now: UInt64 { counter.load(ordering: .relaxed) }

    /// Called when a renderer starts looking at a tree: returns the stamp that frame sees up to.
    static func beginSnapshot() -> UInt64 {
        let stamp = counter.load(ordering: .relaxed)
        epoch.store(stamp, ordering: .relaxed)
        return stamp
    }

    static var lastSnapshot: UInt64 { epoch.load(ordering: .relaxed) }
}

/// What a layer records of its changes, for renderers to find them without walking the tree.
struct ChangeTracking {
    /// The stamp of the last change to the layer itself: a property, its sublayer list, its mask,
    /// its animations.
    var ownStamp: UInt64 = 0
    /// The stamp of the last change to the layer itself that invalidated more than its content
    /// (geometry, compositing, shadow, timing, sublayers; and every change that does not say).
    /// A layer whose `ownStamp` is newer than a frame but whose `nonContentStamp` is not changed
    /// only what its backing store shows: where it lands and how it blends are as they were.
    var nonContentStamp: UInt64 = 0
    /// The newest stamp of any change in the subtree (the layer, its sublayers and their
    /// descendants, its mask).
    var subtreeStamp: UInt64 = 0
    /// Sublayers (or the mask) whose subtrees changed after `changedChildrenSince`, each once.
    /// Only current children are listed: a child that leaves makes its former parent forget
    /// the list (`Layer.superlayer` and `maskOwner` observe it), so every listed layer is held
    /// by this one, as a sublayer or as its mask (see `ListedLayer`).
    var changedChildren: [ListedLayer] = []
    /// `changedChildren` holds every child that changed after this stamp.
    var changedChildrenSince: UInt64 = 0
    /// When this layer was last put into its superlayer's `changedChildren` (0: not since it
    /// moved there).
    var listedInParent: UInt64 = 0

    /// Stamps a change of the layer itself (`beyondContent`: one that invalidates more than its
    /// content).
    mutating func stamp(_ stamp: UInt64, beyondContent: Bool) {
        ownStamp = stamp
        if beyondContent { nonContentStamp = stamp }
        subtreeStamp = stamp
    }

    /// Notes a change stamped `stamp` in the subtree of `child` (put in this layer's list
    /// `listedAt`): lists the child unless it is listed since the list began, and marks this
    /// subtree as changed unless it was marked after `epoch` (then everything above it was too).
    /// Whether the child was listed now, and whether this subtree was marked already.
    mutating func noteChanged(_ child: Layer, listedAt: UInt64, stamp: UInt64, epoch: UInt64) -> (listed: Bool, marked: Bool) {
        let listed = listedAt <= changedChildrenSince
        if listed { changedChildren.append(ListedLayer(layer: child)) }
        guard subtreeStamp <= epoch else { return (listed, true) }
        subtreeStamp = stamp
        return (listed, false)
    }
}

extension Layer {
    /// Stamps a change of this layer that invalidates `change` (what its declaration says, for a
    /// declared property) and marks each ancestor's subtree as changed, noting in each which
    /// child the change came through.
    ///
    /// Amortized O(1) between frames: the walk up stops at an ancestor already marked since the
    /// last snapshot, because everything above it was marked then too (no snapshot has run since,
    /// so none has consumed those marks).
    func recordChange(_ change: Invalidation) {
        guard !isPresentationCopy else { return }
        let stamp = ChangeClock.tick()
        // Each layer's tracking is read and written in one access (`mutating`): a class property
        // touched field by field is checked for exclusive access at every touch, and those checks
        // were half of this function's cost (a text board's lines each change every frame).
        tracking.stamp(stamp, beyondContent: !change.isSubset(of: .content))
        let epoch = ChangeClock.lastSnapshot
        var child = self
        while let parent = child.superlayer ?? child.maskOwner {
            let listedInParent = child.tracking.listedInParent
            let (listed, marked) = parent.tracking.noteChanged(child, listedAt: listedInParent, stamp: stamp, epoch: epoch)
            if listed { child.tracking.listedInParent = stamp }
            if marked { return }
            child = parent
        }
    }

    /// Forgets the list of changed children, for a renderer that has just looked at every child:
    /// from here on it holds the changes after now.
    func forgetChangedChildren() {
        tracking.changedChildren.removeAll(keepingCapacity: true)
        tracking.changedChildrenSince = ChangeClock.now
    }

    /// Passes each child whose subtree changed after `stamp` to `body`, until `body` returns
    /// false (then so does this), and forgets the list (`forgetChangedChildren()`). Nil, having
    /// passed none, when this layer cannot say (its list was reset after `stamp`, by a renderer
    /// that had looked more recently): then every child must be checked. (Passed one by one,
    /// not as an array: a frame takes every changed line of a text board this way, and an array
    /// of them retained and released each, slowly, since layers are weakly referenced.)
    func takeChangedChildren(after stamp: UInt64, _ body: (Layer) -> Bool) -> Bool? {
        let complete = tracking.changedChildrenSince <= stamp
        let children = tracking.changedChildren
        forgetChangedChildren()
        guard complete else { return nil }
        for entry in children {
            let layer = entry.layer
            guard layer.tracking.subtreeStamp > stamp else { continue }
            if !body(layer) { return false }
        }
        return true
    }
}

extension Layer {
    /// Whether the layer's own changes after `stamp` were all to its content: something it
    /// rasterizes is new, but nothing that places it, blends it, times it or hangs below it.
    /// (Its sublayers' changes are theirs: this says nothing about them.)
    func changedOnlyContent(after stamp: UInt64) -> Bool {
        tracking.ownStamp > stamp && tracking.nonContentStamp <= stamp
    }
}

/// A child in its parent's list of changed children, held without a reference count.
///
/// Not weak: a weak reference gives the layer a side table of counts for life, and every retain
/// and release of it then takes the runtime's slow path (each line of a text board, every
/// frame). Not strong: a child may leave and later hold its former parent (as its mask or a
/// sublayer), and a strong list would then be a cycle that is never freed (found by
/// scripts/fuzz). Unowned and unchecked, safely: a layer is listed only in the list of its
/// superlayer or the layer it masks (`recordChange` walks up through those), which holds it
/// (`sublayerStorage`, `maskStorage`) until it leaves, and a leaving child makes that layer
/// forget the whole list (the observers of `superlayer` and `maskOwner`) before anything can
/// free it. So every listed layer is alive whenever the list is read.
struct ListedLayer {
    unowned(unsafe) let layer: Layer
}
