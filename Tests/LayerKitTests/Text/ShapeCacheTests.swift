import Foundation
import Testing
@testable import LayerKit

/// A font's shaping results kept by the bytes of the text shaped.
@Suite struct ShapeCacheTests {
    private static func glyphs(_ n: Int) -> [Font.Glyph] {
        [Font.Glyph(id: UInt32(n), cluster: 0, x: 0, y: 0, advance: n)]
    }

    private static func find(_ cache: ShapeCache, _ text: String) -> [Font.Glyph]? {
        var text = text
        return text.withUTF8 { cache.glyphs(forUTF8: $0) }
    }

    private static func insert(_ cache: ShapeCache, _ glyphs: [Font.Glyph], _ text: String) {
        var text = text
        text.withUTF8 { cache.insert(glyphs, forUTF8: $0) }
    }

    /// Texts that differ in one byte, in length only, or not at all (empty) are told apart.
    @Test func findsExactlyTheTextsKept() {
        let cache = ShapeCache(capacity: 1000)
        var g = SeededGenerator(seed: 5)
        var kept: [String: Int] = [:]
        for i in 0..<400 {
            let text = String((0..<Int.random(in: 0...6, using: &g)).map { _ in "ab c".randomElement(using: &g)! })
            kept[text] = i
            Self.insert(cache, Self.glyphs(i), text)
        }
        #expect(cache.count == kept.count)
        for (text, i) in kept { #expect(Self.find(cache, text) == Self.glyphs(i), "\(text.debugDescription)") }
        for text in ["abcabcab", "d", "a\u{0}", "  c  c  c"] where kept[text] == nil {
            #expect(Self.find(cache, text) == nil, "\(text.debugDescription)")
        }
    }

    /// The trim's selection returns the k-th largest for every k, with repeated values, runs,
    /// sorted and reversed input (against sorting).
    @Test func selectsTheKthLargest() {
        var g = SeededGenerator(seed: 11)
        var inputs: [[UInt64]] = [[7], [3, 3], [1, 2], [2, 1], Array(1...50), Array((1...50).reversed()),
                                  [UInt64](repeating: 9, count: 33)]
        for count in [3, 4, 5, 17, 100, 1000] {
            inputs.append((0..<count).map { _ in UInt64.random(in: 0...UInt64(count / 2), using: &g) })
            inputs.append((0..<count).map { _ in UInt64.random(in: 0...UInt64.max, using: &g) })
        }
        for input in inputs {
            let sorted = input.sorted(by: >)
            // Every k of the short inputs; the ends and a spread of the long ones.
            let ks = input.count <= 50 ? Array(1...input.count) : [1, 2, input.count / 3, input.count / 2, input.count - 1, input.count]
            for k in ks {
                var values = input
                #expect(ShapeCache.selectLargest(k, of: &values) == sorted[k - 1], "k \(k) of \(input.count)")
                #expect(values.sorted(by: >) == sorted)
            }
        }
    }

    /// Over capacity, the least recently used texts go first (down to three quarters).
    @Test func dropsTheLeastRecentlyUsed() {
        let cache = ShapeCache(capacity: 8)
        for i in 0..<8 { Self.insert(cache, Self.glyphs(i), "word\(i)") }
        _ = Self.find(cache, "word0")   // now the most recently used
        Self.insert(cache, Self.glyphs(8), "word8")
        #expect(cache.count == 6)
        #expect(Self.find(cache, "word0") == Self.glyphs(0))
        #expect(Self.find(cache, "word8") == Self.glyphs(8))
        for i in 1...3 { #expect(Self.find(cache, "word\(i)") == nil, "word\(i)") }
        for i in 4...7 { #expect(Self.find(cache, "word\(i)") == Self.glyphs(i), "word\(i)") }
    }

    /// Shaping by bytes gives what shaping the string gives, cached or not.
    @Test func shapingBytesMatchesShapingTheString() throws {
        let font = try Font(fileAt: TextTests.dejaVu)
        for text in ["AVATAR ", "1234.56", "", "e\u{301}x", String(repeating: "long ", count: 80)] {
            var bytes = text
            let byBytes = bytes.withUTF8 { font.shape(utf8: $0) }
            #expect(byBytes == font.shaper.shape(text), "\(text)")
            #expect(font.shape(text) == byBytes, "\(text)")
        }
    }

    // MARK: The thread's front (looked up without the lock)

    /// What the calling thread's front holds for `text` (nil when it does not).
    private static func inFront(_ cache: ShapeCache, _ text: String) -> [Font.Glyph]? {
        var text = text
        return text.withUTF8 { bytes in cache.lookingUp { find in find(bytes) } }
    }

    /// The front finds what the cache holds for this thread's texts, and nothing else.
    @Test func frontReturnsWhatTheCacheHolds() {
        let cache = ShapeCache(capacity: 1000)
        for i in 0..<300 { Self.insert(cache, Self.glyphs(i), "word\(i) ") }
        for i in 0..<300 {
            #expect(Self.inFront(cache, "word\(i) ") == Self.glyphs(i), "word\(i)")
            #expect(Self.inFront(cache, "word\(i) ") == Self.find(cache, "word\(i) "), "word\(i)")
        }
        for text in ["word1", "word300 ", "", "word1  "] { #expect(Self.inFront(cache, text) == nil, "\(text.debugDescription)") }
    }

    /// The front tells apart texts that differ only in length, in trailing zero bytes, or in a
    /// byte beyond the part it holds in its entries (`Front.Table.headBytes`), and finds texts
    /// of every length, across the growth of its table.
    @Test func frontTellsApartTextsAlikeInTheirFirstBytes() {
        let cache = ShapeCache(capacity: 1000)
        let head = String(repeating: "h", count: Front.Table.headBytes)
        var texts = ["", "a", "a\u{0}", "a\u{0}\u{0}", String(head.dropLast()), head, head + "\u{0}", head + "x", head + "y",
                     head + "xy", head + "yx", head + String(repeating: "long ", count: 40)]
        texts += (0..<100).map { "\(head)\($0) " }
        // Every length up to the held part and past it, alike but in their last byte.
        let digits = Array("0123456789abcdefghij")
        texts += (1...digits.count).flatMap { n in [String(digits.prefix(n)), String(digits.prefix(n - 1)) + "~"] }
        for (i, text) in texts.enumerated() { Self.insert(cache, Self.glyphs(i), text) }
        for (i, text) in texts.enumerated() {
            #expect(Self.find(cache, text) == Self.glyphs(i), "\(text.debugDescription)")
            #expect(Self.inFront(cache, text) == Self.glyphs(i), "\(text.debugDescription)")
        }
        for text in [head + "z", head + "x\u{0}", String(head.dropLast()) + "\u{0}", head + String(repeating: "long ", count: 39)] {
            #expect(Self.inFront(cache, text) == nil, "\(text.debugDescription)")
        }
    }

    /// Texts another thread finds in the cache are not in this thread's front until this thread
    /// finds them under the lock; then they are.
    @Test func frontLearnsWhatTheThreadFound() {
        let cache = ShapeCache(capacity: 100)
        Thread.detachNewThreadAndWait { Self.insert(cache, Self.glyphs(7), "seven") }
        #expect(Self.inFront(cache, "seven") == nil)
        #expect(Self.find(cache, "seven") == Self.glyphs(7))
        #expect(Self.inFront(cache, "seven") == Self.glyphs(7))
    }

    /// A text found under the lock again and again (a line with a word twice, a word asked for
    /// on its own) is held once in the front, long or short.
    @Test func frontHoldsATextFoundAgainOnce() {
        let cache = ShapeCache(capacity: 100)
        let long = String(repeating: "long ", count: 10)
        Thread.detachNewThreadAndWait {
            Self.insert(cache, Self.glyphs(1), "twice")
            Self.insert(cache, Self.glyphs(2), long)
        }
        var (short, longer) = ("twice", long)
        let found = short.withUTF8 { a in longer.withUTF8 { b in cache.glyphs(forUTF8: [a, b, a, b]) } }
        #expect(found == [Self.glyphs(1), Self.glyphs(2), Self.glyphs(1), Self.glyphs(2)])
        #expect(Self.find(cache, long) == Self.glyphs(2))
        #expect(Front.current(for: cache).count == 2)
        #expect(Self.inFront(cache, "twice") == Self.glyphs(1))
        #expect(Self.inFront(cache, long) == Self.glyphs(2))
    }

    /// Once the cache drops texts (over capacity), the front gives none of them: after a trim
    /// the front answers as the cache does, for every text.
    @Test func frontForgetsWhatTheCacheDropped() {
        let cache = ShapeCache(capacity: 8)
        for i in 0..<8 { Self.insert(cache, Self.glyphs(i), "word\(i)") }
        for i in 0..<8 { #expect(Self.inFront(cache, "word\(i)") == Self.glyphs(i)) }
        // Another thread trims the cache: this thread's front must not serve what went.
        Thread.detachNewThreadAndWait { for i in 8..<12 { Self.insert(cache, Self.glyphs(i), "word\(i)") } }
        for i in 0..<12 {
            let front = Self.inFront(cache, "word\(i)")
            #expect(front == nil || front == Self.find(cache, "word\(i)"), "word\(i)")
        }
        #expect(Front.current(for: cache).count <= cache.count)
    }

    /// Glyphs kept again for the same text (replaced in the cache) replace the front's.
    @Test func frontGivesGlyphsReplacedInTheCacheUpToDate() {
        let cache = ShapeCache(capacity: 16)
        Self.insert(cache, Self.glyphs(1), "text")
        #expect(Self.inFront(cache, "text") == Self.glyphs(1))
        Thread.detachNewThreadAndWait { Self.insert(cache, Self.glyphs(2), "text") }
        #expect(Self.inFront(cache, "text") != Self.glyphs(1))
        #expect(Self.find(cache, "text") == Self.glyphs(2))
        #expect(Self.inFront(cache, "text") == Self.glyphs(2))
    }

    /// Uses found only in the front count as uses in the cache: a text the thread keeps finding
    /// there survives a trim that drops texts used less recently.
    @Test func usesFoundInTheFrontKeepTheTextInTheCache() {
        let cache = ShapeCache(capacity: 8)
        for i in 0..<8 { Self.insert(cache, Self.glyphs(i), "word\(i)") }
        for _ in 0..<ShapeCache.Front.reportedUses { #expect(Self.inFront(cache, "word0") == Self.glyphs(0)) }
        Thread.detachNewThreadAndWait { Self.insert(cache, Self.glyphs(8), "word8") }
        #expect(cache.count == 6)
        #expect(Self.find(cache, "word0") == Self.glyphs(0))
        #expect(Self.find(cache, "word1") == nil)
    }

    /// A front never holds more texts than its cache may keep, however many pass through it,
    /// and a thread keeps fronts for a few caches only.
    @Test func frontsAreBounded() {
        let cache = ShapeCache(capacity: 16)
        for i in 0..<1000 {
            Self.insert(cache, Self.glyphs(i), "word\(i)")
            _ = Self.inFront(cache, "word\(i / 2)")
            #expect(Front.current(for: cache).count <= cache.capacity)
        }
        #expect(Front.current(for: cache).count <= cache.count)
        let caches = (0..<ShapeCache.Front.frontsKept + 3).map { _ in ShapeCache(capacity: 4) }
        for (i, other) in caches.enumerated() { Self.insert(other, Self.glyphs(i), "same") }
        #expect(Self.inFront(caches[0], "same") == nil, "its front was dropped for the later caches'")
        #expect(Self.find(caches[0], "same") == Self.glyphs(0))
    }

    /// Caches of different fonts (or a font dropped and another made) never see each other's
    /// texts through a thread's fronts.
    @Test func frontsOfDifferentCachesAreApart() {
        var first: ShapeCache? = ShapeCache(capacity: 8)
        Self.insert(first!, Self.glyphs(1), "word")
        #expect(Self.inFront(first!, "word") == Self.glyphs(1))
        first = nil
        let second = ShapeCache(capacity: 8)
        #expect(Self.inFront(second, "word") == nil)
        Self.insert(second, Self.glyphs(2), "word")
        #expect(Self.inFront(second, "word") == Self.glyphs(2))
    }

    /// Threads looking up, keeping and trimming the same texts at once only ever get the glyphs
    /// kept for a text (each text has one set here), from the front or the cache.
    @Test func threadsSharingACacheGetWhatWasKept() {
        let cache = ShapeCache(capacity: 24)
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var g = SeededGenerator(seed: UInt64(thread + 1))
            for _ in 0..<3000 {
                let i = Int.random(in: 0..<40, using: &g)
                let text = "text \(i)"
                var found = Self.inFront(cache, text)
                if found == nil { found = Self.find(cache, text) }
                if found == nil { Self.insert(cache, Self.glyphs(i), text) } else if found != Self.glyphs(i) { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(cache.count <= cache.capacity)
    }

    /// Threads laying out the same words of one font at once (each filling its front, the
    /// cache trimming meanwhile for the many words) get the glyphs one thread gets alone.
    @Test func threadsLayingOutTheSameWordsGetEqualGlyphs() throws {
        let lines = (0..<600).map { i in "ALPHA-\(i % 97)  \(i * 7919 % 100_000)  +\(i % 13).5% é\(i % 3)" }
        @Sendable func laidOut(_ font: Font, _ lines: [String]) -> [[UInt32]] {
            lines.map { line in
                let layout = TextLayout(runs: [TextRun(line)], font: font.familyName, fontSize: 22, color: .white, width: nil,
                                        wrapped: false, truncation: .none, alignment: .left, explicitFont: font)
                return layout.glyphs.flatMap { [$0.id, UInt32($0.origin.x * 64), UInt32($0.origin.y * 64), UInt32($0.advance * 64)] }
            }
        }
        let expected = laidOut(try Font(fileAt: TextTests.dejaVu), lines)
        let font = try Font(fileAt: TextTests.dejaVu)
        let results = Locked<[Int: [[UInt32]]]>([:])
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            // Each thread in its own order, twice (the second time from its front).
            let order = thread % 2 == 0 ? Array(lines.indices) : lines.indices.reversed()
            var got = [[UInt32]](repeating: [], count: lines.count)
            for _ in 0..<2 {
                for (k, line) in zip(order, laidOut(font, order.map { lines[$0] })) { got[k] = line }
            }
            results.withLock { $0[thread] = got }
        }
        for thread in 0..<4 { #expect(results.withLock { $0[thread] } == expected, "thread \(thread)") }
    }
}

private typealias Front = ShapeCache.Front

extension Thread {
    /// Runs `body` on a new thread (with fronts of its own) and waits for it.
    fileprivate static func detachNewThreadAndWait(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        done.wait()
    }
}
