import CCairoOracle
import Foundation
import LayerKit

/// Sprites drawn with cairo as a sprite program would: each frame the backdrop, then every sprite
/// image painted through its placement (turn, scale, opacity; bilinear filtering, as LayerKit
/// samples them), with an optional blurred shadow under each. The shadows are made the cairo way
/// (alpha into an A8 surface, box-blurred, painted as a mask through the sprite's placement),
/// again every frame, once per distinct sprite image: a program would not blur the same image
/// once per sprite.
final class CairoSprites {
    /// Where one sprite goes: its centre, turn (radians, clockwise), scale, opacity and image.
    struct Placement {
        let position: CGPoint
        let angle: CGFloat
        let scale: CGFloat
        let opacity: Double
        let image: Int
    }

    /// A shadow's blur, offset and opacity, in the sprite's own space, as `Layer` spells them.
    struct Shadow {
        let sigma: Double
        let offset: CGSize
        let opacity: Double
    }

    private let placements: [Placement]
    private let shadow: Shadow?
    private let images: [OpaquePointer]  // cairo_surface_t, ARGB32
    private let imagePatterns: [OpaquePointer]  // cairo_pattern_t, bilinear
    private let side: (width: Int, height: Int)

    init(images bitmaps: [Bitmap], placements: [Placement], shadow: Shadow?) {
        self.placements = placements
        self.shadow = shadow
        side = (bitmaps.first?.width ?? 0, bitmaps.first?.height ?? 0)
        images = bitmaps.map { bitmap in
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height))!
            let stride = Int(cairo_image_surface_get_stride(surface)), data = cairo_image_surface_get_data(surface)!
            bitmap.withUnsafePixels { pixels in
                for y in 0..<bitmap.height {
                    memcpy(data + y * stride, pixels.baseAddress! + y * bitmap.width, bitmap.width * 4)
                }
            }
            cairo_surface_mark_dirty(surface)
            return surface
        }
        imagePatterns = images.map { surface in
            let pattern = cairo_pattern_create_for_surface(surface)!
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
            return pattern
        }
    }

    deinit {
        for pattern in imagePatterns { cairo_pattern_destroy(pattern) }
        for image in images { cairo_surface_destroy(image) }
    }

    func draw(_ cr: OpaquePointer) {
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setSource(cr, Scenes.backdropColor)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        let shadows = shadow.map { shadow in images.map { blurredAlpha(of: $0, sigma: shadow.sigma) } }
        defer { for (pattern, surface) in shadows ?? [] { cairo_pattern_destroy(pattern); cairo_surface_destroy(surface) } }
        for sprite in placements {
            cairo_save(cr)
            cairo_translate(cr, sprite.position.x, sprite.position.y)
            cairo_rotate(cr, sprite.angle)
            cairo_scale(cr, sprite.scale, sprite.scale)
            cairo_translate(cr, -Double(side.width) / 2, -Double(side.height) / 2)
            if let shadow, let shadows {
                let (pattern, _) = shadows[sprite.image]
                cairo_save(cr)
                let pad = Double(AlmostGaussianBlur(sigma: shadow.sigma).spread + 1)
                cairo_translate(cr, shadow.offset.width - pad, shadow.offset.height - pad)
                cairo_set_source_rgba(cr, 0, 0, 0, shadow.opacity * sprite.opacity)
                cairo_mask(cr, pattern)
                cairo_restore(cr)
            }
            cairo_set_source(cr, imagePatterns[sprite.image])
            if sprite.opacity < 1 { cairo_paint_with_alpha(cr, sprite.opacity) } else { cairo_paint(cr) }
            cairo_restore(cr)
        }
    }

    /// The image's alpha, padded by the blur's reach, blurred in an A8 surface; as a bilinear
    /// pattern whose origin is the padded corner.
    private func blurredAlpha(of image: OpaquePointer, sigma: Double) -> (OpaquePointer, OpaquePointer) {
        let blur = AlmostGaussianBlur(sigma: sigma)
        let pad = blur.spread + 1
        let w = Int(cairo_image_surface_get_width(image)) + 2 * pad, h = Int(cairo_image_surface_get_height(image)) + 2 * pad
        let surface = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(w), Int32(h))!
        let ink = cairo_create(surface)!
        cairo_set_source_surface(ink, image, Double(pad), Double(pad))
        cairo_paint(ink)
        cairo_destroy(ink)
        cairo_surface_flush(surface)
        blur.apply(to: cairo_image_surface_get_data(surface), width: w, height: h, stride: Int(cairo_image_surface_get_stride(surface)))
        cairo_surface_mark_dirty(surface)
        let pattern = cairo_pattern_create_for_surface(surface)!
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
        return (pattern, surface)
    }
}
