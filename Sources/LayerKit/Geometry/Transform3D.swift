import Foundation

/// A 4x4 homogeneous transform with Core Animation's layout and conventions.
///
/// Points are row vectors multiplied on the left, `p' = p · M`, so the translation sits in
/// `m41…m43` and `a.concatenating(b)` applies `a` first, then `b` (as `CATransform3DConcat`).
/// Coordinates are y-down: a positive rotation about z turns clockwise on screen.
/// Perspective is set as in Core Animation, `m34 = -1 / eyeDistance`.
public struct Transform3D: Hashable, Sendable {
    /// The first row: where the x axis goes (and, in `m14`, its share of the perspective w).
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    /// The second row: where the y axis goes (`m24`: its share of w).
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    /// The third row: where the z axis goes; `m34 = -1 / d` is the perspective of an eye at `d`.
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    /// The fourth row: the translation (`m41`, `m42`, `m43`) and w's constant term.
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
        // Spelled out (row i of self times column j of other, terms in column order): frames
        // concatenate a few of these per layer, and arrays would allocate each time.
        let b = other
        return Transform3D(
            m11: m11 * b.m11 + m12 * b.m21 + m13 * b.m31 + m14 * b.m41,
            m12: m11 * b.m12 + m12 * b.m22 + m13 * b.m32 + m14 * b.m42,
            m13: m11 * b.m13 + m12 * b.m23 + m13 * b.m33 + m14 * b.m43,
            m14: m11 * b.m14 + m12 * b.m24 + m13 * b.m34 + m14 * b.m44,
            m21: m21 * b.m11 + m22 * b.m21 + m23 * b.m31 + m24 * b.m41,
            m22: m21 * b.m12 + m22 * b.m22 + m23 * b.m32 + m24 * b.m42,
            m23: m21 * b.m13 + m22 * b.m23 + m23 * b.m33 + m24 * b.m43,
            m24: m21 * b.m14 + m22 * b.m24 + m23 * b.m34 + m24 * b.m44,
            m31: m31 * b.m11 + m32 * b.m21 + m33 * b.m31 + m34 * b.m41,
            m32: m31 * b.m12 + m32 * b.m22 + m33 * b.m32 + m34 * b.m42,
            m33: m31 * b.m13 + m32 * b.m23 + m33 * b.m33 + m34 * b.m43,
            m34: m31 * b.m14 + m32 * b.m24 + m33 * b.m34 + m34 * b.m44,
            m41: m41 * b.m11 + m42 * b.m21 + m43 * b.m31 + m44 * b.m41,
            m42: m41 * b.m12 + m42 * b.m22 + m43 * b.m32 + m44 * b.m42,
            m43: m41 * b.m13 + m42 * b.m23 + m43 * b.m33 + m44 * b.m43,
            m44: m41 * b.m14 + m42 * b.m24 + m43 * b.m34 + m44 * b.m44)
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
    public var isFinite: Bool {
        m11.isFinite && m12.isFinite && m13.isFinite && m14.isFinite && m21.isFinite && m22.isFinite &&
            m23.isFinite && m24.isFinite && m31.isFinite && m32.isFinite && m33.isFinite && m34.isFinite &&
            m41.isFinite && m42.isFinite && m43.isFinite && m44.isFinite
    }

    /// Whether the transform maps the z = 0 plane affinely and keeps it flat: the fields a 2D
    /// affine transform cannot express are those of the identity (`CATransform3DIsAffine`).
    public var isAffine: Bool {
        m13 == 0 && m14 == 0 && m23 == 0 && m24 == 0 &&
            m31 == 0 && m32 == 0 && m33 == 1 && m34 == 0 && m43 == 0 && m44 == 1
    }

    /// The determinant of the 4x4 matrix.
    public var determinant: CGFloat { CGFloat(Matrix4.determinant(flat)) }

