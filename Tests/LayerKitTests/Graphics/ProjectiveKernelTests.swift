import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// The perspective kernels sample within one level of exact and combine exactly as pixman does.
@Suite struct ProjectiveKernelTests {
    /// Cards turned up to 89° about x or y under m34 from −1/100 to −1/10000 (some crossing the
    /// eye plane): every sampled channel within 1 of the exact bilinear sample, every variant.
    @Test func samplesStayWithinOneLevelOfExact() throws {
        var g = SeededGenerator(seed: 34)
        var sampled = 0
        for trial in 0..<100 {
            let sw = Int.random(in: 1...80, using: &g), sh = Int.random(in: 1...80, using: &g)
            let dw = Int.random(in: 1...120, using: &g), dh = Int.random(in: 1...120, using: &g)
            let card = try KernelFixtures.bitmap(width: sw, height: sh, &g)
            let h = KernelFixtures.cardMap(source: sw, sh, target: dw, dh, &g)
            guard h.kind == .projective, let inverse = h.inverted() else { continue }
            let blank = try Bitmap(width: dw, height: dh)
            for engine in KernelFixtures.kernelEngines {
                let drawn = try blank.copy()
                try Bitmap.withCompositeEngine(engine) { try drawn.composite(card, operator: .source, transform: h) }
                var worst = 0, at = (0, 0)
                for y in 0..<dh {
                    for x in 0..<dw {
                        let exact = KernelFixtures.exactSample(inverse, x: x, y: y, width: sw, height: sh) {
                            card.premultipliedPixel(x: $0, y: $1)
                        }
                        let d = KernelFixtures.channelDistance(exact, drawn.premultipliedPixel(x: x, y: y))
                        if d > worst { worst = d; at = (x, y) }
                        if exact != 0 { sampled += 1 }
                    }
                }
                #expect(worst <= 1, "\(engine) trial \(trial): off by \(worst) at \(at) through \(h)")
            }
        }
        #expect(sampled > 100_000, "only \(sampled) pixels sampled")
    }

    /// Over with an opacity is exactly pixman's over of the kernel's own samples, and clips,
    /// destination offsets and nearest sampling agree across variants.
    @Test func overAndOpacityCombineAsPixman() throws {
        var g = SeededGenerator(seed: 43)
        for trial in 0..<120 {
            let sw = Int.random(in: 1...60, using: &g), sh = Int.random(in: 1...60, using: &g)
            let dw = Int.random(in: 1...90, using: &g), dh = Int.random(in: 1...90, using: &g)
            let card = try KernelFixtures.bitmap(width: sw, height: sh, &g)
            let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
            let h = KernelFixtures.cardMap(source: sw, sh, target: dw, dh, &g)
            let opacity = KernelFixtures.opacity(&g), clip = KernelFixtures.clip(width: dw, height: dh, &g)
            let filter: ImageFilter = trial % 4 == 0 ? .nearest : .bilinear
            guard let area = try target.transformedArea(card.bounds, h.kind, h, filter, .over, clip, opacity)?.1 else { continue }
            let samples = try Bitmap(width: dw, height: dh)
            try samples.composite(card, operator: .source, transform: h, filter: filter, clip: area)
            let expected = try target.copy()
            expected.composite(samples, atX: 0, y: 0, clip: area, opacity: opacity)
            for engine in KernelFixtures.kernelEngines {
                let drawn = try target.copy()
                try Bitmap.withCompositeEngine(engine) {
                    try drawn.composite(card, transform: h, filter: filter, clip: clip, opacity: opacity)
                }
                #expect(drawn.hasSamePixels(as: expected), "\(engine) trial \(trial) through \(h)")
            }
        }
    }

