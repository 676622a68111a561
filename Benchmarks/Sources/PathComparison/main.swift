// Renders the same paths with LayerKit and with cairo's image back end, side by side in one run,
// and prints a markdown table of their agreement and their speed.
// Usage: swift run -c release --package-path Benchmarks PathComparison [iterations] [name filter]
// Targets are 512x512 ARGB32 (81x81 for the small star), cleared before every render.
import CCairoOracle
import CompositorBench
import Foundation
import LayerKit

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 200
/// Only the cases whose name contains this (for profiling one of them).
let only = CommandLine.arguments.dropFirst(2).first

struct Case {
    let name: String
    let path: Path
    let rule: FillRule
    let stroke: StrokeStyle?
    /// The side of the square target (small shapes get a small one, so that clearing it does
    /// not outweigh drawing them).
    var size = 512
}

// The program is single-threaded: the generator state is only touched from the main thread.
nonisolated(unsafe) var state: UInt64 = 0x9E37_79B9_7F4A_7C15
func unit() -> CGFloat {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    return CGFloat(state >> 11) / CGFloat(1 << 53)
}

func randomPolygons(_ count: Int, points: Int) -> Path {
    var path = Path()
    for _ in 0..<count {
        path.addLines(between: (0..<points).map { _ in CGPoint(x: 20 + unit() * 472, y: 20 + unit() * 472) })
        path.closeSubpath()
    }
    return path
}

func star(_ points: Int) -> Path {
    var path = Path()
    path.addLines(between: (0..<points).map { i in
        let a = -CGFloat.pi / 2 + CGFloat(i) * 2 * .pi * CGFloat(points / 2) / CGFloat(points)
        return CGPoint(x: 256 + 220 * cos(a), y: 256 + 220 * sin(a))
    })
    path.closeSubpath()
    return path
}

func curves() -> Path {
    var path = Path()
    path.move(to: CGPoint(x: 40, y: 400))
    for i in 0..<6 {
        let x = 40 + CGFloat(i + 1) * 72
        path.addCurve(to: CGPoint(x: x, y: 400 - CGFloat(i % 2) * 250), control1: CGPoint(x: x - 60, y: 60),
                      control2: CGPoint(x: x - 10, y: 480))
    }
    path.addArc(center: CGPoint(x: 256, y: 256), radius: 120, startAngle: 0, endAngle: 5, clockwise: false)
    path.closeSubpath()
    return path
}

var cases: [Case] = [
    Case(name: "random polygons, non-zero", path: randomPolygons(6, points: 9), rule: .nonZero, stroke: nil),
    Case(name: "random polygons, even-odd", path: randomPolygons(6, points: 9), rule: .evenOdd, stroke: nil),
    Case(name: "11-point star, non-zero", path: star(11), rule: .nonZero, stroke: nil),
    Case(name: "11-point star, even-odd", path: star(11), rule: .evenOdd, stroke: nil),
    Case(name: "curves and arcs", path: curves(), rule: .nonZero, stroke: nil),
    Case(name: "circle r=200", path: Path(ellipseIn: CGRect(x: 56, y: 56, width: 400, height: 400)), rule: .nonZero, stroke: nil),
]
/// A small star like the path-shapes scene's (radius 40): per-fill overhead rather than area.
func smallStar() -> Path {
    var path = Path()
    path.addLines(between: (0..<14).map { k in
        let a = 0.1 - CGFloat.pi / 2 + CGFloat(k) * .pi / 7
        let r: CGFloat = k % 2 == 0 ? 38 : 38 * 0.5
        return CGPoint(x: 40.3 + r * cos(a), y: 40.6 + r * sin(a))
    })
    path.closeSubpath()
    return path
}
cases.append(Case(name: "star r=38 (81² target), fill", path: smallStar(), rule: .nonZero, stroke: nil, size: 81))
cases.append(Case(name: "star r=38 (81² target), stroke 2 round", path: smallStar(), rule: .nonZero,
                  stroke: StrokeStyle(lineWidth: 2, lineCap: .butt, lineJoin: .round), size: 81))
