import Foundation

/// How open ends of a stroke look (Core Animation's CAShapeLayerLineCap).
public enum LineCap: String, Hashable, Sendable {
    case butt, round, square
}

/// How a stroke turns corners (Core Animation's CAShapeLayerLineJoin).
public enum LineJoin: String, Hashable, Sendable {
    case miter, round, bevel
}

/// A stroke's style, with Core Animation's defaults.
public struct StrokeStyle: Hashable, Sendable {
    public var lineWidth: CGFloat = 1
    public var lineCap: LineCap = .butt
    public var lineJoin: LineJoin = .miter
    public var miterLimit: CGFloat = 10
    /// Lengths of dashes and gaps, alternating; empty for a solid line.
    public var dashPattern: [CGFloat] = []
    public var dashPhase: CGFloat = 0

    public init(lineWidth: CGFloat = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: CGFloat = 10,
                dashPattern: [CGFloat] = [], dashPhase: CGFloat = 0) {
        self.lineWidth = lineWidth; self.lineCap = lineCap; self.lineJoin = lineJoin
        self.miterLimit = miterLimit; self.dashPattern = dashPattern; self.dashPhase = dashPhase
    }
}

extension Path {
    /// The area a stroke covers, as a path to fill with the non-zero rule: one clockwise piece
    /// per segment, join and cap, whose union is the stroke.
    ///
    /// `tolerance` is how closely round joins and caps follow their circles, in the path's
    /// units. A dash pattern with a negative or non-finite entry, or that sums to zero, strokes
    /// solid (as Core Graphics ignores such patterns).
    public func strokedOutline(_ style: StrokeStyle, tolerance: CGFloat = 0.05) -> Path {
        let half = style.lineWidth / 2
        guard half > 0, half.isFinite else { return Path() }
        var polylines = flattened(tolerance: tolerance)
        if Self.isUsableDashPattern(style.dashPattern) {
            polylines = polylines.flatMap { Self.dash($0, pattern: style.dashPattern, phase: style.dashPhase) }
        }
        var pieces = Path()
        for line in polylines {
            var points = line.points
            // Drop repeated points: they have no direction.
            points = points.enumerated().filter { $0.offset == 0 || $0.element != points[$0.offset - 1] }.map(\.element)
            if line.isClosed, points.count > 2, points.first == points.last { points.removeLast() }
            if points.count == 1 {
                // A zero-length subpath: round and square caps still draw a dot, as Core Graphics does.
                Self.addDot(at: points[0], half: half, cap: style.lineCap, tolerance: tolerance, to: &pieces)
                continue
            }
            let closed = line.isClosed && points.count > 2
            let count = closed ? points.count : points.count - 1
            for i in 0..<count {
                let a = points[i], b = points[(i + 1) % points.count]
                let n = Self.normal(from: a, to: b, half: half)
                Self.addPolygon([CGPoint(x: a.x + n.x, y: a.y + n.y), CGPoint(x: b.x + n.x, y: b.y + n.y),
                                 CGPoint(x: b.x - n.x, y: b.y - n.y), CGPoint(x: a.x - n.x, y: a.y - n.y)], to: &pieces)
            }
            // Joins at interior vertices (all of them when closed).
            let joins = closed ? Array(points.indices) : Array(points.indices.dropFirst().dropLast())
            for i in joins {
                let previous = points[(i - 1 + points.count) % points.count], vertex = points[i]
                let next = points[(i + 1) % points.count]
                Self.addJoin(previous, vertex, next, half: half, style: style, tolerance: tolerance, to: &pieces)
            }
            if !closed {
                Self.addCap(at: points[0], away: points[1], half: half, cap: style.lineCap, tolerance: tolerance, to: &pieces)
                Self.addCap(at: points[points.count - 1], away: points[points.count - 2], half: half, cap: style.lineCap,
                            tolerance: tolerance, to: &pieces)
            }
        }
        return pieces
    }

    static func isUsableDashPattern(_ pattern: [CGFloat]) -> Bool {
        !pattern.isEmpty && pattern.allSatisfy { $0.isFinite && $0 >= 0 } && pattern.reduce(0, +) > 0
    }

