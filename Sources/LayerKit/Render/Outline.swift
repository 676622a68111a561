import CPixman
import Foundation

/// The closed convex outlines the renderer fills: layer bounds, rounded or not, for
/// backgrounds, borders (one outline inside another) and clips.
///
/// Arcs are flattened finely enough for the scale they are drawn at (the chord never strays
/// more than a tenth of a pixel from the arc), and polygons are filled with pixman's
/// anti-aliased triangle rasterizer; a pixel-aligned rectangle is filled exactly.
struct Outline: Hashable, Sendable {
    /// Convex polygons; with the even-odd rule, later ones cut holes in the first.
    private(set) var polygons: [[CGPoint]] = []
    /// The rectangle, when the outline is one axis-aligned rectangle (filled exactly).
    private(set) var rect: CGRect?

    /// How far a flattened arc may stray from the true arc, in device pixels.
    static let tolerance: CGFloat = 0.1

    /// A rectangle.
    init(rect r: CGRect) {
        guard !r.isNull, r.width > 0, r.height > 0 else { return }
        rect = r
        polygons = [[CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                     CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]]
    }

    /// A rectangle with the masked corners rounded by `radius` (limited to half the shorter
    /// side), flattened for drawing at `scale` device pixels per unit.
    init(roundedRect r: CGRect, radius: CGFloat, corners: CornerMask, scale: CGFloat) {
        self.init(rect: r)
        let radius = min(radius, r.width / 2, r.height / 2)
        guard radius > 0, radius.isFinite, !corners.isEmpty, scale > 0, rect != nil else { return }
        rect = nil
        // Segments per quarter circle so that the sagitta r·(1 − cos(θ/2)) stays within tolerance.
        let pixels = radius * scale
        let step = 2 * acos(max(0, 1 - Self.tolerance / max(pixels, Self.tolerance)))
        let segments = max(1, min(256, Int((CGFloat.pi / 2 / max(step, 1e-3)).rounded(.up))))
        var points: [CGPoint] = []
        // Clockwise on screen from the top-left corner: (centre, start angle, rounded?).
        let quarters: [(CGPoint, CGFloat, CornerMask, CGPoint)] = [
            (CGPoint(x: r.minX + radius, y: r.minY + radius), .pi, .layerMinXMinYCorner, CGPoint(x: r.minX, y: r.minY)),
            (CGPoint(x: r.maxX - radius, y: r.minY + radius), 1.5 * .pi, .layerMaxXMinYCorner, CGPoint(x: r.maxX, y: r.minY)),
            (CGPoint(x: r.maxX - radius, y: r.maxY - radius), 0, .layerMaxXMaxYCorner, CGPoint(x: r.maxX, y: r.maxY)),
            (CGPoint(x: r.minX + radius, y: r.maxY - radius), 0.5 * .pi, .layerMinXMaxYCorner, CGPoint(x: r.minX, y: r.maxY)),
        ]
        for (center, start, corner, sharp) in quarters {
            guard corners.contains(corner) else {
                points.append(sharp)
                continue
            }
            for i in 0...segments {
                let angle = start + CGFloat(i) / CGFloat(segments) * .pi / 2
                points.append(CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle)))
            }
        }
        polygons = [points]
    }

    /// Adds another outline's polygons (a hole, under the even-odd rule).
    mutating func add(_ other: Outline) {
        polygons += other.polygons
        rect = nil
    }

    var isEmpty: Bool { polygons.isEmpty }
}

extension Bitmap {
    /// Fills an outline with a color (source over). With `evenOdd`, the second and later
    /// polygons are holes in the first. `transform` maps the outline's space to pixels.
    func fill(_ outline: Outline, with color: Color, evenOdd: Bool = false, transform: CGAffineTransform = .identity) {
        guard !outline.isEmpty else { return }
        // A rectangle landing on whole pixels is filled exactly, without rasterizing.
        if let rect = outline.rect, transform.b == 0, transform.c == 0 {
            let r = rect.applying(transform)
            let edges = [r.minX, r.minY, r.maxX, r.maxY]
            if edges.allSatisfy({ $0.isFinite && abs($0 - $0.rounded()) < 1e-9 }) {
                fill(PixelRect(covering: r.insetBy(dx: 1e-9, dy: 1e-9)), with: color)
                return
            }
        }
        let device = outline.polygons.map { $0.map { $0.applying(transform) } }
        guard let box = CGRect(boundingPoints: device[0]) else { return }
        let area = PixelRect(covering: box).intersection(bounds)
        guard !area.isEmpty, let coverage = pixman_image_create_bits(PIXMAN_a8, Int32(area.width), Int32(area.height), nil, 0) else { return }
        defer { pixman_image_unref(coverage) }
        Self.addTriangles(of: device[0], to: coverage, origin: area)
        if evenOdd {
            for hole in device.dropFirst() {
                guard let holeCoverage = pixman_image_create_bits(PIXMAN_a8, Int32(area.width), Int32(area.height), nil, 0) else { continue }
                Self.addTriangles(of: hole, to: holeCoverage, origin: area)
                pixman_image_composite32(PIXMAN_OP_OUT_REVERSE, holeCoverage, nil, coverage, 0, 0, 0, 0, 0, 0,
                                         Int32(area.width), Int32(area.height))
                pixman_image_unref(holeCoverage)
            }
        } else {
            for polygon in device.dropFirst() { Self.addTriangles(of: polygon, to: coverage, origin: area) }
        }
        var pixmanColor = Self.pixmanColor(premultiplied: color.premultipliedARGB32)
        guard let solid = pixman_image_create_solid_fill(&pixmanColor) else { return }
        defer { pixman_image_unref(solid) }
        pixman_image_composite32(PIXMAN_OP_OVER, solid, coverage, image, 0, 0, 0, 0,
                                 Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
    }

    /// Adds the triangle fan of a convex polygon (device pixels) to an a8 coverage image whose
    /// top-left is `origin`. Points are clamped to a two-pixel margin around the image, which
    /// keeps them in pixman's 16.16 range; for the axis-aligned outlines the renderer fills this
    /// moves only what lies outside the image.
    private static func addTriangles(of polygon: [CGPoint], to coverage: OpaquePointer, origin: PixelRect) {
        guard polygon.count >= 3 else { return }
        let limitX = CGFloat(origin.width + 2), limitY = CGFloat(origin.height + 2)
        func fixed(_ p: CGPoint) -> pixman_point_fixed_t {
            let x = min(max(p.x - CGFloat(origin.x), -2), limitX)
            let y = min(max(p.y - CGFloat(origin.y), -2), limitY)
            return pixman_point_fixed_t(x: pixman_fixed_t((x * 65536).rounded()), y: pixman_fixed_t((y * 65536).rounded()))
        }
        let points = polygon.map(fixed)
        var triangles: [pixman_triangle_t] = []
        triangles.reserveCapacity(points.count - 2)
        for i in 1..<points.count - 1 {
            triangles.append(pixman_triangle_t(p1: points[0], p2: points[i], p3: points[i + 1]))
        }
        pixman_add_triangles(coverage, 0, 0, Int32(triangles.count), &triangles)
    }
}
