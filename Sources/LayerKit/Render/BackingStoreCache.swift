import CPixman
import Foundation

/// Backing stores kept from frame to frame: a layer's content, border, shadow or group bitmap is
/// rasterized again only when what it is made from (its fingerprint) changes.
///
/// A store is made in two steps. While a frame's objects are updated, `store(for:…)` hands out
/// the bitmap at once (its size is known) and queues the drawing; the content pass then draws
/// every queued store, in parallel, level by level (a shadow after the content it is cast by, a
/// group after what it contains). Stores live as long as an object uses them: objects retain
/// the keys they draw from and release them when they change or go.
final class BackingStoreCache {
    /// What a store was made from; equal fingerprints make equal pixels.
    enum Fingerprint: Equatable {
        case content(ContentDescription, area: CGRect, scale: CGFloat)
        /// (Boxed: a border's description is the largest payload, and every entry copied its size.)
        indirect case border(BorderDescription, area: CGRect, scale: CGFloat)
        case shadow(radius: CGFloat, source: Int, area: CGRect, scale: CGFloat)
        case group(signature: Int, area: CGRect, scale: CGFloat)
        indirect case tinted(Fingerprint, Color)
    }

    /// A store as handed out: its pixels and which rasterization made them.
    struct Entry {
        /// The pixels: a `Bitmap`, or an `AlphaMask` for shadows and coverage.
        let surface: any StoreSurface
        /// Unique per rasterization: paint signatures use it to tell new pixels from old.
        let generation: Int

        /// The pixels of a bitmap store.
        var bitmap: Bitmap {
            guard let bitmap = surface as? Bitmap else { preconditionFailure("store \(generation) holds a coverage mask") }
            return bitmap
        }

        /// The pixels of a coverage store.
        var mask: AlphaMask {
            guard let mask = surface as? AlphaMask else { preconditionFailure("store \(generation) holds a bitmap") }
            return mask
        }
    }

    /// A held store and what it was made from. A class, so that a store redrawn under a new
    /// fingerprint is changed where it is held: as a struct in the dictionary it was copied out
    /// to be compared and copied back to be replaced, and each copy was retained and released
    /// field by field (a few hundred instructions a store asked for).
    private final class Slot {
        // Unchecked for exclusive access: as the cache's fields below, touched only in the
        // cache's calls on the update thread, each access a read or a store that reaches no
        // cache (a replaced fingerprint or surface frees memory only).
        @exclusivity(unchecked) var fingerprint: Fingerprint
        @exclusivity(unchecked) var entry: Entry

        init(fingerprint: Fingerprint, entry: Entry) {
            self.fingerprint = fingerprint
            self.entry = entry
        }
    }

    /// A queued drawing of a store's pixels.
    struct Job {
        /// What draws a job's surface.
        enum Drawing {
            /// Whatever a closure draws.
            case closure(() -> Void)
            /// The coverage of content over `area` at `scale` (`ContentRasterizer.drawCoverage`),
            /// drawn into the job's surface, a coverage mask: a line of text, redrawn every frame
            /// of a text board. Held as a value, where a closure was allocated by the thread
            /// updating the frame and freed by the helper that drew it, a line a frame, which
            /// cost both threads' allocators more on two cores than on one. (Not holding the
            /// mask a second time: `surface` holds it, and every copy of a job retained both.)
            case coverage(ContentDescription, area: CGRect, scale: CGFloat)
        }

        let level: Int
        let surface: any StoreSurface
        /// Whether the surface holds earlier pixels, cleared before it is drawn (a store redrawn
        /// in place).
        let clears: Bool
        private let drawing: Drawing

        /// A drawing of `surface` made by `draw`, at `level`; `clears`: the surface is cleared
        /// first.
        init(level: Int, surface: any StoreSurface, clears: Bool = false, draw: @escaping () -> Void) {
            self.init(level: level, surface: surface, clears: clears, drawing: .closure(draw))
        }

        /// A drawing of `surface` by `drawing`, at `level`; `clears`: the surface is cleared first.
        init(level: Int, surface: any StoreSurface, clears: Bool = false, drawing: Drawing) {
            self.level = level
            self.surface = surface
            self.clears = clears
            self.drawing = drawing
        }

        /// Draws the surface's pixels (cleared first when `clears`).
        func draw() {
            if clears { surface.clearPixels() }
            switch drawing {
            case let .closure(draw): draw()
            case let .coverage(content, area, scale):
                guard let mask = surface as? AlphaMask else { preconditionFailure("a coverage job for a store of \(type(of: surface))") }
                ContentRasterizer.drawCoverage(content, area: area, scale: scale, into: mask)
            }
        }
    }

