import Foundation
import Testing
@testable import LayerKit

@Suite struct FlatteningTests {
    struct Curve {
        let p0: CGPoint, c1: CGPoint, c2: CGPoint, p3: CGPoint
        let isQuadratic: Bool
        func point(_ t: CGFloat) -> CGPoint {
            let u = 1 - t
            if isQuadratic {
                return CGPoint(x: u * u * p0.x + 2 * u * t * c1.x + t * t * p3.x, y: u * u * p0.y + 2 * u * t * c1.y + t * t * p3.y)
            }
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p3.x, y: a * p0.y + b * c1.y + c * c2.y + d * p3.y)
        }
        var path: Path {
            var path = Path()
            path.move(to: p0)
            if isQuadratic { path.addQuadCurve(to: p3, control: c1) } else { path.addCurve(to: p3, control1: c1, control2: c2) }
            return path
        }
    }

    static func distance(_ q: CGPoint, toSegment a: CGPoint, _ b: CGPoint) -> CGFloat {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        let t = length2 > 0 ? min(max(((q.x - a.x) * dx + (q.y - a.y) * dy) / length2, 0), 1) : 0
        return hypot(q.x - (a.x + t * dx), q.y - (a.y + t * dy))
    }

    /// The distance from a point to the curve: each local minimum among dense samples refined
    /// by golden-section search, the nearest kept.
    static func distance(_ q: CGPoint, to curve: Curve, samples: [CGFloat]) -> CGFloat {
        func f(_ t: CGFloat) -> CGFloat { let p = curve.point(t); return hypot(p.x - q.x, p.y - q.y) }
        let d = samples.map(f)
        var best = d.min()!
        for i in d.indices where (i == 0 || d[i] <= d[i - 1]) && (i == d.count - 1 || d[i] <= d[i + 1]) {
            var lo = samples[max(i - 1, 0)], hi = samples[min(i + 1, samples.count - 1)]
            for _ in 0..<40 {
                let m1 = lo + (hi - lo) * 0.382, m2 = lo + (hi - lo) * 0.618
                if f(m1) < f(m2) { hi = m2 } else { lo = m1 }
            }
            best = min(best, f((lo + hi) / 2))
        }
        return best
    }

    /// Random quadratic and cubic curves (loops, cusps and near-lines among them), flattened on
    /// the curve and straddling it: no point of the curve is farther than the tolerance from
    /// the polyline, and no point of the polyline farther than the tolerance from the curve.
    @Test(arguments: [(0.1, true), (0.1, false), (0.02, true), (0.5, true)])
    func polylinesStayWithinTheToleranceOfRandomCurves(_ tolerance: CGFloat, _ straddling: Bool) {
        var generator = SplitMix64(seed: 99)
        func coordinate() -> CGFloat { CGFloat(generator.next() % 100_000) / 100_000 * 300 }
        let samples = (0...600).map { CGFloat($0) / 600 }
        var worst: CGFloat = 0
        for i in 0..<20 {
            let p0 = CGPoint(x: coordinate(), y: coordinate()), p3 = CGPoint(x: coordinate(), y: coordinate())
            var c1 = CGPoint(x: coordinate(), y: coordinate()), c2 = CGPoint(x: coordinate(), y: coordinate())
            if i % 10 == 0 { c1 = CGPoint(x: p0.x + (p3.x - p0.x) / 3, y: p0.y + (p3.y - p0.y) / 3 + 0.01) }   // nearly a line
            if i % 10 == 1 { c2 = CGPoint(x: p3.x + p0.x - c1.x, y: p3.y + p0.y - c1.y) }                      // a cusp
            let curve = Curve(p0: p0, c1: c1, c2: c2, p3: p3, isQuadratic: i % 3 == 0)
            var points: [CGPoint] = []
            var buffer: [CGPoint] = []
            curve.path.flatten(transform: nil, tolerance: tolerance, straddling: straddling, into: &buffer) { p, _ in points = Array(p) }
            #expect(points.first == p0 && points.last == p3)
            // Curve → polyline.
            for t in samples {
                let q = curve.point(t)
                let d = zip(points, points.dropFirst()).reduce(CGFloat.infinity) { min($0, Self.distance(q, toSegment: $1.0, $1.1)) }
                worst = max(worst, d)
            }
            // Polyline → curve, at each vertex and the middle of each chord (where a chord is
            // farthest from a curve bending one way).
            for (a, b) in zip(points, points.dropFirst()) {
                for k in 0...1 {
                    let s = CGFloat(k) / 2
                    worst = max(worst, Self.distance(CGPoint(x: a.x + (b.x - a.x) * s, y: a.y + (b.y - a.y) * s), to: curve, samples: samples))
                }
            }
        }
        #expect(worst <= tolerance * 1.0001, "largest distance \(worst) at tolerance \(tolerance)")
    }

    /// Chords all cut inside a circle; straddling points balance the area, so a flattened disc
    /// keeps the disc's area.
    @Test func straddlingPolylinesKeepTheArea() {
        let disc = Path(ellipseIn: CGRect(x: 0, y: 0, width: 30, height: 30))
        func area(_ straddling: Bool) -> CGFloat {
            var points: [CGPoint] = []
            var buffer: [CGPoint] = []
            disc.flatten(transform: nil, tolerance: 0.1, straddling: straddling, into: &buffer) { p, _ in
                if points.isEmpty { points = Array(p) }
            }
            return abs(zip(points, points.dropFirst() + [points[0]]).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y }) / 2
        }
        let exact = CGFloat.pi * 225
        #expect(exact - area(false) > 1.5)            // chords alone lose area
        #expect(abs(area(true) - exact) < 0.3)
    }
}
