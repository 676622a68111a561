import CPixman
import Foundation

/// A color gradient: colors at locations 0…1 along an axis, around a centre, or around a circle.
public struct Gradient: Hashable, Sendable {
    /// The gradient's geometry.
    public enum Kind: Hashable, Sendable {
        /// From `start` to `end`, constant across.
        case axial(start: CGPoint, end: CGPoint)
        /// From `center` outwards; `radii` may differ per axis (an ellipse).
        case radial(center: CGPoint, radii: CGSize)
        /// Around `center`, starting at `angle` (radians, clockwise from +x on a y-down screen).
        case conic(center: CGPoint, angle: CGFloat)
    }

    /// Along an axis, around a centre, or around a circle.
    public var kind: Kind
    /// The colors, in order.
    public var colors: [Color]
    /// Where each color sits, 0…1; evenly spaced when nil (or when the count does not match).
    public var locations: [Double]?

    /// A gradient of `colors` at `locations` (evenly spaced when nil).
    public init(_ kind: Kind, colors: [Color], locations: [Double]? = nil) {
        self.kind = kind; self.colors = colors; self.locations = locations
    }

    /// The stops, sorted, with locations clamped to 0…1.
    var stops: [(location: Double, color: Color)] {
        guard !colors.isEmpty else { return [] }
        let locations = self.locations.flatMap { $0.count == colors.count && $0.allSatisfy(\.isFinite) ? $0 : nil }
            ?? colors.indices.map { colors.count == 1 ? 0 : Double($0) / Double(colors.count - 1) }
        return zip(locations, colors).map { (min(max($0, 0), 1), $1) }.sorted { $0.0 < $1.0 }
    }
}

extension Bitmap {
    /// Fills a path with a gradient whose geometry is in the path's space.
    public func fill(_ path: Path, with gradient: Gradient, rule: FillRule = .nonZero, transform: CGAffineTransform = .identity) {
        let stops = gradient.stops
        guard !stops.isEmpty else { return }
        ScanConverter.withConverter { converter in
            converter.addFill(path, transform: transform)
            guard let area = coverageArea(of: converter, clip: nil),
                  let source = Self.gradientImage(gradient.kind, stops: stops, transform: transform) else { return }
            defer { pixman_image_unref(source) }
            converter.renderMask(rule: rule, area: area) { mask, stride in
                guard let maskImage = pixman_image_create_bits(PIXMAN_a8, Int32(area.width), Int32(area.height),
                                                               UnsafeMutableRawPointer(mask).assumingMemoryBound(to: UInt32.self),
                                                               Int32(stride)) else { return }
                defer { pixman_image_unref(maskImage) }
                pixman_image_composite32(PIXMAN_OP_OVER, source, maskImage, image, Int32(area.x), Int32(area.y), 0, 0,
                                         Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height))
            }
        }
    }

    /// A pixman gradient image in device pixels: the gradient's geometry mapped through
    /// `transform` (pixman transforms the gradient; ellipses are a circle stretched).
    private static func gradientImage(_ kind: Gradient.Kind, stops: [(location: Double, color: Color)],
                                      transform: CGAffineTransform) -> OpaquePointer? {
        var pixmanStops = stops.map { stop -> pixman_gradient_stop_t in
            let c = stop.color
            func channel(_ v: Double) -> UInt16 { UInt16((Color.unit(v) * 65535).rounded()) }
            // pixman interpolates straight (not premultiplied) stop colors.
            return pixman_gradient_stop_t(x: pixman_fixed_t(stop.location * 65536),
                                          color: pixman_color_t(red: channel(c.red), green: channel(c.green),
                                                                blue: channel(c.blue), alpha: channel(c.alpha)))
        }
        func fixed(_ v: CGFloat) -> pixman_fixed_t { v.isNaN ? 0 : pixman_fixed_t(max(min(v, 32000), -32000) * 65536) }
        let image: OpaquePointer?
        // The gradient is built in its own (path) space, and pixman's image transform maps device
        // pixels back into that space.
        switch kind {
        case let .axial(start, end):
            var p1 = pixman_point_fixed_t(x: fixed(start.x), y: fixed(start.y))
            var p2 = pixman_point_fixed_t(x: fixed(end.x), y: fixed(end.y))
            if start == end { p2.x += 1 }
            image = pixman_image_create_linear_gradient(&p1, &p2, &pixmanStops, Int32(pixmanStops.count))
        case let .radial(center, radii):
            // A unit circle, stretched to the radii.
            var c = pixman_point_fixed_t(x: 0, y: 0)
            image = pixman_image_create_radial_gradient(&c, &c, 0, pixman_fixed_t(65536), &pixmanStops, Int32(pixmanStops.count))
            let rx = max(abs(radii.width), 1e-6), ry = max(abs(radii.height), 1e-6)
            let toUnit = CGAffineTransform(translationX: -center.x, y: -center.y).concatenating(CGAffineTransform(scaleX: 1 / rx, y: 1 / ry))
            return image.flatMap { setTransform($0, deviceToGradient: transform.inverted().concatenating(toUnit)) }
        case let .conic(center, angle):
            // pixman's conical gradient sweeps the other way round on a y-down screen: build it at
            // the origin and look at it through a vertical mirror, so it sweeps clockwise.
            var c = pixman_point_fixed_t(x: 0, y: 0)
            image = pixman_image_create_conical_gradient(&c, fixed(angle * 180 / .pi), &pixmanStops, Int32(pixmanStops.count))
            let toMirror = CGAffineTransform(translationX: -center.x, y: -center.y).concatenating(CGAffineTransform(scaleX: 1, y: -1))
            return image.flatMap { setTransform($0, deviceToGradient: transform.inverted().concatenating(toMirror)) }
        }
        return image.flatMap { setTransform($0, deviceToGradient: transform.inverted()) }
    }

    private static func setTransform(_ image: OpaquePointer, deviceToGradient m: CGAffineTransform) -> OpaquePointer? {
        var f = pixman_f_transform()
        f.m = ((Double(m.a), Double(m.c), Double(m.tx)), (Double(m.b), Double(m.d), Double(m.ty)), (0, 0, 1))
        var t = pixman_transform()
        guard pixman_transform_from_pixman_f_transform(&t, &f) != 0 else { pixman_image_unref(image); return nil }
        _ = pixman_image_set_transform(image, &t)
        return image
    }
}
