import Foundation

/// Why a change to the layer tree was refused.
public enum LayerTreeError: Error, Equatable, CustomStringConvertible {
    /// Adding the layer would make it its own ancestor.
    case cycle(layer: String, newSuperlayer: String)
    /// The layer named as a reference point is not a sublayer here.
    case notASublayer(layer: String, of: String)
    /// Making the layer a mask would make it its own ancestor: it is the masked layer, one of
    /// its ancestors, or the mask of one of them.
    case maskCycle(mask: String, layer: String)

    public var description: String {
        switch self {
        case let .cycle(layer, superlayer):
            "cannot add layer \(layer) to \(superlayer): \(superlayer) is \(layer) or one of its descendants"
        case let .notASublayer(layer, superlayer):
            "layer \(layer) is not a sublayer of \(superlayer)"
        case let .maskCycle(mask, layer):
            "cannot make layer \(mask) the mask of \(layer): \(mask) is \(layer), one of its ancestors or the mask of one of them"
        }
    }
}

extension Layer {
    /// Appends a layer at the top of the sublayers, moving it from any previous superlayer.
    ///
    /// Adding a layer under itself or one of its own descendants is a programmer error: it is
    /// refused with a message naming both layers, and the tree is left as it was.
    public func addSublayer(_ layer: Layer) {
        insert(layer, at: sublayerStorage.count)
    }

    /// Inserts a layer at an index of the sublayers (clamped to the valid range).
    public func insertSublayer(_ layer: Layer, at index: UInt32) {
        insert(layer, at: Int(index))
    }

    /// Inserts a layer just above `sibling` (at the top when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s } }
        insert(layer, at: index.map { $0 + 1 } ?? sublayerStorage.count, after: sibling)
    }

    /// Inserts a layer just below `sibling` (at the bottom when `sibling` is nil or not a sublayer).
    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        let index = sibling.flatMap { s in sublayerStorage.firstIndex { $0 === s } }
        insert(layer, at: index ?? 0, before: sibling)
    }

    /// Puts `newLayer` where `oldLayer` is in the sublayers; `oldLayer` leaves the tree.
    public func replaceSublayer(_ oldLayer: Layer, with newLayer: Layer) {
        guard let index = sublayerStorage.firstIndex(where: { $0 === oldLayer }) else {
            reportTreeError(.notASublayer(layer: oldLayer.debugName, of: debugName))
            return
        }
        guard oldLayer !== newLayer else { return }
        guard checkCanAdopt(newLayer) else { return }
        oldLayer.removeFromSuperlayer()
        insert(newLayer, at: index)
    }

    /// Takes the layer out of its superlayer's sublayers (or off the layer it masks).
    public func removeFromSuperlayer() {
        if let owner = maskOwner {
            owner.mask = nil
            return
        }
        guard let parent = superlayer else { return }
        parent.sublayerStorage.removeAll { $0 === self }
        superlayer = nil
        parent.changed(.sublayers)
    }

    /// Every ancestor, nearest first.
    public var ancestors: [Layer] {
        var result: [Layer] = []
        var current = superlayer
        while let layer = current {
            result.append(layer)
            current = layer.superlayer
        }
        return result
    }

    /// Whether `self` is `layer` or one of its ancestors.
    public func isAncestor(of layer: Layer) -> Bool {
        // A leaf is nobody's ancestor but its own: skip the walk up (which made building deep
        // trees quadratic).
        if self !== layer, sublayerStorage.isEmpty, mask == nil { return false }
        var current: Layer? = layer
        while let l = current {
            if l === self { return true }
            current = l.superlayer ?? l.maskOwner
        }
        return false
    }

    /// The first layer in this subtree (this layer included, depth first) with the given name.
    public func sublayer(named name: String) -> Layer? {
        var pending: [Layer] = [self]
        while let layer = pending.popLast() {
            if layer.name == name { return layer }
            pending.append(contentsOf: layer.sublayerStorage.reversed())
        }
        return nil
    }

    // MARK: Internals

    /// Makes `newMask` the mask (see `mask`), taking it from wherever it was; refuses, with a
    /// message naming both layers, a mask that would make the tree a cycle.
    func setMask(_ newMask: Layer?) {
        let oldMask = maskStorage
        guard newMask !== oldMask else { return }
        if let newMask, newMask.isAncestor(of: self) {
            reportTreeError(.maskCycle(mask: newMask.debugName, layer: debugName))
            return
        }
        maskStorage = newMask
        oldMask?.maskOwner = nil
        if let newMask {
            newMask.removeFromSuperlayer()
            newMask.maskOwner?.mask = nil
            newMask.maskOwner = self
        }
        changed([.content, .sublayers])
    }

    private func insert(_ layer: Layer, at index: Int, after sibling: Layer? = nil, before other: Layer? = nil) {
        guard checkCanAdopt(layer) else { return }
        if layer.maskOwner != nil { layer.removeFromSuperlayer() }
        var target = index
        if layer.superlayer === self, let current = sublayerStorage.firstIndex(where: { $0 === layer }) {
            sublayerStorage.remove(at: current)
            if current < target { target -= 1 }
        } else {
            layer.removeFromSuperlayer()
        }
        // Re-resolve relative positions after the removal shifted indices.
        if let sibling, let i = sublayerStorage.firstIndex(where: { $0 === sibling }) { target = i + 1 }
        if let other, let i = sublayerStorage.firstIndex(where: { $0 === other }) { target = i }
        target = min(max(target, 0), sublayerStorage.count)
        sublayerStorage.insert(layer, at: target)
        layer.superlayer = self
        changed(.sublayers)
    }

    func setSublayers(_ layers: [Layer]) {
        for layer in layers where !checkCanAdopt(layer) { return }
        for old in sublayerStorage { old.superlayer = nil }
        sublayerStorage = []
        var seen = Set<ObjectIdentifier>()
        for layer in layers where seen.insert(ObjectIdentifier(layer)).inserted {
            if layer.maskOwner != nil { layer.removeFromSuperlayer() }
            layer.removeFromSuperlayer()
            sublayerStorage.append(layer)
            layer.superlayer = self
        }
        changed(.sublayers)
    }

    /// Refuses, with a clear message, to add a layer under itself or its descendants.
    private func checkCanAdopt(_ layer: Layer) -> Bool {
        if layer.isAncestor(of: self) {
            reportTreeError(.cycle(layer: layer.debugName, newSuperlayer: debugName))
            return false
        }
        return true
    }
}

/// Where refused tree changes are reported. By default the message goes to standard error and
/// the tree is left intact; tests and apps may install their own handler.
public enum LayerTreeDiagnostics {
    /// The handler for refused tree changes.
    public static var handler: @Sendable (LayerTreeError) -> Void {
        get { channel.current }
        set { channel.current = newValue }
    }

    private static let channel = DiagnosticHandler<LayerTreeError>()
}

func reportTreeError(_ error: LayerTreeError) {
    LayerTreeDiagnostics.handler(error)
}
