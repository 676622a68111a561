import CKernels
import Foundation
import Synchronization

/// Rasterized glyphs: 8-bit coverage of one glyph of one font at one pixel size, placed at one
/// of `phases`² sub-pixel offsets.
///
/// Text set again (a label whose figures change every frame) then costs copying coverage into
/// its line's mask, not a path flattening and rasterization per glyph. Coverage is the same
/// coverage the path filler makes; a glyph's position is rounded to 1/`phases` of a pixel.
/// Shared by every thread: a line's glyphs are looked up together under one lock, and misses
/// are rasterized outside it. Bounded by `capacity` bytes, dropping the least recently used.
///
/// Lookups hand out where coverage is (`Coverage`), not the entries holding it: retaining and
/// releasing each glyph's entry (with the arrays that held them) cost a board of changing
/// figures 4 % of its instructions a frame, and bounced the entries' reference counts between
/// the threads of a content pass. Instead
/// lookups happen inside a reading (`reading(_:)`), and an entry the cache lets go of (evicted,
/// or never kept) is retired, not freed, until every reading that began before it went has
/// ended.
///
/// Each thread also keeps a front (`Front`): the glyphs it found here, holding their entries,
/// looked up without the lock. A line whose glyphs are all in the thread's front takes no lock
/// and writes nothing another thread reads: on two cores, the lock's word, the strikes' last
/// uses and the readings' counts were written by both threads for every line, and their cache
/// lines went back and forth between the cores.
final class GlyphCache: Sendable {
    /// Sub-pixel positions per pixel, in x and in y.
    static let phases = 8
    /// Glyphs larger than this many pixels on a side are not cached (their outlines are filled).
    static let largestSide = 512

    /// A glyph's coverage: `area` is relative to the glyph's whole-pixel origin; rows are
    /// `stride` bytes apart, padded to 16 bytes with zeros, so that a 16-byte step from any
    /// column stays inside its row's bytes (see `lk_a8_add_glyphs`). Immutable.
    ///
    /// `@unchecked Sendable` is safe: the bytes are written once, by `init`'s `draw`, before
    /// the entry exists for anyone else, and never again; they are freed by `deinit`, when no
    /// reference is left; the other properties are `let`s of `Sendable` types. So every thread
    /// only reads memory that no thread writes.
    final class Entry: @unchecked Sendable {
        let area: PixelRect
        let stride: Int
        /// The rows, `stride` × `area.height` bytes.
        let bytes: UnsafePointer<UInt8>

        /// An entry over `area` whose rows `draw` writes into zeroed bytes, `stride` apart.
        init(area: PixelRect, draw: (UnsafeMutablePointer<UInt8>, _ stride: Int) -> Void) {
            self.area = area
            stride = (max(area.width, 1) + 15) & ~15
            let rows = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * area.height)
            rows.initialize(repeating: 0, count: stride * area.height)
            draw(rows, stride)
            bytes = UnsafePointer(rows)
        }

        deinit { UnsafeMutablePointer(mutating: bytes).deallocate() }

