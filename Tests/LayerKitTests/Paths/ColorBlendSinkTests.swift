import Foundation
import Testing
@testable import LayerKit

/// Coverage blended straight into pixels gives pixman's pixels, bit for bit.
@Suite final class ColorBlendSinkTests {
    static func pixels(_ bitmap: Bitmap) -> [UInt32] { bitmap.withUnsafePixels { Array($0) } }

    /// A sink's table of levels, filled with garbage (the sink clears it).
    let table: UnsafeMutablePointer<UInt64> = {
        let table = UnsafeMutablePointer<UInt64>.allocate(capacity: ColorBlendSink.tableSize)
        table.initialize(repeating: 0xDEAD_BEEF, count: ColorBlendSink.tableSize)
        return table
    }()

    deinit { table.deallocate() }

    /// Random masks (runs of one level and single pixels, as the sweep reports them) over
    /// random destinations, with opaque, translucent and clear colors: pixman's
    /// `over_n_8_8888` composite and the sink agree on every pixel.
    @Test func matchesPixmanThroughTheSameMask() throws {
        var generator = SeededGenerator(seed: 77)
        let width = 37, height = 9
        for round in 0..<60 {
            var color = KernelFixtures.pixel(&generator)
            if round % 5 == 0 { color |= 0xFF00_0000 }
            if round % 7 == 0 { color = 0 }
            let area = PixelRect(x: Int(generator.next() % 5), y: Int(generator.next() % 3), width: 30, height: 6)
            let stride = ScanConverter.rowBytes(area.width)
            var mask = [UInt8](repeating: 0, count: stride * area.height)
            let reference = try KernelFixtures.bitmap(width: width, height: height, &generator)
            let ours = try reference.copy()
            var sink = ColorBlendSink(pixels: ours.pixels, pixelsPerRow: width, x: area.x, y: area.y, color: color, table: table)
            for y in 0..<area.height {
                sink.beginRow(y)
                var x = 0
                while x < area.width {
                    let count = min(Int(generator.next() % 6) + 1, area.width - x)
                    let levels: [UInt8] = [0, 255, 1, 128, 254, UInt8(generator.next() % 256)]
                    let level = levels[Int(generator.next() % UInt64(levels.count))]
                    if generator.next() % 2 == 0 {
                        if level != 0 { sink.run(x, count: count, level: level) }
                        for i in x..<(x + count) { mask[y * stride + i] = level }
                        x += count
                    } else {
                        if level != 0 { sink.pixel(x, level: level) }
                        mask[y * stride + x] = level
                        x += 1
                    }
                }
            }
            mask.withUnsafeMutableBufferPointer {
                reference.composite(mask: $0.baseAddress!, stride: stride, area: area, color: Color(premultipliedARGB32: color), clip: nil)
            }
            #expect(Self.pixels(ours) == Self.pixels(reference), "round \(round), color \(String(color, radix: 16))")
        }
    }

    /// Every coverage level with every alpha, over every destination level of one channel.
    @Test func matchesPixmanForEveryLevel() throws {
        let width = 256, height = 1
        for alpha in stride(from: 0, through: 255, by: 15) {
            for channelValue in [0, alpha / 2, alpha] {
                let color = UInt32(alpha) << 24 | UInt32(channelValue) << 16 | UInt32(alpha / 3) << 8 | UInt32(channelValue / 2)
                // Colors go through Color for pixman: check they come back the same.
                guard Color(premultipliedARGB32: color).premultipliedARGB32 == color else { continue }
                for destination in stride(from: 0, through: 255, by: 17) {
                    let d = UInt32(destination)
                    let start = d << 24 | (d / 2) << 16 | (d / 3) << 8 | d
                    let reference = try Bitmap(width: width, height: height)
                    reference.withUnsafeMutablePixels { $0.update(repeating: start) }
                    let ours = try reference.copy()
                    var mask = (0..<256).map { UInt8($0) }
                    var sink = ColorBlendSink(pixels: ours.pixels, pixelsPerRow: width, x: 0, y: 0, color: color, table: table)
                    sink.beginRow(0)
                    for level in 1..<256 { sink.pixel(level, level: UInt8(level)) }
                    mask.withUnsafeMutableBufferPointer {
                        reference.composite(mask: $0.baseAddress!, stride: 256, area: PixelRect(x: 0, y: 0, width: 256, height: 1),
                                            color: Color(premultipliedARGB32: color), clip: nil)
                    }
                    #expect(Self.pixels(ours) == Self.pixels(reference), "color \(String(color, radix: 16)) over \(String(start, radix: 16))")
                }
            }
        }
    }

    /// Fills and strokes through spans give the pixels the mask and pixman gave (the route a
    /// clip still takes), over a busy background.
    @Test(arguments: [FillRule.nonZero, .evenOdd])
    func fillsThroughSpansMatchFillsThroughAMask(_ rule: FillRule) throws {
        var generator = SeededGenerator(seed: rule == .nonZero ? 11 : 12)
        for round in 0..<12 {
            var path = Path()
            for _ in 0..<2 {
                path.move(to: CGPoint(x: Double(generator.next() % 700) / 10 - 5, y: Double(generator.next() % 500) / 10 - 5))
                for _ in 0..<4 {
                    path.addCurve(to: CGPoint(x: Double(generator.next() % 700) / 10 - 5, y: Double(generator.next() % 500) / 10 - 5),
                                  control1: CGPoint(x: Double(generator.next() % 600) / 10, y: Double(generator.next() % 400) / 10),
                                  control2: CGPoint(x: Double(generator.next() % 600) / 10, y: Double(generator.next() % 400) / 10))
                }
                path.closeSubpath()
            }
            let color = Color(red: Double(generator.next() % 256) / 255, green: 0.4, blue: 0.7,
                              alpha: round % 3 == 0 ? 1 : Double(generator.next() % 256) / 255)
            let spans = try KernelFixtures.bitmap(width: 60, height: 40, &generator)
            let masked = try spans.copy()
            let everything = Region(spans.bounds)
            if round % 2 == 0 {
                spans.fill(path, with: color, rule: rule)
                masked.fill(path, with: color, rule: rule, clip: everything)
            } else {
                let style = StrokeStyle(lineWidth: 1 + Double(round), lineCap: .round, lineJoin: .miter)
                spans.stroke(path, with: color, style: style)
                masked.stroke(path, with: color, style: style, clip: everything)
            }
            #expect(Self.pixels(spans) == Self.pixels(masked), "round \(round)")
        }
    }
}