    /// Operators the kernels do not combine: sampled by the kernels into scratch rows, combined
    /// by pixman; the same as pixman combining the kernel's samples.
    @Test func otherOperatorsCombineTheKernelsSamples() throws {
        var g = SeededGenerator(seed: 3)
        let card = try KernelFixtures.bitmap(width: 40, height: 30, &g)
        let target = try KernelFixtures.bitmap(width: 70, height: 60, &g)
        let h = Homography(Transform3D(translationX: -20, y: -15)
            .concatenating(Transform3D(rotationAngle: 0.8, x: 0, y: 1, z: 0))
            .concatenating(Transform3D(perspectiveDistance: 150))
            .concatenating(Transform3D(translationX: 35, y: 30)))
        let area = try #require(try target.transformedArea(card.bounds, h.kind, h, .bilinear, .over, nil, 1)?.1)
        let samples = try Bitmap(width: 70, height: 60)
        try samples.composite(card, operator: .source, transform: h, clip: area)
        for op in [CompositeOperator.add, .multiply, .destinationOut, .xor] {
            let drawn = try target.copy(), expected = try target.copy()
            try drawn.composite(card, operator: op, transform: h, opacity: 0.6)
            expected.composite(samples, atX: 0, y: 0, operator: op, clip: area, opacity: 0.6)
            #expect(drawn.hasSamePixels(as: expected), "\(op)")
        }
    }

    /// The kernels draw exactly what LayerKit's earlier Swift perspective sampler drew (the
    /// seed ports' reference frames were recorded with it): a transcription of that sampler.
    @Test func perspectiveMatchesTheSwiftSamplerItReplaced() throws {
        var g = SeededGenerator(seed: 90)
        for _ in 0..<40 {
            let sw = Int.random(in: 1...50, using: &g), sh = Int.random(in: 1...50, using: &g)
            let card = try KernelFixtures.bitmap(width: sw, height: sh, &g)
            let h = KernelFixtures.cardMap(source: sw, sh, target: 80, 80, &g)
            guard h.kind == .projective, let m = h.inverted() else { continue }
            let drawn = try Bitmap(width: 80, height: 80)
            try drawn.composite(card, operator: .source, transform: h, clip: Region(drawn.bounds))
            for y in 0..<80 {
                for x in 0..<80 {
                    let expected = swiftSample(card, m, x, y)
                    #expect(drawn.premultipliedPixel(x: x, y: y) == expected, "(\(x), \(y)) through \(h)")
                }
            }
        }
    }

    /// LayerKit's Swift perspective sampler as it was before the kernels (bilinear).
    func swiftSample(_ source: Bitmap, _ m: Homography, _ x: Int, _ y: Int) -> UInt32 {
        let py = CGFloat(y) + 0.5, px = CGFloat(x) + 0.5
        let rowX = py * m.m21 + m.m31, rowY = py * m.m22 + m.m32, rowW = py * m.m23 + m.m33
        let w = px * m.m13 + rowW
        guard w > Homography.defaultEpsilon else { return 0 }
        let u = (px * m.m11 + rowX) / w - 0.5, v = (px * m.m12 + rowY) / w - 0.5
        guard u > -1, v > -1, u < CGFloat(source.width), v < CGFloat(source.height) else { return 0 }
        let fu = u.rounded(.down), fv = v.rounded(.down)
        let x0 = Int(fu), y0 = Int(fv)
        let wx = UInt32(((u - fu) * 256).rounded()), wy = UInt32(((v - fv) * 256).rounded())
        func texel(_ x: Int, _ y: Int) -> UInt32 {
            x >= 0 && y >= 0 && x < source.width && y < source.height ? source.premultipliedPixel(x: x, y: y) : 0
        }
        let p = [texel(x0, y0), texel(x0 + 1, y0), texel(x0, y0 + 1), texel(x0 + 1, y0 + 1)]
        let weights = [(256 - wx) * (256 - wy), wx * (256 - wy), (256 - wx) * wy, wx * wy]
        return (0..<4).reduce(0) { word, c in
            let sum = zip(p, weights).reduce(UInt32(0x8000)) { $0 + ($1.0 >> UInt32(8 * c) & 0xFF) * $1.1 }
            return word | (sum >> 16) << UInt32(8 * c)
        }
    }
}
