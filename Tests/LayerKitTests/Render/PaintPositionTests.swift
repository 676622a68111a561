import Foundation
import Testing
@testable import LayerKit

/// Places in painter's order.
@Suite struct PaintPositionTests {
    /// Asking whether `path + [mark]` comes first, without making it, answers as `<` does on
    /// the path made: equal prefixes, one path a prefix of the other, and marks equal to the
    /// other's next step included.
    @Test func precedesWithoutMakingThePathAgreesWithOrder() {
        var g = SeededGenerator(seed: 31)
        func path() -> [Int] { (0..<Int.random(in: 0...3, using: &g)).map { _ in Int.random(in: 0...2, using: &g) } }
        var compared = 0, before = 0
        for _ in 0..<5000 {
            let a = path(), mark = Int.random(in: 0...2, using: &g), b = path()
            let expected = PaintPosition(path: a + [mark]) < PaintPosition(path: b)
            #expect(PaintPosition.precedes(a, then: mark, b) == expected, "\(a) + [\(mark)] vs \(b)")
            compared += 1
            if expected { before += 1 }
        }
        #expect(before > 1000 && compared - before > 1000)
    }

    /// The same for `path + [mark, last]` (a child's own paint, noted from its superlayer's
    /// path).
    @Test func precedesWithTwoMarksAgreesWithOrder() {
        var g = SeededGenerator(seed: 37)
        func path() -> [Int] { (0..<Int.random(in: 0...4, using: &g)).map { _ in Int.random(in: 0...2, using: &g) } }
        var before = 0, after = 0
        for _ in 0..<8000 {
            let a = path(), mark = Int.random(in: 0...2, using: &g), last = Int.random(in: 0...2, using: &g), b = path()
            let expected = PaintPosition(path: a + [mark, last]) < PaintPosition(path: b)
            #expect(PaintPosition.precedes(a, then: mark, last, b) == expected, "\(a) + [\(mark), \(last)] vs \(b)")
            if expected { before += 1 } else { after += 1 }
        }
        #expect(before > 1000 && after > 1000)
    }
}