        /// The rows as an array (padding included).
        var coverage: [UInt8] { Array(UnsafeBufferPointer(start: bytes, count: stride * area.height)) }
    }

    static let shared = GlyphCache(capacity: 8 << 20)

    /// Where a glyph's coverage is and where it goes, as plain values (the kernel's blit):
    /// read per glyph without touching the entry's reference count, which both threads of a
    /// frame would bounce between cores. Valid while the entry it was read from is alive; a
    /// null `blit.coverage` is a glyph without ink.
    ///
    /// `@unchecked Sendable` is safe for the reason `Entry` is: `blit.coverage` points at an
    /// entry's rows, written once before the entry is shared and never again, and the other
    /// fields are integers. Reading through it is only valid while its entry lives, which
    /// whoever holds it ensures by holding the entry, or by reading it only within the
    /// reading it was looked up in (`Reading.look(font:for:into:)`).
    struct Coverage: @unchecked Sendable {
        var blit: lk_glyph_blit

        static let none = Coverage(blit: lk_glyph_blit(coverage: nil, stride: 0, x: 0, y: 0, width: 0, height: 0))

        /// The entry's coverage with its whole-pixel origin at (0, 0).
        init(_ entry: Entry?) {
            guard let entry else { self = .none; return }
            blit = lk_glyph_blit(coverage: entry.bytes, stride: Int32(entry.stride), x: Int32(entry.area.x),
                                 y: Int32(entry.area.y), width: Int32(entry.area.width), height: Int32(entry.area.height))
        }

        private init(blit: lk_glyph_blit) { self.blit = blit }

        /// Moved by (`x`, `y`) pixels.
        func offset(x: Int32, y: Int32) -> Coverage {
            var moved = self
            moved.blit.x &+= x
            moved.blit.y &+= y
            return moved
        }
    }

    /// A glyph to find in a font: its index, design units → pixels, and sub-pixel phases; and
    /// where its whole-pixel origin goes (its coverage is placed there).
    struct Request {
        let glyph: UInt32
        let scale: CGFloat
        let phaseX: Int, phaseY: Int
        var x: Int32 = 0, y: Int32 = 0
    }

    /// One font at one scale.
    fileprivate struct StrikeKey: Hashable {
        let font: UInt32
        let scale: UInt64
    }

    /// The glyphs of one font at one scale, by glyph and phase (`number(glyph:phaseX:phaseY:)`):
    /// open addressing with linear probing on that number, so that a run's glyphs are found
    /// with a multiply and a compare each once its strike is found (one hashed lookup per run,
    /// instead of hashing every glyph's key).
    fileprivate struct Strike {
        static let free = UInt32.max
        private(set) var numbers: [UInt32]
        private(set) var slots: [Slot]
        private(set) var count = 0

        init(capacity: Int = 64) {
            numbers = [UInt32](repeating: Self.free, count: capacity)
            slots = [Slot](repeating: Slot(nil, lastUse: 0), count: capacity)
        }

        /// Where `number` is, or the free slot where it would go.
        func find(_ number: UInt32) -> (index: Int, found: Bool) {
            let index = numbers.withUnsafeBufferPointer { Self.find(number, in: $0) }
            return (index, numbers[index] == number)
        }

        /// Where `number` is in `numbers` (a strike's), or the free slot where it would go.
        @inline(__always)
        static func find(_ number: UInt32, in numbers: UnsafeBufferPointer<UInt32>) -> Int {
            let mask = numbers.count - 1
            var i = Int(truncatingIfNeeded: (UInt64(number) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
            while true {
                let n = numbers[i]
                if n == number || n == free { return i }
                i = (i + 1) & mask
            }
        }

        /// Adds a glyph not held yet (kept at most half full, so probes stay short).
        mutating func insert(_ number: UInt32, _ slot: Slot) {
            if (count + 1) * 2 > numbers.count { grow() }
            let (index, found) = find(number)
            if !found { count += 1 }
            numbers[index] = number
            slots[index] = slot
        }

        private mutating func grow() {
            var bigger = Strike(capacity: numbers.count * 2)
            for (number, slot) in zip(numbers, slots) where number != Self.free { bigger.insert(number, slot) }
            self = bigger
        }

        /// Each request's coverage into `coverage` (the same positions as `requests`), placed
        /// at its whole-pixel origin, the glyphs found marked used at `clock`; the positions of
        /// those not held go to `missing` (their coverage left as it is).
        mutating func lookUp(_ requests: UnsafeBufferPointer<Request>, _ range: Range<Int>, clock: UInt64,
                             into coverage: UnsafeMutableBufferPointer<Coverage>, missing: inout [Int]) {
            // The tables read through buffers: one uniqueness check a run, not one a glyph.
            numbers.withUnsafeBufferPointer { numbers in
                slots.withUnsafeMutableBufferPointer { slots in
                    for i in range {
                        let request = requests[i]
                        guard let number = GlyphCache.number(glyph: request.glyph, phaseX: request.phaseX, phaseY: request.phaseY)
                        else {
                            missing.append(i)
                            continue
                        }
                        let index = Self.find(number, in: numbers)
                        guard numbers[index] == number else {
                            missing.append(i)
                            continue
                        }
                        slots[index].lastUse = clock
                        coverage[i] = slots[index].coverage.offset(x: request.x, y: request.y)
                    }
                }
            }
        }

        /// Marks the glyph in slot `index` used at `clock`.
        mutating func touch(_ index: Int, at clock: UInt64) { slots[index].lastUse = clock }

        /// Marks the glyphs `other` last used at `use` (a front's), those held here, used at `clock`.
        mutating func touch(usedIn other: Strike, at use: UInt64, clock: UInt64) {
            numbers.withUnsafeBufferPointer { numbers in
                slots.withUnsafeMutableBufferPointer { slots in
                    other.numbers.withUnsafeBufferPointer { otherNumbers in
                        other.slots.withUnsafeBufferPointer { otherSlots in
                            for i in otherNumbers.indices where otherNumbers[i] != Self.free && otherSlots[i].lastUse == use {
                                let index = Self.find(otherNumbers[i], in: numbers)
                                if numbers[index] == otherNumbers[i] { slots[index].lastUse = clock }
                            }
                        }
                    }
                }
            }
        }

        /// Adds a glyph unless held already (another thread made it meanwhile); the slot held
        /// and whether it is `slot`.
        mutating func add(_ number: UInt32, _ slot: Slot) -> (held: Slot, added: Bool) {
            let (index, found) = find(number)
            if found { return (slots[index], false) }
            insert(number, slot)
            return (slot, true)
        }

        /// The glyphs held, with their numbers.
        var held: some Sequence<(UInt32, Slot)> { zip(numbers, slots).lazy.filter { $0.0 != Self.free } }
    }

    fileprivate struct Slot {
        /// Nil for a glyph without ink (a space).
        let entry: Entry?
        /// The entry's coverage, read without its reference.
        let coverage: Coverage
        var lastUse: UInt64

        init(_ entry: Entry?, lastUse: UInt64) {
            self.entry = entry
            coverage = Coverage(entry)
            self.lastUse = lastUse
        }
    }

    fileprivate struct State {
        /// (Changed only through the calls below, which keep `lastFound` true.)
        private(set) var strikes: [StrikeKey: Strike] = [:]
        /// The strike found last and where it is: a frame's lines are mostly of one font at one
        /// scale, and hashing its key cost more than the rest of a short line's lookups. Forgotten
        /// whenever a strike is added or removed (which may move the others); changing a
        /// strike's glyphs in place moves none.
        private var lastFound: (key: StrikeKey, index: [StrikeKey: Strike].Index)?
        var bytes = 0
        var clock: UInt64 = 0
        var count = 0
        /// Advances each time entries are retired: a reading that began at a later generation
        /// cannot have found them.
        var generation: UInt64 = 0
        /// The readings under way, counted by the generation each began at (oldest first).
        var readings: [(generation: UInt64, count: Int)] = []
        /// Entries let go of while readings were under way, by the generation they went at:
        /// freed once no reading of that generation or older is left.
        var retired: [(generation: UInt64, entries: [Entry])] = []

        /// Where the strike of `key` is, if there is one.
        mutating func strikeIndex(_ key: StrikeKey) -> [StrikeKey: Strike].Index? {
            if let lastFound, lastFound.key == key { return lastFound.index }
            guard let index = strikes.index(forKey: key) else { return nil }
            lastFound = (key, index)
            return index
        }

        /// Changes the glyphs of the strike at `index` (a strike is neither added nor removed).
        mutating func withStrike<R>(at index: [StrikeKey: Strike].Index, _ body: (inout Strike) -> R) -> R {
            body(&strikes.values[index])
        }

        /// Changes the glyphs of the strike of `key`, made empty first if there is none.
        mutating func withStrike<R>(_ key: StrikeKey, _ body: (inout Strike) -> R) -> R {
            lastFound = nil
            return body(&strikes[key, default: Strike()])
        }

        /// Sets the strike of `key`, or removes it (nil).
        mutating func setStrike(_ key: StrikeKey, _ strike: Strike?) {
            lastFound = nil
            strikes[key] = strike
        }

        /// Keeps `entries` until the readings under way now have ended.
        mutating func retire(_ entries: [Entry]) {
            guard !entries.isEmpty, !readings.isEmpty else { return }
            retired.append((generation, entries))
            generation &+= 1
        }
    }

    private let state = Locked(State())
    /// Times a line's lookup (and a reading's end) tries the lock before waiting for it: the
    /// two threads of a content pass take it twice a line each and hold it for a run's probes,
    /// while waiting put a thread to sleep in the kernel and woke it.
    private static let lockAttempts = 100
    let capacity: Int
    /// Unique for the process's lifetime: the fronts' name for this cache.
    let serial: UInt64
    private static let serials = Atomic<UInt64>(0)

    init(capacity: Int) {
        self.capacity = capacity
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
    }

    /// The bytes of glyphs a thread's front holds before it is emptied (at the start of its
    /// thread's next reading): an eighth of the cache's capacity.
    var frontCapacity: Int { capacity / 8 }

    /// A glyph and phase as one number within its strike; nil for glyph indices beyond what
    /// fonts hold (2²⁵), which are rasterized without being kept.
    fileprivate static func number(glyph: UInt32, phaseX: Int, phaseY: Int) -> UInt32? {
        guard glyph < 1 << 25, (0..<phases).contains(phaseX), (0..<phases).contains(phaseY) else { return nil }
        return glyph << 6 | UInt32(phaseY) << 3 | UInt32(phaseX)
    }

    /// The glyph's coverage, rasterized on first use. Nil for glyphs without ink.
    func coverage(font: Font, glyph: UInt32, scale: CGFloat, phaseX: Int, phaseY: Int) -> Entry? {
        let request = Request(glyph: glyph, scale: scale, phaseX: phaseX, phaseY: phaseY)
        let key = StrikeKey(font: font.serial, scale: Double(scale).bitPattern)
        guard let number = Self.number(glyph: glyph, phaseX: phaseX, phaseY: phaseY) else { return Self.rasterize(font: font, request) }
        let held = state.withLock { s -> Slot? in
            guard let index = s.strikeIndex(key) else { return nil }
            let (slot, found) = s.strikes.values[index].find(number)
            guard found else { return nil }
            s.clock += 1
            let clock = s.clock
            s.withStrike(at: index) { $0.touch(slot, at: clock) }
            return s.strikes.values[index].slots[slot]
        }
        if let held { return held.entry }
        let entry = Self.rasterize(font: font, request)
        var dropped: [Entry] = []
        let kept = state.withLock { s -> Entry? in
            let slot = Self.keep(entry, number: number, key: key, in: &s)
            if s.bytes > capacity { dropped = Self.evict(&s, to: capacity / 2) }
            return slot.entry
        }
        _ = dropped
        return kept
    }

    /// A time during which coverage looked up through the cache stays valid: entries the cache
    /// lets go of meanwhile are kept until it ends. Only for use within `reading(_:)`'s body,
    /// which it must not outlive (not `~Copyable`: Swift 6.3's optimizer crashed inlining a
    /// closure that borrows one).
    struct Reading {
        fileprivate let cache: GlyphCache
        /// The reading thread's front of the cache. Not retained (a reading is copied into the
        /// closures of every line it draws, and each copy retained and released it): the
        /// thread's list of fronts holds it, and keeps it while a reading is under way
        /// (`Front.isInUse`).
        fileprivate let front: Unmanaged<Front>
        /// The generation the reading is counted at (`State.readings`), once a lookup has
        /// counted it: a local of `reading(_:)`.
        fileprivate let began: UnsafeMutablePointer<UInt64?>

        /// The coverage of each glyph of `requests` (all of `font`), in order, into `coverage`
        /// (made as long as `requests`, whatever it held), valid until the reading ends: from
        /// the thread's front without a lock when it holds them all; else hits under one lock,
        /// misses rasterized outside it (another thread may rasterize the same glyph meanwhile;
        /// both make the same pixels), and the front learns them.
        func look(font: Font, for requests: UnsafeBufferPointer<Request>, into coverage: inout [Coverage]) {
            front._withUnsafeGuaranteedRef { cache.look(font: font, for: requests, into: &coverage, front: $0, began: began) }
        }

        /// `look(font:for:into:)` for requests in an array.
        func look(font: Font, for requests: [Request], into coverage: inout [Coverage]) {
            requests.withUnsafeBufferPointer { look(font: font, for: $0, into: &coverage) }
        }
    }

    /// Runs `body` in a reading of the cache: the coverage it looks up stays valid until it
    /// returns.
    ///
    /// The reading is counted (so that entries let go of meanwhile are retired, not freed) by
    /// its first lookup under the lock, which that lookup takes anyway, not when it begins: what
    /// it finds then is what no eviction has touched, and every later eviction sees it counted.
    /// A line of text so takes the lock twice (its lookup, and the reading's end), not three
    /// times; and not at all when the thread's front holds its glyphs (the front holds their
    /// entries, so the reading need not be counted).
    ///
    /// The thread's front is emptied here when it holds more than `frontCapacity` bytes and no
    /// other reading of this cache is under way on the thread (coverage found in the front is
    /// valid while the front holds its entry).
    @inline(__always)
    func reading<R>(_ body: (Reading) throws -> R) rethrows -> R {
        // Not retained: the thread's list of fronts holds it while a reading is under way.
        let front = CacheFronts.unretained(for: serial, in: Front.slot, kept: Front.frontsKept)
        front._withUnsafeGuaranteedRef { front in
            if front.readings == 0, front.bytes > frontCapacity { front.empty() }
            front.readings += 1
        }
        var began: UInt64?
        defer {
            front._withUnsafeGuaranteedRef { $0.readings -= 1 }
            if let generation = began {
                // Freed once the lock is let go: an entry's deinit frees its rows.
                let freed = state.withLock(tryingFirst: Self.lockAttempts) { s -> [(generation: UInt64, entries: [Entry])] in
                    if let i = s.readings.firstIndex(where: { $0.generation == generation }) {
                        s.readings[i].count -= 1
                        if s.readings[i].count == 0 { s.readings.remove(at: i) }
                    }
                    guard !s.retired.isEmpty else { return [] }
                    // Entries retired at generation g may be read by readings begun at g or before.
                    let oldest = s.readings.first?.generation ?? .max
                    let kept = s.retired.firstIndex { $0.generation >= oldest } ?? s.retired.endIndex
                    let freed = Array(s.retired[..<kept])
                    s.retired.removeFirst(kept)
                    return freed
                }
                _ = freed
            }
        }
        return try withUnsafeMutablePointer(to: &began) { try body(Reading(cache: self, front: front, began: $0)) }
    }

    /// Counts a reading (its `Reading.began`) as under way at the present generation, unless
    /// it is already (under the lock, in `s`).
    @inline(__always)
    private static func countReading(_ began: UnsafeMutablePointer<UInt64?>, in s: inout State) {
        guard began.pointee == nil else { return }
        if let last = s.readings.indices.last, s.readings[last].generation == s.generation {
            s.readings[last].count += 1
        } else {
            s.readings.append((s.generation, 1))
        }
        began.pointee = s.generation
    }

    /// Calls `body` with each stretch of `requests` of one scale (a run's, usually all: its
    /// glyphs are looked up in one strike) and that strike's key in the font with serial `font`,
    /// in order, while it returns true; whether it always did.
    @inline(__always) @discardableResult
    fileprivate static func forEachStrike(of requests: UnsafeBufferPointer<Request>, font: UInt32,
                                          _ body: (Range<Int>, StrikeKey) -> Bool) -> Bool {
        var i = 0
        while i < requests.count {
            let scale = requests[i].scale
            var end = i + 1
            while end < requests.count, requests[end].scale == scale { end += 1 }
            guard body(i..<end, StrikeKey(font: font, scale: Double(scale).bitPattern)) else { return false }
            i = end
        }
        return true
    }

    /// `Reading.look(font:for:into:)`.
    private func look(font: Font, for requests: UnsafeBufferPointer<Request>, into coverage: inout [Coverage],
                      front: Front, began: UnsafeMutablePointer<UInt64?>) {
        // Every position is written below (found, or made and kept), so the array only takes
        // the requests' count, keeping what it held (a run's array is reused from line to line,
        // and refilling it element by element cost more than the lookups).
        if coverage.count > requests.count {
            coverage.removeLast(coverage.count - requests.count)
        } else if coverage.count < requests.count {
            coverage.append(contentsOf: repeatElement(.none, count: requests.count - coverage.count))
        }
        let fontSerial = font.serial
        if coverage.withUnsafeMutableBufferPointer({ front.look(font: fontSerial, for: requests, into: $0) }) {
            if front.reportDue { state.withLock { front.report(to: &$0) } }
            return
        }
        var missing: [Int] = []
        do {
            coverage.withUnsafeMutableBufferPointer { coverage in
                state.withLock(tryingFirst: Self.lockAttempts) { s in
                    Self.countReading(began, in: &s)
                    front.report(to: &s)
                    Self.forEachStrike(of: requests, font: fontSerial) { run, key in
                        guard let strike = s.strikeIndex(key) else {
                            missing.append(contentsOf: run)
                            return true
                        }
                        s.clock += 1
                        let clock = s.clock
                        s.withStrike(at: strike) { $0.lookUp(requests, run, clock: clock, into: coverage, missing: &missing) }
                        // The front learns the glyphs found (those missing, not in the strike, are
                        // learnt as made).
                        for k in run {
                            guard let number = Self.number(glyph: requests[k].glyph, phaseX: requests[k].phaseX,
                                                           phaseY: requests[k].phaseY) else { continue }
                            let (index, found) = s.strikes.values[strike].find(number)
                            if found { front.learn(key, number, s.strikes.values[strike].slots[index]) }
                        }
                        return true
                    }
                }
            }
        }
        guard !missing.isEmpty else { return }
        var made: [(index: Int, entry: Entry?)] = []
        for i in missing { made.append((i, Self.rasterize(font: font, requests[i]))) }
        var dropped: [Entry] = []
        state.withLock { s in
            var unkept: [Entry] = []
            for (i, entry) in made {
                let request = requests[i]
                guard let number = Self.number(glyph: request.glyph, phaseX: request.phaseX, phaseY: request.phaseY) else {
                    // Not kept (beyond what fonts hold): kept for the readings under way instead.
                    if let entry { unkept.append(entry) }
                    coverage[i] = Coverage(entry).offset(x: request.x, y: request.y)
                    continue
                }
                let key = StrikeKey(font: fontSerial, scale: Double(request.scale).bitPattern)
                let held = Self.keep(entry, number: number, key: key, in: &s)
                front.learn(key, number, held)
                coverage[i] = held.coverage.offset(x: request.x, y: request.y)
            }
            s.retire(unkept)
            if s.bytes > capacity { dropped = Self.evict(&s, to: capacity / 2) }
        }
        // Entries dropped while no reading was under way are freed here, outside the lock.
        _ = dropped
    }

    /// Holds a glyph just made, marked used now, unless another thread made and added it
    /// meanwhile (then that one is held and this one goes); the slot held. The caller evicts.
    private static func keep(_ entry: Entry?, number: UInt32, key: StrikeKey, in s: inout State) -> Slot {
        s.clock += 1
        let slot = Slot(entry, lastUse: s.clock)
        let (held, added) = s.withStrike(key) { $0.add(number, slot) }
        if added {
            s.bytes += bytes(of: entry)
            s.count += 1
        }
        return held
    }

    /// What a held glyph counts against the capacity.
    fileprivate static func bytes(of entry: Entry?) -> Int { (entry.map { $0.stride * $0.area.height } ?? 0) + 64 }

    private static func rasterize(font: Font, _ request: Request) -> Entry? {
        let outline = font.outline(ofGlyph: request.glyph)
        let scale = request.scale
        let offset = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: CGFloat(request.phaseX) / CGFloat(phases),
                                       ty: CGFloat(request.phaseY) / CGFloat(phases))
        return ScanConverter.withConverter { converter -> Entry? in
            converter.addFill(outline, transform: offset)
            guard let box = converter.boundingBox else { return nil }
            let area = PixelRect(covering: box)
            guard !area.isEmpty, area.width <= largestSide, area.height <= largestSide else { return nil }
            return Entry(area: area) { rows, stride in converter.render(rule: .nonZero, area: area, into: rows, stride: stride) }
        }
    }

    /// Drops the least recently used glyphs until `target` bytes remain (strikes left
    /// without glyphs go too). Entries readings under way may read are retired; the others are
    /// returned, for the caller to free outside the lock.
    private static func evict(_ s: inout State, to target: Int) -> [Entry] {
        var held: [(lastUse: UInt64, key: StrikeKey, number: UInt32)] = []
        held.reserveCapacity(s.count)
        for (key, strike) in s.strikes {
            for (number, slot) in strike.held { held.append((slot.lastUse, key, number)) }
        }
        held.sort { $0.lastUse < $1.lastUse }
        var dropped: [StrikeKey: Set<UInt32>] = [:]
        for glyph in held where s.bytes > target {
            guard let strike = s.strikes[glyph.key] else { continue }
            let (index, _) = strike.find(glyph.number)
            s.bytes -= bytes(of: strike.slots[index].entry)
            s.count -= 1
            dropped[glyph.key, default: []].insert(glyph.number)
        }
        // Open addressing cannot simply empty a slot (later probes would stop there): each
        // strike that lost glyphs is built again from those it keeps.
        var gone: [Entry] = []
        for (key, numbers) in dropped {
            guard let old = s.strikes[key] else { continue }
            var kept = Strike()
            for (number, slot) in old.held {
                if !numbers.contains(number) {
                    kept.insert(number, slot)
                } else if let entry = slot.entry {
                    gone.append(entry)
                }
            }
            s.setStrike(key, kept.count == 0 ? nil : kept)
        }
        if s.readings.isEmpty { return gone }
        s.retire(gone)
        return []
    }

    /// Glyphs held (for tests).
    var count: Int { state.withLock { $0.count } }

    /// Entries let go of but kept for readings under way (for tests).
    var retiredCount: Int { state.withLock { $0.retired.reduce(0) { $0 + $1.entries.count } } }
}

