import Foundation

extension Path {
    /// One subpath as a polyline.
    struct Polyline: Hashable, Sendable {
        var points: [CGPoint]
        var isClosed: Bool
    }

    /// How far, in device pixels, a filled or stroked outline may stray from the true curve.
    ///
    /// cairo and Skia flatten to a tenth of a pixel too. Their chords all cut inside a curve, so
    /// curved edges lose about two thirds of the chord error in area; LayerKit's polylines
    /// straddle the curve instead (see `flatten`), so the error averages out along an edge.
    static let deviceTolerance: CGFloat = 0.1

    /// The subpaths as polylines whose points lie on the curves and whose chords stay within
    /// `tolerance` of them (Wang's bound on the second differences). Subpaths with a non-finite
    /// point are dropped; each curve gets at most `maximumSegmentsPerCurve` pieces, so absurd
    /// input stays bounded.
    func flattened(tolerance: CGFloat) -> [Polyline] {
        var result: [Polyline] = []
        var buffer: [CGPoint] = []
        flatten(transform: nil, tolerance: tolerance, straddling: false, into: &buffer) { points, closed in
            result.append(Polyline(points: Array(points), isClosed: closed))
        }
        return result.filter { $0.points.count > 1 || !$0.isClosed }
    }

    static let maximumSegmentsPerCurve = 4096

    /// Flattens the path, mapped through `transform`, one subpath at a time: each subpath's
    /// points are collected in `buffer` (reused, so steady drawing allocates nothing) and handed
    /// to `body` with whether the subpath was closed. A subpath of a single point is a lone
    /// `move` (or the start a closed subpath leaves behind); one with a segment has two or more
    /// points, repeated when the segment has no length.
    ///
    /// - Parameters:
    ///   - tolerance: the largest distance between a curve and its polyline.
    ///   - straddling: when true, the points inside each curve are moved off it, towards its
    ///     outer side, by a sixth of their second difference, so that each chord runs partly
    ///     outside and partly inside the curve and the area between them cancels (a chord cuts
    ///     inside by up to its error e; moving its ends out by 2e/3 balances the area and leaves
    ///     the largest distance at 2e/3). Curves are then cut at 0.6 × `tolerance` so that even
    ///     when the two errors add up they stay within `tolerance`. Fills and strokes use this;
    ///     geometry queries (bounds, hit tests) keep the points on the curve.
    ///   - maximumTurn: the largest change of direction, in radians, one piece of a curve may
    ///     make. Strokes bound it so that the offset of a wide line stays within the tolerance.
    func flatten(transform: CGAffineTransform?, tolerance: CGFloat, straddling: Bool, maximumTurn: CGFloat = .infinity,
                 into buffer: inout [CGPoint], _ body: (UnsafeBufferPointer<CGPoint>, _ closed: Bool) -> Void) {
        var flags: [Bool]?
        flatten(transform: transform, tolerance: tolerance, straddling: straddling, maximumTurn: maximumTurn,
                into: &buffer, smoothness: &flags) { points, _, closed in body(points, closed) }
    }

