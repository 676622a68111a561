import Foundation
@testable import LayerKit

/// A text board of two columns of 16 lines over a 640x480 root, whose every string changes
/// every frame: the stores of a frame's lines are redrawn frame after frame, as the benchmarks'
/// text board redraws them.
struct ChangingLines {
    let lines: [TextLayer]

    /// Adds the lines to `root`, above what it holds already.
    init(in root: Layer) {
        lines = (0..<32).map { row in
            let line = TextLayer()
            line.frame = CGRect(x: 10.25 + CGFloat(row % 2) * 310, y: 8 + CGFloat(row / 2) * 29, width: 300, height: 28)
            line.fontSize = 20
            line.foregroundColor = Color(red: 0.9, green: 0.92, blue: 0.85)
            root.addSublayer(line)
            return line
        }
    }

    /// Sets every line's string for `frame`.
    func show(frame: Int) {
        for (i, line) in lines.enumerated() { line.string = "LINE-\(i)  \(frame * 7919 % 1000 + i).\(frame % 10)  +\(frame)%" }
    }
}

extension Bitmap {
    /// How many pixels differ from `other`'s (of the same size).
    func differingPixels(from other: Bitmap) -> Int {
        withUnsafePixels { a in other.withUnsafePixels { b in zip(a, b).count { $0 != $1 } } }
    }
}
