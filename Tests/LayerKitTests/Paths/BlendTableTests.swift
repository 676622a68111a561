import CKernels
import Foundation
import Testing
@testable import LayerKit

/// A converter keeps `ColorBlendSink`'s tables of levels for the last two colors it filled
/// with, so that a scene's alternating fills and strokes work each level out once per color.
@Suite struct BlendTableTests {
    /// Colors met in turn: a table holds a color's entries only when it was that color's last
    /// time, and entries written for a color are found again when it comes back.
    @Test func theLastTwoColorsKeepTheirTables() {
        let converter = ScanConverter()
        let a: UInt32 = 0xFF10_2030, b: UInt32 = 0x8000_0000, c: UInt32 = 0xFFFF_FFFF
        var held: [Bool] = []
        for color in [a, b, a, b, c, a, a] {
            converter.withBlendTable(for: color) { table, holdsColor in
                held.append(holdsColor)
                if holdsColor {
                    #expect(table[7] == UInt64(color), "the table written for \(String(color, radix: 16))")
                } else {
                    table.update(repeating: 0, count: ColorBlendSink.tableSize)
                    table[7] = UInt64(color)
                }
            }
        }
        #expect(held == [false, false, true, true, false, false, true])
    }

    /// `lk_blend_table_fill`, in every variant, against the sink's own entry for every level
    /// (s = color · m, 255 − alpha · m, each rounded as pixman multiplies, which
    /// ColorBlendSinkTests check against pixman): every alpha, with random channels no greater,
    /// and the extremes.
    @Test(arguments: [LK_VARIANT_SCALAR, LK_VARIANT_SSE2, LK_VARIANT_AVX2, LK_VARIANT_AVX512, LK_VARIANT_AUTO])
    func filledTablesHoldEveryLevelsEntry(_ variant: lk_variant) {
        guard variant == LK_VARIANT_AUTO || lk_kernels_variant_is_available(variant) != 0 else { return }
        var g = SeededGenerator(seed: 1515)
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: ColorBlendSink.tableSize)
        defer { table.deallocate() }
        var colors: [UInt32] = [0, 0xFFFF_FFFF, 0xFF00_0000, 0x0000_00FF]
        for alpha in UInt32(0)...255 {
            for _ in 0..<4 {
                let channel = { UInt32.random(in: 0...alpha, using: &g) }
                colors.append(alpha << 24 | channel() << 16 | channel() << 8 | channel())
            }
        }
        for color in colors {
            #expect(lk_blend_table_fill(table, color, variant) == LK_OK)
            let alpha = color >> 24
            let wrong = (0..<ColorBlendSink.tableSize).filter { m in
                let s = ColorBlendSink.multiply(color, UInt32(m)), inverse = 255 - ColorBlendSink.multiply(alpha: alpha, UInt32(m))
                return table[m] != UInt64(s) | UInt64(inverse) << 32
            }
            #expect(wrong.isEmpty, "color \(String(color, radix: 16)): levels \(wrong.prefix(8))")
            if !wrong.isEmpty { return }
        }
        #expect(lk_blend_table_fill(nil, 0xFFFF_FFFF, variant) == LK_INVALID)
    }

    /// Random polygons filled in colors that alternate and repeat, through kept tables
    /// (`Bitmap.fill`), and each through a sink with a table of its own: the same pixels.
    @Test func keptTablesDrawWhatFreshTablesDraw() throws {
        var g = SeededGenerator(seed: 2424)
        let kept = try Bitmap(width: 48, height: 40), fresh = try Bitmap(width: 48, height: 40)
        let colors = [Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.85), .white, Color(red: 1, green: 0.3, blue: 0, alpha: 0.5)]
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: ColorBlendSink.tableSize)
        defer { table.deallocate() }
        for _ in 0..<60 {
            let color = colors[Int.random(in: 0..<colors.count, using: &g)]
            var path = Path()
            path.addLines(between: (0..<Int.random(in: 3...7, using: &g)).map { _ in
                CGPoint(x: CGFloat.random(in: -5...53, using: &g), y: CGFloat.random(in: -5...45, using: &g))
            })
            path.closeSubpath()
            kept.fill(path, with: color)
            let converter = ScanConverter()
            converter.addFill(path, transform: .identity)
            guard let area = fresh.coverageArea(of: converter, clip: nil) else { continue }
            table.initialize(repeating: 0xDEAD_BEEF, count: ColorBlendSink.tableSize)
            var sink = ColorBlendSink(pixels: fresh.pixels, pixelsPerRow: fresh.width, x: area.x, y: area.y,
                                      color: color.premultipliedARGB32, table: table)
            converter.render(rule: .nonZero, area: area, into: &sink)
        }
        let ours = kept.withUnsafePixels { Array($0) }, theirs = fresh.withUnsafePixels { Array($0) }
        if let i = ours.indices.first(where: { ours[$0] != theirs[$0] }) {
            Issue.record("pixel (\(i % 48), \(i / 48)) is \(String(ours[i], radix: 16)), not \(String(theirs[i], radix: 16))")
        }
    }
}
