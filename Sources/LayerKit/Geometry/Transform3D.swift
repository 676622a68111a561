import Foundation

/// A 4x4 homogeneous transform with Core Animation's layout and conventions.
///
/// Points are row vectors multiplied on the left, `p' = p · M`, so the translation sits in
/// `m41…m43` and `a.concatenating(b)` applies `a` first, then `b` (as `CATransform3DConcat`).
/// Coordinates are y-down: a positive rotation about z turns clockwise on screen.
/// Perspective is set as in Core Animation, `m34 = -1 / eyeDistance`.
public struct Transform3D: Hashable, Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// Creates a transform from its sixteen fields, row by row.
    public init(
        m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
        m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
        m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
        m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat
    ) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }

    /// The identity transform.
    public init() {
        self.init(m11: 1, m12: 0, m13: 0, m14: 0,
                  m21: 0, m22: 1, m23: 0, m24: 0,
                  m31: 0, m32: 0, m33: 1, m34: 0,
                  m41: 0, m42: 0, m43: 0, m44: 1)
    }

    /// The identity transform.
    public static let identity = Transform3D()

    /// A translation by `(tx, ty, tz)`.
    public init(translationX tx: CGFloat, y ty: CGFloat, z tz: CGFloat = 0) {
        self.init()
        m41 = tx; m42 = ty; m43 = tz
    }

    /// A scale by `(sx, sy, sz)` about the origin.
    public init(scaleX sx: CGFloat, y sy: CGFloat, z sz: CGFloat = 1) {
        self.init()
        m11 = sx; m22 = sy; m33 = sz
    }

    /// A rotation by `angle` radians about the axis `(x, y, z)` through the origin.
    ///
    /// Matches `CATransform3DMakeRotation`: the axis need not be normalized, and a zero-length
    /// (or non-finite) axis gives the identity. About `(0, 0, 1)` a positive angle turns
    /// clockwise on a y-down screen.
    public init(rotationAngle angle: CGFloat, x: CGFloat, y: CGFloat, z: CGFloat) {
        self.init()
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0, length.isFinite, angle.isFinite else { return }
        let (ux, uy, uz) = (x / length, y / length, z / length)
        let c = cos(angle), s = sin(angle), t = 1 - c
        // Rodrigues' formula, transposed for row vectors.
        m11 = t * ux * ux + c;      m12 = t * ux * uy + s * uz; m13 = t * ux * uz - s * uy
        m21 = t * ux * uy - s * uz; m22 = t * uy * uy + c;      m23 = t * uy * uz + s * ux
        m31 = t * ux * uz + s * uy; m32 = t * uy * uz - s * ux; m33 = t * uz * uz + c
        snapNearZeroRotationTerms()
    }

    /// A perspective projection seen from `eyeDistance` points in front of the z = 0 plane:
    /// the identity with `m34 = -1 / eyeDistance`, as Core Animation code writes it by hand.
    public init(perspectiveDistance eyeDistance: CGFloat) {
        self.init()
        if eyeDistance.isFinite, eyeDistance != 0 { m34 = -1 / eyeDistance }
    }

    /// Rounds sin/cos residue such as `cos(.pi / 2) = 6e-17` to zero, so that quarter turns are
    /// exactly axis-aligned and stay on the compositor's cheapest paths.
    private mutating func snapNearZeroRotationTerms() {
        let tolerance: CGFloat = 1e-15
        func snap(_ v: inout CGFloat) {
            if abs(v) < tolerance { v = 0 }
            if abs(abs(v) - 1) < tolerance { v = v < 0 ? -1 : 1 }
        }
        snap(&m11); snap(&m12); snap(&m13)
        snap(&m21); snap(&m22); snap(&m23)
        snap(&m31); snap(&m32); snap(&m33)
    }

    // MARK: Combining

    /// The transform that applies `self`, then `other` (`CATransform3DConcat(self, other)`).
    public func concatenating(_ other: Transform3D) -> Transform3D {
        let a = rows, b = other.rows
        var r = [[CGFloat]](repeating: [0, 0, 0, 0], count: 4)
        for i in 0..<4 {
            for j in 0..<4 {
                r[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + a[i][3] * b[3][j]
            }
        }
        return Transform3D(rows: r)
    }

    /// `self` preceded by a translation, as `CATransform3DTranslate(self, tx, ty, tz)`.
    public func translatedBy(x tx: CGFloat, y ty: CGFloat, z tz: CGFloat = 0) -> Transform3D {
        Transform3D(translationX: tx, y: ty, z: tz).concatenating(self)
    }

    /// `self` preceded by a scale, as `CATransform3DScale(self, sx, sy, sz)`.
    public func scaledBy(x sx: CGFloat, y sy: CGFloat, z sz: CGFloat = 1) -> Transform3D {
        Transform3D(scaleX: sx, y: sy, z: sz).concatenating(self)
    }

    /// `self` preceded by a rotation, as `CATransform3DRotate(self, angle, x, y, z)`.
    public func rotated(by angle: CGFloat, x: CGFloat, y: CGFloat, z: CGFloat) -> Transform3D {
        Transform3D(rotationAngle: angle, x: x, y: y, z: z).concatenating(self)
    }

    // MARK: Queries

    /// Whether this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// Whether every field is a finite number.
    public var isFinite: Bool { rows.allSatisfy { $0.allSatisfy(\.isFinite) } }

    /// Whether the transform maps the z = 0 plane affinely and keeps it flat: the fields a 2D
    /// affine transform cannot express are those of the identity (`CATransform3DIsAffine`).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 &&
            m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m43 == 0 && m44 == 1
    }

    /// The determinant of the 4x4 matrix.
    public var determinant: CGFloat { Matrix4.determinant(rows) }

    /// The inverse, or nil when the matrix is singular or not finite
    /// (where `CATransform3DInvert` would return its argument unchanged).
    public func inverted() -> Transform3D? {
        guard isFinite, let inverse = Matrix4.inverse(rows) else { return nil }
        return Transform3D(rows: inverse)
    }

    /// Maps a 3D point (w = 1) through the transform; nil where the result has w ≤ `epsilon`
    /// (on or behind the eye plane of a perspective transform).
    public func apply(x: CGFloat, y: CGFloat, z: CGFloat = 0,
                      epsilon: CGFloat = Homography.defaultEpsilon) -> (x: CGFloat, y: CGFloat, z: CGFloat)? {
        let w = x * m14 + y * m24 + z * m34 + m44
        guard w > epsilon else { return nil }
        return ((x * m11 + y * m21 + z * m31 + m41) / w,
                (x * m12 + y * m22 + z * m32 + m42) / w,
                (x * m13 + y * m23 + z * m33 + m43) / w)
    }

    // MARK: Row access

    /// The matrix as four rows of four.
    var rows: [[CGFloat]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    init(rows r: [[CGFloat]]) {
        self.init(m11: r[0][0], m12: r[0][1], m13: r[0][2], m14: r[0][3],
                  m21: r[1][0], m22: r[1][1], m23: r[1][2], m24: r[1][3],
                  m31: r[2][0], m32: r[2][1], m33: r[2][2], m34: r[2][3],
                  m41: r[3][0], m42: r[3][1], m43: r[3][2], m44: r[3][3])
    }
}

