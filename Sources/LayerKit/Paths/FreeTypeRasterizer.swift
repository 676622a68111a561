import CFreeType
import Foundation

/// Anti-aliased coverage of polygons through FreeType's "smooth" outline rasterizer, with the
/// non-zero or even-odd rule, written as spans into an 8-bit buffer.
///
/// Owns one FT_Library. FreeType libraries are not thread-safe, but the rasterizer is
/// reentrant per library, so each thread gets its own (`FreeTypeRasterizer.current`).
final class FreeTypeRasterizer {
    private var library: FT_Library?

    private init?() {
        guard FT_Init_FreeType(&library) == 0, library != nil else { return nil }
    }

    deinit {
        FT_Done_FreeType(library)
    }

    /// The calling thread's rasterizer.
    static var current: FreeTypeRasterizer? {
        let key = "LayerKit.FreeTypeRasterizer"
        if let existing = Thread.current.threadDictionary[key] as? FreeTypeRasterizer { return existing }
        guard let made = FreeTypeRasterizer() else { return nil }
        Thread.current.threadDictionary[key] = made
        return made
    }

    /// Coverage of `polygons` (device pixels; each implicitly closed) over `area`: rows of
    /// `rowBytes(area.width)` bytes (padded to 4, as pixman's a8 images want), top to bottom. Polygons are cut to a margin around the
    /// area first (which keeps every winding number inside it), so coordinates stay well within
    /// FreeType's 26.6 range whatever the input.
    func coverage(of polygons: [[CGPoint]], rule: FillRule, area: PixelRect) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.rowBytes(area.width) * area.height)
        guard let library, !area.isEmpty else { return buffer }
        let box = area.cgRect.insetBy(dx: -4, dy: -4)
        let clipped = polygons.map { Self.clip($0, to: box) }.filter { $0.count >= 3 }
        guard !clipped.isEmpty else { return buffer }

        // FT_Outline counts points in 16 bits: larger inputs go through in batches of whole
        // contours, combined by saturating addition (exact when batches do not overlap).
        var batches: [[[CGPoint]]] = [[]]
        var batchPoints = 0
        for polygon in clipped {
            let polygon = polygon.count > Self.maximumPoints ? Array(polygon.prefix(Self.maximumPoints)) : polygon
            if batchPoints + polygon.count > Self.maximumPoints {
                batches.append([])
                batchPoints = 0
            }
            batches[batches.count - 1].append(polygon)
            batchPoints += polygon.count
        }
        buffer.withUnsafeMutableBufferPointer { output in
            guard let base = output.baseAddress else { return }
            var scratch = batches.count > 1 ? [UInt8](repeating: 0, count: output.count) : []
            for batch in batches where !batch.isEmpty {
                if batches.count == 1 {
                    render(batch, rule: rule, area: area, into: base, library: library)
                } else {
                    scratch.withUnsafeMutableBufferPointer { s in
                        s.initialize(repeating: 0)
                        render(batch, rule: rule, area: area, into: s.baseAddress!, library: library)
                        for i in 0..<output.count { output[i] = UInt8(min(255, Int(output[i]) + Int(s[i]))) }
                    }
                }
            }
        }
        return buffer
    }

    /// Bytes per coverage row.
    static func rowBytes(_ width: Int) -> Int { (width + 3) / 4 * 4 }

    /// The most points one FreeType outline may hold.
    static let maximumPoints = 32_000

    private func render(_ polygons: [[CGPoint]], rule: FillRule, area: PixelRect, into target: UnsafeMutablePointer<UInt8>,
                        library: FT_Library) {
        var points: [FT_Vector] = []
        var tags: [CChar] = []
        var contours: [Int16] = []
        for polygon in polygons {
            for p in polygon {
                // 26.6 fixed point relative to the area; FreeType's y grows upwards, so flip.
                let x = (p.x - CGFloat(area.x)) * 64, y = (CGFloat(area.height) - (p.y - CGFloat(area.y))) * 64
                points.append(FT_Vector(x: FT_Pos(x.rounded()), y: FT_Pos(y.rounded())))
                tags.append(CChar(FT_CURVE_TAG_ON))
            }
            contours.append(Int16(clamping: points.count - 1))
        }
        var state = SpanTarget(buffer: target, width: area.width, height: area.height)
        points.withUnsafeMutableBufferPointer { pointBuffer in
            tags.withUnsafeMutableBufferPointer { tagBuffer in
                contours.withUnsafeMutableBufferPointer { contourBuffer in
                    var outline = FT_Outline()
                    outline.n_points = Int16(clamping: pointBuffer.count)
                    outline.n_contours = Int16(clamping: contourBuffer.count)
                    outline.points = pointBuffer.baseAddress
                    outline.tags = tagBuffer.baseAddress
                    outline.contours = contourBuffer.baseAddress
                    outline.flags = rule == .evenOdd ? FT_OUTLINE_EVEN_ODD_FILL : FT_OUTLINE_NONE
                    withUnsafeMutablePointer(to: &state) { spanTarget in
                        var params = FT_Raster_Params()
                        params.flags = FT_RASTER_FLAG_AA | FT_RASTER_FLAG_DIRECT | FT_RASTER_FLAG_CLIP
                        params.gray_spans = { y, count, spans, user in
                            guard let user, let spans else { return }
                            user.assumingMemoryBound(to: SpanTarget.self).pointee.write(y: Int(y), spans: spans, count: Int(count))
                        }
                        params.user = UnsafeMutableRawPointer(spanTarget)
                        params.clip_box = FT_BBox(xMin: 0, yMin: 0, xMax: FT_Pos(area.width), yMax: FT_Pos(area.height))
                        _ = FT_Outline_Render(library, &outline, &params)
                    }
                }
            }
        }
    }

    /// Where spans land: FreeType calls back with rows counted from the bottom.
    struct SpanTarget {
        let buffer: UnsafeMutablePointer<UInt8>
        let width: Int, height: Int

        init(buffer: UnsafeMutablePointer<UInt8>, width: Int, height: Int) {
            self.buffer = buffer; self.width = width; self.height = height
        }

        var stride: Int { FreeTypeRasterizer.rowBytes(width) }

        func write(y: Int, spans: UnsafePointer<FT_Span>, count: Int) {
            let row = height - 1 - y
            guard row >= 0, row < height else { return }
            for i in 0..<count {
                let span = spans[i]
                let x0 = max(0, Int(span.x)), x1 = min(width, Int(span.x) + Int(span.len))
                guard x1 > x0 else { continue }
                let base = buffer + row * stride
                for x in x0..<x1 { base[x] = span.coverage }
            }
        }
    }

    /// Sutherland–Hodgman against a rectangle: inside it the cut polygon has the same winding
    /// numbers as the original, so either fill rule gives the same coverage there.
    static func clip(_ polygon: [CGPoint], to box: CGRect) -> [CGPoint] {
        var output = polygon
        let edges: [(CGPoint) -> CGFloat] = [
            { $0.x - box.minX }, { box.maxX - $0.x }, { $0.y - box.minY }, { box.maxY - $0.y },
        ]
        for inside in edges {
            let input = output
            output = []
            guard let last = input.last else { break }
            var previous = last
            for point in input {
                let a = inside(previous), b = inside(point)
                if b >= 0 {
                    if a < 0 { output.append(intersection(previous, point, a, b)) }
                    output.append(point)
                } else if a >= 0 {
                    output.append(intersection(previous, point, a, b))
                }
                previous = point
            }
        }
        return output
    }

    private static func intersection(_ p: CGPoint, _ q: CGPoint, _ a: CGFloat, _ b: CGFloat) -> CGPoint {
        let t = a / (a - b)
        return CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t)
    }
}
