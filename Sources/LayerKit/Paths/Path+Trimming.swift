import Foundation

extension Path {
    /// The part of the path between fractions `start` and `end` of its length (0…1), as
    /// ShapeLayer's strokeStart and strokeEnd cut it.
    ///
    /// Curves are cut where they are (de Casteljau), not flattened, so the result is flattened
    /// later at the scale it is drawn at; `tolerance` is how closely curve lengths are measured,
    /// in the path's units. A closed subpath wholly inside the range stays closed; one that is
    /// cut becomes open.
    public func trimmed(from start: CGFloat, to end: CGFloat, tolerance: CGFloat = 0.01) -> Path {
        let s = min(max(start.isFinite ? start : 0, 0), 1), e = min(max(end.isFinite ? end : 1, 0), 1)
        guard e > s else { return Path() }
        if s == 0, e == 1 { return self }
        let pieces = Self.pieces(of: elements)
        let total = pieces.reduce(0) { $0 + $1.length(tolerance) }
        guard total > 0, total.isFinite else { return Path() }
        let from = s * total, to = e * total
        var result = Path()
        var travelled: CGFloat = 0
        var open = false   // whether the result's last subpath ends where the next piece starts
        var i = 0
        while i < pieces.count {
            let piece = pieces[i]
            if piece.isFirstOfSubpath {
                open = false
                // A whole closed subpath inside the range stays as it was.
                let whole = Self.subpath(pieces, from: i, tolerance: tolerance)
                if whole.closed, travelled >= from, travelled + whole.length <= to {
                    result.move(to: piece.start)
                    for p in pieces[i..<whole.endIndex] where !p.isClosingLine { result.append(p.element) }
                    result.closeSubpath()
                    travelled += whole.length
                    i = whole.endIndex
                    continue
                }
            }
            i += 1
            let length = piece.length(tolerance)
            let a = travelled, b = travelled + length
            travelled = b
            guard b > from, a < to, length > 0 else { open = false; continue }
            let t0 = a < from ? piece.parameter(atDistance: from - a, tolerance) : 0
            let t1 = b > to ? piece.parameter(atDistance: to - a, tolerance) : 1
            let cut = piece.between(t0, t1)
            if !open || t0 > 0 { result.move(to: cut.start) }
            result.append(cut.element)
            open = t1 == 1
        }
        return result
    }

    /// One segment of a path, with where it starts.
    struct Piece {
        var start: CGPoint
        var element: Element
        var subpath: Int
        var isFirstOfSubpath: Bool
        var isClosingLine: Bool
        var closesSubpath: Bool

        var end: CGPoint {
            switch element {
            case let .line(p), let .move(p): p
            case let .quadCurve(p, _): p
            case let .curve(p, _, _): p
            case .closeSubpath: start
            }
        }

        func point(at t: CGFloat) -> CGPoint {
            let u = 1 - t
            switch element {
            case let .line(p), let .move(p): return CGPoint(x: start.x + (p.x - start.x) * t, y: start.y + (p.y - start.y) * t)
            case let .quadCurve(p, c):
                return CGPoint(x: u * u * start.x + 2 * u * t * c.x + t * t * p.x, y: u * u * start.y + 2 * u * t * c.y + t * t * p.y)
            case let .curve(p, c1, c2):
                let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                return CGPoint(x: a * start.x + b * c1.x + c * c2.x + d * p.x, y: a * start.y + b * c1.y + c * c2.y + d * p.y)
            case .closeSubpath: return start
            }
        }

        /// Pieces a curve is measured in: chords within `tolerance` (Wang's bound).
        private func steps(_ tolerance: CGFloat) -> Int {
            let error: CGFloat
            switch element {
            case let .quadCurve(p, c): error = 0.25 * hypot(start.x - 2 * c.x + p.x, start.y - 2 * c.y + p.y)
            case let .curve(p, c1, c2):
                error = 0.75 * max(hypot(start.x - 2 * c1.x + c2.x, start.y - 2 * c1.y + c2.y),
                                   hypot(c1.x - 2 * c2.x + p.x, c1.y - 2 * c2.y + p.y))
            default: return 1
            }
            guard error.isFinite else { return 1 }
            return Int(min(max((error / max(tolerance, 1e-6)).squareRoot().rounded(.up), 1), CGFloat(Path.maximumSegmentsPerCurve)))
        }

