import Foundation

extension Path {
    /// One subpath as a polyline.
    struct Polyline: Hashable, Sendable {
        var points: [CGPoint]
        var isClosed: Bool
    }

    /// The subpaths as polylines whose chords stay within `tolerance` of the curves (Wang's
    /// bound on the second differences). Subpaths with a non-finite point are dropped; each curve
    /// gets at most `maximumSegmentsPerCurve` pieces, so absurd input stays bounded.
    func flattened(tolerance: CGFloat) -> [Polyline] {
        let tolerance = max(tolerance, 1e-4)
        var result: [Polyline] = []
        var current: [CGPoint] = []
        var valid = true
        func finish(closed: Bool) {
            if valid, current.count >= 1 { result.append(Polyline(points: current, isClosed: closed)) }
            current = []
            valid = true
        }
        func add(_ p: CGPoint) {
            guard p.x.isFinite, p.y.isFinite else { valid = false; return }
            current.append(p)
        }
        for element in elements {
            switch element {
            case let .move(p):
                finish(closed: false)
                add(p)
            case let .line(p):
                add(p)
            case let .quadCurve(p, c):
                guard let p0 = current.last else { add(p); continue }
                let dd = hypot(p0.x - 2 * c.x + p.x, p0.y - 2 * c.y + p.y)
                let n = Self.segments(dd * 0.25, tolerance)
                for i in 1...n {
                    let t = CGFloat(i) / CGFloat(n), u = 1 - t
                    add(CGPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x, y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y))
                }
            case let .curve(p, c1, c2):
                guard let p0 = current.last else { add(p); continue }
                let d1 = hypot(p0.x - 2 * c1.x + c2.x, p0.y - 2 * c1.y + c2.y)
                let d2 = hypot(c1.x - 2 * c2.x + p.x, c1.y - 2 * c2.y + p.y)
                let n = Self.segments(0.75 * max(d1, d2), tolerance)
                for i in 1...n {
                    let t = CGFloat(i) / CGFloat(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    add(CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p.x, y: a * p0.y + b * c1.y + c * c2.y + d * p.y))
                }
            case .closeSubpath:
                let start = current.first
                finish(closed: true)
                if let start { current = [start] }   // a following segment starts where the subpath began
            }
        }
        finish(closed: false)
        return result.filter { $0.points.count > 1 || !$0.isClosed }
    }

    static let maximumSegmentsPerCurve = 4096

    /// Pieces for a curve whose chord error bound is `error` at one piece: error falls with
    /// the square of the count.
    private static func segments(_ error: CGFloat, _ tolerance: CGFloat) -> Int {
        guard error.isFinite else { return 1 }
        let n = (error / tolerance).squareRoot().rounded(.up)
        return Int(min(max(n, 1), CGFloat(maximumSegmentsPerCurve)))
    }
}
