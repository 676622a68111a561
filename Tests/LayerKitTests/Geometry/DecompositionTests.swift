import Foundation
import Testing
@testable import LayerKit

@Suite struct DecompositionTests {
    static let samples: [Transform3D] = [
        .identity,
        Transform3D(translationX: 10, y: -20, z: 30),
        Transform3D(scaleX: 2, y: -3, z: 0.5),
        Transform3D(rotationAngle: 2.5, x: 1, y: -2, z: 0.5),
        Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0),
        Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1).concatenating(Transform3D(perspectiveDistance: 500)),
        {
            var skew = Transform3D.identity
            skew.m21 = 0.5; skew.m31 = -0.25; skew.m32 = 0.75
            return skew.concatenating(Transform3D(rotationAngle: 1.1, x: 1, y: 1, z: 0))
                .concatenating(Transform3D(scaleX: 1.5, y: 0.8, z: 2))
                .concatenating(Transform3D(translationX: 3, y: 4, z: 5))
        }(),
        {
            var t = Transform3D(rotationAngle: 0.9, x: 1, y: 0, z: 0)
                .concatenating(Transform3D(translationX: 120, y: 80))
            t.m14 = 0.001; t.m24 = -0.002; t.m34 = -1.0 / 300
            return t
        }(),
    ]

    @Test(arguments: samples)
    func decompositionRecomposesToTheSameMatrix(_ t: Transform3D) throws {
        let d = try #require(t.decomposed())
        #expect(close(Transform3D(d), t, 1e-9), "recomposed \(Transform3D(d)) from \(t)")
    }

    @Test func singularTransformDoesNotDecompose() {
        #expect(Transform3D(scaleX: 0, y: 1).decomposed() == nil)
        var t = Transform3D.identity
        t.m44 = 0
        #expect(t.decomposed() == nil)
    }

    @Test func rotationDecomposesToQuaternionOfHalfAngle() throws {
        let d = try #require(Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1).decomposed())
        #expect(close(abs(d.quaternion.z), sin(.pi / 4)) && close(d.quaternion.w, cos(.pi / 4)))
        #expect(close(d.scale.x, 1) && close(d.scale.y, 1) && close(d.scale.z, 1))
    }

    @Test func interpolationEndsAtBothTransforms() {
        let a = Self.samples[6], b = Self.samples[7]
        #expect(close(a.interpolated(to: b, fraction: 0), a, 1e-9))
        #expect(close(a.interpolated(to: b, fraction: 1), b, 1e-9))
    }

    @Test func rotationInterpolatesAsARotationNotAMatrixBlend() {
        // Halfway from 0° to 90° about z is 45°, and the layer keeps its size (a matrix blend
        // would give cos = 0.5 on the diagonal, shrinking it to 71%).
        let mid = Transform3D.identity.interpolated(to: Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1),
                                                    fraction: 0.5)
        #expect(close(mid, Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1), 1e-12))
    }

    @Test func rotationTakesTheShorterArc() {
        // From 350° to 10° the short way passes through 0°, not 180°.
        let a = Transform3D(rotationAngle: 350 * .pi / 180, x: 0, y: 0, z: 1)
        let b = Transform3D(rotationAngle: 10 * .pi / 180, x: 0, y: 0, z: 1)
        #expect(close(a.interpolated(to: b, fraction: 0.5), .identity, 1e-12))
    }

    @Test func translationAndScaleInterpolateLinearly() {
        let a = Transform3D(scaleX: 1, y: 1).concatenating(Transform3D(translationX: 0, y: 0))
        let b = Transform3D(scaleX: 3, y: 5).concatenating(Transform3D(translationX: 100, y: -40, z: 8))
        let mid = a.interpolated(to: b, fraction: 0.25)
        let expected = Transform3D(scaleX: 1.5, y: 2).concatenating(Transform3D(translationX: 25, y: -10, z: 2))
        #expect(close(mid, expected, 1e-12))
    }

    @Test func undecomposableTransformsSwitchHalfway() {
        let a = Transform3D(scaleX: 0, y: 1), b = Transform3D(translationX: 5, y: 5)
        #expect(a.interpolated(to: b, fraction: 0.49) == a)
        #expect(a.interpolated(to: b, fraction: 0.5) == b)
    }

    /// The identity's shortcut gives what the general path computes, bit for bit; a transform
    /// that equals the identity only numerically (a −0) takes the general path.
    @Test func theIdentitysShortcutIsTheGeneralResult() throws {
        func bits(_ d: Transform3D.Decomposition) -> [UInt64] {
            [d.translation.x, d.translation.y, d.translation.z, d.scale.x, d.scale.y, d.scale.z, d.skew.xy, d.skew.xz,
             d.skew.yz, d.perspective.x, d.perspective.y, d.perspective.z, d.perspective.w, d.quaternion.x,
             d.quaternion.y, d.quaternion.z, d.quaternion.w].map { Double($0).bitPattern }
        }
        let general = try #require(Transform3D.identity.generalDecomposition())
        #expect(bits(try #require(Transform3D.identity.decomposed())) == bits(general))
        var negativeZero = Transform3D.identity
        negativeZero.m41 = -0.0
        #expect(bits(try #require(negativeZero.decomposed())) == bits(try #require(negativeZero.generalDecomposition())))
        #expect(try #require(negativeZero.decomposed()).translation.x.sign == .minus)
    }
}
