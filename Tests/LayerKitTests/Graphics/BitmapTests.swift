import Foundation
import Testing
@testable import LayerKit

@Suite struct BitmapTests {
    @Test func refusesInvalidAndOversizedBitmapsWithoutAllocating() {
        #expect(throws: BitmapError.invalidSize(width: 0, height: 10)) { try Bitmap(width: 0, height: 10) }
        #expect(throws: BitmapError.invalidSize(width: -5, height: 10)) { try Bitmap(width: -5, height: 10) }
        #expect(throws: BitmapError.invalidSize(width: 40000, height: 1)) { try Bitmap(width: 40000, height: 1) }
        // 32767² pixels would be 4 GiB: refused before any memory is asked for.
        #expect(throws: BitmapError.tooLarge(width: 32767, height: 32767)) { try Bitmap(width: 32767, height: 32767) }
        #expect(BitmapError.tooLarge(width: 32767, height: 32767).description.contains("32767x32767"))
    }

    @Test func newBitmapIsTransparentAndFillSetsColor() throws {
        let b = try Bitmap(width: 3, height: 2)
        #expect(b.premultipliedPixel(x: 2, y: 1) == 0)
        b.clear(to: Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(b.premultipliedPixel(x: 0, y: 0) == 0x8080_0000)
        #expect(b.pixel(x: 1, y: 1) == Color(red8: 255, green8: 0, blue8: 0, alpha8: 128))
    }

    @Test func sourceOverMatchesHandComputedPorterDuff() throws {
        // result = src + dst · (1 − αsrc), per premultiplied channel, rounded.
        let dst = try Bitmap(width: 1, height: 1)
        let src = try Bitmap(width: 1, height: 1)
        dst.withUnsafeMutablePixels { $0[0] = 0xFF00_00FF }   // opaque blue
        src.withUnsafeMutablePixels { $0[0] = 0x8080_0000 }   // 50% red
        dst.composite(src, atX: 0, y: 0)
        // α = 128 + 255·127/255 = 255; r = 128; b = 255·127/255 = 127.
        #expect(dst.premultipliedPixel(x: 0, y: 0) == 0xFF80_007F)

        dst.withUnsafeMutablePixels { $0[0] = 0x8040_4040 }
        src.withUnsafeMutablePixels { $0[0] = 0x4010_2030 }
        dst.composite(src, atX: 0, y: 0)
        // 1 − α = 191/255: α = 64 + 128·191/255 = 64 + 95.9 → 160; each color 64·191/255 = 47.9 → 48 added.
        #expect(dst.premultipliedPixel(x: 0, y: 0) == 0xA040_5060)
    }

    @Test func opacityScalesTheSource() throws {
        let dst = try Bitmap(width: 2, height: 2)
        let src = try Bitmap(width: 2, height: 2, color: .red)
        dst.composite(src, atX: 0, y: 0, opacity: 0.5)
        #expect(dst.premultipliedPixel(x: 1, y: 1) == 0x8080_0000)
        dst.composite(src, atX: 0, y: 0, opacity: 0)
        #expect(dst.premultipliedPixel(x: 1, y: 1) == 0x8080_0000)
        dst.composite(src, atX: 0, y: 0, opacity: .nan)
        #expect(dst.premultipliedPixel(x: 1, y: 1) == 0x8080_0000)
    }

    @Test func clipRegionLimitsWhatChanges() throws {
        let dst = try Bitmap(width: 4, height: 4)
        let src = try Bitmap(width: 4, height: 4, color: .green)
        let clip = Region(PixelRect(x: 1, y: 1, width: 2, height: 1)).union(Region(PixelRect(x: 0, y: 3, width: 1, height: 1)))
        dst.composite(src, atX: 0, y: 0, clip: clip)
        for y in 0..<4 {
            for x in 0..<4 {
                let expected: UInt32 = clip.contains(x: x, y: y) ? 0xFF00_FF00 : 0
                #expect(dst.premultipliedPixel(x: x, y: y) == expected, "pixel \(x),\(y)")
            }
        }
    }

    @Test func sourceOperatorClearsInsideTheClipEvenWhereTheSourceDoesNotReach() throws {
        let dst = try Bitmap(width: 4, height: 1, color: .white)
        let src = try Bitmap(width: 1, height: 1, color: .blue)
        dst.composite(src, atX: 0, y: 0, operator: .source, clip: Region(PixelRect(x: 0, y: 0, width: 3, height: 1)))
        #expect(dst.premultipliedPixel(x: 0, y: 0) == 0xFF00_00FF)
        #expect(dst.premultipliedPixel(x: 1, y: 0) == 0)
        #expect(dst.premultipliedPixel(x: 2, y: 0) == 0)
        #expect(dst.premultipliedPixel(x: 3, y: 0) == 0xFFFF_FFFF)
    }

    @Test func fillWithOperatorAndClipping() throws {
        let b = try Bitmap(width: 4, height: 4, color: Color(white: 0, alpha: 1))
        b.fill(PixelRect(x: -2, y: 2, width: 10, height: 10), with: Color(white: 1, alpha: 0.5))
        #expect(b.premultipliedPixel(x: 0, y: 1) == 0xFF00_0000)
        #expect(b.premultipliedPixel(x: 3, y: 3) == 0xFF80_8080)
        b.fill(b.bounds, with: .clear, operator: .source, clip: Region(PixelRect(x: 0, y: 0, width: 1, height: 1)))
        #expect(b.premultipliedPixel(x: 0, y: 0) == 0)
        #expect(b.premultipliedPixel(x: 1, y: 0) == 0xFF00_0000)
    }

    @Test func wholePixelTranslationIsExactAndEqualsDirectPlacement() throws {
        let src = try pattern(width: 5, height: 3)
        let a = try Bitmap(width: 10, height: 10), b = try Bitmap(width: 10, height: 10)
        a.composite(src, atX: 3, y: 4)
        try b.composite(src, transform: Homography(translationX: 3, y: 4))
        #expect(a.hasSamePixels(as: b))
        #expect(a.premultipliedPixel(x: 3 + 4, y: 4 + 2) == src.premultipliedPixel(x: 4, y: 2))
        #expect(a.premultipliedPixel(x: 2, y: 4) == 0)
    }

    @Test func quarterTurnMovesEveryPixelExactly() throws {
        // A 90° turn with a whole-pixel offset maps pixel centres onto pixel centres, so even the
        // bilinear filter reproduces every source pixel exactly.
        let src = try pattern(width: 4, height: 2)
        let dst = try Bitmap(width: 2, height: 4)
        let turn = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1).concatenating(Transform3D(translationX: 2, y: 0))
        try dst.composite(src, operator: .source, transform: Homography(turn))
        for y in 0..<2 {
            for x in 0..<4 {
                // (x, y) → (−y, x) + (2, 0): pixel (x, y) lands at column 1 − y, row x.
                #expect(dst.premultipliedPixel(x: 1 - y, y: x) == src.premultipliedPixel(x: x, y: y))
            }
        }
    }

