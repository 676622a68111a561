import Foundation
import Testing
@testable import LayerKit

@Suite struct Transform3DTests {
    // Published values. DOMMatrix and CSS `matrix3d()` list m11, m12, m13, m14, m21, … — the same
    // layout and row-vector convention as Core Animation, so they compare field for field.

    @Test func rotationAboutZMatchesCSSTypedOMRotate10deg() {
        // WPT css-typed-om/stylevalue-subclasses/cssRotate.tentative.html:
        // rotate(10deg) asMatrix = DOMMatrixReadOnly([0.9848077, 0.1736481, -0.1736481, 0.9848077, 0, 0]).
        let t = Transform3D(rotationAngle: 10 * .pi / 180, x: 0, y: 0, z: 1)
        #expect(close(t.m11, 0.9848077, 1e-7) && close(t.m12, 0.1736481, 1e-7))
        #expect(close(t.m21, -0.1736481, 1e-7) && close(t.m22, 0.9848077, 1e-7))
        #expect(t.isAffine)
    }

    @Test func rotationAboutArbitraryAxisMatchesPublishedCSSRotationMatrix() {
        // css-typed-om polyfill (Google), test/js/css-rotation.js: rotate3d(1, 0.5, -2, 0.0833333turn).
        let angle = 0.0833333 * 2 * CGFloat.pi
        let expected = matrix3d([0.89154437, -0.42367629, -0.16014688, 0,
                                 0.44919526, 0.872405146, 0.19269891, 0,
                                 0.05807100, -0.243736860, 0.96810128, 0,
                                 0, 0, 0, 1])
        #expect(close(Transform3D(rotationAngle: angle, x: 1, y: 0.5, z: -2), expected, 1e-6))
    }

    @Test func halfTurnAboutYMatchesWPTComputedValue() {
        // WPT css/css-transforms/parsing: rotate3d(0, 1, 0, 180deg) computes to
        // matrix3d(-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1).
        let t = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
        #expect(t == matrix3d([-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]))
    }

    @Test func zeroAxisGivesIdentityAsCoreAnimationDocuments() {
        // CATransform3DMakeRotation: "If the vector has zero length the behavior is undefined"
        // in old headers; CSS and WPT define rotate3d(0, 0, 0, a) as the identity, as we do.
        #expect(Transform3D(rotationAngle: .pi, x: 0, y: 0, z: 0).isIdentity)
        #expect(Transform3D(rotationAngle: .nan, x: 0, y: 0, z: 1).isIdentity)
    }

    @Test func positiveZRotationTurnsClockwiseOnYDownScreen() {
        // The iOS clock code: secondsAngle = s * 6°; at 15 s the hand (pointing up, -y) points right (+x).
        let t = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let tip = t.apply(x: 0, y: -90)!
        #expect(close(tip.x, 90) && close(tip.y, 0))
        // Quarter turns are exact, so they stay on the compositor's cheap paths.
        #expect(t.m11 == 0 && t.m12 == 1 && t.m21 == -1 && t.m22 == 0)
    }

    @Test func perspectiveSetsM34AsCSSAndCoreAnimation() {
        // CSS Transforms 2 §"perspective()": identity with m34 = -1/d.
        let p = Transform3D(perspectiveDistance: 500)
        #expect(p.m34 == -1.0 / 500)
        #expect(!p.isAffine)
        // A point 100 points nearer the eye is magnified by d / (d - z).
        let near = p.apply(x: 100, y: 0, z: 100)!
        #expect(close(near.x, 100 * 500 / 400))
    }

    @Test func concatenationAppliesLeftOperandFirst() {
        let scale = Transform3D(scaleX: 2, y: 3)
        let move = Transform3D(translationX: 10, y: 20)
        let p = scale.concatenating(move).apply(x: 1, y: 1)!
        #expect(close(p.x, 12) && close(p.y, 23))
        let q = move.concatenating(scale).apply(x: 1, y: 1)!
        #expect(close(q.x, 22) && close(q.y, 63))
        // CATransform3DTranslate(t, …) translates first, then applies t.
        #expect(scale.translatedBy(x: 10, y: 20) == move.concatenating(scale))
        #expect(Transform3DConcat(scale, move) == scale.concatenating(move))
    }

    @Test func inverseUndoesTransform() throws {
        let t = Transform3D(rotationAngle: 0.7, x: 1, y: 2, z: 3)
            .concatenating(Transform3D(scaleX: 2, y: 0.5, z: 3))
            .concatenating(Transform3D(perspectiveDistance: 800))
            .concatenating(Transform3D(translationX: 5, y: -7, z: 11))
        let inverse = try #require(t.inverted())
        #expect(close(t.concatenating(inverse), .identity, 1e-12))
        #expect(close(inverse.concatenating(t), .identity, 1e-12))
    }

    @Test func singularAndNonFiniteTransformsHaveNoInverse() {
        #expect(Transform3D(scaleX: 1, y: 0).inverted() == nil)
        var t = Transform3D.identity
        t.m41 = .infinity
        #expect(t.inverted() == nil)
        t = .identity
        t.m22 = .nan
        #expect(t.inverted() == nil)
        // CATransform3DInvert returns a singular argument unchanged.
        let singular = Transform3D(scaleX: 0, y: 1)
        #expect(Transform3DInvert(singular) == singular)
    }

    @Test func tinyButRegularMatrixStillInverts() throws {
        let t = Transform3D(scaleX: 1e-8, y: 1e-8, z: 1e-8)
        let inverse = try #require(t.inverted())
        #expect(close(inverse.m11, 1e8, 1e-3))
    }

    @Test func affineRoundTripsThroughCGAffineTransform() {
        let affine = CGAffineTransform(rotationAngle: 0.3).scaledBy(x: 2, y: 3).translatedBy(x: 5, y: 6)
        let t = Transform3D(affine)
        #expect(t.isAffine)
        #expect(t.affineTransform == affine)
        let p = CGPoint(x: 3, y: 4)
        #expect(close(t.apply(x: p.x, y: p.y).map { CGPoint(x: $0.x, y: $0.y) }, p.applying(affine)))
        #expect(!Transform3D(rotationAngle: 0.3, x: 1, y: 0, z: 0).isAffine)
        #expect(!Transform3D(translationX: 0, y: 0, z: 1).isAffine)
    }

    @Test func identityQueries() {
        #expect(Transform3D().isIdentity)
        #expect(Transform3DIsIdentity(Transform3DIdentity))
        #expect(!Transform3D(translationX: 1, y: 0).isIdentity)
        #expect(Transform3DMakeRotation(.pi / 3, 0, 0, 1) == Transform3D(rotationAngle: .pi / 3, x: 0, y: 0, z: 1))
    }
}
