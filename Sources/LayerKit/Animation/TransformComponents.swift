import Foundation

/// A transform split into the components Core Animation's transform key paths name:
/// translation, scale, rotation as Euler angles (about x, then y, then z), plus the skew and
/// perspective that are kept as they are.
struct TransformComponents {
    enum Field: Equatable {
        case rotationX, rotationY, rotationZ, scale, scaleX, scaleY, scaleZ
        case translation, translationX, translationY, translationZ

        /// Core Animation's names of the fields, as they follow the transform's own key path
        /// ("transform.rotation.z"); "rotation" alone is the rotation about z.
        static let names: [(name: String, field: Field)] = [
            ("rotation", .rotationZ), ("rotation.x", .rotationX), ("rotation.y", .rotationY), ("rotation.z", .rotationZ),
            ("scale", .scale), ("scale.x", .scaleX), ("scale.y", .scaleY), ("scale.z", .scaleZ),
            ("translation", .translation), ("translation.x", .translationX), ("translation.y", .translationY),
            ("translation.z", .translationZ),
        ]

        init?(keyPath: String) {
            guard let match = Self.names.first(where: { $0.name == keyPath }) else { return nil }
            self = match.field
        }

        var kind: AnimatableValue.Kind { self == .translation ? .size : .scalar }
    }

    var decomposition: Transform3D.Decomposition
    var euler: (x: CGFloat, y: CGFloat, z: CGFloat)

    init(_ t: Transform3D) {
        decomposition = t.decomposed() ?? Transform3D.Decomposition(scale: (0, 0, 0))
        euler = Self.eulerAngles(of: decomposition.quaternion)
    }

    func value(of field: Field) -> AnimatableValue {
        let d = decomposition
        switch field {
        case .rotationX: return .scalar(Double(euler.x))
        case .rotationY: return .scalar(Double(euler.y))
        case .rotationZ: return .scalar(Double(euler.z))
        case .scale: return .scalar(Double(d.scale.x + d.scale.y + d.scale.z) / 3)
        case .scaleX: return .scalar(Double(d.scale.x))
        case .scaleY: return .scalar(Double(d.scale.y))
        case .scaleZ: return .scalar(Double(d.scale.z))
        case .translation: return .size(CGSize(width: d.translation.x, height: d.translation.y))
        case .translationX: return .scalar(Double(d.translation.x))
        case .translationY: return .scalar(Double(d.translation.y))
        case .translationZ: return .scalar(Double(d.translation.z))
        }
    }

    mutating func set(_ field: Field, to value: AnimatableValue) {
        if field == .translation {
            if case let .size(s) = value { decomposition.translation.x = s.width; decomposition.translation.y = s.height }
            return
        }
        guard let raw = value.scalarValue else { return }
        let v = CGFloat(raw)
        switch field {
        case .rotationX: euler.x = v
        case .rotationY: euler.y = v
        case .rotationZ: euler.z = v
        case .scale: decomposition.scale = (v, v, v)
        case .scaleX: decomposition.scale.x = v
        case .scaleY: decomposition.scale.y = v
        case .scaleZ: decomposition.scale.z = v
        case .translationX: decomposition.translation.x = v
        case .translationY: decomposition.translation.y = v
        case .translationZ: decomposition.translation.z = v
        case .translation: break
        }
    }

    /// The recomposed transform. The rotation is built from the Euler angles directly, so an
    /// angle of 2π is exactly a full turn and 3π/2 stays 3π/2, not −π/2.
    var transform: Transform3D {
        var d = decomposition
        d.quaternion = (0, 0, 0, 1)
        let rotation = Transform3D(rotationAngle: euler.x, x: 1, y: 0, z: 0)
            .concatenating(Transform3D(rotationAngle: euler.y, x: 0, y: 1, z: 0))
            .concatenating(Transform3D(rotationAngle: euler.z, x: 0, y: 0, z: 1))
        // The decomposition recomposes as scale · skew · rotation · translation · perspective;
        // put the rotation in its place.
        var s = d
        s.translation = (0, 0, 0)
        s.perspective = (0, 0, 0, 1)
        let scaleSkew = Transform3D(s)
        var tp = Transform3D.Decomposition()
        tp.translation = d.translation
        tp.perspective = d.perspective
        return scaleSkew.concatenating(rotation).concatenating(Transform3D(tp))
    }

    /// Euler angles of a rotation R = Rx · Ry · Rz (row vectors: x first).
    static func eulerAngles(of q: (x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat)) -> (x: CGFloat, y: CGFloat, z: CGFloat) {
        let m = Transform3D(Transform3D.Decomposition(quaternion: q))
        let sinY = -m.m13
        if abs(sinY) < 1 - 1e-12 {
            return (atan2(m.m23, m.m33), asin(sinY), atan2(m.m12, m.m11))
        }
        // Gimbal lock: the x and z rotations act about the same axis; put it all in z.
        return (0, sinY > 0 ? .pi / 2 : -.pi / 2, atan2(-m.m21, m.m22))
    }
}
