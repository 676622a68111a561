// Evaluates LayerKit's cubic-Bézier timing functions beside a plain 64-step bisection solver on
// the same inputs, in one run, and prints time per evaluation and the largest disagreement.
// Usage: swift run -c release --package-path Benchmarks TimingFunctionSpeed [evaluations]
import Foundation
import LayerKit

let count = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 2_000_000
let curves: [(String, TimingFunction)] = [
    ("easeInEaseOut", .easeInEaseOut), ("default", .default), ("easeIn", .easeIn),
    ("(0.25, 0, 0.75, 1)", TimingFunction(controlPoints: 0.25, 0, 0.75, 1)),
    ("(1, 0, 0, 1)", TimingFunction(controlPoints: 1, 0, 0, 1)),
]

/// The reference: bisection on x(t), then y(t).
func bisect(_ f: TimingFunction, _ x: Double) -> Double {
    let x1 = Double(f.c1.x), x2 = Double(f.c2.x), y1 = Double(f.c1.y), y2 = Double(f.c2.y)
    func bx(_ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * x1 + 3 * (1 - t) * t * t * x2 + t * t * t }
    var lo = 0.0, hi = 1.0
    for _ in 0..<64 { let m = (lo + hi) / 2; if bx(m) < x { lo = m } else { hi = m } }
    let t = (lo + hi) / 2
    return 3 * (1 - t) * (1 - t) * t * y1 + 3 * (1 - t) * t * t * y2 + t * t * t
}

print("| curve | LayerKit ns/eval | bisection ns/eval | ratio | max |difference| |")
print("|---|---:|---:|---:|---:|")
for (name, curve) in curves {
    var sink = 0.0
    var worst = 0.0
    for i in 0...1000 { worst = max(worst, abs(curve.value(at: Double(i) / 1000) - bisect(curve, Double(i) / 1000))) }
    var ours = 0.0, theirs = 0.0
    for _ in 0..<3 {
        var start = currentMediaTime()
        for i in 0..<count { sink += curve.value(at: Double(i % 9973) / 9973) }
        ours += currentMediaTime() - start
        start = currentMediaTime()
        for i in 0..<count / 10 { sink += bisect(curve, Double(i % 9973) / 9973) }
        theirs += (currentMediaTime() - start) * 10
    }
    let n = Double(count * 3)
    print(String(format: "| %@ | %.1f | %.1f | %.2f | %.1e |", name, ours / n * 1e9, theirs / n * 1e9, theirs / ours, worst)
          + (sink.isNaN ? " " : ""))
}
