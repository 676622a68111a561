import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Wide shadows are blurred at a fraction of their source's scale: their stores and their cost
/// stay bounded, and what they show stays what a full-scale blur shows.
@Suite struct ShadowBlurTests {
    /// A 300 × 200 source with a hole, its alpha `a` inside a rect.
    func source() throws -> Bitmap {
        let bitmap = try Bitmap(width: 300, height: 200)
        bitmap.fill(Path(rect: CGRect(x: 40, y: 30, width: 220, height: 140)), with: Color(red: 0, green: 0, blue: 0, alpha: 0.8))
        bitmap.fill(Path(ellipseIn: CGRect(x: 120, y: 80, width: 60, height: 40)), with: .clear)
        return bitmap
    }

    func shadow(_ source: Bitmap, sigma: Double, reduction: Int) throws -> (mask: AlphaMask, padding: Int) {
        let blur = BoxBlur(sigma: sigma / Double(reduction))
        let padding = blur.spread + 1
        let mask = try AlphaMask(width: ShadowRasterizer.reduced(source.width, by: reduction) + 2 * padding,
                                 height: ShadowRasterizer.reduced(source.height, by: reduction) + 2 * padding)
        ShadowRasterizer.drawShadow(of: source, reduction: reduction, padding: padding, blur: blur, into: mask)
        return (mask, padding)
    }

    /// The reduced blur, sampled bilinearly back at full scale as the compositor does, is within
    /// 1 level of the full-scale blur everywhere (σ = 100 pixels, made at half and a third).
    @Test(arguments: [2, 3])
    func aReducedBlurShowsWhatAFullScaleBlurShows(_ reduction: Int) throws {
        let source = try source()
        let full = try shadow(source, sigma: 100, reduction: 1)
        let small = try shadow(source, sigma: 100, reduction: reduction)
        let f = Double(reduction)
        var worst = 0
        for y in stride(from: 0, to: full.mask.height, by: 3) {
            for x in stride(from: 0, to: full.mask.width, by: 3) {
                // Full-scale pixel centre → reduced store coordinates (both start `padding` out).
                let u = (Double(x - full.padding) + 0.5) / f + Double(small.padding) - 0.5
                let v = (Double(y - full.padding) + 0.5) / f + Double(small.padding) - 0.5
                let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down)), fx = u - Double(x0), fy = v - Double(y0)
                func at(_ i: Int, _ j: Int) -> Double {
                    guard i >= 0, j >= 0, i < small.mask.width, j < small.mask.height else { return 0 }
                    return Double(small.mask[i, j])
                }
                let sample = (at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx) * (1 - fy) + (at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx) * fy
                worst = max(worst, abs(Int(sample.rounded()) - Int(full.mask[x, y])))
            }
        }
        #expect(worst <= 1)
    }

    /// Blurs up to 64 pixels are made at full scale; wider ones (up to the 256-pixel cap, which
    /// any larger radius is drawn with) at the fraction that brings them within 64.
    @Test func theReductionFollowsTheBlur() {
        #expect(ShadowRasterizer.reduction(sigma: 8) == 1)
        #expect(ShadowRasterizer.reduction(sigma: 64) == 1)
        #expect(ShadowRasterizer.reduction(sigma: 64.5) == 2)
        #expect(ShadowRasterizer.reduction(sigma: 192) == 3)
        #expect(ShadowRasterizer.reduction(sigma: 256) == 4)
        #expect(ShadowRasterizer.reduction(sigma: .nan) == 1)
        #expect(ShadowRasterizer.reduced(301, by: 4) == 76)
    }

    /// A layer with a wide shadow (σ = 80 device pixels, made at half scale) draws it where it
    /// belongs: beside the card it falls off smoothly and monotonically from dark to the white
    /// background. (Found by scripts/fuzz: a shadow of σ = 192 store pixels took 4 s to blur
    /// under AddressSanitizer; the exactness of the reduced blur is the test above.)
    @Test func aFrameWithAWideShadowIsStillRight() throws {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 300)
        root.backgroundColor = .white
        let card = Layer()
        card.frame = CGRect(x: 120, y: 90, width: 160, height: 120)
        card.backgroundColor = .blue
        card.shadowOpacity = 1
        card.shadowRadius = 40
        root.addSublayer(card)
        let frame = try Renderer(scale: 2, threadCount: 1).render(root, at: 0)
        var previous = -1
        for x in stride(from: 2 * 280 + 4, to: 2 * 400, by: 8) {
            let level = Int(frame.pixel(x: x, y: 300).green * 255)
            #expect(level >= previous - 1)
            previous = level
        }
        #expect(Int(frame.pixel(x: 2 * 280 + 4, y: 300).green * 255) < 200)
        #expect(Int(frame.pixel(x: 2 * 400 - 1, y: 300).green * 255) > 240)
    }
}