    /// The inverse, or nil when the matrix is singular or not finite
    /// (where `CATransform3DInvert` would return its argument unchanged).
    public func inverted() -> Transform3D? {
        guard isFinite, let inverse = Matrix4.inverse(flat) else { return nil }
        return Transform3D(flat: inverse)
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

    /// The sixteen fields row by row, in a value that needs no allocation (for the numerics).
    var flat: SIMD16<Double> {
        SIMD16(Double(m11), Double(m12), Double(m13), Double(m14), Double(m21), Double(m22), Double(m23), Double(m24),
               Double(m31), Double(m32), Double(m33), Double(m34), Double(m41), Double(m42), Double(m43), Double(m44))
    }

    init(flat f: SIMD16<Double>) {
        self.init(m11: CGFloat(f[0]), m12: CGFloat(f[1]), m13: CGFloat(f[2]), m14: CGFloat(f[3]),
                  m21: CGFloat(f[4]), m22: CGFloat(f[5]), m23: CGFloat(f[6]), m24: CGFloat(f[7]),
                  m31: CGFloat(f[8]), m32: CGFloat(f[9]), m33: CGFloat(f[10]), m34: CGFloat(f[11]),
                  m41: CGFloat(f[12]), m42: CGFloat(f[13]), m43: CGFloat(f[14]), m44: CGFloat(f[15]))
    }
}

extension Transform3D: CustomStringConvertible {
    public var description: String {
        let text = rows.map { row in row.map { String(format: "%.6g", Double($0)) }.joined(separator: " ") }
        return "Transform3D[" + text.joined(separator: "; ") + "]"
    }
}

/// Dense 4x4 helpers shared by inversion and decomposition, on sixteen fields row by row
/// (element (i, j) at 4i + j) held in a SIMD value, so that they never allocate.
enum Matrix4 {
    static func determinant(_ m: SIMD16<Double>) -> Double {
        // Cofactor expansion along the first row of 3x3 minors.
        func minor(_ row: Int, _ col: Int) -> Double {
            let r0 = row == 0 ? 1 : 0, r1 = row <= 1 ? 2 : 1, r2 = row <= 2 ? 3 : 2
            let c0 = col == 0 ? 1 : 0, c1 = col <= 1 ? 2 : 1, c2 = col <= 2 ? 3 : 2
            let a = m[4 * r0 + c0], b = m[4 * r0 + c1], cc = m[4 * r0 + c2]
            let d = m[4 * r1 + c0], e = m[4 * r1 + c1], f = m[4 * r1 + c2]
            let g = m[4 * r2 + c0], h = m[4 * r2 + c1], i = m[4 * r2 + c2]
            return a * (e * i - f * h) - b * (d * i - f * g) + cc * (d * h - e * g)
        }
        return m[0] * minor(0, 0) - m[1] * minor(0, 1) + m[2] * minor(0, 2) - m[3] * minor(0, 3)
    }

    /// Gauss-Jordan elimination with partial pivoting; nil when a pivot is exactly zero or the
    /// result is not finite. (A relative tolerance would call a far translation singular;
    /// rotations snap their quarter turns to exact zeros, so edge-on planes are caught here.)
    static func inverse(_ m: SIMD16<Double>) -> SIMD16<Double>? {
        for k in 0..<16 where !m[k].isFinite { return nil }
        var a = m
        var inv = SIMD16<Double>(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        for col in 0..<4 {
            // The first row holding the largest magnitude in this column, from `col` down.
            var pivot = col
            for row in (col + 1)..<4 where abs(a[4 * row + col]) > abs(a[4 * pivot + col]) { pivot = row }
            guard a[4 * pivot + col] != 0 else { return nil }
            if pivot != col {
                for j in 0..<4 {
                    a.swapAt(4 * col + j, 4 * pivot + j)
                    inv.swapAt(4 * col + j, 4 * pivot + j)
                }
            }
            let p = a[4 * col + col]
            for j in 0..<4 { a[4 * col + j] /= p; inv[4 * col + j] /= p }
            for row in 0..<4 where row != col {
                let f = a[4 * row + col]
                if f == 0 { continue }
                for j in 0..<4 {
                    a[4 * row + j] -= f * a[4 * col + j]
                    inv[4 * row + j] -= f * inv[4 * col + j]
                }
            }
        }
        for k in 0..<16 where !inv[k].isFinite { return nil }
        return inv
    }
}

extension SIMD16 {
    fileprivate mutating func swapAt(_ i: Int, _ j: Int) {
        let t = self[i]
        self[i] = self[j]
        self[j] = t
    }
}