    @Test func perspectiveCompositeFollowsTheProjectedQuad() throws {
        // A 100x100 opaque plane tilted 60° about x, seen from 500 points: the drawn rows get
        // wider towards the near (bottom) edge as the matrix predicts.
        let plane = try Bitmap(width: 100, height: 100, color: .white)
        let dst = try Bitmap(width: 300, height: 300)
        let t = Transform3D(translationX: -50, y: -50)
            .concatenating(Transform3D(rotationAngle: .pi / 3, x: 1, y: 0, z: 0))
            .concatenating(Transform3D(perspectiveDistance: 500))
            .concatenating(Transform3D(translationX: 150, y: 150))
        let h = Homography(t)
        #expect(h.kind == .projective)
        try dst.composite(plane, transform: h)
        let quad = h.projectedPolygon(of: CGRect(x: 0, y: 0, width: 100, height: 100))
        let topY = Int(quad[0].y.rounded(.up)) + 1, bottomY = Int(quad[3].y.rounded(.down)) - 1
        let top = coveredWidth(dst, row: topY), bottom = coveredWidth(dst, row: bottomY)
        func expectedWidth(atY y: CGFloat) -> CGFloat {
            // Interpolate the quad's left and right edges at this row.
            let l = quad[0].x + (quad[3].x - quad[0].x) * (y - quad[0].y) / (quad[3].y - quad[0].y)
            let r = quad[1].x + (quad[2].x - quad[1].x) * (y - quad[1].y) / (quad[2].y - quad[1].y)
            return r - l
        }
        #expect(abs(top - expectedWidth(atY: CGFloat(topY) + 0.5)) < 1.5)
        #expect(abs(bottom - expectedWidth(atY: CGFloat(bottomY) + 0.5)) < 1.5)
        #expect(bottom > top + 15)   // 100·500/457 − 100·500/543 ≈ 17.3
    }