extension GlyphCache {
    /// A thread's copy of glyphs it found in one cache (`GlyphCache`), looked up without a lock:
    /// strikes as the cache's own (`Strike`), whose slots hold the glyphs' entries (one
    /// reference each, taken when a glyph is learnt).
    ///
    /// Unlike a shape cache's front, it never has to be checked against the cache: a glyph's
    /// coverage is a function of its key (a font's serial is never reused, and an entry is
    /// written once), so what the front holds is right even after the cache has let it go. It
    /// only has to be bounded: past `GlyphCache.frontCapacity` bytes it is emptied, at the start
    /// of its thread's next reading when no other is under way there (`readings`), since
    /// coverage handed out from it stays valid only while it holds the entry.
    ///
    /// The glyphs found here are reported to the cache's recency every `reportedRuns` runs
    /// found (or with the thread's next locked lookup), each once, so that the glyphs a thread
    /// keeps drawing are not evicted as unused: a slot's last use here is the front's `epoch`,
    /// which moves on at each report.
    ///
    /// Not `Sendable`: each belongs to one thread, reached only through `current(for:)`; so its
    /// properties skip the runtime's exclusivity checks (`@exclusivity(unchecked)`: no method
    /// changes one while another access to it is under way).
    final class Front: CacheFront {
        /// Runs found here between two reports of their glyphs' uses.
        static let reportedRuns = 256
        /// Caches a thread keeps fronts for, the most recently used first.
        static let frontsKept = 4

