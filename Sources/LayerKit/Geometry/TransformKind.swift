import Foundation

/// The cheapest exact way to draw through a homography, chosen once here and nowhere else.
///
/// pixman copies an integer translation without filtering (about ten times faster than a
/// bilinear affine fetch), and a projective fetch is several times slower again; so the
/// compositor asks for the kind and picks its path from the answer.
public enum TransformKind: Hashable, Sendable {
    /// A whole-pixel offset: source pixels land on destination pixels unchanged.
    case integerTranslation(x: Int, y: Int)
    /// Any other map that keeps lines parallel (w is constant).
    case affine
    /// A true perspective map (w varies across the plane).
    case projective
    /// Singular or not finite: nothing can be drawn through it.
    case degenerate

    /// Offsets closer than this to a whole pixel count as whole: device-scale products such as
    /// 0.1 · 30 land a few ulps away from the integer they mean.
    static let integerTolerance: CGFloat = 1e-9

    /// Projective terms smaller than this (relative to the matrix) are rounding residue, not
    /// perspective; below it the affine path differs by far less than a pixel.
    static let projectiveTolerance: CGFloat = 1e-12

    init(_ h: Homography) {
        // A translation with m33 = 1 (how layers at rest and their stores are placed, asked per
        // item and band) is told apart without inverting: its inverse, the opposite translation,
        // exists whenever its offsets are finite.
        if h.m33 == 1, h.m11 == 1, h.m22 == 1, h.m12 == 0, h.m21 == 0, h.m13 == 0, h.m23 == 0 {
            guard h.m31.isFinite, h.m32.isFinite else { self = .degenerate; return }
            self = Self.translation(h.m31, h.m32)
            return
        }
        guard h.isFinite, h.inverted() != nil else { self = .degenerate; return }
        let scale = max(abs(h.m33), 1)
        guard abs(h.m13) <= Self.projectiveTolerance * scale, abs(h.m23) <= Self.projectiveTolerance * scale else {
            self = .projective
            return
        }
        if h.m11 == h.m33, h.m22 == h.m33, h.m12 == 0, h.m21 == 0 {
            self = Self.translation(h.m31 / h.m33, h.m32 / h.m33)
        } else {
            self = .affine
        }
    }

    /// A translation by (`tx`, `ty`): whole pixels when both are within the tolerance of one.
    private static func translation(_ tx: CGFloat, _ ty: CGFloat) -> TransformKind {
        let rx = tx.rounded(), ry = ty.rounded()
        guard abs(tx - rx) <= integerTolerance, abs(ty - ry) <= integerTolerance,
              abs(rx) < CGFloat(Int32.max), abs(ry) < CGFloat(Int32.max) else { return .affine }
        return .integerTranslation(x: Int(rx), y: Int(ry))
    }

    /// Whether the map is a whole-pixel offset.
    var isIntegerTranslation: Bool {
        if case .integerTranslation = self { return true }
        return false
    }
}

extension Homography {
    /// Off-axis terms smaller than this (relative to the scale) are rounding residue: a quarter
    /// turn's cosine comes out as 6e-17, not 0.
    static let axisTolerance: CGFloat = 1e-12

    /// Whether an affine map only scales along the axes (and translates), keeping the x axis's
    /// direction: the one affine kind pixman draws faster than LayerKit's kernels (its SSE2
    /// scaled paths step along rows at about 2 ns a pixel; a mirrored x falls back to its
    /// general fetcher, several times slower). A refinement of `TransformKind.affine` used only by
    /// `CompositePath`.
    var isForwardAxisScale: Bool {
        let size = max(abs(m11), abs(m22))
        return m11 > 0 && abs(m12) <= Self.axisTolerance * size && abs(m21) <= Self.axisTolerance * size
    }
}
