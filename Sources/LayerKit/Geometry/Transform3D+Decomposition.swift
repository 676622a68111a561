import Foundation

extension Transform3D {
    /// A transform taken apart into the pieces that interpolate sensibly (the CSS Transforms
    /// Level 2 "unmatrix" decomposition, after Graphics Gems II). A point is scaled, skewed,
    /// rotated, translated and finally put through the perspective.
    public struct Decomposition: Hashable, Sendable {
        /// The translation, applied after the rotation.
        public var translation: (x: CGFloat, y: CGFloat, z: CGFloat)
        /// The scale along each axis, applied first.
        public var scale: (x: CGFloat, y: CGFloat, z: CGFloat)
        /// Shear factors XY, XZ and YZ.
        public var skew: (xy: CGFloat, xz: CGFloat, yz: CGFloat)
        /// The perspective row (m14, m24, m34, m44 of the pure perspective part).
        public var perspective: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat)
        /// The rotation as a unit quaternion (x, y, z, w).
        public var quaternion: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat)

        /// A decomposition from its pieces; the defaults make the identity.
        public init(translation: (x: CGFloat, y: CGFloat, z: CGFloat) = (0, 0, 0),
                    scale: (x: CGFloat, y: CGFloat, z: CGFloat) = (1, 1, 1),
                    skew: (xy: CGFloat, xz: CGFloat, yz: CGFloat) = (0, 0, 0),
                    perspective: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) = (0, 0, 0, 1),
                    quaternion: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) = (0, 0, 0, 1)) {
            self.translation = translation; self.scale = scale; self.skew = skew
            self.perspective = perspective; self.quaternion = quaternion
        }

        private var fields: [CGFloat] {
            [translation.x, translation.y, translation.z, scale.x, scale.y, scale.z,
             skew.xy, skew.xz, skew.yz, perspective.x, perspective.y, perspective.z, perspective.w,
             quaternion.x, quaternion.y, quaternion.z, quaternion.w]
        }

        public static func == (a: Decomposition, b: Decomposition) -> Bool { a.fields == b.fields }
        public func hash(into hasher: inout Hasher) { hasher.combine(fields) }
    }

    /// The decomposition of this transform, or nil when it cannot be taken apart
    /// (singular, not finite, or m44 = 0).
    public func decomposed() -> Decomposition? {
        // The identity (bit for bit: no −0) takes apart into the default pieces, which is what
        // the general path below computes for it; the presentation of an animated part of an
        // untransformed layer ("transform.rotation.z") asks for it twice per frame.
        if unsafeBitCast(flat, to: SIMD16<UInt64>.self) == Self.identityBits { return Decomposition() }
        return generalDecomposition()
    }

    private static let identityBits = unsafeBitCast(Transform3D.identity.flat, to: SIMD16<UInt64>.self)

    /// `decomposed()` without the identity's shortcut (tests compare the two).
    func generalDecomposition() -> Decomposition? {
        guard isFinite, m44 != 0 else { return nil }
        // Normalize so that m44 = 1. (Element (i, j) of the 4x4 is m[4i + j].)
        var m = flat / Double(m44)

        // The upper 3x3 with the perspective column cleared must be invertible; it is also the
        // matrix that solves for the perspective row.
        var perspectiveMatrix = m
        for i in 0..<3 { perspectiveMatrix[4 * i + 3] = 0 }
        perspectiveMatrix[15] = 1
        guard let inversePerspective = Matrix4.inverse(perspectiveMatrix) else { return nil }

        var result = Decomposition()
        if m[3] != 0 || m[7] != 0 || m[11] != 0 {
            // The matrix is perspectiveMatrix · P, where P is the identity with (p, 1) as its
            // last column; so that column of the matrix is perspectiveMatrix · p.
            let rhs = SIMD4(m[3], m[7], m[11], m[15])
            var p = SIMD4<Double>(repeating: 0)
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += inversePerspective[4 * j + k] * rhs[k] }
                p[j] = sum
            }
            result.perspective = (CGFloat(p[0]), CGFloat(p[1]), CGFloat(p[2]), CGFloat(p[3]))
            for i in 0..<3 { m[4 * i + 3] = 0 }
            m[15] = 1
        }

        result.translation = (CGFloat(m[12]), CGFloat(m[13]), CGFloat(m[14]))

        var row = (Vector3(CGFloat(m[0]), CGFloat(m[1]), CGFloat(m[2])), Vector3(CGFloat(m[4]), CGFloat(m[5]), CGFloat(m[6])),
                   Vector3(CGFloat(m[8]), CGFloat(m[9]), CGFloat(m[10])))
        var scale = Vector3(0, 0, 0)
        var skew = Vector3(0, 0, 0)   // xy, xz, yz

        scale.x = row.0.length
        row.0 = row.0 / scale.x
        skew.x = row.0.dot(row.1)
        row.1 = row.1 - row.0 * skew.x
        scale.y = row.1.length
        row.1 = row.1 / scale.y
        skew.x /= scale.y
        skew.y = row.0.dot(row.2)
        row.2 = row.2 - row.0 * skew.y
        skew.z = row.1.dot(row.2)
        row.2 = row.2 - row.1 * skew.z
        scale.z = row.2.length
        row.2 = row.2 / scale.z
        skew.y /= scale.z
        skew.z /= scale.z

        // The rows are now orthonormal; a negative determinant is a reflection, folded into
        // the scale so that what remains is a pure rotation.
        if row.0.dot(row.1.cross(row.2)) < 0 {
            scale = scale * -1
            row = (row.0 * -1, row.1 * -1, row.2 * -1)
        }

        var qx = 0.5 * max(1 + row.0.x - row.1.y - row.2.z, 0).squareRoot()
        var qy = 0.5 * max(1 - row.0.x + row.1.y - row.2.z, 0).squareRoot()
        var qz = 0.5 * max(1 - row.0.x - row.1.y + row.2.z, 0).squareRoot()
        let qw = 0.5 * max(1 + row.0.x + row.1.y + row.2.z, 0).squareRoot()
        if row.2.y > row.1.z { qx = -qx }
        if row.0.z > row.2.x { qy = -qy }
        if row.1.x > row.0.y { qz = -qz }

        result.scale = (scale.x, scale.y, scale.z)
        result.skew = (skew.x, skew.y, skew.z)
        result.quaternion = (qx, qy, qz, qw)
        let finite = scale.x.isFinite && scale.y.isFinite && scale.z.isFinite && skew.x.isFinite && skew.y.isFinite &&
            skew.z.isFinite && qx.isFinite && qy.isFinite && qz.isFinite && qw.isFinite
        return finite ? result : nil
    }

    /// Recomposes a transform from its decomposition.
    public init(_ d: Decomposition) {
        var perspective = Transform3D.identity
        perspective.m14 = d.perspective.x; perspective.m24 = d.perspective.y
        perspective.m34 = d.perspective.z; perspective.m44 = d.perspective.w
        let translationThenPerspective = Transform3D(translationX: d.translation.x, y: d.translation.y,
                                                     z: d.translation.z).concatenating(perspective)

        let (x, y, z, w) = d.quaternion
        // The quaternion's rotation matrix, transposed for row vectors.
        let rotation = Transform3D(
            m11: 1 - 2 * (y * y + z * z), m12: 2 * (x * y + z * w), m13: 2 * (x * z - y * w), m14: 0,
            m21: 2 * (x * y - z * w), m22: 1 - 2 * (x * x + z * z), m23: 2 * (y * z + x * w), m24: 0,
            m31: 2 * (x * z + y * w), m32: 2 * (y * z - x * w), m33: 1 - 2 * (x * x + y * y), m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        var result = rotation.concatenating(translationThenPerspective)

        var shear = Transform3D.identity
        if d.skew.yz != 0 {
            shear.m32 = d.skew.yz
            result = shear.concatenating(result)
        }
        if d.skew.xz != 0 {
            shear = .identity
            shear.m31 = d.skew.xz
            result = shear.concatenating(result)
        }
        if d.skew.xy != 0 {
            shear = .identity
            shear.m21 = d.skew.xy
            result = shear.concatenating(result)
        }
        self = Transform3D(scaleX: d.scale.x, y: d.scale.y, z: d.scale.z).concatenating(result)
    }

    /// The transform a fraction of the way from `self` to `other`.
    ///
    /// Both are decomposed; translation, scale, skew and perspective interpolate linearly and
    /// rotation by spherical interpolation of the quaternions along the shorter arc, so a
    /// rotating layer keeps its size instead of shrinking through the middle as a matrix blend
    /// would. When either transform cannot be decomposed the result switches from `self` to
    /// `other` halfway, as CSS prescribes.
    public func interpolated(to other: Transform3D, fraction t: CGFloat) -> Transform3D {
        guard let a = decomposed(), let b = other.decomposed() else { return t < 0.5 ? self : other }
        func lerp(_ u: CGFloat, _ v: CGFloat) -> CGFloat { u + (v - u) * t }
        var d = Decomposition()
        d.translation = (lerp(a.translation.x, b.translation.x), lerp(a.translation.y, b.translation.y),
                         lerp(a.translation.z, b.translation.z))
        d.scale = (lerp(a.scale.x, b.scale.x), lerp(a.scale.y, b.scale.y), lerp(a.scale.z, b.scale.z))
        d.skew = (lerp(a.skew.xy, b.skew.xy), lerp(a.skew.xz, b.skew.xz), lerp(a.skew.yz, b.skew.yz))
        d.perspective = (lerp(a.perspective.x, b.perspective.x), lerp(a.perspective.y, b.perspective.y),
                         lerp(a.perspective.z, b.perspective.z), lerp(a.perspective.w, b.perspective.w))
        d.quaternion = Self.slerp(a.quaternion, b.quaternion, t)
        return Transform3D(d)
    }

    static func slerp(_ a: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat),
                      _ b: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat),
                      _ t: CGFloat) -> (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
        var b = b
        var dot = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
        // q and -q are the same rotation: pick the sign that takes the shorter way round.
        if dot < 0 {
            b = (-b.x, -b.y, -b.z, -b.w)
            dot = -dot
        }
        dot = min(dot, 1)
        if dot > 1 - 1e-12 { return a }
        let theta = acos(dot)
        let sinTheta = (1 - dot * dot).squareRoot()
        let wa = sin((1 - t) * theta) / sinTheta
        let wb = sin(t * theta) / sinTheta
        return (a.x * wa + b.x * wb, a.y * wa + b.y * wb, a.z * wa + b.z * wb, a.w * wa + b.w * wb)
    }
}

/// A small 3-vector for the decomposition's row arithmetic.
struct Vector3 {
    var x: CGFloat, y: CGFloat, z: CGFloat
    init(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat) { self.x = x; self.y = y; self.z = z }
    var length: CGFloat { (x * x + y * y + z * z).squareRoot() }
    func dot(_ o: Vector3) -> CGFloat { x * o.x + y * o.y + z * o.z }
    func cross(_ o: Vector3) -> Vector3 { Vector3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x) }
    static func * (v: Vector3, s: CGFloat) -> Vector3 { Vector3(v.x * s, v.y * s, v.z * s) }
    static func / (v: Vector3, s: CGFloat) -> Vector3 { Vector3(v.x / s, v.y / s, v.z / s) }
    static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
}
