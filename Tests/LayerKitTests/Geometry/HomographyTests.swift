import Foundation
import Testing
@testable import LayerKit

@Suite struct HomographyTests {
    @Test func planeHomographyAgreesWithTheFullTransformOnTheZZeroPlane() {
        let t = Transform3D(rotationAngle: 0.6, x: 1, y: 1, z: 0)
            .concatenating(Transform3D(translationX: 40, y: 30, z: -20))
            .concatenating(Transform3D(perspectiveDistance: 400))
        let h = Homography(t)
        for p in [CGPoint(x: 0, y: 0), CGPoint(x: 13, y: -7), CGPoint(x: -50, y: 25)] {
            let full = t.apply(x: p.x, y: p.y)!
            #expect(close(h.apply(to: p), CGPoint(x: full.x, y: full.y), 1e-9))
        }
    }

    @Test func perspectiveMakesTheNearEdgeWiderByTheMatrixRatio() {
        // A 100x100 plane tilted 60° about x, seen from d = 500: the edge tilted towards the eye
        // (z = +50·sin 60°) is magnified by d / (d − z), the far edge by d / (d + z).
        let d: CGFloat = 500, angle: CGFloat = .pi / 3
        let t = Transform3D(translationX: -50, y: -50)
            .concatenating(Transform3D(rotationAngle: angle, x: 1, y: 0, z: 0))
            .concatenating(Transform3D(perspectiveDistance: d))
        let quad = Homography(t).projectedPolygon(of: CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(quad.count == 4)
        let topWidth = quad[1].x - quad[0].x, bottomWidth = quad[2].x - quad[3].x
        let z = 50 * sin(angle)
        // Positive rotation about x lifts +y towards the eye: the bottom edge is nearer.
        #expect(close(bottomWidth, 100 * d / (d - z), 1e-9))
        #expect(close(topWidth, 100 * d / (d + z), 1e-9))
    }

    @Test func quadCrossingTheEyePlaneIsClippedNotMirrored() {
        // Tilted 80° and seen from only 60 points: the near half passes behind the eye.
        let t = Transform3D(translationX: -100, y: -100)
            .concatenating(Transform3D(rotationAngle: 80 * .pi / 180, x: 1, y: 0, z: 0))
            .concatenating(Transform3D(perspectiveDistance: 60))
        let h = Homography(t)
        let polygon = h.projectedPolygon(of: CGRect(x: 0, y: 0, width: 200, height: 200))
        #expect(polygon.count == 4)   // two corners in front, two cut points
        // Every output point comes from a source point with w > 0; the cut points lie far away
        // (w = ε) but remain finite. Dividing the corners behind the eye by their negative w
        // would put them above the top edge, mirrored; after the cut nothing lies there.
        #expect(polygon.allSatisfy { $0.x.isFinite && $0.y.isFinite })
        let inFront = [CGPoint(x: 0, y: 0), CGPoint(x: 200, y: 0)].map { h.apply(to: $0)! }
        #expect(polygon.contains { close($0, inFront[0]) } && polygon.contains { close($0, inFront[1]) })
        #expect(polygon.allSatisfy { $0.y >= inFront[0].y - 1e-9 })
    }

    @Test func quadEntirelyBehindTheEyeProjectsToNothing() {
        let t = Transform3D(translationX: 0, y: 0, z: 600).concatenating(Transform3D(perspectiveDistance: 500))
        let h = Homography(t)
        #expect(h.projectedPolygon(of: CGRect(x: 0, y: 0, width: 10, height: 10)).isEmpty)
        #expect(h.projectedBounds(of: CGRect(x: 0, y: 0, width: 10, height: 10)) == nil)
        #expect(h.apply(to: .zero) == nil)
    }

    @Test func farTranslationStillInverts() throws {
        let inverse = try #require(Homography(translationX: 1e12, y: 0.5).inverted())
        #expect(inverse.m31 == -1e12 && inverse.m32 == -0.5)
        // Whole-pixel offsets beyond 32 bits cannot be pixman offsets; they take the general path.
        #expect(Homography(translationX: 1e12, y: 0).kind == .affine)
        #expect(Homography(translationX: 2e9, y: 0).kind == .integerTranslation(x: 2_000_000_000, y: 0))
    }

    @Test func nonFiniteInputProjectsToNothing() {
        #expect(Homography.identity.projectedPolygon(of: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1)).isEmpty)
        var h = Homography.identity
        h.m31 = .infinity
        #expect(h.projectedPolygon(of: CGRect(x: 0, y: 0, width: 1, height: 1)).isEmpty)
    }

    @Test func kindPicksTheCheapestExactPath() {
        #expect(Homography.identity.kind == .integerTranslation(x: 0, y: 0))
        #expect(Homography(translationX: 3, y: -4).kind == .integerTranslation(x: 3, y: -4))
        // 0.1 · 30 is 3.0000000000000004: still a whole-pixel move.
        #expect(Homography(translationX: 0.1 * 30, y: 0).kind == .integerTranslation(x: 3, y: 0))
        #expect(Homography(translationX: 3.5, y: 0).kind == .affine)
        #expect(Homography(scaleX: 2, y: 2).kind == .affine)
        #expect(Homography(Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)).kind == .affine)
        // A half turn about y leaves the plane edge-free but mirrored: affine, not projective.
        #expect(Homography(Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)).kind == .affine)
        let tilted = Transform3D(rotationAngle: 0.5, x: 1, y: 0, z: 0).concatenating(Transform3D(perspectiveDistance: 500))
        #expect(Homography(tilted).kind == .projective)
        // m34 alone acts on z, which is 0 on the layer's own plane: no perspective for it
        // (as in Core Animation, where m34 set after the rotation shows only on sublayers).
        var flat = Transform3D(rotationAngle: 0.5, x: 0, y: 0, z: 1)
        flat.m34 = -1.0 / 500
        #expect(Homography(flat).kind == .affine)
        // Edge-on: a quarter turn about x flattens the plane to a line.
        #expect(Homography(Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0)).kind == .degenerate)
        #expect(Homography(scaleX: .nan, y: 1).kind == .degenerate)
    }

    /// Translations with m33 = 1 are classified without inverting: the kind is what the general
    /// rule (an inverse exists, then the offsets) gives, checked through the same translation
    /// scaled by 2 (m33 = 2 takes the general path), for offsets whole, near whole, fractional,
    /// huge and not finite.
    @Test func translationsAreClassifiedAsTheGeneralRuleDoes() {
        let offsets: [CGFloat] = [0, -0.0, 3, -4, 0.1 * 30, 3.5, 1e-10, 0.999_999_999_9, 2e9, 2_147_483_647, 1e12, -1e300,
                                  .greatestFiniteMagnitude, .infinity, -.infinity, .nan]
        for tx in offsets {
            for ty in offsets {
                let fast = Homography(m11: 1, m12: 0, m13: 0, m21: 0, m22: 1, m23: 0, m31: tx, m32: ty, m33: 1)
                let general = Homography(m11: 2, m12: 0, m13: 0, m21: 0, m22: 2, m23: 0, m31: 2 * tx, m32: 2 * ty, m33: 2)
                // 2 · tx overflows for the largest finite offsets: the general rule sees infinity.
                guard (2 * tx).isFinite == tx.isFinite, (2 * ty).isFinite == ty.isFinite else { continue }
                let expected: TransformKind = general.inverted() == nil ? .degenerate : general.kind
                #expect(fast.kind == expected, "translation (\(tx), \(ty))")
            }
        }
        #expect(Homography(translationX: .nan, y: 0).kind == .degenerate)
        #expect(Homography(translationX: 5, y: .infinity).kind == .degenerate)
        #expect(Homography(translationX: .greatestFiniteMagnitude, y: 0).kind == .affine)
    }

    @Test func inverseMapsImagePointsBack() throws {
        let t = Transform3D(rotationAngle: 0.5, x: 1, y: 0.3, z: 0).concatenating(Transform3D(perspectiveDistance: 300))
            .concatenating(Transform3D(translationX: 7, y: 9))
        let h = Homography(t)
        #expect(h.kind == .projective)
        let inverse = try #require(h.inverted())
        let p = CGPoint(x: 12, y: -5)
        #expect(close(inverse.apply(to: h.apply(to: p)!), p, 1e-9))
    }

    @Test func backFacingPlaneHasNegativeSignedArea() {
        let rect = CGRect(x: 0, y: 0, width: 10, height: 10)
        let front = Homography.identity.projectedPolygon(of: rect)
        let flipped = Homography(Transform3D(rotationAngle: .pi, x: 1, y: 0, z: 0)).projectedPolygon(of: rect)
        #expect(signedArea(of: front) == 100)
        #expect(signedArea(of: flipped) == -100)
    }

    @Test func cgAffineTransformMatchesCoreGraphicsConventions() {
        // CoreGraphics: rotation by +90° maps (1, 0) to (0, 1); inverted() of a singular
        // transform returns it unchanged.
        let r = CGAffineTransform(rotationAngle: .pi / 2)
        #expect(close(CGPoint(x: 1, y: 0).applying(r), CGPoint(x: 0, y: 1), 1e-15))
        let singular = CGAffineTransform(scaleX: 0, y: 1)
        #expect(singular.inverted() == singular)
        let t = CGAffineTransform(translationX: 5, y: 6).scaledBy(x: 2, y: 2)
        #expect(close(CGPoint(x: 1, y: 1).applying(t), CGPoint(x: 7, y: 8)))
        let box = CGRect(x: 0, y: 0, width: 10, height: 20).applying(r)
        #expect(close(box.minX, -20, 1e-12) && close(box.maxX, 0, 1e-12))
        #expect(close(box.minY, 0, 1e-12) && close(box.maxY, 10, 1e-12))
    }
}