    /// `flatten`, also telling which points lie inside a curve (where a stroke bends smoothly)
    /// rather than at the end of an element (a corner): when `smoothness` is not nil, `body`
    /// receives one flag per point, true inside a curve.
    func flatten(transform: CGAffineTransform?, tolerance: CGFloat, straddling: Bool, maximumTurn: CGFloat = .infinity,
                 into buffer: inout [CGPoint], smoothness flags: inout [Bool]?,
                 _ body: (UnsafeBufferPointer<CGPoint>, UnsafeBufferPointer<Bool>, _ closed: Bool) -> Void) {
        let chordError = max(tolerance, 1e-4) * (straddling ? 0.6 : 1)
        buffer.removeAll(keepingCapacity: true)
        flags?.removeAll(keepingCapacity: true)
        var valid = true
        var subpathStart: CGPoint?
        func map(_ p: CGPoint) -> CGPoint {
            guard let t = transform else { return p }
            return CGPoint(x: t.a * p.x + t.c * p.y + t.tx, y: t.b * p.x + t.d * p.y + t.ty)
        }
        func finish(closed: Bool) {
            if valid, !buffer.isEmpty {
                buffer.withUnsafeBufferPointer { points in
                    if let flags {
                        flags.withUnsafeBufferPointer { body(points, $0, closed) }
                    } else {
                        body(points, UnsafeBufferPointer(start: nil, count: 0), closed)
                    }
                }
            }
            buffer.removeAll(keepingCapacity: true)
            flags?.removeAll(keepingCapacity: true)
            valid = true
        }
        func add(_ p: CGPoint, smooth: Bool = false) {
            guard p.x.isFinite, p.y.isFinite else { valid = false; return }
            buffer.append(p)
            flags?.append(smooth)
        }
        for element in elements {
            switch element {
            case let .move(p):
                finish(closed: false)
                let q = map(p)
                subpathStart = q
                add(q)
            case let .line(p):
                add(map(p))
            case let .quadCurve(p, c):
                let end = map(p), control = map(c)
                guard valid, let p0 = buffer.last else { add(end); continue }
                let dd = hypot(p0.x - 2 * control.x + end.x, p0.y - 2 * control.y + end.y)
                var n = Self.segments(dd * 0.25, chordError)
                if maximumTurn.isFinite {
                    n = max(n, Self.segments(turning: Self.turn(control - p0, end - control), maximumTurn))
                }
                let first = buffer.count
                for i in 1...n {
                    let t = CGFloat(i) / CGFloat(n), u = 1 - t
                    add(CGPoint(x: u * u * p0.x + 2 * u * t * control.x + t * t * end.x,
                                y: u * u * p0.y + 2 * u * t * control.y + t * t * end.y), smooth: i < n)
                }
                if straddling, valid { Self.straddle(&buffer, from: first - 1) }
            case let .curve(p, c1, c2):
                let end = map(p), k1 = map(c1), k2 = map(c2)
                guard valid, let p0 = buffer.last else { add(end); continue }
                let d1 = hypot(p0.x - 2 * k1.x + k2.x, p0.y - 2 * k1.y + k2.y)
                let d2 = hypot(k1.x - 2 * k2.x + end.x, k1.y - 2 * k2.y + end.y)
                var n = Self.segments(0.75 * max(d1, d2), chordError)
                if maximumTurn.isFinite {
                    let turn = Self.turn(k1 - p0, k2 - k1) + Self.turn(k2 - k1, end - k2)
                    n = max(n, Self.segments(turning: turn, maximumTurn))
                }
                let first = buffer.count
                for i in 1...n {
                    let t = CGFloat(i) / CGFloat(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    add(CGPoint(x: a * p0.x + b * k1.x + c * k2.x + d * end.x, y: a * p0.y + b * k1.y + c * k2.y + d * end.y),
                        smooth: i < n)
                }
                if straddling, valid { Self.straddle(&buffer, from: first - 1) }
            case .closeSubpath:
                finish(closed: true)
                // A following segment starts where the subpath began.
                if let start = subpathStart { add(start) }
            }
        }
        finish(closed: false)
    }

    /// Moves the points strictly inside `buffer[start...]` (one curve's polyline, from its start
    /// point to its end point) a sixth of their second difference outwards.
    private static func straddle(_ buffer: inout [CGPoint], from start: Int) {
        let end = buffer.count - 1
        guard start >= 0, end - start >= 2 else { return }
        buffer.withUnsafeMutableBufferPointer { points in
            var previous = points[start]
            for i in (start + 1)..<end {
                let p = points[i], next = points[i + 1]
                points[i] = CGPoint(x: p.x + (2 * p.x - previous.x - next.x) / 12, y: p.y + (2 * p.y - previous.y - next.y) / 12)
                previous = p
            }
        }
    }

    /// Pieces for a curve whose chord error bound is `error` at one piece: error falls with
    /// the square of the count.
    private static func segments(_ error: CGFloat, _ tolerance: CGFloat) -> Int {
        guard error.isFinite else { return 1 }
        let n = (error / tolerance).squareRoot().rounded(.up)
        return Int(min(max(n, 1), CGFloat(maximumSegmentsPerCurve)))
    }

    private static func segments(turning turn: CGFloat, _ maximumTurn: CGFloat) -> Int {
        guard turn.isFinite, maximumTurn > 0 else { return 1 }
        return Int(min(max((turn / maximumTurn).rounded(.up), 1), CGFloat(maximumSegmentsPerCurve)))
    }

    /// The angle between two directions (0 when either is zero): summed over a control polygon,
    /// it bounds how far the curve inside turns.
    private static func turn(_ a: CGPoint, _ b: CGPoint) -> CGFloat {
        let cross = a.x * b.y - a.y * b.x, dot = a.x * b.x + a.y * b.y
        guard cross != 0 || dot != 0 else { return 0 }
        return abs(atan2(cross, dot))
    }
}

private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
