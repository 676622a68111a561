// Nanoseconds per pixel of pixman's samplers beside each variant of LayerKit's SIMD kernels
// (scalar, SSE2, AVX2, AVX-512), on the same composites, in interleaved rounds; prints the medians as a
// markdown table.
// Usage: swift run -c release --package-path Benchmarks KernelSpeed [--rounds N] [--milliseconds M] [--only TEXT]
//        [--engines pixman,avx2,…] [--wall-clock]
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@_spi(Kernels) import LayerKit

let arguments = CommandLine.arguments
func option(_ name: String, _ fallback: Int) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
    return v
}
let rounds = option("--rounds", 5)
let secondsPerMeasurement = Double(option("--milliseconds", 60)) / 1000
let only = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
let wallClock = arguments.contains("--wall-clock")

/// Seconds of this thread's CPU time (or of the wall clock with --wall-clock). The kernels run on
/// the calling thread, so its CPU time is their cost; unlike the wall clock it does not count the
/// time other processes hold the core, which on a shared machine is most of the noise.
func now() -> Double {
    if wallClock { return currentMediaTime() }
    #if canImport(Glibc)
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    #else
    return currentMediaTime()
    #endif
}

/// A translucent pattern, so that over has to blend (and no path can skip clear pixels).
func pattern(width: Int, height: Int) throws -> Bitmap {
    let b = try Bitmap(width: width, height: height)
    b.withUnsafeMutablePixels { pixels in
        for y in 0..<height {
            for x in 0..<width {
                let a = 160 + (x * 7 + y * 3) % 96
                let r = UInt32(x % a), g = UInt32(y % a), b = UInt32((x + y) % a)
                pixels[y * width + x] = UInt32(a) << 24 | r << 16 | g << 8 | b
            }
        }
    }
    return b
}

func coverage(width: Int, height: Int) throws -> AlphaMask {
    let m = try AlphaMask(width: width, height: height)
    for y in 0..<height { for x in 0..<width { m[x, y] = UInt8((x * 5 + y * 11) % 256) } }
    return m
}

/// A blurred bar's coverage, as a clock hand's shadow store holds it: rising smoothly over
/// `padding` texels from a clear border three texels wide to `peak`.
func blurredBar(width: Int, height: Int, padding: Int, peak: Double) throws -> AlphaMask {
    let m = try AlphaMask(width: width, height: height)
    for y in 0..<height {
        for x in 0..<width {
            let edge = min(min(Double(x), Double(width - 1 - x)), min(Double(y), Double(height - 1 - y))) + 0.5
            let t = max(0, min(1, (edge - 3) / Double(padding - 3)))
            m[x, y] = UInt8(peak * t * t * (3 - 2 * t))
        }
    }
    return m
}

/// A line of text's coverage, roughly: glyph cells of 14 pixels, each inked in its middle
/// columns between a cap line and a baseline (strokes of full coverage, anti-aliased edges),
/// clear between the cells and above and below (most of a label's store).
func textLine(width: Int, height: Int) throws -> AlphaMask {
    let m = try AlphaMask(width: width, height: height)
    for y in 4..<(height - 5) {
        for x in 0..<(width * 6 / 10) {
            let column = x % 14
            guard column >= 2, column <= 11 else { continue }
            let stroke = column == 3 || column == 4 || column == 9 || column == 10 || y == 4 || y == height - 6
            m[x, y] = stroke ? 255 : (column + y) % 5 == 0 ? 96 : 0
        }
    }
    return m
}

/// A source turned by `degrees` and scaled by `scale` about its centre, at the target's centre.
func turned(_ w: Int, _ h: Int, degrees: CGFloat, scale: CGFloat, target: Bitmap) -> Homography {
    Homography(CGAffineTransform(translationX: -CGFloat(w) / 2, y: -CGFloat(h) / 2)
        .concatenating(CGAffineTransform(scaleX: scale, y: scale))
        .concatenating(CGAffineTransform(rotationAngle: degrees * .pi / 180))
        .concatenating(CGAffineTransform(translationX: CGFloat(target.width) / 2 + 0.3, y: CGFloat(target.height) / 2 + 0.6)))
}