        /// The cache's `serial`.
        let cache: UInt64
        /// Readings of the cache under way on the thread.
        @exclusivity(unchecked) var readings = 0
        /// What the entries held count against `GlyphCache.frontCapacity`.
        @exclusivity(unchecked) private(set) var bytes = 0
        /// The strikes held, few (a thread's fonts and sizes), found by looking through them.
        @exclusivity(unchecked) private var strikes: [(key: StrikeKey, strike: Strike)] = []
        /// The last use written into the slots found since the last report.
        @exclusivity(unchecked) private var epoch: UInt64 = 1
        /// Runs found since the last report.
        @exclusivity(unchecked) private var runsFound = 0
        /// Where the strike of a run is looked for first: the last one found.
        @exclusivity(unchecked) private var last = 0

        init(cache: UInt64) { self.cache = cache }

        /// While a reading is under way on the thread: it may read coverage the front holds.
        var isInUse: Bool { readings > 0 }

        /// Glyphs held (for tests).
        var held: Int { strikes.reduce(0) { $0 + $1.strike.count } }

        /// Whether the uses found since the last report should be reported now.
        var reportDue: Bool { runsFound >= Self.reportedRuns }

        /// Where the strike of `key` is in `strikes`.
        private func strike(_ key: StrikeKey) -> Int? {
            if last < strikes.count, strikes[last].key == key { return last }
            guard let index = strikes.firstIndex(where: { $0.key == key }) else { return nil }
            last = index
            return index
        }

