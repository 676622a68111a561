import CCairoOracle
import Foundation
import LayerKit

/// A cairo image surface of a scene's size, the frame buffer of a cairo drawer.
public class CairoFrame {
    let width: Int, height: Int
    let surface: OpaquePointer  // cairo_surface_t
    let cr: OpaquePointer  // cairo_t

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        cr = cairo_create(surface)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// The frame's pixels, premultiplied ARGB32, `width` to a row.
    public func pixels() -> [UInt32]? {
        let stride = Int(cairo_image_surface_get_stride(surface)), data = cairo_image_surface_get_data(surface)!
        var result = [UInt32](repeating: 0, count: width * height)
        result.withUnsafeMutableBytes { out in
            for y in 0..<height { memcpy(out.baseAddress! + y * width * 4, data + y * stride, width * 4) }
        }
        return result
    }
}

/// cairo's image back end drawing each frame of a scene from scratch, as a cairo program would:
/// vectors, text, images and its own shadow blurs, every pixel every frame, nothing from LayerKit.
/// This is the baseline the targets are judged against. Scenes cairo cannot draw (perspective)
/// throw `Unsupported` with the reason.
public final class CairoDrawer: CairoFrame, Drawer {
    private let drawing: (OpaquePointer, Int) -> Void

    /// - Throws: `Unsupported` when cairo cannot draw the scene (perspective).
    public init(_ scene: Scene) throws {
        switch scene.cairo {
        case let .draw(draw): drawing = draw
        case let .unsupported(why): throw Unsupported(why)
        }
        super.init(width: scene.width, height: scene.height)
    }

    public func draw(frame i: Int) {
        cairo_save(cr)
        drawing(cr, i)
        cairo_restore(cr)
        cairo_surface_flush(surface)
    }
}

/// cairo compositing the bitmaps LayerKit composites for the frame (backing stores, images,
/// pre-blurred shadows), with the same transforms, opacities, clips and filters. Not how a cairo
/// program draws these scenes: it measures cairo as a compositor of LayerKit's own cached
/// content, and it is slower than cairo drawing the vectors where stores sit at fractional
/// offsets (bilinear resampling). cairo's matrices are affine, so perspective is unsupported.
public final class CairoBitmapDrawer: CairoFrame, Drawer {
    private struct Op {
        let source: OpaquePointer  // cairo_surface_t
        var matrix: cairo_matrix_t
        let filter: cairo_filter_t
        let opacity: Double
        let clip: PixelRect?
        /// For a shadow: painted in this color through the source's alpha.
        let color: Color?
    }

    private var sources: [OpaquePointer] = []
    private var frames: [[Op]] = []

    /// Lists the scene's composites with LayerKit and copies their sources, before any timing.
    ///
    /// - Throws: `Unsupported` for a projective composite.
    public init(_ scene: Scene) throws {
        super.init(width: scene.width, height: scene.height)
        for frame in FrameComposites.list(scene) {
            let surfaces = frame.sources.map { source in
                let s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(source.width), Int32(source.height))!
                let stride = Int(cairo_image_surface_get_stride(s)), data = cairo_image_surface_get_data(s)!
                source.pixels.withUnsafeBytes { bytes in
                    for y in 0..<source.height {
                        memcpy(data + y * stride, bytes.baseAddress! + y * source.width * 4, source.width * 4)
                    }
                }
                cairo_surface_mark_dirty(s)
                sources.append(s)
                return s
            }
            frames.append(try frame.composites.map { c in
                let t = c.transform
                guard c.kind != .projective else {
                    throw Unsupported("perspective: cairo's matrices are affine")
                }
                let w = t.m33
                let matrix = cairo_matrix_t(xx: t.m11 / w, yx: t.m12 / w, xy: t.m21 / w, yy: t.m22 / w,
                                            x0: t.m31 / w, y0: t.m32 / w)
                let filter: cairo_filter_t
                if case .integerTranslation = c.kind { filter = CAIRO_FILTER_NEAREST }
                else { filter = c.filter == .nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR }
                return Op(source: surfaces[c.source], matrix: matrix, filter: filter, opacity: c.opacity, clip: c.clip,
                          color: c.color)
            })
        }
    }

    deinit {
        for s in sources { cairo_surface_destroy(s) }
    }

    public func draw(frame i: Int) {
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        for var op in frames[i % frames.count] {
            if let clip = op.clip {
                cairo_save(cr)
                cairo_rectangle(cr, Double(clip.x), Double(clip.y), Double(clip.width), Double(clip.height))
                cairo_clip(cr)
            }
            cairo_set_matrix(cr, &op.matrix)
            if let color = op.color {
                cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * op.opacity)
                let mask = cairo_pattern_create_for_surface(op.source)!
                cairo_pattern_set_filter(mask, op.filter)
                cairo_mask(cr, mask)
                cairo_pattern_destroy(mask)
            } else {
                cairo_set_source_surface(cr, op.source, 0, 0)
                cairo_pattern_set_filter(cairo_get_source(cr), op.filter)
                if op.opacity < 1 { cairo_paint_with_alpha(cr, op.opacity) } else { cairo_paint(cr) }
            }
            if op.clip != nil { cairo_restore(cr) } else { cairo_identity_matrix(cr) }
        }
        cairo_surface_flush(surface)
    }
}