extension Transform3D: CustomStringConvertible {
    public var description: String {
        let text = rows.map { row in row.map { String(format: "%.6g", Double($0)) }.joined(separator: " ") }
        return "Transform3D[" + text.joined(separator: "; ") + "]"
    }
}

/// Dense 4x4 helpers shared by inversion and decomposition.
enum Matrix4 {
    static func determinant(_ m: [[CGFloat]]) -> CGFloat {
        // Cofactor expansion along the first row of 3x3 minors.
        func minor(_ row: Int, _ col: Int) -> CGFloat {
            let r = (0..<4).filter { $0 != row }, c = (0..<4).filter { $0 != col }
            let a = m[r[0]][c[0]], b = m[r[0]][c[1]], cc = m[r[0]][c[2]]
            let d = m[r[1]][c[0]], e = m[r[1]][c[1]], f = m[r[1]][c[2]]
            let g = m[r[2]][c[0]], h = m[r[2]][c[1]], i = m[r[2]][c[2]]
            return a * (e * i - f * h) - b * (d * i - f * g) + cc * (d * h - e * g)
        }
        return m[0][0] * minor(0, 0) - m[0][1] * minor(0, 1) + m[0][2] * minor(0, 2) - m[0][3] * minor(0, 3)
    }

    /// Gauss-Jordan elimination with partial pivoting; nil when a pivot is exactly zero or the
    /// result is not finite. (A relative tolerance would call a far translation singular;
    /// rotations snap their quarter turns to exact zeros, so edge-on planes are caught here.)
    static func inverse(_ m: [[CGFloat]]) -> [[CGFloat]]? {
        guard m.joined().allSatisfy(\.isFinite) else { return nil }
        var a = m
        var inv: [[CGFloat]] = (0..<4).map { i in (0..<4).map { $0 == i ? 1 : 0 } }
        for col in 0..<4 {
            guard let pivot = (col..<4).max(by: { abs(a[$0][col]) < abs(a[$1][col]) }),
                  a[pivot][col] != 0 else { return nil }
            a.swapAt(col, pivot); inv.swapAt(col, pivot)
            let p = a[col][col]
            for j in 0..<4 { a[col][j] /= p; inv[col][j] /= p }
            for row in 0..<4 where row != col {
                let f = a[row][col]
                if f == 0 { continue }
                for j in 0..<4 { a[row][j] -= f * a[col][j]; inv[row][j] -= f * inv[col][j] }
            }
        }
        return inv.joined().allSatisfy(\.isFinite) ? inv : nil
    }
}
