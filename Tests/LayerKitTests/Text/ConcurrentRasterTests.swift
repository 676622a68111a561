import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import LayerKit

/// The content pass rasterizes independent stores on several threads at once: text layout,
/// glyph drawing, path filling and stroking must give each store exactly what a single thread
/// gives it, whatever runs beside them.
@Suite struct ConcurrentRasterTests {
    /// One store's worth of drawing, described by values so that any thread can run it.
    struct Job: Sendable {
        enum Kind: Sendable {
            case text(String, fontFile: Int, size: CGFloat, alignment: TextAlignment, wrapped: Bool)
            case fill(Path, FillRule)
            case stroke(Path, StrokeStyle)
        }
        let kind: Kind
        let color: Color
        let transform: CGAffineTransform
        static let size = 96

        /// Draws into a fresh store and returns its pixels.
        func run(fonts: [Font], cache: GlyphCache) throws -> [UInt32] {
            let bitmap = try Bitmap(width: Self.size, height: Self.size)
            switch kind {
            case let .text(string, file, size, alignment, wrapped):
                let font = fonts[file]
                let layout = TextLayout(runs: [TextRun(string)], font: font.familyName, fontSize: size, color: color, width: 90,
                                        wrapped: wrapped, truncation: wrapped ? .none : .middle, alignment: alignment,
                                        explicitFont: font)
                layout.draw(into: bitmap, at: CGPoint(x: 0.5, y: 1), transform: transform, cache: cache)
            case let .fill(path, rule):
                bitmap.fill(path, with: color, rule: rule, transform: transform)
            case let .stroke(path, style):
                bitmap.stroke(path, with: color, style: style, transform: transform)
            }
            return bitmap.withUnsafePixels { Array($0) }
        }
    }

    static let fontFiles = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf",
                            "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"]

    static func jobs() -> [Job] {
        var generator = SplitMix64(seed: 2024)
        func unit() -> CGFloat { CGFloat(generator.next() % 100_000) / 100_000 }
        let words = ["ALPHA-01", "12.34", "+1.5%", "Wasserfläche", "AVATAR", "e\u{301}a\u{308}", "ffi", "مرحبا", "Ω≈ç√", "Tj"]
        var jobs: [Job] = []
        for i in 0..<150 {
            let color = Color(red: Double(unit()), green: Double(unit()), blue: Double(unit()), alpha: i % 3 == 0 ? 0.7 : 1)
            let scale = 0.6 + unit()
            var transform = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: unit() * 4, ty: unit() * 4)
            switch i % 3 {
            case 0:
                let string = (0..<(2 + i % 5)).map { _ in words[Int(generator.next() % UInt64(words.count))] }.joined(separator: " ")
                if i % 15 == 0 { transform = CGAffineTransform(rotationAngle: 0.2).concatenating(transform) }   // outlines, not the cache
                let alignment: [TextAlignment] = [.left, .center, .right, .justified]
                jobs.append(Job(kind: .text(string, fontFile: i % 3, size: 8 + unit() * 20, alignment: alignment[i % 4], wrapped: i % 2 == 0),
                                color: color, transform: transform))
            case 1:
                var path = Path()
                path.addLines(between: (0..<(5 + i % 9)).map { _ in CGPoint(x: unit() * 90, y: unit() * 90) })
                path.closeSubpath()
                path.addEllipse(in: CGRect(x: unit() * 40, y: unit() * 40, width: 10 + unit() * 40, height: 10 + unit() * 40))
                jobs.append(Job(kind: .fill(path, i % 2 == 0 ? .nonZero : .evenOdd), color: color, transform: transform))
            default:
                var path = Path()
                path.move(to: CGPoint(x: unit() * 90, y: unit() * 90))
                path.addCurve(to: CGPoint(x: unit() * 90, y: unit() * 90), control1: CGPoint(x: unit() * 90, y: unit() * 90),
                              control2: CGPoint(x: unit() * 90, y: unit() * 90))
                path.addLine(to: CGPoint(x: unit() * 90, y: unit() * 90))
                if i % 4 == 0 { transform = CGAffineTransform(scaleX: 1.4, y: 0.7).concatenating(transform) }   // stroked in path space
                let style = StrokeStyle(lineWidth: 0.5 + unit() * 12, lineCap: [.butt, .round, .square][i % 3],
                                        lineJoin: [.miter, .round, .bevel][(i / 3) % 3], miterLimit: 4,
                                        dashPattern: i % 5 == 0 ? [6, 3] : [], dashPhase: unit() * 5)
                jobs.append(Job(kind: .stroke(path, style), color: color, transform: transform))
            }
        }
        return jobs
    }

    /// Every job drawn once on one thread (fonts, shaping and glyph caches cold), then all of
    /// them from four threads at once, twice, with fonts and a glyph cache of their own (cold
    /// again, so that threads rasterize and insert the same glyphs at the same time): each
    /// store must come out bit for bit as it did alone.
    @Test func storesRasterizedOnSeveralThreadsMatchASingleThread() throws {
        let jobs = Self.jobs()
        let serialFonts = try Self.fontFiles.map { try Font(fileAt: $0) }
        let serialCache = GlyphCache(capacity: 4 << 20)
        let expected = try jobs.map { try $0.run(fonts: serialFonts, cache: serialCache) }
        #expect(expected.filter { $0.contains { $0 != 0 } }.count > jobs.count * 9 / 10)   // they draw something

        for round in 0..<2 {
            let fonts = try Self.fontFiles.map { try Font(fileAt: $0) }
            let cache = GlyphCache(capacity: 4 << 20)
            let results = Locked<[Int: [UInt32]]>([:])
            let failures = Locked<[String]>([])
            let next = Atomic<Int>(0)
            let running = Atomic<Int>(0)
            let peak = Locked(0)
            // Four threads of their own, each waiting until all have started, so that the first
            // does not drain the queue alone.
            let started = Atomic<Int>(0), finished = DispatchSemaphore(value: 0)
            for _ in 0..<4 {
                Thread {
                    started.wrappingAdd(1, ordering: .relaxed)
                    while started.load(ordering: .relaxed) < 4 { sched_yield() }
                    while true {
                        let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                        guard index < jobs.count else { break }
                        let now = running.wrappingAdd(1, ordering: .relaxed).newValue
                        peak.withLock { $0 = max($0, now) }
                        defer { running.wrappingSubtract(1, ordering: .relaxed) }
                        do {
                            let pixels = try jobs[index].run(fonts: fonts, cache: cache)
                            results.withLock { $0[index] = pixels }
                        } catch {
                            failures.withLock { $0.append("job \(index): \(error)") }
                        }
                    }
                    finished.signal()
                }.start()
            }
            for _ in 0..<4 { finished.wait() }
            #expect(peak.withLock { $0 } >= 2, "the jobs did not overlap")
            #expect(failures.withLock { $0 }.isEmpty)
            let got = results.withLock { $0 }
            let differing = jobs.indices.filter { got[$0] != expected[$0] }
            #expect(differing.isEmpty, "round \(round): stores \(differing) differ from the single-threaded render")
        }
    }
}