    /// The dashes of a polyline: the "on" stretches of the pattern, starting `phase` into it.
    static func dash(_ line: Polyline, pattern: [CGFloat], phase: CGFloat) -> [Polyline] {
        var points = line.points
        if line.isClosed, let first = points.first { points.append(first) }
        let period = pattern.reduce(0, +)
        var offset = phase.truncatingRemainder(dividingBy: period)
        if offset < 0 { offset += period }
        var index = 0
        while offset >= pattern[index] {
            offset -= pattern[index]
            index = (index + 1) % pattern.count
        }
        var remaining = pattern[index] - offset
        var on = index % 2 == 0
        var dashes: [Polyline] = []
        var current: [CGPoint] = on ? [points[0]] : []
        for (a, b) in zip(points, points.dropFirst()) {
            var start = a
            var length = hypot(b.x - a.x, b.y - a.y)
            while length > remaining, dashes.count < 100_000 {
                let t = remaining / length
                let cut = CGPoint(x: start.x + (b.x - start.x) * t, y: start.y + (b.y - start.y) * t)
                if on {
                    current.append(cut)
                    dashes.append(Polyline(points: current, isClosed: false))
                    current = []
                } else {
                    current = [cut]
                }
                on.toggle()
                length -= remaining
                start = cut
                index = (index + 1) % pattern.count
                remaining = pattern[index]
            }
            remaining -= length
            if on { current.append(b) }
        }
        if on, current.count > 1 { dashes.append(Polyline(points: current, isClosed: false)) }
        return dashes
    }

    private static func normal(from a: CGPoint, to b: CGPoint, half: CGFloat) -> CGPoint {
        let dx = b.x - a.x, dy = b.y - a.y
        let length = hypot(dx, dy)
        return length > 0 ? CGPoint(x: -dy / length * half, y: dx / length * half) : .zero
    }

    /// Adds a polygon turned clockwise on screen, so that every piece winds the same way and
    /// the non-zero rule fills their union.
    private static func addPolygon(_ polygon: [CGPoint], to path: inout Path) {
        guard polygon.count >= 3 else { return }
        path.addLines(between: signedArea(of: polygon) < 0 ? polygon.reversed() : polygon)
        path.closeSubpath()
    }

    /// Points along an arc, from its start to its end, within `tolerance` of the circle.
    private static func arc(center: CGPoint, radius: CGFloat, from start: CGFloat, sweep: CGFloat, tolerance: CGFloat) -> [CGPoint] {
        let step = 2 * acos(max(0, 1 - min(tolerance / radius, 1)))
        let count = max(2, min(1024, Int((abs(sweep) / max(step, 1e-3)).rounded(.up)) + 1))
        return (0..<count).map { i in
            let a = start + sweep * CGFloat(i) / CGFloat(count - 1)
            return CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
        }
    }

    private static func addCircle(at center: CGPoint, half: CGFloat, tolerance: CGFloat, to path: inout Path) {
        let step = 2 * acos(max(0, 1 - min(tolerance / half, 1)))
        let count = max(8, min(1024, Int((2 * .pi / max(step, 1e-3)).rounded(.up))))
        addPolygon((0..<count).map { i in
            let a = CGFloat(i) / CGFloat(count) * 2 * .pi
            return CGPoint(x: center.x + half * cos(a), y: center.y + half * sin(a))
        }, to: &path)
    }

    private static func addDot(at p: CGPoint, half: CGFloat, cap: LineCap, tolerance: CGFloat, to path: inout Path) {
        switch cap {
        case .butt: break
        case .round: addCircle(at: p, half: half, tolerance: tolerance, to: &path)
        case .square: addPolygon([CGPoint(x: p.x - half, y: p.y - half), CGPoint(x: p.x + half, y: p.y - half),
                                  CGPoint(x: p.x + half, y: p.y + half), CGPoint(x: p.x - half, y: p.y + half)], to: &path)
        }
    }

    private static func addCap(at end: CGPoint, away other: CGPoint, half: CGFloat, cap: LineCap, tolerance: CGFloat,
                               to path: inout Path) {
        switch cap {
        case .butt: break
        case .round:
            // Only the outer half disc: a whole circle would overlap the segment, and overlapping
            // pieces over-cover the pixels along shared edges.
            let n = normal(from: other, to: end, half: half)
            let start = atan2(n.y, n.x)
            addPolygon([end] + arc(center: end, radius: half, from: start, sweep: -.pi, tolerance: tolerance), to: &path)
        case .square:
            let n = normal(from: other, to: end, half: half)
            let d = CGPoint(x: n.y, y: -n.x)   // along the segment, outwards, half a width long
            addPolygon([CGPoint(x: end.x + n.x, y: end.y + n.y), CGPoint(x: end.x + n.x + d.x, y: end.y + n.y + d.y),
                        CGPoint(x: end.x - n.x + d.x, y: end.y - n.y + d.y), CGPoint(x: end.x - n.x, y: end.y - n.y)], to: &path)
        }
    }

