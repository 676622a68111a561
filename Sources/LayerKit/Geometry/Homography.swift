import Foundation

/// A 3x3 projective transform of the plane, in the row-vector convention of `Transform3D`:
/// `(X, Y, W) = (x, y, 1) · H`, and the image point is `(X / W, Y / W)`.
///
/// A layer is a plane (z = 0); the homography of a 4x4 transform is what that plane looks like
/// on screen, and it is what the compositor hands to pixman.
public struct Homography: Hashable, Sendable {
    /// The first row: the image of the x axis, and x's share of w.
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat
    /// The second row: the image of the y axis, and y's share of w.
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat
    /// The third row: the translation, and w's constant term.
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat

    /// Points whose homogeneous w falls to this or below lie on or behind the eye and are cut
    /// away; small enough to keep any visible geometry, large enough that 1/w stays finite.
    public static let defaultEpsilon: CGFloat = 1e-6

    /// Creates a homography from its nine fields, row by row.
    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13
        self.m21 = m21; self.m22 = m22; self.m23 = m23
        self.m31 = m31; self.m32 = m32; self.m33 = m33
    }

    /// The identity.
    public static let identity = Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: 0, m32: 0, m33: 1)

    /// The map of the z = 0 plane through a 4x4 transform: the third row and column drop out
    /// because the plane's points have z = 0 and only screen x, y and w are kept.
    public init(_ t: Transform3D) {
        self.init(m11: t.m11, m12: t.m12, m13: t.m14,
                  m21: t.m21, m22: t.m22, m23: t.m24,
                  m31: t.m41, m32: t.m42, m33: t.m44)
    }

    /// The homography of a 2D affine transform.
    public init(_ a: CGAffineTransform) {
        self.init(m11: a.a, m12: a.b, m13: 0, m21: a.c, m22: a.d, m23: 0, m31: a.tx, m32: a.ty, m33: 1)
    }

    /// A translation by `(tx, ty)`.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: tx, m32: ty, m33: 1)
    }

    /// A scale by `(sx, sy)` about the origin.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(m11: sx, m12: 0, m13: 0, m21: 0, m22: sy, m23: 0, m31: 0, m32: 0, m33: 1)
    }

    /// The homography that applies `self`, then `other`.
    public func concatenating(_ o: Homography) -> Homography {
        Homography(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31,
            m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31,
            m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31,
            m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }

    /// The determinant of the 3x3 matrix.
    public var determinant: CGFloat {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// Whether every field is a finite number.
    public var isFinite: Bool {
        m11.isFinite && m12.isFinite && m13.isFinite && m21.isFinite && m22.isFinite && m23.isFinite
            && m31.isFinite && m32.isFinite && m33.isFinite
    }

    /// The inverse, or nil when the matrix is singular (the plane is seen edge-on) or the
    /// inverse is not finite.
    public func inverted() -> Homography? {
        let det = determinant
        guard isFinite, det != 0 else { return nil }
        let inverse = Homography(
            m11: (m22 * m33 - m23 * m32) / det, m12: (m13 * m32 - m12 * m33) / det, m13: (m12 * m23 - m13 * m22) / det,
            m21: (m23 * m31 - m21 * m33) / det, m22: (m11 * m33 - m13 * m31) / det, m23: (m13 * m21 - m11 * m23) / det,
            m31: (m21 * m32 - m22 * m31) / det, m32: (m12 * m31 - m11 * m32) / det, m33: (m11 * m22 - m12 * m21) / det)
        return inverse.isFinite ? inverse : nil
    }

    /// The homogeneous image `(X, Y, W)` of a point.
    func homogeneous(_ p: CGPoint) -> (x: CGFloat, y: CGFloat, w: CGFloat) {
        (p.x * m11 + p.y * m21 + m31, p.x * m12 + p.y * m22 + m32, p.x * m13 + p.y * m23 + m33)
    }

    /// The image of a point, or nil when it lies on or behind the eye (w ≤ `epsilon`).
    public func apply(to point: CGPoint, epsilon: CGFloat = Homography.defaultEpsilon) -> CGPoint? {
        let h = homogeneous(point)
        guard h.w > epsilon else { return nil }
        return CGPoint(x: h.x / h.w, y: h.y / h.w)
    }

    /// Which compositing path can draw through this homography exactly.
    public var kind: TransformKind { TransformKind(self) }
}

extension Homography: CustomStringConvertible {
    public var description: String {
        let f = { (v: CGFloat) in String(format: "%.6g", Double(v)) }
        return "Homography[\(f(m11)) \(f(m12)) \(f(m13)); \(f(m21)) \(f(m22)) \(f(m23)); \(f(m31)) \(f(m32)) \(f(m33))]"
    }
}

extension Homography {
    /// How much the map magnifies around `point`: the larger singular value of the Jacobian of
    /// the projection there (1 for rigid motions, the zoom for a uniform scale; 0 when the point
    /// is behind the eye).
    func largestScale(at point: CGPoint) -> CGFloat {
        let p = homogeneous(point)
        guard p.w > 0 else { return 0 }
        let w = p.w, x = p.x / w, y = p.y / w
        let a = (m11 - x * m13) / w, b = (m12 - y * m13) / w
        let c = (m21 - x * m23) / w, d = (m22 - y * m23) / w
        // σ1 = Q + R (Blinn's decomposition of a 2x2): stable where the textbook
        // √((s ± √(s² − 4·det²))/2) cancels catastrophically (a rotation came out 1 + 1e-8).
        let e = (a + d) / 2, f = (a - d) / 2, g = (c + b) / 2, h = (c - b) / 2
        return (e * e + h * h).squareRoot() + (f * f + g * g).squareRoot()
    }
}
