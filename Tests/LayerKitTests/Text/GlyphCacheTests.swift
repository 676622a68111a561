import Foundation
import Testing
@testable import LayerKit

@Suite struct GlyphCacheTests {
    /// Text drawn from cached glyphs matches the same glyphs filled as outlines, to within the
    /// 1/8-pixel rounding of their positions, at several fractional origins.
    @Test func cachedGlyphsMatchFilledOutlines() throws {
        let font = try Font.named(Font.defaultFamily)
        let layout = TextLayout(runs: [TextRun("Hamburgefonstiv 0123 ÅÉ")], font: font.familyName, fontSize: 23,
                                color: .black, width: nil, wrapped: false, truncation: .none, alignment: .left, explicitFont: font)
        for (dx, dy) in [(0.0, 0.0), (0.3, 0.55), (0.875, 0.125)] {
            let transform = CGAffineTransform(a: 1.5, b: 0, c: 0, d: 1.5, tx: 3 + dx, ty: 2 + dy)
            let cached = try Bitmap(width: 480, height: 60)
            layout.draw(into: cached, at: .zero, transform: transform)
            var outlines = Path()
            for glyph in layout.glyphs {
                outlines.addPath(glyph.font.outline(ofGlyph: glyph.id),
                                 transform: CGAffineTransform(a: glyph.scale, b: 0, c: 0, d: glyph.scale, tx: glyph.origin.x, ty: glyph.origin.y))
            }
            let filled = try Bitmap(width: 480, height: 60)
            filled.fill(outlines, with: .black, transform: transform)
            var total = 0, largest = 0, inked = 0
            for y in 0..<60 {
                for x in 0..<480 {
                    let a = Int(cached.premultipliedPixel(x: x, y: y) >> 24), b = Int(filled.premultipliedPixel(x: x, y: y) >> 24)
                    total += abs(a - b)
                    largest = max(largest, abs(a - b))
                    if b > 128 { inked += 1 }
                }
            }
            #expect(inked > 1500)
            // Edges move by at most 1/16 px: a few levels on each edge pixel, under one on average.
            #expect(Double(total) / Double(480 * 60) < 1.0, "mean difference at offset (\(dx), \(dy))")
            #expect(largest <= 48, "largest difference at offset (\(dx), \(dy))")
        }
    }

