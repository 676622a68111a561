import CPixman
import Foundation

extension Bitmap {
    /// Fills a path with a color, anti-aliased (source over).
    ///
    /// - Parameters:
    ///   - path: the outline filled.
    ///   - color: the color it is filled with.
    ///   - rule: non-zero winding (the default) or even-odd.
    ///   - transform: maps the path's coordinates to this bitmap's pixels.
    ///   - clip: when given, only these pixels change.
    public func fill(_ path: Path, with color: Color, rule: FillRule = .nonZero,
                     transform: CGAffineTransform = .identity, clip: Region? = nil) {
        checkNotBeingPainted()
        guard color.alpha > 0 else { return }
        ScanConverter.withConverter { converter in
            converter.addFill(path, transform: transform)
            fill(converter, with: color, rule: rule, clip: clip)
        }
    }

    /// Strokes a path with a color, anti-aliased: one outline filled once, so that no pixel is
    /// covered twice where the stroke overlaps itself.
    ///
    /// Under a transform that keeps angles (a rotation, uniform scale and translation) the
    /// stroke is built in device pixels; under any other it is built in the path's space and
    /// its outline transformed, so that it is as thick as the transform makes it in each
    /// direction.
    public func stroke(_ path: Path, with color: Color, style: StrokeStyle = StrokeStyle(),
                       transform: CGAffineTransform = .identity, clip: Region? = nil) {
        checkNotBeingPainted()
        guard color.alpha > 0 else { return }
        ScanConverter.withConverter { converter in
            converter.addStroke(path, style: style, transform: transform)
            fill(converter, with: color, rule: .nonZero, clip: clip)
        }
    }

    /// Composites a solid color through the coverage of the converter's edges, over the pixels
    /// they touch (within `clip`).
    ///
    /// Without a clip the coverage goes straight into the pixels, span by span, as pixman would
    /// composite it through a mask (bit for bit); with one, through a mask and pixman.
    func fill(_ converter: ScanConverter, with color: Color, rule: FillRule, clip: Region?) {
        guard let area = coverageArea(of: converter, clip: clip) else { return }
        guard let clip else {
            let premultiplied = color.premultipliedARGB32
            converter.withBlendTable(for: premultiplied) { table, holdsColor in
                var sink = ColorBlendSink(pixels: pixels, pixelsPerRow: width, x: area.x, y: area.y, color: premultiplied,
                                          table: table, tableHoldsColor: holdsColor)
                converter.render(rule: rule, area: area, into: &sink)
            }
            return
        }
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

    /// Composites a solid color through 8-bit coverage over `area` (rows `stride` bytes apart,
    /// a multiple of 4).
    func composite(coverage: [UInt8], stride: Int, area: PixelRect, color: Color, clip: Region?) {
        guard stride >= area.width, stride % 4 == 0, coverage.count >= stride * area.height else { return }
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
    /// Adds the outline of a path's stroke, mapped through `transform`, within the device
    /// tolerance.
    func addStroke(_ path: Path, style: StrokeStyle, transform t: CGAffineTransform) {
        let xx = t.a * t.a + t.b * t.b, yy = t.c * t.c + t.d * t.d, xy = t.a * t.c + t.b * t.d
        // The transform's largest stretch: the square root of MᵀM's larger eigenvalue.
        let stretch = ((xx + yy) / 2 + (((xx - yy) / 2) * ((xx - yy) / 2) + xy * xy).squareRoot()).squareRoot()
        guard stretch > 0, stretch.isFinite else { return }
        let keepsAngles = abs(xx - yy) <= 1e-9 * max(xx, yy) && abs(xy) <= 1e-9 * max(xx, yy)
        let stroker = self.stroker
        let tolerance = keepsAngles ? Path.deviceTolerance : Path.deviceTolerance / stretch
        guard stroker.configure(keepsAngles ? style.scaled(by: stretch) : style, tolerance: tolerance) else { return }
        let maximumTurn = Stroker.maximumTurn(half: stroker.half, tolerance: tolerance)
        withPointBuffer { buffer in
            var smoothness: [Bool]? = self.smoothness
            defer { self.smoothness = smoothness ?? [] }
            path.flatten(transform: keepsAngles ? t : nil, tolerance: tolerance, straddling: true, maximumTurn: maximumTurn,
                         into: &buffer, smoothness: &smoothness) { points, smooth, closed in
                stroker.addSubpath(points, smoothness: smooth, closed: closed) { contour in
                    if keepsAngles {
                        addPolygon(contour)
                    } else {
                        var previous = contour[contour.count - 1].applying(t)
                        for p in contour {
                            let q = p.applying(t)
                            addEdge(from: previous, to: q)
                            previous = q
                        }
                    }
                }
            }
        }
    }

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