    // The fields marked `@exclusivity(unchecked)` were checked for exclusive access at run time
    // at every access (several for each store asked for, each frame). They are private, and every
    // access is in this class's calls, which the renderer's update thread alone makes (the
    // content pass's jobs capture surfaces and drawings, never the cache). No access is held
    // across a call that could reach the cache: reads copy out; `claim` gets `pendingLevels`
    // inout and touches only that dictionary; a write or removal may release an old entry, whose
    // surface and fingerprint free memory and reach no cache; `takeJobs` empties `jobs` and
    // `pendingLevels` after the copy it returns is made. So no two accesses can overlap.
    @exclusivity(unchecked) private var entries: [PaintItem.Key: Slot] = [:]
    @exclusivity(unchecked) private var users: [PaintItem.Key: Int] = [:]
    @exclusivity(unchecked) private var nextGeneration = 1
    @exclusivity(unchecked) private var jobs: [Job] = []
    @exclusivity(unchecked) private var pendingLevels: [ObjectIdentifier: Int] = [:]

    /// Rasterizations queued since the cache was made (for tests and statistics).
    @exclusivity(unchecked) private(set) var rasterizations = 0
    /// Items painted into group bitmaps by the redraws queued since the cache was made, those
    /// in bottom pictures counted when painted (for tests: a group redrawn over its picture
    /// paints only the items above it).
    private(set) var groupItemsPainted = 0

    /// Counts `count` items a queued group redraw paints.
    func noteGroupItemsPainted(_ count: Int) { groupItemsPainted += count }

    /// Whether the store for `key` is held with `fingerprint` (asking for it draws nothing).
    func holds(_ key: PaintItem.Key, fingerprint: Fingerprint) -> Bool {
        entries[key].map { $0.fingerprint == fingerprint && $0.entry.surface is Bitmap } ?? false
    }

    /// The store for `key`: the cached one when its fingerprint matches, else a `width`x`height`
    /// bitmap whose pixels `draw` makes in the content pass, at `level` (after every store it
    /// reads). Nil when no such bitmap can be made (a size over the limits).
    func store(for key: PaintItem.Key, fingerprint: Fingerprint, width: Int, height: Int, level: Int,
               draw: @escaping (Bitmap) -> Void) -> Entry? {
        store(for: key, fingerprint: fingerprint, width: width, height: height, level: level, as: Bitmap.self, draw: draw)
    }

    /// The store for `key` as a surface of type `S` (a `Bitmap`, or an `AlphaMask` of coverage).
    func store<S: StoreSurface>(for key: PaintItem.Key, fingerprint: Fingerprint, width: Int, height: Int, level: Int,
                                as type: S.Type, draw: @escaping (S) -> Void) -> Entry? {
        store(for: key, fingerprint: fingerprint, width: width, height: height, level: level, as: type,
              job: { surface in .closure { draw(surface) } })
    }

    /// `store(for:…as:draw:)` for a drawing made for the surface it draws: `job` is called
    /// (at once, at most once) only when the store must be drawn, with its surface, and returns
    /// what draws it in the content pass. A store redrawn every frame (a line of text) then
    /// queues what draws it as a value, drawn into the job's surface (`Job.Drawing.coverage`),
    /// instead of its drawing wrapped in a closure that applies it to the surface (an
    /// allocation, and its captures retained and released).
    func store<S: StoreSurface>(for key: PaintItem.Key, fingerprint: consuming Fingerprint, width: Int, height: Int, level: Int,
                                as type: S.Type, job drawing: (S) -> Job.Drawing) -> Entry? {
        // Found once (a key is hashed once per store asked for), and changed where it is held.
        let slot = entries[key]
        var old: S?
        if let slot {
            if slot.fingerprint == fingerprint, slot.entry.surface is S { return slot.entry }
            old = slot.entry.surface as? S
        }
        // A store of the same size is redrawn in place (cleared first) rather than allocated
        // anew: whoever reads it from now on wants the new pixels. Not when it is already queued
        // this frame under another fingerprint (replicator instances sharing a key).
        let surface: S
        let reused: Bool
        if let old, old.width == width, old.height == height,
           Self.claim(&pendingLevels, ObjectIdentifier(old), level) {
            surface = old
            reused = true
        } else {
            guard let made = try? S(width: width, height: height) else {
                entries[key] = nil
                return nil
            }
            surface = made
            reused = false
        }
        rasterizations += 1
        let entry = Entry(surface: surface, generation: nextGeneration)
        nextGeneration += 1
        // The fingerprint is moved into the slot: copied, it was retained there and released
        // here, for every store redrawn.
        if let slot {
            slot.fingerprint = consume fingerprint
            slot.entry = entry
        } else {
            entries[key] = Slot(fingerprint: consume fingerprint, entry: entry)
        }
        let job = Job(level: level, surface: surface, clears: reused, drawing: drawing(surface))
        if !reused { pendingLevels[ObjectIdentifier(surface)] = level }
        if let contentPass { contentPass.submit(job) } else { jobs.append(job) }
        return entry
    }

