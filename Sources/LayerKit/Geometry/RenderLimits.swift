import Foundation

/// Bounds on what one frame may draw, whatever its layers ask for: hostile or mistaken input
/// (nested replicators, a path of millions of points) costs at most this much, and the rest of
/// the frame is drawn as usual. Set a renderer's `limits` to change them.
///
/// What goes over a limit is cut (and reported once per layer through
/// `LayerValueDiagnostics`); nothing over it is allocated.
public struct RenderLimits: Hashable, Sendable {
    /// The most copies of one layer that the replicators above it make together — the product of
    /// their instance counts, not each count alone: three nested replicators of 100 instances
    /// make 1,000,000 copies of a layer inside the innermost. 10,000 by default (a clock's 60
    /// ticks times 60 seconds' marks fits with room to spare).
    ///
    /// A replicator whose instances would take its copies over the limit draws as many
    /// instances as fit (at least one, its sublayers as they are), the first ones.
    /// `ReplicatorLayer.maximumInstanceCount` still caps each replicator alone.
    public var maximumReplicatedInstances: Int

    /// The most elements (moves, lines, curves) a path a layer draws may have: a shape layer's
    /// `path` or a `shadowPath`. 100,000 by default. A path's cost grows with its elements (and
    /// the pixels they cross): a zigzag of 200,000 lines across a 400-point layer, filled and
    /// stroked, peaked 235 MB above the process's baseline when measured here, and one of 10
    /// million lines 9.1 GB. A path over the limit is not drawn (the rest of the layer is).
    public var maximumPathSegments: Int

    /// The defaults (see each property).
    public init() {
        self.init(maximumReplicatedInstances: 10_000, maximumPathSegments: 100_000)
    }

    /// Limits with the given values (negative values count as 0).
    public init(maximumReplicatedInstances: Int, maximumPathSegments: Int) {
        self.maximumReplicatedInstances = max(0, maximumReplicatedInstances)
        self.maximumPathSegments = max(0, maximumPathSegments)
    }

    // MARK: Fixed bounds

    /// Backing stores are never larger than this many pixels a side; a bigger layer is
    /// rasterized at a lower scale or only where it is visible.
    static let maximumStoreSide: CGFloat = 4096

    /// Finite bounds of a size a frame could ever need (a 10⁹-point layer still qualifies: only
    /// its visible part is ever rasterized).
    static func isSane(_ r: CGRect) -> Bool {
        let limit: CGFloat = 1e12
        return !r.isNull && [r.minX, r.minY, r.width, r.height].allSatisfy { $0.isFinite && abs($0) < limit }
    }
}
