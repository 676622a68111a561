import Foundation

extension AlphaMask {
    /// Adds a path's coverage, as source-over combines coverage (`CoverageOverSink`): what
    /// `Bitmap.fill(_:with:rule:transform:clip:)` composites in a color, without the color.
    /// Content of one color is stored so and composited through it in that color.
    func fill(_ path: Path, rule: FillRule = .nonZero, transform: CGAffineTransform = .identity) {
        ScanConverter.withConverter { converter in
            converter.addFill(path, transform: transform)
            add(converter, rule: rule)
        }
    }

    /// Adds the coverage of a path's stroke (one outline, filled once), as `fill` adds a fill's:
    /// what `Bitmap.stroke(_:with:style:transform:clip:)` composites in a color.
    func stroke(_ path: Path, style: StrokeStyle = StrokeStyle(), transform: CGAffineTransform = .identity) {
        ScanConverter.withConverter { converter in
            converter.addStroke(path, style: style, transform: transform)
            add(converter, rule: .nonZero)
        }
    }

    /// Adds the coverage of the converter's edges where they fall inside the mask, and notes
    /// the pixels it may have written as ink.
    private func add(_ converter: ScanConverter, rule: FillRule) {
        guard let box = converter.boundingBox else { return }
        let covered = PixelRect(covering: box).intersection(bounds)
        guard !covered.isEmpty else { return }
        let inkBefore = inkBounds
        withUnsafeMutableBytes { bytes in
            guard let base = bytes.baseAddress else { return }
            var sink = CoverageOverSink(base + covered.minY * bytesPerRow + covered.minX, stride: bytesPerRow)
            converter.render(rule: rule, area: covered, into: &sink)
        }
        inkBounds = inkBefore?.union(covered)
    }
}