    /// Queues `surface` at `level` unless it is queued already (then leaves it as it is): one
    /// lookup for the question and the answer. Whether it was queued now.
    private static func claim(_ levels: inout [ObjectIdentifier: Int], _ surface: ObjectIdentifier, _ level: Int) -> Bool {
        guard let earlier = levels.updateValue(level, forKey: surface) else { return true }
        levels[surface] = earlier
        return false
    }

    /// The content-pass level at which a store's pixels are drawn this frame, or nil when they
    /// are ready.
    func pendingLevel(of surface: AnyObject) -> Int? { pendingLevels[ObjectIdentifier(surface)] }

    /// The pass that draws stores as they are queued (the frame's); without one they wait in
    /// `jobs` for `takeJobs()`.
    var contentPass: ContentPass?

    /// Hands over the queued drawings (the content pass runs them) and forgets them.
    func takeJobs() -> [Job] {
        // Emptied keeping their storage: the next frame queues about as many again, and a
        // dictionary grown from empty rehashes at every doubling.
        defer { jobs.removeAll(keepingCapacity: true); pendingLevels.removeAll(keepingCapacity: true) }
        return jobs
    }

    /// Draws every store queued through `pass` since it was set, and detaches it.
    func finish(_ pass: ContentPass) {
        pass.finish()
        ContentPass.run(takeJobs())
        contentPass = nil
    }

    /// An object started drawing from the store of `key`.
    func retain(_ key: PaintItem.Key) { users[key, default: 0] += 1 }

    /// An object stopped drawing from the store of `key`: the last one lets the store go.
    func release(_ key: PaintItem.Key) {
        guard let count = users[key] else { return }
        if count <= 1 {
            users[key] = nil
            entries[key] = nil
        } else {
            users[key] = count - 1
        }
    }

    /// Drops every store.
    func removeAll() {
        entries = [:]
        users = [:]
    }

    /// How many stores are held.
    var count: Int { entries.count }

    /// The bytes of pixels the stores hold.
    var byteCount: Int { entries.values.reduce(0) { $0 + $1.entry.surface.byteCount } }
}

/// What a backing store's pixels live in.
protocol StoreSurface: AnyObject {
    init(width: Int, height: Int) throws(BitmapError)
    var width: Int { get }
    var height: Int { get }
    /// The bytes the pixels take.
    var byteCount: Int { get }
    /// Makes every pixel transparent (zero coverage).
    func clearPixels()
}

extension Bitmap: StoreSurface {
    var byteCount: Int { bytesPerRow * height }

    /// Zeroes the pixels with pixman's fill, as `clear()` does, without the region and box list
    /// that builds for one rectangle. (Not `memset`: glibc's takes `rep stosb` for a store's
    /// size, which callgrind counts a byte at a time, so instruction counts would stop telling
    /// frames apart; nor `update(repeating:count:)`, which stores a pixel at a time.) The rows
    /// are contiguous (`bytesPerRow` is the width's), so they are filled as one row: pixman's
    /// fill then aligns and finishes once instead of at every row.
    func clearPixels() {
        knownUniformPixel = nil
        let count = width * height
        if bytesPerRow == width * 4, count <= Int(Int32.max) {
            _ = pixman_fill(pixels, Int32(count), 32, 0, 0, Int32(count), 1, 0)
        } else {
            _ = pixman_fill(pixels, Int32(bytesPerRow / 4), 32, 0, 0, Int32(width), Int32(height), 0)
        }
    }
}

extension AlphaMask: StoreSurface {
    var byteCount: Int { bytesPerRow * height + pairsByteCount }

    /// Clears what may have coverage: only the ink's rectangle when the mask knows it.
    func clearPixels() {
        let ink = inkBounds ?? bounds
        if ink.width == width {
            (pixels + ink.minY * bytesPerRow).update(repeating: 0, count: ink.height * bytesPerRow)
        } else {
            for row in ink.minY..<ink.maxY { (pixels + row * bytesPerRow + ink.minX).update(repeating: 0, count: ink.width) }
        }
        inkBounds = PixelRect(x: 0, y: 0, width: 0, height: 0)
        pixelsChanged()
    }
}
