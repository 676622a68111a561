import Foundation
@testable import LayerKit

/// An independent reference for fill coverage: each pixel row cut into `subrows` thin rows, on
/// each the exact x-intervals the rule fills (from the sorted crossings of every edge), summed
/// per pixel. Exact across a row; off by at most 1/`subrows` of a pixel's height on each edge
/// crossing a pixel. Slow and simple on purpose.
enum CoverageOracle {
    static func coverage(of polygons: [[CGPoint]], rule: FillRule, width: Int, height: Int, subrows: Int = 256) -> [Double] {
        var result = [Double](repeating: 0, count: width * height)
        var edges: [(CGPoint, CGPoint)] = []
        for polygon in polygons where polygon.count >= 2 {
            for i in polygon.indices { edges.append((polygon[i], polygon[(i + 1) % polygon.count])) }
        }
        for row in 0..<height {
            for s in 0..<subrows {
                let y = Double(row) + (Double(s) + 0.5) / Double(subrows)
                var crossings: [(x: Double, direction: Int)] = []
                for (a, b) in edges where (a.y <= y && b.y > y) || (b.y <= y && a.y > y) {
                    let x = a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)
                    crossings.append((x, b.y > a.y ? 1 : -1))
                }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                for (i, crossing) in crossings.enumerated() {
                    winding += rule == .nonZero ? crossing.direction : 1
                    let inside = rule == .nonZero ? winding != 0 : winding % 2 != 0
                    guard inside, i + 1 < crossings.count else { continue }
                    let x0 = max(crossing.x, 0), x1 = min(crossings[i + 1].x, Double(width))
                    guard x1 > x0 else { continue }
                    var x = Int(x0)
                    while Double(x) < x1, x < width {
                        let overlap = min(x1, Double(x + 1)) - max(x0, Double(x))
                        result[row * width + x] += overlap / Double(subrows)
                        x += 1
                    }
                }
            }
        }
        return result
    }
}
