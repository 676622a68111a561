import CCairo
import Foundation
import Testing
@testable import LayerKit

/// The same 2D scene drawn by LayerKit and, independently, by cairo's image back end.
@Suite struct CairoOracleTests {
    struct Box {
        let center: CGPoint, size: CGSize, angle: CGFloat, scale: CGFloat, color: Color, opacity: Float
    }

    static let boxes: [Box] = {
        var generator = SplitMix64(seed: 7)
        func unit() -> CGFloat { CGFloat(generator.next() % 10_000) / 10_000 }
        return (0..<24).map { _ in
            Box(center: CGPoint(x: 20 + unit() * 280, y: 20 + unit() * 200),
                size: CGSize(width: 10 + unit() * 60, height: 10 + unit() * 60),
                angle: unit() * 2 * .pi, scale: 0.5 + unit(),
                color: Color(red: Double(unit()), green: Double(unit()), blue: Double(unit()), alpha: 1),
                opacity: Float(0.3 + 0.7 * unit()))
        }
    }()

    func layerKitFrame() throws -> Bitmap {
        let root = rootLayer(320, 240)
        for box in Self.boxes {
            let layer = Layer()
            layer.bounds = CGRect(origin: .zero, size: box.size)
            layer.position = box.center
            layer.backgroundColor = box.color
            layer.opacity = box.opacity
            layer.transform = Transform3D(scaleX: box.scale, y: box.scale).concatenating(
                Transform3D(rotationAngle: box.angle, x: 0, y: 0, z: 1))
            root.addSublayer(layer)
        }
        return try Renderer(threadCount: 1).render(root)
    }

    func cairoFrame() -> [UInt32] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 320, 240)!
        defer { cairo_surface_destroy(surface) }
        let cr = cairo_create(surface)!
        for box in Self.boxes {
            cairo_save(cr)
            cairo_translate(cr, Double(box.center.x), Double(box.center.y))
            cairo_rotate(cr, Double(box.angle))
            cairo_scale(cr, Double(box.scale), Double(box.scale))
            cairo_rectangle(cr, -Double(box.size.width) / 2, -Double(box.size.height) / 2,
                            Double(box.size.width), Double(box.size.height))
            cairo_set_source_rgba(cr, box.color.red, box.color.green, box.color.blue, Double(box.opacity))
            cairo_fill(cr)
            cairo_restore(cr)
        }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var pixels = [UInt32](repeating: 0, count: 320 * 240)
        for y in 0..<240 {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<320 { pixels[y * 320 + x] = row[x] }
        }
        return pixels
    }

    @Test func affineSceneMatchesCairo() throws {
        let ours = try layerKitFrame()
        let theirs = cairoFrame()
        var total = 0, worst = 0, over32 = 0
        ours.withUnsafePixels { pixels in
            for i in pixels.indices {
                for shift in stride(from: 0, through: 24, by: 8) {
                    let d = abs(Int(pixels[i] >> UInt32(shift) & 0xFF) - Int(theirs[i] >> UInt32(shift) & 0xFF))
                    total += d
                    worst = max(worst, d)
                    if d > 32 { over32 += 1 }
                }
            }
        }
        let mean = Double(total) / Double(320 * 240 * 4)
        // Interiors match to rounding; edges differ because LayerKit resamples each layer's
        // backing store bilinearly while cairo computes exact area coverage. Bounds: mean error
        // under half a level, and channels off by more than 32 levels on < 0.2% of samples.
        #expect(mean < 0.5, "mean absolute difference \(mean)")
        #expect(Double(over32) / Double(320 * 240 * 4) < 0.002, "\(over32) samples differ by more than 32 (worst \(worst))")
        if mean >= 0.5 {
            try ours.writePNG(to: FileManager.default.temporaryDirectory.appendingPathComponent("oracle-layerkit.png").path)
        }
    }
}