        /// Each request's coverage (all of the font with serial `font`), placed at its
        /// whole-pixel origin, into `coverage` when the front holds every one of them; false
        /// (`coverage` partly written) when it lacks one.
        func look(font: UInt32, for requests: UnsafeBufferPointer<Request>, into coverage: UnsafeMutableBufferPointer<Coverage>) -> Bool {
            guard !strikes.isEmpty else { return false }
            var missing: [Int] = []
            let found = GlyphCache.forEachStrike(of: requests, font: font) { run, key in
                guard let index = strike(key) else { return false }
                strikes[index].strike.lookUp(requests, run, clock: epoch, into: coverage, missing: &missing)
                return missing.isEmpty
            }
            if found { runsFound += 1 }
            return found
        }

        /// Holds the glyph in `slot`, of the strike `key`, numbered `number`.
        fileprivate func learn(_ key: StrikeKey, _ number: UInt32, _ slot: Slot) {
            let index: Int
            if let found = strike(key) {
                index = found
            } else {
                strikes.append((key, Strike(capacity: 16)))
                index = strikes.count - 1
            }
            let (_, added) = strikes[index].strike.add(number, Slot(slot.entry, lastUse: epoch))
            if added { bytes += GlyphCache.bytes(of: slot.entry) }
        }

        /// Lets go of every glyph. Only while no reading is under way on the thread.
        func empty() {
            precondition(readings == 0, "a glyph cache's front is emptied during a reading")
            strikes = []
            last = 0
            bytes = 0
        }

        /// Marks the glyphs found here since the last report as used in the cache's state `s`
        /// (under its lock), those it still holds.
        fileprivate func report(to s: inout State) {
            for k in strikes.indices {
                guard let index = s.strikeIndex(strikes[k].key) else { continue }
                s.clock += 1
                let clock = s.clock
                s.withStrike(at: index) { $0.touch(usedIn: strikes[k].strike, at: epoch, clock: clock) }
            }
            epoch += 1
            runsFound = 0
        }

        /// The calling thread's front for `cache`, made (empty) if it has none.
        static func current(for cache: GlyphCache) -> Front {
            CacheFronts.current(for: cache.serial, in: slot, kept: frontsKept)
        }

        fileprivate static let slot = ThreadSpecific<CacheFronts<Front>>()
    }

    /// The calling thread's front of this cache (for tests).
    var currentFront: Front { Front.current(for: self) }
}