    /// Every pixel clear of the quad's edges is drawn exactly when it lies inside: pixman's 16.16
    /// fixed point must hold the mapped coordinates of every pixel of a large target (it gives
    /// up on a pixel whose products leave ±32768 and repeats stale scanline data instead).
    @Test func perspectiveCompositeIsExactAcrossALargeTarget() throws {
        let plane = try Bitmap(width: 180, height: 200, color: .white)
        for (angle, axis, distance) in [(0.9, (0.0, 1.0), 300.0), (-0.9, (1.0, 0.0), 300.0), (1.2, (0.0, 1.0), 900.0),
                                        (0.5, (1.0, 1.0), 150.0)] {
            let dst = try Bitmap(width: 900, height: 600)
            let h = Homography(Transform3D(translationX: -90, y: -100)
                .concatenating(Transform3D(rotationAngle: angle, x: axis.0, y: axis.1, z: 0))
                .concatenating(Transform3D(perspectiveDistance: distance))
                .concatenating(Transform3D(translationX: 600, y: 380)))
            try #require(h.kind == .projective)
            try dst.composite(plane, transform: h)
            let inverse = try #require(h.inverted())
            var wrong = 0
            for y in 0..<600 {
                for x in 0..<900 {
                    guard let s = inverse.apply(to: CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)) else { continue }
                    let margin: CGFloat = 2
                    let inside = s.x > margin && s.x < 180 - margin && s.y > margin && s.y < 200 - margin
                    let outside = s.x < -margin || s.x > 180 + margin || s.y < -margin || s.y > 200 + margin
                    let alpha = dst.premultipliedPixel(x: x, y: y) >> 24
                    if inside && alpha != 255 || outside && alpha != 0 { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(wrong) pixels wrong turning \(angle) about \(axis) from \(distance)")
        }
    }

    @Test func planeCrossingTheEyeDrawsOnlyItsFrontPart() throws {
        // Tilted 80° seen from 60 points: the half of the plane behind the eye would land
        // mirrored above the visible part if it were drawn.
        let plane = try Bitmap(width: 200, height: 200, color: .white)
        let dst = try Bitmap(width: 400, height: 400)
        let t = Transform3D(translationX: -100, y: -100)
            .concatenating(Transform3D(rotationAngle: 80 * .pi / 180, x: 1, y: 0, z: 0))
            .concatenating(Transform3D(perspectiveDistance: 60))
            .concatenating(Transform3D(translationX: 200, y: 200))
        let h = Homography(t)
        try dst.composite(plane, transform: h)
        let topEdge = h.apply(to: CGPoint(x: 100, y: 0))!.y
        var drawnAbove = 0, drawnBelow = 0
        for y in 0..<400 {
            for x in 0..<400 where dst.premultipliedPixel(x: x, y: y) >> 24 > 0 {
                if CGFloat(y) + 1 < topEdge { drawnAbove += 1 } else { drawnBelow += 1 }
            }
        }
        #expect(drawnAbove == 0)
        #expect(drawnBelow > 1000)
    }

    @Test func singularTransformThrowsAndLeavesPixelsAlone() throws {
        let dst = try Bitmap(width: 4, height: 4, color: .blue)
        let src = try Bitmap(width: 4, height: 4, color: .red)
        let edgeOn = Homography(Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0))
        #expect(throws: BitmapError.transformNotInvertible(edgeOn)) { try dst.composite(src, transform: edgeOn) }
        #expect(throws: BitmapError.self) { try dst.composite(src, transform: Homography(scaleX: .infinity, y: 1)) }
        #expect(dst.premultipliedPixel(x: 2, y: 2) == 0xFF00_00FF)
    }

    @Test func compositeFarOutsideTheBitmapDoesNothing() throws {
        let dst = try Bitmap(width: 4, height: 4)
        let src = try Bitmap(width: 4, height: 4, color: .red)
        dst.composite(src, atX: 1_000_000, y: -1_000_000)
        try dst.composite(src, transform: Homography(translationX: 1e12, y: 0.5))
        #expect(dst.withUnsafePixels { $0.allSatisfy { $0 == 0 } })
    }

    @Test func copyIsIndependent() throws {
        let a = try pattern(width: 3, height: 3)
        let b = try a.copy()
        #expect(a.hasSamePixels(as: b))
        b.setPixel(x: 0, y: 0, to: .clear)
        #expect(!a.hasSamePixels(as: b))
    }

    /// A bitmap whose every pixel differs: opaque, channels from the coordinates.
    func pattern(width: Int, height: Int) throws -> Bitmap {
        let b = try Bitmap(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                b.setPixel(x: x, y: y, to: Color(red8: UInt8(x * 40 + 10), green8: UInt8(y * 60 + 5), blue8: UInt8((x + y) * 20)))
            }
        }
        return b
    }

    /// The summed coverage of a row, in pixels.
    func coveredWidth(_ b: Bitmap, row y: Int) -> CGFloat {
        (0..<b.width).reduce(0) { $0 + CGFloat(b.premultipliedPixel(x: $1, y: y) >> 24) / 255 }
    }
}
