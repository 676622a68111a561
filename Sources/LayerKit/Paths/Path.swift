import Foundation

/// How a path's inside is decided where its outline crosses itself (Core Animation's
/// `fillRule`: non-zero winding or even-odd).
public enum FillRule: String, Hashable, Sendable {
    /// Inside where the outline winds around a point a non-zero number of times (the default).
    case nonZero
    /// Inside where a ray from a point crosses the outline an odd number of times.
    case evenOdd
}

/// A vector outline: subpaths of lines and quadratic and cubic Béziers (CGPath's model), in
/// LayerKit's y-down coordinates.
///
/// A value type; builders are named as CGMutablePath's so ported code reads the same.
public struct Path: Hashable, Sendable {
    /// One step of a path.
    public enum Element: Hashable, Sendable {
        /// Starts a subpath at a point.
        case move(to: CGPoint)
        /// A straight line from the current point.
        case line(to: CGPoint)
        /// A quadratic Bézier from the current point, with one control point.
        case quadCurve(to: CGPoint, control: CGPoint)
        /// A cubic Bézier from the current point, with two control points.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// A line back to the subpath's start, closing it.
        case closeSubpath
    }

    /// The elements, in order.
    public private(set) var elements: [Element] = []
    private var subpathStart: CGPoint?

    /// An empty path.
    public init() {}

    /// A rectangle, clockwise on screen from its top-left corner.
    public init(rect: CGRect) { addRect(rect) }

    /// The ellipse inscribed in `rect`.
    public init(ellipseIn rect: CGRect) { addEllipse(in: rect) }