/// A card turned by `degrees` about the y (or x) axis under m34 = −1/`distance`, at the centre.
func card(_ w: Int, _ h: Int, degrees: CGFloat, aboutY: Bool, distance: CGFloat, target: Bitmap) -> Homography {
    Homography(Transform3D(translationX: -CGFloat(w) / 2, y: -CGFloat(h) / 2)
        .concatenating(Transform3D(rotationAngle: degrees * .pi / 180, x: aboutY ? 0 : 1, y: aboutY ? 1 : 0, z: 0))
        .concatenating(Transform3D(perspectiveDistance: distance))
        .concatenating(Transform3D(translationX: CGFloat(target.width) / 2, y: CGFloat(target.height) / 2)))
}

struct Case {
    let name: String
    let filter: ImageFilter
    /// Destination pixels inside the projected source: the unit of ns/px.
    let pixels: Double
    /// pixman cannot sample perspective correctly, so it is not measured there.
    let pixmanApplies: Bool
    let draw: () throws -> Void
    /// Draws with `engine` itself, where the composite does not follow the engine of the task
    /// (coverage over a known base takes its variant as an argument); nil: `draw`.
    var drawWith: ((CompositeEngine) throws -> Void)? = nil
}

let target = try Bitmap(width: 1920, height: 1080, color: Color(white: 0.5, alpha: 1))

func area(_ h: Homography, _ w: Int, _ hgt: Int) -> Double {
    abs(Double(signedArea(h.projectedPolygon(of: CGRect(x: 0, y: 0, width: w, height: hgt)))))
}

/// The shoelace area of a polygon.
func signedArea(_ p: [CGPoint]) -> CGFloat {
    zip(p, p.dropFirst() + p.prefix(1)).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y } / 2
}