        func length(_ tolerance: CGFloat) -> CGFloat {
            let n = steps(tolerance)
            var total: CGFloat = 0
            var previous = start
            for i in 1...n {
                let p = point(at: CGFloat(i) / CGFloat(n))
                total += hypot(p.x - previous.x, p.y - previous.y)
                previous = p
            }
            return total
        }

        /// The parameter `distance` along the piece (by its measured chords).
        func parameter(atDistance distance: CGFloat, _ tolerance: CGFloat) -> CGFloat {
            let n = steps(tolerance)
            var travelled: CGFloat = 0
            var previous = start
            for i in 1...n {
                let p = point(at: CGFloat(i) / CGFloat(n))
                let step = hypot(p.x - previous.x, p.y - previous.y)
                if travelled + step >= distance, step > 0 {
                    return (CGFloat(i - 1) + (distance - travelled) / step) / CGFloat(n)
                }
                travelled += step
                previous = p
            }
            return 1
        }

        /// The part of the piece between parameters t0 and t1.
        func between(_ t0: CGFloat, _ t1: CGFloat) -> (start: CGPoint, element: Element) {
            let a = point(at: t0), b = point(at: t1)
            switch element {
            case .line, .move, .closeSubpath: return (a, .line(to: b))
            case let .quadCurve(_, c):
                // The control point of the part: where the tangents at its ends meet, from the
                // blossom q(t0, t1).
                let u0 = 1 - t0, u1 = 1 - t1
                let q = CGPoint(x: u0 * u1 * start.x + (u0 * t1 + t0 * u1) * c.x + t0 * t1 * end.x,
                                y: u0 * u1 * start.y + (u0 * t1 + t0 * u1) * c.y + t0 * t1 * end.y)
                return (a, .quadCurve(to: b, control: q))
            case let .curve(p, c1, c2):
                // Blossoms of the cubic: control points f(t0, t0, t1) and f(t0, t1, t1).
                func blossom(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CGPoint {
                    func lerp(_ p: CGPoint, _ q: CGPoint, _ t: CGFloat) -> CGPoint { CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t) }
                    let a1 = lerp(start, c1, x), b1 = lerp(c1, c2, x), c3 = lerp(c2, p, x)
                    let a2 = lerp(a1, b1, y), b2 = lerp(b1, c3, y)
                    return lerp(a2, b2, z)
                }
                return (a, .curve(to: b, control1: blossom(t0, t0, t1), control2: blossom(t0, t1, t1)))
            }
        }
    }

    /// The path's segments, a subpath's closing line included when it has length.
    static func pieces(of elements: [Element]) -> [Piece] {
        var pieces: [Piece] = []
        var current: CGPoint?
        var subpathStart = CGPoint.zero
        var subpath = -1
        var first = true
        for element in elements {
            switch element {
            case let .move(p):
                current = p
                subpathStart = p
                subpath += 1
                first = true
            case .line, .quadCurve, .curve:
                guard let start = current else { continue }
                pieces.append(Piece(start: start, element: element, subpath: subpath, isFirstOfSubpath: first,
                                    isClosingLine: false, closesSubpath: false))
                first = false
                current = pieces[pieces.count - 1].end
            case .closeSubpath:
                guard let start = current else { continue }
                if start != subpathStart || first {
                    pieces.append(Piece(start: start, element: .line(to: subpathStart), subpath: subpath, isFirstOfSubpath: first,
                                        isClosingLine: true, closesSubpath: true))
                } else if !pieces.isEmpty, pieces[pieces.count - 1].subpath == subpath {
                    pieces[pieces.count - 1].closesSubpath = true
                }
                first = false
                current = subpathStart
            }
        }
        return pieces
    }

    /// The length of the subpath whose first piece is `index`, where its pieces end, and
    /// whether it is closed.
    private static func subpath(_ pieces: [Piece], from index: Int, tolerance: CGFloat) -> (length: CGFloat, endIndex: Int, closed: Bool) {
        var length: CGFloat = 0
        var i = index
        var closed = false
        while i < pieces.count, pieces[i].subpath == pieces[index].subpath {
            length += pieces[i].length(tolerance)
            closed = closed || pieces[i].closesSubpath
            i += 1
        }
        return (length, i, closed)
    }

    /// Appends a drawing element (not a move or close).
    fileprivate mutating func append(_ element: Element) {
        switch element {
        case let .line(p): addLine(to: p)
        case let .quadCurve(p, c): addQuadCurve(to: p, control: c)
        case let .curve(p, c1, c2): addCurve(to: p, control1: c1, control2: c2)
        case .move, .closeSubpath: break
        }
    }
}