    @Test func aBoundedCacheDropsTheLeastRecentlyUsedGlyphs() throws {
        let font = try Font.named(Font.defaultFamily)
        let cache = GlyphCache(capacity: 20_000)
        let glyphs = font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id)
        for glyph in glyphs { _ = cache.coverage(font: font, glyph: glyph, scale: 0.05, phaseX: 0, phaseY: 0) }
        #expect(cache.count < glyphs.count)
        let again = try #require(cache.coverage(font: font, glyph: glyphs[0], scale: 0.05, phaseX: 0, phaseY: 0))
        #expect(again.coverage.contains { $0 > 200 })
        #expect(cache.coverage(font: font, glyph: font.shape(" ")[0].id, scale: 0.05, phaseX: 0, phaseY: 0) == nil)
    }

    /// A strike's table grows past its first 64 slots and still finds every glyph and phase it
    /// holds: the same coverage object comes back, not a second rasterization.
    @Test func aStrikeFindsEveryGlyphItHoldsAfterGrowing() throws {
        let font = try Font.named(Font.defaultFamily)
        let cache = GlyphCache(capacity: 64 << 20)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789").map(\.id)))
        var first: [String: GlyphCache.Entry] = [:]
        for glyph in glyphs {
            for phase in 0..<GlyphCache.phases {
                let entry = try #require(cache.coverage(font: font, glyph: glyph, scale: 0.011, phaseX: phase, phaseY: 7 - phase))
                first["\(glyph) \(phase)"] = entry
            }
        }
        #expect(cache.count == glyphs.count * GlyphCache.phases)
        for glyph in glyphs.reversed() {
            for phase in 0..<GlyphCache.phases {
                let again = cache.coverage(font: font, glyph: glyph, scale: 0.011, phaseX: phase, phaseY: 7 - phase)
                #expect(again === first["\(glyph) \(phase)"], "glyph \(glyph), phase \(phase) made again")
            }
        }
        // Another scale is another strike: its own coverage, larger.
        let larger = try #require(cache.coverage(font: font, glyph: glyphs[0], scale: 0.022, phaseX: 0, phaseY: 7))
        #expect(larger !== first["\(glyphs[0]) 0"])
        #expect(larger.area.width > first["\(glyphs[0]) 0"]!.area.width)
        #expect(cache.count == glyphs.count * GlyphCache.phases + 1)
    }

    /// Eviction drops the least recently used glyphs and rebuilds the strikes it touched: the
    /// glyphs kept are still found (the same objects), the dropped ones made again.
    @Test func evictionKeepsTheRecentGlyphsFindable() throws {
        let font = try Font.named(Font.defaultFamily)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id))).sorted()
        let cache = GlyphCache(capacity: 15_000)
        var made: [GlyphCache.Entry] = []
        for glyph in glyphs { made.append(try #require(cache.coverage(font: font, glyph: glyph, scale: 0.03, phaseX: 3, phaseY: 5))) }
        let kept = cache.count
        #expect(kept < glyphs.count, "the capacity should have forced an eviction")
        // The last glyphs asked for are the ones kept.
        for (glyph, entry) in zip(glyphs, made).suffix(kept) {
            #expect(cache.coverage(font: font, glyph: glyph, scale: 0.03, phaseX: 3, phaseY: 5) === entry, "glyph \(glyph) lost")
        }
        let dropped = try #require(cache.coverage(font: font, glyph: glyphs[0], scale: 0.03, phaseX: 3, phaseY: 5))
        #expect(dropped !== made[0])
        #expect(dropped.coverage == made[0].coverage)
    }

    /// Coverage looked up in a reading stays readable until the reading ends, even when the
    /// cache evicts its glyph meanwhile: the entry is retired, and freed once the reading ends.
    @Test func coverageLookedUpInAReadingOutlivesItsEviction() throws {
        let font = try Font.named(Font.defaultFamily)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id))).sorted()
        let cache = GlyphCache(capacity: 15_000)
        let first = GlyphCache.Request(glyph: glyphs[0], scale: 0.03, phaseX: 3, phaseY: 5, x: 10, y: 20)
        let expected = try #require(GlyphCache(capacity: 1 << 20).coverage(font: font, glyph: glyphs[0], scale: 0.03, phaseX: 3, phaseY: 5))
        cache.reading { reading in
            var coverage: [GlyphCache.Coverage] = []
            reading.look(font: font, for: [first], into: &coverage)
            let blit = coverage[0].blit
            #expect(blit.x == 10 + Int32(expected.area.x) && blit.y == 20 + Int32(expected.area.y))
            // Every other glyph, one run at a time: the first is the least recently used, and goes.
            var others: [GlyphCache.Coverage] = []
            for glyph in glyphs.dropFirst() {
                reading.look(font: font, for: [GlyphCache.Request(glyph: glyph, scale: 0.03, phaseX: 3, phaseY: 5)], into: &others)
            }
            #expect(cache.retiredCount > 0, "the capacity should have forced an eviction")
            let bytes = Array(UnsafeBufferPointer(start: blit.coverage, count: Int(blit.stride) * Int(blit.height)))
            #expect(bytes == expected.coverage)
        }
        #expect(cache.retiredCount == 0)
        // Without a reading under way, evicted entries are freed at once.
        for glyph in glyphs { _ = cache.coverage(font: font, glyph: glyph, scale: 0.04, phaseX: 0, phaseY: 0) }
        #expect(cache.retiredCount == 0)
    }

    /// A reading is counted by its first lookup: one that has looked nothing up yet keeps
    /// nothing the cache evicts meanwhile (its lookups could not have found it).
    @Test func aReadingKeepsEvictedEntriesOnlyOnceItHasLookedUp() throws {
        let font = try Font.named(Font.defaultFamily)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id))).sorted()
        let cache = GlyphCache(capacity: 15_000)
        cache.reading { reading in
            for glyph in glyphs { _ = cache.coverage(font: font, glyph: glyph, scale: 0.03, phaseX: 1, phaseY: 1) }
            #expect(cache.count < glyphs.count, "the capacity should have forced an eviction")
            #expect(cache.retiredCount == 0, "nothing looked up in the reading: evicted entries are freed at once")
            var coverage: [GlyphCache.Coverage] = []
            reading.look(font: font, for: [GlyphCache.Request(glyph: glyphs[0], scale: 0.03, phaseX: 2, phaseY: 2)], into: &coverage)
            for glyph in glyphs { _ = cache.coverage(font: font, glyph: glyph, scale: 0.03, phaseX: 4, phaseY: 4) }
            #expect(cache.retiredCount > 0, "looked up: evicted entries wait for the reading's end")
        }
        #expect(cache.retiredCount == 0)
    }

    /// Coverage a reading found stays readable while another thread evicts its glyph.
    @Test func coverageLookedUpInAReadingOutlivesAnotherThreadsEviction() throws {
        let font = try Font.named(Font.defaultFamily)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id))).sorted()
        let cache = GlyphCache(capacity: 15_000)
        let expected = try #require(GlyphCache(capacity: 1 << 20).coverage(font: font, glyph: glyphs[0], scale: 0.03, phaseX: 3, phaseY: 5))
        cache.reading { reading in
            var coverage: [GlyphCache.Coverage] = []
            reading.look(font: font, for: [GlyphCache.Request(glyph: glyphs[0], scale: 0.03, phaseX: 3, phaseY: 5)], into: &coverage)
            let blit = coverage[0].blit
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                for glyph in glyphs.dropFirst() { _ = cache.coverage(font: font, glyph: glyph, scale: 0.03, phaseX: 3, phaseY: 5) }
                done.signal()
            }
            done.wait()
            #expect(cache.retiredCount > 0, "the capacity should have forced an eviction")
            #expect(Array(UnsafeBufferPointer(start: blit.coverage, count: Int(blit.stride) * Int(blit.height))) == expected.coverage)
        }
        #expect(cache.retiredCount == 0)
    }

    /// Runs of different strikes (scales, fonts) looked up in turn, with strikes added and
    /// evicted between them, each find their own glyphs: the strike found last is remembered,
    /// and must be told from the others and forgotten when strikes come and go.
    @Test func alternatingStrikesFindTheirOwnGlyphs() throws {
        let font = try Font.named(Font.defaultFamily)
        let other = try Font.named("DejaVu Serif")
        let glyph = try #require(font.shape("g").first).id
        let boldGlyph = try #require(other.shape("g").first).id
        let reference = GlyphCache(capacity: 1 << 24)
        let cache = GlyphCache(capacity: 40_000)
        let asked: [(Font, UInt32, CGFloat)] = [(font, glyph, 0.02), (font, glyph, 0.05), (font, glyph, 0.02), (other, boldGlyph, 0.02),
                                                (font, glyph, 0.05), (font, glyph, 0.09), (other, boldGlyph, 0.05), (font, glyph, 0.02)]
        for round in 0..<3 {
            for (font, glyph, scale) in asked {
                let expected = try #require(reference.coverage(font: font, glyph: glyph, scale: scale, phaseX: 1, phaseY: 2))
                cache.reading { reading in
                    var coverage: [GlyphCache.Coverage] = []
                    reading.look(font: font, for: [GlyphCache.Request(glyph: glyph, scale: scale, phaseX: 1, phaseY: 2)], into: &coverage)
                    let blit = coverage[0].blit
                    #expect(blit.width == Int32(expected.area.width) && blit.height == Int32(expected.area.height), "scale \(scale), round \(round)")
                    let bytes = Array(UnsafeBufferPointer(start: blit.coverage, count: Int(blit.stride) * Int(blit.height)))
                    #expect(bytes == expected.coverage, "scale \(scale), round \(round)")
                }
                #expect(cache.coverage(font: font, glyph: glyph, scale: scale, phaseX: 1, phaseY: 2)?.coverage == expected.coverage)
            }
            // Many glyphs of a new strike each round: the earlier strikes are evicted, and remade.
            for glyph in Array(Set(font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id))) {
                _ = cache.coverage(font: font, glyph: glyph, scale: 0.04 + 0.01 * CGFloat(round), phaseX: 0, phaseY: 0)
            }
        }
    }

    /// Looks `requests` up in a reading of `cache` and returns each glyph's coverage bytes and
    /// placement, copied out while the reading lasts.
    private func looked(_ cache: GlyphCache, _ font: Font, _ requests: [GlyphCache.Request]) -> [[UInt8]] {
        cache.reading { reading in
            var coverage: [GlyphCache.Coverage] = []
            reading.look(font: font, for: requests, into: &coverage)
            return coverage.map { c in
                let b = c.blit
                let bytes = b.coverage.map { Array(UnsafeBufferPointer(start: $0, count: Int(b.stride) * Int(b.height))) } ?? []
                return [UInt8(truncatingIfNeeded: b.x), UInt8(truncatingIfNeeded: b.y), UInt8(b.width), UInt8(b.height)] + bytes
            }
        }
    }

    /// A run the thread has looked up once is found in its front again: the same coverage,
    /// placed at the new origins, even after the cache itself has let every one of its glyphs
    /// go; and such a reading takes no part in the cache's retiring (it never counted).
    @Test func aThreadsFrontServesItsGlyphsAfterTheCacheLetThemGo() throws {
        let font = try Font.named(Font.defaultFamily)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id))).sorted()
        let cache = GlyphCache(capacity: 15_000)
        let reference = GlyphCache(capacity: 1 << 24)
        let run = glyphs.prefix(3).enumerated().map { i, glyph in
            GlyphCache.Request(glyph: glyph, scale: 0.03, phaseX: i, phaseY: 2, x: Int32(10 * i), y: 4)
        }
        let first = looked(cache, font, run)
        #expect(cache.currentFront.held == 3)
        // Every other glyph, at another phase, through the cache's own lookup: the run's go.
        for glyph in glyphs { _ = cache.coverage(font: font, glyph: glyph, scale: 0.03, phaseX: 7, phaseY: 7) }
        #expect(cache.count < glyphs.count, "the capacity should have forced an eviction")
        let moved = run.map { var r = $0; r.x += 100; r.y += 50; return r }
        let again = looked(cache, font, moved)
        let expected = looked(reference, font, moved)
        #expect(again == expected)
        #expect(zip(first, again).allSatisfy { $0.dropFirst(4) == $1.dropFirst(4) }, "the same coverage, moved")
        #expect(cache.retiredCount == 0)
    }

    /// A front past its capacity is emptied when its thread's next reading begins (never in
    /// the middle of one, whose coverage it holds), then fills again.
    @Test func aFrontPastItsCapacityIsEmptiedAtTheNextReading() throws {
        let font = try Font.named(Font.defaultFamily)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyz").map(\.id))).sorted()
        let cache = GlyphCache(capacity: 40_000)
        cache.reading { reading in
            var coverage: [GlyphCache.Coverage] = []
            for glyph in glyphs {
                reading.look(font: font, for: [GlyphCache.Request(glyph: glyph, scale: 0.05, phaseX: 0, phaseY: 0)], into: &coverage)
            }
            #expect(cache.currentFront.bytes > cache.frontCapacity, "the glyphs should have outgrown the front")
            #expect(cache.currentFront.held == glyphs.count, "a reading under way keeps every glyph it found")
        }
        _ = looked(cache, font, [GlyphCache.Request(glyph: glyphs[0], scale: 0.05, phaseX: 1, phaseY: 0)])
        #expect(cache.currentFront.held == 1)
        #expect(cache.currentFront.bytes <= cache.frontCapacity)
    }

    /// Glyphs found in a thread's front are reported to the cache as used, so the cache keeps
    /// them while it evicts glyphs asked for only once (before the last report): the same entry
    /// is still held after several evictions. (Unreported, it is the least recently used.)
    @Test func glyphsFoundInAFrontStayRecentInTheCache() throws {
        let font = try Font.named(Font.defaultFamily)
        let glyphs = Array(Set(font.shape("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ").map(\.id))).sorted()
        let cache = GlyphCache(capacity: 30_000)
        let kept = try #require(cache.coverage(font: font, glyph: glyphs[0], scale: 0.03, phaseX: 0, phaseY: 0))
        let request = GlyphCache.Request(glyph: glyphs[0], scale: 0.03, phaseX: 0, phaseY: 0)
        _ = looked(cache, font, [request])
        for round in 0..<3 {
            // Glyphs asked for once, through the cache's own lookup, until it evicts; between
            // any two, the kept glyph is found in the front until its uses are reported.
            var evicted = false, count = cache.count
            for (i, glyph) in glyphs.dropFirst().enumerated() {
                for _ in 0..<GlyphCache.Front.reportedRuns { _ = looked(cache, font, [request]) }
                _ = cache.coverage(font: font, glyph: glyph, scale: 0.03, phaseX: i % 8, phaseY: 1 + round)
                if cache.count < count {
                    evicted = true
                    break
                }
                count = cache.count
            }
            #expect(evicted, "round \(round): the capacity should have forced an eviction")
            #expect(cache.coverage(font: font, glyph: glyphs[0], scale: 0.03, phaseX: 0, phaseY: 0) === kept, "round \(round)")
        }
    }
}
