import Foundation
import Testing
@testable import LayerKit

@Suite struct TimingFunctionTests {
    /// Chromium, ui/gfx/geometry/cubic_bezier_unittest.cc, CubicBezierTest.Basic:
    /// cubic-bezier(0.25, 0, 0.75, 1). The published digits are truncated, not rounded (x = 0.2
    /// is 0.1280365 to seven places, published as 0.12803), so the exact value lies in
    /// [published, published + one unit of the last digit).
    static let chromiumBasic: [(x: Double, y: String)] = [
        (0, "0"), (0.05, "0.01136"), (0.1, "0.03978"), (0.15, "0.079780"), (0.2, "0.12803"), (0.25, "0.18235"),
        (0.3, "0.24115"), (0.35, "0.30323"), (0.4, "0.36761"), (0.45, "0.43345"), (0.5, "0.5"), (0.6, "0.63238"),
        (0.65, "0.69676"), (0.7, "0.75884"), (0.75, "0.81764"), (0.8, "0.87196"), (0.85, "0.92021"),
        (0.9, "0.96021"), (0.95, "0.98863"), (1, "1"),
    ]

    @Test func agreesWithChromiumToEveryPublishedDigit() {
        let f = TimingFunction(controlPoints: 0.25, 0, 0.75, 1)
        for (x, text) in Self.chromiumBasic {
            let published = Double(text)!
            let decimals = text.split(separator: ".").dropFirst().first?.count ?? 0
            let unit = decimals == 0 ? 1e-9 : pow(10, -Double(decimals))
            let y = f.value(at: x)
            #expect(y >= published - 1e-9 && y < published + unit, "x = \(x): \(y) vs \(text)")
        }
    }

    @Test func matchesHighPrecisionValuesToOneMillionth() {
        // Solved to 30 digits with mpmath (findroot on the Bézier's x, then its y), for
        // cubic-bezier(0.25, 0, 0.75, 1).
        let f = TimingFunction(controlPoints: 0.25, 0, 0.75, 1)
        #expect(abs(f.value(at: 0.05) - 0.0113639731950358) < 1e-9)
        #expect(abs(f.value(at: 0.15) - 0.0797807644338301) < 1e-9)
        #expect(abs(f.value(at: 0.2) - 0.128036472613598) < 1e-9)
        #expect(abs(f.value(at: 0.4) - 0.367613115531570) < 1e-9)
    }

    @Test func matchesChromiumExactValuesToOneMillionth() {
        // CubicBezierTest.Basic: exact results for symmetric curves at 0.5.
        #expect(abs(TimingFunction(controlPoints: 0.5, 1, 0.5, 1).value(at: 0.5) - 0.875) < 1e-6)
        #expect(abs(TimingFunction(controlPoints: 0.5, 2, 0.5, 2).value(at: 0.5) - 1.625) < 1e-6)
        #expect(abs(TimingFunction(controlPoints: 0.5, -1, 0.5, -1).value(at: 0.5) - (-0.625)) < 1e-6)
    }

    @Test func solvesXToOneMillionthEverywhere() {
        // Independent of any table: the solved parameter must put the curve's x at the input.
        for f in [TimingFunction.easeIn, .easeOut, .easeInEaseOut, .default, TimingFunction(controlPoints: 0, 1, 1, 0)] {
            for i in 0...1000 {
                let x = Double(i) / 1000
                let y = f.value(at: x)
                // Find the curve parameter for y by bisection on x, to cross-check.
                var lo = 0.0, hi = 1.0
                func bx(_ t: Double) -> Double {
                    let a = Double(f.c1.x), b = Double(f.c2.x)
                    return 3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t
                }
                func by(_ t: Double) -> Double {
                    let a = Double(f.c1.y), b = Double(f.c2.y)
                    return 3 * (1 - t) * (1 - t) * t * a + 3 * (1 - t) * t * t * b + t * t * t
                }
                for _ in 0..<200 { let m = (lo + hi) / 2; if bx(m) < x { lo = m } else { hi = m } }
                #expect(abs(by((lo + hi) / 2) - y) < 1e-6, "\(f) at \(x): \(y) vs \(by((lo + hi) / 2))")
            }
        }
    }

    @Test func verticalTangentIsSolvedExactlyBySymmetry() {
        // cubic-bezier(1, 0, 0, 1) has a vertical tangent at (0.5, 0.5): y is so ill-conditioned
        // there that only symmetry can check it. A point-symmetric curve has y(x) + y(1 − x) = 1.
        let f = TimingFunction(controlPoints: 1, 0, 0, 1)
        #expect(abs(f.value(at: 0.5) - 0.5) < 1e-6)
        for i in 0...100 {
            let x = Double(i) / 100
            #expect(abs(f.value(at: x) + f.value(at: 1 - x) - 1) < 1e-6, "x = \(x)")
        }
    }

    @Test func namedCurvesHaveCoreAnimationControlPoints() {
        #expect(TimingFunction(name: .easeInEaseOut).controlPoint(at: 1) == CGPoint(x: 0.42, y: 0))
        #expect(TimingFunction(name: .easeInEaseOut).controlPoint(at: 2) == CGPoint(x: 0.58, y: 1))
        #expect(TimingFunction(name: .default).controlPoint(at: 1) == CGPoint(x: 0.25, y: 0.1))
        #expect(TimingFunction(name: .linear).value(at: 0.3) == 0.3)
        #expect(TimingFunction(name: .easeIn).value(at: -1) == 0 && TimingFunction(name: .easeIn).value(at: 2) == 1)
    }

    @Test func nonFiniteControlPointsDoNotPoisonTheCurve() {
        let f = TimingFunction(controlPoints: .nan, .infinity, 2, -.infinity)
        for i in 0...10 { #expect(f.value(at: Double(i) / 10).isFinite) }
    }
}