var cases: [Case] = []
for (label, w, h, degrees, scale) in [("64x64 sprite turned 30°", 64, 64, 30.0, 1.0),
                                      ("256x256 turned 30°, ×1.3", 256, 256, 30.0, 1.3),
                                      ("1024x768 turned 10°, ×0.8", 1024, 768, 10.0, 0.8),
                                      ("512x512 scaled ×1.5, not turned", 512, 512, 0.0, 1.5)] as [(String, Int, Int, CGFloat, CGFloat)] {
    let source = try pattern(width: w, height: h)
    let map = turned(w, h, degrees: degrees, scale: scale, target: target)
    for filter in [ImageFilter.bilinear, .nearest] {
        cases.append(Case(name: label, filter: filter, pixels: area(map, w, h), pixmanApplies: true) {
            try target.composite(source, transform: map, filter: filter, opacity: 0.9)
        })
    }
}
for (label, w, h, degrees, aboutY, distance) in [("400x300 card turned 60° about y, m34 −1/900", 400, 300, 60.0, true, 900.0),
                                                 ("160x160 card turned 40° about x, m34 −1/500", 160, 160, 40.0, false, 500.0)]
    as [(String, Int, Int, CGFloat, Bool, CGFloat)] {
    let source = try pattern(width: w, height: h)
    let map = card(w, h, degrees: degrees, aboutY: aboutY, distance: distance, target: target)
    cases.append(Case(name: label, filter: .bilinear, pixels: area(map, w, h), pixmanApplies: false) {
        try target.composite(source, transform: map, filter: .bilinear)
    })
}
do {
    let mask = try coverage(width: 256, height: 256)
    let map = turned(256, 256, degrees: 30, scale: 1.1, target: target)
    for filter in [ImageFilter.bilinear, .nearest] {
        cases.append(Case(name: "A8 256x256 shadow turned 30°, ×1.1", filter: filter, pixels: area(map, 256, 256),
                          pixmanApplies: true) {
            try target.composite(mask, color: Color(red: 0, green: 0, blue: 0, alpha: 0.6), transform: map, filter: filter)
        })
    }
    // The clock tick's composites: a hand's blurred shadow (a clear border: every pixel inner)
    // and the thin second hand (no clear border: rows of a few pixels, all edge).
    let shadow = try blurredBar(width: 68, height: 446, padding: 24, peak: 195)
    let shadowMap = turned(68, 446, degrees: 63, scale: 1, target: target)
    cases.append(Case(name: "A8 68x446 blurred hand shadow turned 63°", filter: .bilinear, pixels: area(shadowMap, 68, 446),
                      pixmanApplies: true) {
        try target.composite(shadow, color: Color(red: 0, green: 0, blue: 0, alpha: 0.35), transform: shadowMap)
    })
    // A label's text at rest (a whole-pixel offset): pixman's over_n_8_8888 against the kernels'
    // offset rows, which skip clear steps.
    let line = try textLine(width: 616, height: 30)
    cases.append(Case(name: "A8 616x30 line of text at a whole-pixel offset", filter: .nearest, pixels: 616 * 30,
                      pixmanApplies: true) {
        try target.composite(line, color: Color(red: 0.9, green: 0.92, blue: 0.85), transform: Homography(translationX: 301, y: 517))
    })
    // The same line over a painter's background: pixman fills its box with the base and draws
    // over_n_8_8888; the kernels write each pixel from the coverage alone, reading none.
    let base = Color(red: 0.1, green: 0.12, blue: 0.15), box = PixelRect(x: 301, y: 517, width: 616, height: 30)
    cases.append(Case(name: "A8 616x30 line of text over a known base", filter: .nearest, pixels: 616 * 30, pixmanApplies: true,
                      draw: {}) { engine in
        if case let .kernels(variant) = engine {
            target.composite(line, color: Color(red: 0.9, green: 0.92, blue: 0.85), atX: 301, y: 517, opacity: 1,
                             onBase: base.premultipliedARGB32, clip: Region(box), window: box, variant: variant)
        } else {
            target.fill(box, with: base, operator: .source)
            try target.composite(line, color: Color(red: 0.9, green: 0.92, blue: 0.85), transform: Homography(translationX: 301, y: 517))
        }
    })
    let hand = try pattern(width: 8, height: 431)
    let handMap = turned(8, 431, degrees: 177, scale: 1, target: target)
    cases.append(Case(name: "8x431 hand turned 177°", filter: .bilinear, pixels: area(handMap, 8, 431), pixmanApplies: true) {
        try target.composite(hand, transform: handMap, filter: .bilinear, opacity: 0.9)
    })
    let cardMap = card(256, 256, degrees: 50, aboutY: true, distance: 700, target: target)
    cases.append(Case(name: "A8 256x256 shadow, card turned 50°, m34 −1/700", filter: .bilinear,
                      pixels: area(cardMap, 256, 256), pixmanApplies: false) {
        try target.composite(mask, color: Color(red: 0, green: 0, blue: 0, alpha: 0.6), transform: cardMap)
    })
}

// A painter's background: a solid store (lk_fill with the kernels, pixman_fill's SSE2 loop with
// pixman), over the whole frame, and around 40 lines of text left to the glyphs (windows on the
// base), as a text board's band has it: rows cut into short runs between the lines. The target's
// own color, so that the other cases see the same pixels.
do {
    let gray = Color(white: 0.5, alpha: 1)
    cases.append(Case(name: "1920x1080 solid fill", filter: .nearest, pixels: 1920 * 1080, pixmanApplies: true) {
        target.fill(target.bounds, with: gray, operator: .source)
    })
    let lines = Region((0..<40).map { PixelRect(x: 40 + $0 % 2 * 940, y: 20 + $0 / 2 * 52, width: 616 + $0 % 5 * 37, height: 30) })
    let around = Region(target.bounds).subtracting(lines)
    cases.append(Case(name: "1920x1080 solid fill around 40 lines", filter: .nearest, pixels: Double(around.area),
                      pixmanApplies: true) {
        target.fill(target.bounds, with: gray, operator: .source, clip: around)
    })
}

