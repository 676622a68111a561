import CCairoOracle
import Foundation
import LayerKit

/// Appends `path` to cairo's current path (cubic curves as they are; quadratics raised to cubics).
public func appendCairoPath(_ cr: OpaquePointer, _ path: Path) {
    for element in path.elements {
        switch element {
        case let .move(p): cairo_move_to(cr, p.x, p.y)
        case let .line(p): cairo_line_to(cr, p.x, p.y)
        case let .curve(p, c1, c2): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
        case let .quadCurve(p, q):
            var x0 = 0.0, y0 = 0.0
            cairo_get_current_point(cr, &x0, &y0)
            cairo_curve_to(cr, x0 + 2 / 3 * (q.x - x0), y0 + 2 / 3 * (q.y - y0),
                           p.x + 2 / 3 * (q.x - p.x), p.y + 2 / 3 * (q.y - p.y), p.x, p.y)
        case .closeSubpath: cairo_close_path(cr)
        }
    }
}
