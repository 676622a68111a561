import Foundation

/// Bounds on what a frame may ever allocate or compute, shared by the layers that draw their own
/// content and by the renderer.
enum RenderLimits {
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