    private static func addJoin(_ a: CGPoint, _ v: CGPoint, _ b: CGPoint, half: CGFloat, style: StrokeStyle,
                                tolerance: CGFloat, to path: inout Path) {
        let n1 = normal(from: a, to: v, half: half), n2 = normal(from: v, to: b, half: half)
        let turn = (v.x - a.x) * (b.y - v.y) - (v.y - a.y) * (b.x - v.x)
        guard abs(turn) > 1e-12 else { return }   // straight on: the segments meet flush
        // The outer side of the corner is opposite the turn.
        let side: CGFloat = turn > 0 ? -1 : 1
        let p1 = CGPoint(x: v.x + side * n1.x, y: v.y + side * n1.y), p2 = CGPoint(x: v.x + side * n2.x, y: v.y + side * n2.y)
        switch style.lineJoin {
        case .round:
            // The wedge of the circle between the two segments' outer corners, on the outer side.
            let a1 = atan2(p1.y - v.y, p1.x - v.x), a2 = atan2(p2.y - v.y, p2.x - v.x)
            var sweep = a2 - a1
            while sweep > .pi { sweep -= 2 * .pi }
            while sweep < -.pi { sweep += 2 * .pi }
            addPolygon([v] + arc(center: v, radius: half, from: a1, sweep: sweep, tolerance: tolerance), to: &path)
        case .bevel:
            addPolygon([v, p1, p2], to: &path)
        case .miter:
            // The miter tip where the two outer edges meet; beyond the limit, a bevel.
            let d1 = CGPoint(x: v.x - a.x, y: v.y - a.y), d2 = CGPoint(x: b.x - v.x, y: b.y - v.y)
            let l1 = hypot(d1.x, d1.y), l2 = hypot(d2.x, d2.y)
            let cosTheta = max(-1, min(1, (d1.x * d2.x + d1.y * d2.y) / (l1 * l2)))
            let miterLength = 1 / max(sin((CGFloat.pi - acos(cosTheta)) / 2), 1e-9)
            if miterLength <= style.miterLimit {
                let cross = d1.x * d2.y - d1.y * d2.x
                let t = ((p2.x - p1.x) * d2.y - (p2.y - p1.y) * d2.x) / cross
                let tip = CGPoint(x: p1.x + d1.x * t, y: p1.y + d1.y * t)
                addPolygon([v, p1, tip, p2], to: &path)
            } else {
                addPolygon([v, p1, p2], to: &path)
            }
        }
    }

    /// The part of the path between fractions `start` and `end` of its length (0…1), as
    /// ShapeLayer's strokeStart and strokeEnd cut it.
    public func trimmed(from start: CGFloat, to end: CGFloat, tolerance: CGFloat = 0.05) -> Path {
        let s = min(max(start.isFinite ? start : 0, 0), 1), e = min(max(end.isFinite ? end : 1, 0), 1)
        guard e > s else { return Path() }
        if s == 0, e == 1 { return self }
        let lines = flattened(tolerance: tolerance).map { line -> [CGPoint] in
            line.isClosed && line.points.count > 1 ? line.points + [line.points[0]] : line.points
        }
        let total = lines.reduce(0) { sum, points in sum + zip(points, points.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) } }
        guard total > 0 else { return Path() }
        let from = s * total, to = e * total
        var result = Path()
        var travelled: CGFloat = 0
        for points in lines {
            var current: [CGPoint] = []
            for (a, b) in zip(points, points.dropFirst()) {
                let length = hypot(b.x - a.x, b.y - a.y)
                let segmentStart = travelled, segmentEnd = travelled + length
                travelled = segmentEnd
                guard segmentEnd > from, segmentStart < to, length > 0 else { continue }
                func at(_ d: CGFloat) -> CGPoint {
                    let t = (d - segmentStart) / length
                    return CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
                }
                if current.isEmpty { current.append(segmentStart < from ? at(from) : a) }
                current.append(segmentEnd > to ? at(to) : b)
            }
            if current.count > 1 { result.addLines(between: current) }
        }
        return result
    }
}

extension Bitmap {
    /// Strokes a path with a color, anti-aliased.
    public func stroke(_ path: Path, with color: Color, style: StrokeStyle = StrokeStyle(),
                       transform: CGAffineTransform = .identity, clip: Region? = nil) {
        // Stroke in device space when the transform is uniform (so round joins are as fine as
        // the pixels need); otherwise in path space, then transform the outline.
        let scale = (abs(transform.a * transform.d - transform.b * transform.c)).squareRoot()
        let outline = path.strokedOutline(style, tolerance: 0.05 / max(scale, 1e-6))
        fill(outline, with: color, rule: .nonZero, transform: transform, clip: clip)
    }
}