for (cap, join) in [(LineCap.butt, LineJoin.miter), (.round, .round), (.square, .bevel)] {
    cases.append(Case(name: "stroke 12, \(cap)/\(join)", path: curves(), rule: .nonZero,
                      stroke: StrokeStyle(lineWidth: 12, lineCap: cap, lineJoin: join)))
}
cases.append(Case(name: "stroke 6, dashed 20/10", path: curves(), rule: .nonZero,
                  stroke: StrokeStyle(lineWidth: 6, lineCap: .round, lineJoin: .round, dashPattern: [20, 10])))

func layerKit(_ c: Case, into bitmap: Bitmap) {
    bitmap.clear()
    if let stroke = c.stroke { bitmap.stroke(c.path, with: .black, style: stroke) } else { bitmap.fill(c.path, with: .black, rule: c.rule) }
}

func cairo(_ c: Case, context cr: OpaquePointer, surface: OpaquePointer) {
    cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
    cairo_paint(cr)
    cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    cairo_new_path(cr)
    appendCairoPath(cr, c.path)
    cairo_set_source_rgba(cr, 0, 0, 0, 1)
    if let s = c.stroke {
        cairo_set_line_width(cr, s.lineWidth)
        cairo_set_line_cap(cr, [LineCap.butt: CAIRO_LINE_CAP_BUTT, .round: CAIRO_LINE_CAP_ROUND, .square: CAIRO_LINE_CAP_SQUARE][s.lineCap]!)
        cairo_set_line_join(cr, [LineJoin.miter: CAIRO_LINE_JOIN_MITER, .round: CAIRO_LINE_JOIN_ROUND, .bevel: CAIRO_LINE_JOIN_BEVEL][s.lineJoin]!)
        var dashes = s.dashPattern.map(Double.init)
        cairo_set_dash(cr, &dashes, Int32(dashes.count), s.dashPhase)
        cairo_stroke(cr)
    } else {
        cairo_set_fill_rule(cr, c.rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(cr)
    }
    cairo_surface_flush(surface)
}

func seconds(_ body: () -> Void) -> Double {
    let start = currentMediaTime()
    body()
    return currentMediaTime() - start
}

print("| path | mean abs. diff (levels) | pixels > 16 levels | LayerKit ms | cairo ms | LayerKit / cairo |")
print("|---|---:|---:|---:|---:|---:|")
for c in cases where only.map({ c.name.localizedCaseInsensitiveContains($0) }) ?? true {
    let size = c.size
    let bitmap = try Bitmap(width: size, height: size)
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))!
    let cr = cairo_create(surface)!
    defer {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }
    layerKit(c, into: bitmap)
    cairo(c, context: cr, surface: surface)
    let stride = Int(cairo_image_surface_get_stride(surface)), data = cairo_image_surface_get_data(surface)!
    var total = 0, over = 0
    for y in 0..<size {
        let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<size {
            let d = abs(Int(row[x] >> 24) - Int(bitmap.premultipliedPixel(x: x, y: y) >> 24))
            total += d
            if d > 16 { over += 1 }
        }
    }
    // Interleaved rounds, so both see the same machine state; small targets get more renders.
    let renders = iterations * max(1, (512 * 512) / (size * size * 4))
    var ours = 0.0, theirs = 0.0
    for _ in 0..<5 {
        ours += seconds { for _ in 0..<(renders / 5) { layerKit(c, into: bitmap) } }
        theirs += seconds { for _ in 0..<(renders / 5) { cairo(c, context: cr, surface: surface) } }
    }
    let n = Double(renders / 5 * 5)
    print(String(format: "| %@ | %.3f | %d | %.4f | %.4f | %.2f |", c.name, Double(total) / Double(size * size), over,
                 ours / n * 1000, theirs / n * 1000, ours / theirs))
}
