import CPixman
import Foundation

extension Bitmap {
    /// Fills a path with a color, anti-aliased (source over).
    ///
    /// - Parameters:
    ///   - rule: non-zero winding (the default) or even-odd.
    ///   - transform: maps the path's coordinates to this bitmap's pixels.
    ///   - clip: when given, only these pixels change.
    public func fill(_ path: Path, with color: Color, rule: FillRule = .nonZero,
                     transform: CGAffineTransform = .identity, clip: Region? = nil) {
        guard color.alpha > 0 else { return }
        // Flatten in device space to a hundredth of a pixel: chords cut inside curves, and at a
        // tenth of a pixel the lost area already shows in edge coverage.
        let polygons = path.applying(transform).flattened(tolerance: 0.01).map(\.points).filter { $0.count >= 3 }
        guard let box = CGRect(boundingPoints: polygons.flatMap { $0 }) else { return }
        var area = PixelRect(covering: box).intersection(bounds)
        if let clip { area = area.intersection(clip.extents) }
        guard !area.isEmpty, let rasterizer = FreeTypeRasterizer.current else { return }
        let coverage = rasterizer.coverage(of: polygons, rule: rule, area: area)
        composite(coverage: coverage, area: area, color: color, clip: clip)
    }

    /// Composites a solid color through 8-bit coverage over `area` (rows padded to 4 bytes).
    func composite(coverage: [UInt8], area: PixelRect, color: Color, clip: Region?) {
        let stride = FreeTypeRasterizer.rowBytes(area.width)
        guard coverage.count >= stride * area.height else { return }
        var pixmanColor = Self.pixmanColor(premultiplied: color.premultipliedARGB32)
        guard let solid = pixman_image_create_solid_fill(&pixmanColor) else { return }
        defer { pixman_image_unref(solid) }
        coverage.withUnsafeBytes { raw in
            // pixman only reads a mask: the bytes are not written through this pointer.
            let bits = UnsafeMutableRawPointer(mutating: raw.baseAddress!).assumingMemoryBound(to: UInt32.self)
            guard let mask = pixman_image_create_bits(PIXMAN_a8, Int32(area.width), Int32(area.height), bits, Int32(stride))
            else { return }
            defer { pixman_image_unref(mask) }
            var region = Region(area)
            if let clip { region.formIntersection(clip) }
            for r in region.rects {
                pixman_image_composite32(PIXMAN_OP_OVER, solid, mask, image, 0, 0,
                                         Int32(r.x - area.x), Int32(r.y - area.y), Int32(r.x), Int32(r.y),
                                         Int32(r.width), Int32(r.height))
            }
        }
    }
}
