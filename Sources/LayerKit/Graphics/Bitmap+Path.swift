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
        ScanConverter.withConverter { converter in
            converter.addFill(path, transform: transform)
            fill(converter, with: color, rule: rule, clip: clip)
        }
    }

    /// Composites a solid color through the coverage of the converter's edges, over the pixels
    /// they touch (within `clip`).
    func fill(_ converter: ScanConverter, with color: Color, rule: FillRule, clip: Region?) {
        guard let area = coverageArea(of: converter, clip: clip) else { return }
        converter.renderMask(rule: rule, area: area) { mask, stride in
            composite(mask: mask, stride: stride, area: area, color: color, clip: clip)
        }
    }

    /// The pixels of this bitmap (within `clip`) that the converter's edges may cover.
    func coverageArea(of converter: ScanConverter, clip: Region?) -> PixelRect? {
        guard let box = converter.boundingBox else { return nil }
        var area = PixelRect(covering: box).intersection(bounds)
        if let clip { area = area.intersection(clip.extents) }
        return area.isEmpty ? nil : area
    }

    /// Composites a solid color through 8-bit coverage over `area` (rows padded to 4 bytes).
    func composite(coverage: [UInt8], area: PixelRect, color: Color, clip: Region?) {
        let stride = ScanConverter.rowBytes(area.width)
        guard coverage.count >= stride * area.height else { return }
        coverage.withUnsafeBytes { raw in
            // pixman only reads a mask: the bytes are not written through this pointer.
            let bytes = UnsafeMutableRawPointer(mutating: raw.baseAddress!).assumingMemoryBound(to: UInt8.self)
            composite(mask: bytes, stride: stride, area: area, color: color, clip: clip)
        }
    }

    /// Composites a solid color (source over) through an a8 mask of `stride` bytes a row
    /// (a multiple of 4) laid over `area`.
    func composite(mask: UnsafeMutablePointer<UInt8>, stride: Int, area: PixelRect, color: Color, clip: Region?) {
        var pixmanColor = Self.pixmanColor(premultiplied: color.premultipliedARGB32)
        guard let solid = pixman_image_create_solid_fill(&pixmanColor) else { return }
        defer { pixman_image_unref(solid) }
        let bits = UnsafeMutableRawPointer(mask).assumingMemoryBound(to: UInt32.self)
        guard let maskImage = pixman_image_create_bits(PIXMAN_a8, Int32(area.width), Int32(area.height), bits, Int32(stride))
        else { return }
        defer { pixman_image_unref(maskImage) }
        guard let clip else {
            pixman_image_composite32(PIXMAN_OP_OVER, solid, maskImage, image, 0, 0, 0, 0, Int32(area.x), Int32(area.y),
                                     Int32(area.width), Int32(area.height))
            return
        }
        var region = Region(area)
        region.formIntersection(clip)
        for r in region.rects {
            pixman_image_composite32(PIXMAN_OP_OVER, solid, maskImage, image, 0, 0,
                                     Int32(r.x - area.x), Int32(r.y - area.y), Int32(r.x), Int32(r.y),
                                     Int32(r.width), Int32(r.height))
        }
    }
}

extension ScanConverter {
    /// Adds a path's subpaths (each closed implicitly), mapped through `transform` and
    /// flattened to the device tolerance.
    func addFill(_ path: Path, transform: CGAffineTransform) {
        withPointBuffer { buffer in
            path.flatten(transform: transform, tolerance: Path.deviceTolerance, straddling: true, into: &buffer) { points, _ in
                addPolygon(points)
            }
        }
    }
}