    /// A rectangle with all four corners rounded by `cornerRadius` (limited to half the shorter
    /// side).
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        addRoundedRect(in: rect, cornerWidth: cornerRadius, cornerHeight: cornerRadius)
    }

    /// A rectangle with the given corners rounded (the others square), as a layer with
    /// `maskedCorners` draws.
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat, corners: CornerMask) {
        let r = rect.standardized
        let radius = max(0, min(cornerRadius, r.width / 2, r.height / 2))
        guard radius > 0, !corners.isEmpty else { addRect(r); return }
        func corner(_ mask: CornerMask) -> CGFloat { corners.contains(mask) ? radius : 0 }
        let tl = corner(.layerMinXMinYCorner), tr = corner(.layerMaxXMinYCorner)
        let br = corner(.layerMaxXMaxYCorner), bl = corner(.layerMinXMaxYCorner)
        move(to: CGPoint(x: r.minX + tl, y: r.minY))
        addLine(to: CGPoint(x: r.maxX - tr, y: r.minY))
        if tr > 0 { addArc(center: CGPoint(x: r.maxX - tr, y: r.minY + tr), radius: tr, startAngle: -.pi / 2, endAngle: 0, clockwise: false) }
        addLine(to: CGPoint(x: r.maxX, y: r.maxY - br))
        if br > 0 { addArc(center: CGPoint(x: r.maxX - br, y: r.maxY - br), radius: br, startAngle: 0, endAngle: .pi / 2, clockwise: false) }
        addLine(to: CGPoint(x: r.minX + bl, y: r.maxY))
        if bl > 0 { addArc(center: CGPoint(x: r.minX + bl, y: r.maxY - bl), radius: bl, startAngle: .pi / 2, endAngle: .pi, clockwise: false) }
        addLine(to: CGPoint(x: r.minX, y: r.minY + tl))
        if tl > 0 { addArc(center: CGPoint(x: r.minX + tl, y: r.minY + tl), radius: tl, startAngle: .pi, endAngle: 1.5 * .pi, clockwise: false) }
        closeSubpath()
    }

    /// An arc as UIBezierPath draws it: `clockwise` true means increasing angles, which on a
    /// y-down screen turn clockwise (UIKit's meaning; CGPath's flag is the opposite).
    public init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }

    /// The end of the last element (nil for an empty path).
    public var currentPoint: CGPoint? {
        for element in elements.reversed() {
            switch element {
            case let .move(p), let .line(p): return p
            case let .quadCurve(p, _): return p
            case let .curve(p, _, _): return p
            case .closeSubpath: return subpathStart
            }
        }
        return nil
    }

    // MARK: Building

    /// Starts a new subpath at `point`.
    public mutating func move(to point: CGPoint) {
        elements.append(.move(to: point))
        subpathStart = point
    }

    /// A straight line from the current point (starting a subpath there if there is none).
    public mutating func addLine(to point: CGPoint) {
        if currentPoint == nil { move(to: point); return }
        elements.append(.line(to: point))
    }

    /// Lines through the points, starting a new subpath at the first.
    public mutating func addLines(between points: [CGPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { addLine(to: p) }
    }

    /// A quadratic Bézier from the current point.
    public mutating func addQuadCurve(to end: CGPoint, control: CGPoint) {
        if currentPoint == nil { move(to: control) }
        elements.append(.quadCurve(to: end, control: control))
    }

    /// A cubic Bézier from the current point.
    public mutating func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        if currentPoint == nil { move(to: control1) }
        elements.append(.curve(to: end, control1: control1, control2: control2))
    }

    /// Closes the current subpath with a line back to its start.
    public mutating func closeSubpath() {
        guard let last = elements.last, last != .closeSubpath else { return }
        elements.append(.closeSubpath)
    }

    /// A closed rectangle subpath.
    public mutating func addRect(_ rect: CGRect) {
        let r = rect.standardized
        guard !r.isNull else { return }
        addLines(between: [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                           CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)])
        closeSubpath()
    }

    /// Closed rectangle subpaths.
    public mutating func addRects(_ rects: [CGRect]) { rects.forEach { addRect($0) } }

    /// A closed ellipse subpath inscribed in `rect` (four cubic Béziers).
    public mutating func addEllipse(in rect: CGRect) {
        let r = rect.standardized
        guard !r.isNull else { return }
        let center = CGPoint(x: r.midX, y: r.midY)
        let scale = CGAffineTransform(a: r.width / 2, b: 0, c: 0, d: r.height / 2, tx: center.x, ty: center.y)
        var circle = Path()
        circle.move(to: CGPoint(x: 1, y: 0))
        circle.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        circle.closeSubpath()
        addPath(circle, transform: scale)
    }

    /// A rounded-rectangle subpath with elliptical corners.
    public mutating func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat) {
        let r = rect.standardized
        let w = max(0, min(cornerWidth, r.width / 2)), h = max(0, min(cornerHeight, r.height / 2))
        guard w > 0, h > 0 else { addRect(r); return }
        // A circular rounded rect of radius 1 in corner units, stretched to w × h corners.
        var unit = Path(roundedRect: CGRect(x: 0, y: 0, width: r.width / w, height: r.height / h), cornerRadius: 1, corners: .all)
        unit = unit.applying(CGAffineTransform(a: w, b: 0, c: 0, d: h, tx: r.minX, ty: r.minY))
        addPath(unit)
    }

    /// An arc of a circle with CGPath's rule: `clockwise` false means the angle increases from
    /// start to end, which on LayerKit's y-down screen turns clockwise (as CGContext.addArc in
    /// a flipped context). A line joins the current point to the arc's start.
    public mutating func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        guard radius.isFinite, startAngle.isFinite, endAngle.isFinite, radius >= 0 else { return }
        var sweep = endAngle - startAngle
        let full = 2 * CGFloat.pi
        if clockwise {
            // Decreasing angles; a sweep of more than a full turn is one turn.
            if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - (sweep.truncatingRemainder(dividingBy: full) > 0 ? full : 0) }
            sweep = max(sweep, -full)
        } else {
            if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + (sweep.truncatingRemainder(dividingBy: full) < 0 ? full : 0) }
            sweep = min(sweep, full)
        }
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if currentPoint == nil { move(to: start) } else { addLine(to: start) }
        // Quarter-turn (or smaller) cubic segments: control points at 4/3·tan(θ/4) of the radius.
        let segments = max(1, Int((abs(sweep) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / CGFloat(segments)
        let k = 4.0 / 3.0 * tan(step / 4)
        var angle = startAngle
        for _ in 0..<segments {
            let next = angle + step
            let p0 = CGPoint(x: cos(angle), y: sin(angle)), p3 = CGPoint(x: cos(next), y: sin(next))
            let c1 = CGPoint(x: p0.x - k * p0.y, y: p0.y + k * p0.x)
            let c2 = CGPoint(x: p3.x + k * p3.y, y: p3.y - k * p3.x)
            func place(_ p: CGPoint) -> CGPoint { CGPoint(x: center.x + radius * p.x, y: center.y + radius * p.y) }
            elements.append(.curve(to: place(p3), control1: place(c1), control2: place(c2)))
            angle = next
        }
    }

    /// The arc of `radius` tangent to the lines from the current point to `tangent1End` and from
    /// there to `tangent2End` (CGPath's tangent arc); a line leads to its start.
    public mutating func addArc(tangent1End p1: CGPoint, tangent2End p2: CGPoint, radius: CGFloat) {
        guard let p0 = currentPoint else { move(to: p1); return }
        let v1 = CGPoint(x: p0.x - p1.x, y: p0.y - p1.y), v2 = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)
        let l1 = hypot(v1.x, v1.y), l2 = hypot(v2.x, v2.y)
        let cross = v1.x * v2.y - v1.y * v2.x
        guard l1 > 0, l2 > 0, radius > 0, abs(cross) > 1e-12 * l1 * l2 else { addLine(to: p1); return }
        let angle = acos(max(-1, min(1, (v1.x * v2.x + v1.y * v2.y) / (l1 * l2))))
        let distance = radius / tan(angle / 2)
        let t1 = CGPoint(x: p1.x + v1.x / l1 * distance, y: p1.y + v1.y / l1 * distance)
        let t2 = CGPoint(x: p1.x + v2.x / l2 * distance, y: p1.y + v2.y / l2 * distance)
        // The centre lies along the bisector, radius / sin(angle/2) from the corner.
        let bisector = CGPoint(x: v1.x / l1 + v2.x / l2, y: v1.y / l1 + v2.y / l2)
        let bl = hypot(bisector.x, bisector.y)
        let c = CGPoint(x: p1.x + bisector.x / bl * radius / sin(angle / 2), y: p1.y + bisector.y / bl * radius / sin(angle / 2))
        let a1 = atan2(t1.y - c.y, t1.x - c.x), a2 = atan2(t2.y - c.y, t2.x - c.x)
        addLine(to: t1)
        addArc(center: c, radius: radius, startAngle: a1, endAngle: a2, clockwise: cross > 0)
    }

    /// Appends another path's elements, transformed.
    public mutating func addPath(_ path: Path, transform: CGAffineTransform = .identity) {
        for element in path.applying(transform).elements {
            if case let .move(p) = element { subpathStart = p }
            elements.append(element)
        }
    }

    /// The path with every point mapped through `t`.
    public func applying(_ t: CGAffineTransform) -> Path {
        var result = Path()
        result.elements = elements.map { element in
            switch element {
            case let .move(p): .move(to: p.applying(t))
            case let .line(p): .line(to: p.applying(t))
            case let .quadCurve(p, c): .quadCurve(to: p.applying(t), control: c.applying(t))
            case let .curve(p, c1, c2): .curve(to: p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
            case .closeSubpath: .closeSubpath
            }
        }
        result.subpathStart = subpathStart?.applying(t)
        return result
    }

    /// The smallest rectangle holding every point, control points included (null when empty).
    public var boundingBox: CGRect {
        // CGRect(boundingPoints:) over the points and control points, without gathering them.
        var low = CGPoint(x: CGFloat.infinity, y: .infinity), high = CGPoint(x: -CGFloat.infinity, y: -.infinity)
        var any = false
        func include(_ p: CGPoint) -> Bool {
            guard p.x.isFinite, p.y.isFinite else { return false }
            if !any {
                (low, high, any) = (p, p, true)
                return true
            }
            low = CGPoint(x: min(low.x, p.x), y: min(low.y, p.y))
            high = CGPoint(x: max(high.x, p.x), y: max(high.y, p.y))
            return true
        }
        for element in elements {
            let finite = switch element {
            case let .move(p), let .line(p): include(p)
            case let .quadCurve(p, c): include(p) && include(c)
            case let .curve(p, c1, c2): include(p) && include(c1) && include(c2)
            case .closeSubpath: true
            }
            guard finite else { return .null }
        }
        return any ? CGRect(x: low.x, y: low.y, width: high.x - low.x, height: high.y - low.y) : .null
    }

    /// The smallest rectangle holding the path itself (curves, not their control points).
    public var boundingBoxOfPath: CGRect {
        CGRect(boundingPoints: flattened(tolerance: 0.001).flatMap { $0.points }) ?? .null
    }

    /// The path a fraction of the way to `other`, point by point; nil when the two do not have
    /// the same elements (Core Animation shows such path animations jumping halfway).
    public func interpolated(to other: Path, fraction t: CGFloat) -> Path? {
        guard elements.count == other.elements.count else { return nil }
        func mix(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
        var result = Path()
        for (a, b) in zip(elements, other.elements) {
            switch (a, b) {
            case let (.move(p), .move(q)): result.move(to: mix(p, q))
            case let (.line(p), .line(q)): result.elements.append(.line(to: mix(p, q)))
            case let (.quadCurve(p, c), .quadCurve(q, d)): result.elements.append(.quadCurve(to: mix(p, q), control: mix(c, d)))
            case let (.curve(p, c1, c2), .curve(q, d1, d2)):
                result.elements.append(.curve(to: mix(p, q), control1: mix(c1, d1), control2: mix(c2, d2)))
            case (.closeSubpath, .closeSubpath): result.elements.append(.closeSubpath)
            default: return nil
            }
        }
        return result
    }

    /// Whether `point` is inside the path under `rule` (subpaths count as closed).
    public func contains(_ point: CGPoint, using rule: FillRule = .nonZero) -> Bool {
        var winding = 0
        for polygon in flattened(tolerance: 0.01) {
            let pts = polygon.points
            guard pts.count >= 2 else { continue }
            for i in pts.indices {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                if a.y <= point.y {
                    if b.y > point.y, (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) > 0 { winding += 1 }
                } else if b.y <= point.y, (b.x - a.x) * (point.y - a.y) - (point.x - a.x) * (b.y - a.y) < 0 {
                    winding -= 1
                }
            }
        }
        return rule == .nonZero ? winding != 0 : winding % 2 != 0
    }
}