if let only { cases = cases.filter { $0.name.contains(only) } }

var engines: [(String, CompositeEngine)] = [("pixman", .pixman)] + KernelVariant.allCases.map { ($0.rawValue, .kernels($0)) }
// Some engines only (for a profiler): --engines avx2, or pixman,sse2.
if let i = arguments.firstIndex(of: "--engines"), i + 1 < arguments.count {
    let names = arguments[i + 1].split(separator: ",").map(String.init)
    engines = engines.filter { names.contains($0.0) }
}

/// Seconds per composite: enough repetitions for `secondsPerMeasurement`.
func measure(_ c: Case, _ engine: CompositeEngine, repetitions: Int) throws -> Double {
    try Bitmap.withCompositeEngine(engine) {
        let start = now()
        if let drawWith = c.drawWith {
            for _ in 0..<repetitions { try drawWith(engine) }
        } else {
            for _ in 0..<repetitions { try c.draw() }
        }
        return (now() - start) / Double(repetitions)
    }
}

// Repetitions per (case, engine) from an untimed calibration run.
var repetitions = [[Int]](repeating: [Int](repeating: 1, count: engines.count), count: cases.count)
for (i, c) in cases.enumerated() {
    for (j, (_, engine)) in engines.enumerated() where KernelVariantOf(engine)?.isAvailable ?? true {
        let once = try measure(c, engine, repetitions: 2)
        repetitions[i][j] = max(1, Int(secondsPerMeasurement / max(once, 1e-7)))
    }
}

func KernelVariantOf(_ engine: CompositeEngine) -> KernelVariant? {
    if case let .kernels(v) = engine { return v }
    return nil
}

// Interleaved rounds: each round measures every case with every engine in turn.
var samples = [[[Double]]](repeating: [[Double]](repeating: [], count: engines.count), count: cases.count)
for _ in 0..<rounds {
    for (i, c) in cases.enumerated() {
        for (j, (_, engine)) in engines.enumerated() where KernelVariantOf(engine)?.isAvailable ?? true {
            if !c.pixmanApplies && engine == .pixman { continue }
            samples[i][j].append(try measure(c, engine, repetitions: repetitions[i][j]) / c.pixels * 1e9)
        }
    }
}

func median(_ v: [Double]) -> Double? {
    guard !v.isEmpty else { return nil }
    let s = v.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

print("Kernel speed: ns per destination pixel (\(wallClock ? "wall clock" : "the thread's CPU time"), median of \(rounds) "
    + "interleaved rounds), 1920x1080 target, over,")
print("opacity 0.9 for images, one core. Process default variant: \(KernelVariant.processDefault.rawValue).")
print("")
print("| composite | filter | pixels | " + engines.map(\.0).joined(separator: " | ") + " | best kernel vs pixman |")
print("|---|---|---:|" + String(repeating: "---:|", count: engines.count) + "---:|")
for (i, c) in cases.enumerated() {
    let values = engines.indices.map { median(samples[i][$0]) }
    // Three decimals below 0.1 ns (stores: a fill is a few hundredths a pixel).
    let cells = values.map { $0.map { String(format: $0 < 0.1 ? "%.3f" : "%.2f", $0) } ?? "n/a" }
    let pixman = engines.firstIndex { $0.1 == .pixman }.flatMap { values[$0] }
    let best = zip(engines, values).filter { $0.0.1 != .pixman }.compactMap(\.1).min()
    let ratio = pixman.flatMap { p in best.map { String(format: "%.1fx", p / $0) } } ?? "—"
    print("| \(c.name) | \(c.filter) | \(Int(c.pixels)) | " + cells.joined(separator: " | ") + " | \(ratio) |")
}
