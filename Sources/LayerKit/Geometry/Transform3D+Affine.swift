import Foundation

extension Transform3D {
    /// The 3D form of a 2D affine transform (`CATransform3DMakeAffineTransform`).
    public init(_ affine: CGAffineTransform) {
        self.init()
        m11 = affine.a; m12 = affine.b
        m21 = affine.c; m22 = affine.d
        m41 = affine.tx; m42 = affine.ty
    }

    /// The 2D affine part (`CATransform3DGetAffineTransform`): exact when `isAffine`,
    /// otherwise the fields that act within the z = 0 plane, dropping depth and perspective.
    public var affineTransform: CGAffineTransform {
        CGAffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m41, ty: m42)
    }
}

// Core Animation's C-style functions, without the `CA` prefix, so that ported code such as
// `layer.transform = CATransform3DMakeRotation(a, 0, 0, 1)` changes by two letters.

/// The identity transform (`CATransform3DIdentity`).
public let Transform3DIdentity = Transform3D.identity

/// Whether `t` is the identity (`CATransform3DIsIdentity`).
public func Transform3DIsIdentity(_ t: Transform3D) -> Bool { t.isIdentity }

/// Whether two transforms are equal (`CATransform3DEqualToTransform`).
public func Transform3DEqualToTransform(_ a: Transform3D, _ b: Transform3D) -> Bool { a == b }

/// A translation (`CATransform3DMakeTranslation`).
public func Transform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> Transform3D {
    Transform3D(translationX: tx, y: ty, z: tz)
}

/// A scale (`CATransform3DMakeScale`).
public func Transform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> Transform3D {
    Transform3D(scaleX: sx, y: sy, z: sz)
}

/// A rotation about an axis (`CATransform3DMakeRotation`).
public func Transform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
    Transform3D(rotationAngle: angle, x: x, y: y, z: z)
}

/// `t` preceded by a translation (`CATransform3DTranslate`).
public func Transform3DTranslate(_ t: Transform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> Transform3D {
    t.translatedBy(x: tx, y: ty, z: tz)
}

/// `t` preceded by a scale (`CATransform3DScale`).
public func Transform3DScale(_ t: Transform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> Transform3D {
    t.scaledBy(x: sx, y: sy, z: sz)
}

/// `t` preceded by a rotation (`CATransform3DRotate`).
public func Transform3DRotate(_ t: Transform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> Transform3D {
    t.rotated(by: angle, x: x, y: y, z: z)
}

/// `a` then `b` (`CATransform3DConcat`).
public func Transform3DConcat(_ a: Transform3D, _ b: Transform3D) -> Transform3D { a.concatenating(b) }

/// The inverse, or `t` unchanged when it is singular, as `CATransform3DInvert` does.
public func Transform3DInvert(_ t: Transform3D) -> Transform3D { t.inverted() ?? t }

/// The 3D form of an affine transform (`CATransform3DMakeAffineTransform`).
public func Transform3DMakeAffineTransform(_ m: CGAffineTransform) -> Transform3D { Transform3D(m) }

/// Whether `t` is a 2D affine transform (`CATransform3DIsAffine`).
public func Transform3DIsAffine(_ t: Transform3D) -> Bool { t.isAffine }

/// The affine part of `t` (`CATransform3DGetAffineTransform`).
public func Transform3DGetAffineTransform(_ t: Transform3D) -> CGAffineTransform { t.affineTransform }
