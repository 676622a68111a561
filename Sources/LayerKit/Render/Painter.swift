import Foundation

/// The painting pass: composites paint items, in order, into the damaged pixels of a target.
///
/// Frames are painted in horizontal bands, one per thread. Each band draws through its own view
/// of the target (its own pixman image) into its own rows, and items' source bitmaps are only
/// read, each composite taking its own pixman source image; so bands share no mutable state. Every pixel is computed
/// from the same inputs whatever band or damage rectangle it falls in, so banded, single-threaded,
/// full and incremental frames are identical bit for bit.
enum Painter {
    /// Bands are at least this many rows, so that thin frames are not split into slivers whose
    /// set-up costs more than their pixels.
    static let minimumBandHeight = 16

    /// Damage of fewer pixels than this is painted on the calling thread: waking threads for a
    /// clock tick's few thousand pixels, or a flip clock's turning page, costs more of a core
    /// than painting them.
    static let parallelDamageThreshold = 256 * 256

    /// What damaged pixels start from before the items are composited over them.
    enum Base {
        /// One premultiplied pixel value, filled: the renderer's background, or a cached picture
        /// whose every pixel is that value (a plain backdrop), which a fill writes without
        /// reading a copy's source.
        case solid(UInt32)
        /// A cached picture of the frame's unchanging bottom items over the background, copied.
        case bitmap(Bitmap)
    }

    static func paint(_ items: [PaintItem], into target: Bitmap, damage: Region, background: Color, threads: Int) {
        paint(items, into: target, damage: damage, base: .solid(background.premultipliedARGB32), threads: threads)
    }

    /// Turned or scaled coverage is sampled from its masks' vertical pairs (`AlphaMask.verticalPairs()`)
    /// while a frame's such masks hold at most this many texels: the pairs save a load a
    /// pixel, but they are twice the mask's bytes, and a frame of many shadows (a thousand
    /// sprites') that no longer fits the core's cache ran a fifth slower with them (measured:
    /// 39 → 31 fps), where a clock's three hand shadows ran a tenth faster.
    static let pairsBudget = 256 << 10

    /// Whether the turned and scaled coverage of `items` is few enough texels to sample from
    /// vertical pairs (see `pairsBudget`).
    static func samplesPairs(_ items: [PaintItem]) -> Bool {
        var texels = 0
        for item in items {
            guard case let .coverage(mask, _) = item.source, item.transform.kind == .affine else { continue }
            texels += mask.width * mask.height
            if texels > pairsBudget { return false }
        }
        return true
    }

    /// What painting a frame's items over its damage on some threads is worked out from before
    /// a pixel is painted: whether turned coverage samples vertical pairs, the last coverage
    /// item at a whole-pixel offset, and the bands. It reads the items' places and sizes, never
    /// their stores' pixels, so the renderer makes it while helpers still draw the frame's
    /// stores (`plan(_:damage:threads:)`): on two cores the bands were cut on the frame's thread
    /// after the stores, with the helper waiting.
    struct Plan {
        let pairs: Bool
        let lastOnBase: Int?
        /// The bands' rows, from the top (none or one: painted on the calling thread).
        let bands: [Range<Int>]
        /// The damage's pixel count and extents, which the plan was made for.
        let damageArea: Int
        let damageExtents: PixelRect
    }

    /// How `paint` paints `items` over `damage` on `threads` threads.
    static func plan(_ items: [PaintItem], damage: Region, threads: Int) -> Plan {
        let extents = damage.extents
        // Bands of about even estimated cost at first, then shrinking, taken in turn by whichever
        // thread is free: the cost of a frame is seldom even across its rows (a turning card is
        // all in the upper half), and its estimate is rough.
        let parallel = threads > 1 && damage.area >= parallelDamageThreshold
        let bands = parallel && extents.height >= 2 * minimumBandHeight ? bands(items, damage: damage, threads: threads) : []
        return Plan(pairs: samplesPairs(items), lastOnBase: lastKernelOffsetCoverage(items), bands: bands,
                    damageArea: damage.area, damageExtents: extents)
    }

    /// Paints on `threads` threads: the calling thread and `crew`'s helpers when it has
    /// `threads - 1`, else threads of the dispatch pool. `plan`, when given, is what
    /// `plan(_:damage:threads:)` made of these items, damage and threads.
    ///
    /// With `joining: false` and a crew, the bands are only offered to the crew: they are
    /// painted by its helpers and by the crew's next `join()`, which must come before anything
    /// reads the target or writes what the items read. Returns whether bands were left so.
    @discardableResult
    static func paint(_ items: [PaintItem], into target: Bitmap, damage: Region, base: Base, threads: Int,
                      crew: Crew? = nil, plan: Plan? = nil, joining: Bool = true) -> Bool {
        guard !damage.isEmpty else { return false }
        let plan = plan ?? Self.plan(items, damage: damage, threads: threads)
        assert(plan.damageArea == damage.area && plan.damageExtents == damage.extents, "a plan made for other damage")
        let (pairs, lastOnBase, bands) = (plan.pairs, plan.lastOnBase, plan.bands)
        if bands.count <= 1 {
            paintBand(items, into: target, rows: 0..<target.height, damage: damage, base: base, pairs: pairs, lastOnBase: lastOnBase)
            return false
        }
        let job = BandJob(items: items, target: target, damage: damage, base: base, pairs: pairs, lastOnBase: lastOnBase,
                          bands: bands)
        let bandCount = bands.count
        if let crew, crew.helpers == threads - 1 {
            crew.offer(bandCount) { job.paint(band: $0) }
            guard joining else { return true }
            crew.join()
            return false
        }
        DispatchQueue.concurrentPerform(iterations: bandCount) { job.paint(band: $0) }
        return false
    }

    /// The rows of `damage` cut into bands for `threads` threads, in order from the top: each band
    /// is estimated to cost a share of what is left after the bands above it (`bandShare`), and no
    /// less than a share of the whole (`smallestBandShare`), and at least `minimumBandHeight`
    /// rows (given twice that). So the first band is a thread's even share of the frame, and
    /// the bands shrink toward the frame's end: a thread taking the last of them leaves the
    /// others little to wait for. And there are few, so few composites are cut by a band's edge
    /// (each piece pays the composite's set-up again).
    ///
    /// The cost of a row is estimated from the pixels painted in it: the damage (the base's fill
    /// or copy), and the items' extents, cut to the damage's, a composite's pixel counting as
    /// many times a fill's (`bitmapPixelCost`, `coveragePixelCost`). (Not the items' footprints:
    /// walking their bands cost a frame of a thousand turned sprites and their shadows a third
    /// of a millisecond on the frame's own thread, before any band could start.)
    ///
    /// The rows are swept from one change of their cost to the next (an edge of a damage
    /// rectangle or an item), not one by one: between two changes each row costs the same, so
    /// where a band reaches its goal is a division.
    static func bands(_ items: [PaintItem], damage: Region, threads: Int) -> [Range<Int>] {
        let extents = damage.extents
        let (top, height, left, right) = (extents.minY, extents.height, extents.minX, extents.maxX)
        guard height > 0 else { return [] }
        // Per row, the change of its cost from the row above (one row more, for the last's end).
        var change = [Int](repeating: 0, count: height + 1)
        var total = 0
        change.withUnsafeMutableBufferPointer { change in
            func add(_ rect: PixelRect, _ cost: Int) {
                let x0 = max(rect.minX, left), x1 = min(rect.maxX, right)
                let y0 = max(rect.minY, top), y1 = min(rect.maxY, top + height)
                guard x0 < x1, y0 < y1 else { return }
                change[y0 - top] += (x1 - x0) * cost
                change[y1 - top] -= (x1 - x0) * cost
                total += (x1 - x0) * cost * (y1 - y0)
            }
            for rect in damage.rects { add(rect, 1) }
            for index in items.indices {
                switch items[index].source {
                case .bitmap:
                    let projective = items[index].transform.kind == .projective
                    add(items[index].extent, projective ? projectivePixelCost : bitmapPixelCost)
                case .coverage: add(items[index].extent, coveragePixelCost)
                }
            }
        }
        let smallest = total / max(1, threads * smallestBandShare)
        var bands: [Range<Int>] = [], start = 0, cost = 0, remaining = total
        bands.reserveCapacity(min(height / minimumBandHeight, threads * smallestBandShare) + 1)
        var goal = max(smallest, remaining / max(1, threads * bandShare))
        // A band may end after row `last` at the latest, leaving the last band its minimum.
        let last = height - minimumBandHeight - 1
        change.withUnsafeBufferPointer { change in
            var rate = 0, row = 0
            while row < height {
                rate += change[row]
                // Rows `row ..< end` cost `rate` each.
                var end = row + 1
                while end < height, change[end] == 0 { end += 1 }
                var y = row
                while y < end {
                    // The first row the band may end after, and the first its cost reaches the goal by
                    // (the cost after row y + k - 1 is cost + k · rate).
                    let first = max(y, start + minimumBandHeight - 1)
                    let need = goal - cost
                    var cut = first
                    if need > rate * (first - y + 1) {
                        cut = rate > 0 ? y + (need + rate - 1) / rate - 1 : end
                    }
                    guard cut < end, cut <= last else {
                        cost += rate * (end - y)
                        break
                    }
                    cost += rate * (cut + 1 - y)
                    bands.append(top + start..<top + cut + 1)
                    remaining -= cost
                    (start, cost) = (cut + 1, 0)
                    goal = max(smallest, remaining / max(1, threads * bandShare))
                    y = cut + 1
                }
                row = end
            }
        }
        bands.append(top + start..<top + height)
        return bands
    }

    /// A band costs about 1 / (threads · `bandShare`) of what is left of the frame below its top,
    /// and at least 1 / (threads · `smallestBandShare`) of the frame. (Measured on two cores,
    /// against four even bands a thread and against a share of 2: see the commit.) The smallest
    /// bands are what a thread taking the last leaves the other to wait for: 1/32 of a frame of
    /// a hundred sprites and their shadows was ~100 us, and the helper waited a median 38 us at
    /// its end; 1/64, ~11-28 us.
    static let bandShare = 1
    static let smallestBandShare = 32

    /// The most texels of a source that a band's piece of it peels whole (a 128-pixel square).
    static let peelWholeTexels = 128 * 128

    /// What a pixel of a composite costs beside a pixel of the base's fill, for cutting bands: a
    /// bitmap's bilinear samples, a coverage mask's.
    static let bitmapPixelCost = 16
    /// A bitmap's pixel through a perspective map (a divide and two rows of samples a pixel): a
    /// flip clock's turning page, all in the frame's upper half, weighed as a turned sprite's
    /// pixels left the first band with most of the frame's work (two cores 1.92x → 1.38x one);
    /// weighed 64, its first band still took 58% of the frame's band time (timed per band), and
    /// the other thread waited a median 0.5 ms a frame for it; weighed 192, 51%.
    static let projectivePixelCost = 192
    static let coveragePixelCost = 8

    /// Paints the damaged pixels within `rows`.
    ///
    /// The band draws through its own view of the whole target, in the target's coordinates:
    /// shifting the transforms to band-local coordinates would round their fixed-point
    /// translations differently from band to band, and bilinear samples would differ in the last
    /// bit. The composite rectangles (the damage cut to the band) keep the writes in its rows.
    ///
    /// Over a solid base, coverage at a whole-pixel offset that lands only on the base
    /// (`windowsOnBase`) is not composited over a fill: its window is left unfilled and drawn
    /// over the base without reading it (`Bitmap.composite(_:color:atX:y:opacity:onBase:clip:window:variant:)`),
    /// the same pixels. `onBase: false` composites every item over the fill, for tests to compare.
    static func paintBand(_ items: [PaintItem], into target: Bitmap, rows: Range<Int>, damage: Region, base: Base,
                          pairs: Bool = true, onBase: Bool = true) {
        paintBand(items, into: target, rows: rows, damage: damage, base: base, pairs: pairs,
                  lastOnBase: onBase ? lastKernelOffsetCoverage(items) : nil)
    }

    /// `paintBand(_:into:rows:damage:base:pairs:onBase:)` given what every band of a frame shares:
    /// `lastOnBase`, `lastKernelOffsetCoverage(items)` (nil: nothing is drawn on the base).
    static func paintBand(_ items: [PaintItem], into target: Bitmap, rows: Range<Int>, damage: Region, base: Base,
                          pairs: Bool, lastOnBase: Int?) {
        let band = Region(PixelRect(x: 0, y: rows.lowerBound, width: target.width, height: rows.count))
        let area = damage.intersection(band)
        guard !area.isEmpty else { return }
        let view = Bitmap(sharingPixelsOf: target)
        let bounds = area.extents
        // The first item the band reaches, when it fills all of the band's damage with one
        // opaque value (a root layer's background), hides the base and is the base: the band
        // starts from that value, filled once, not from the base filled over again.
        var start = 0, base = base
        while start < items.count, !items[start].extent.intersects(bounds) { start += 1 }
        if start < items.count, let (pixel, rect) = opaqueFill(items[start]), rect.contains(bounds) {
            base = .solid(pixel)
            start += 1
        }
        var windows: [WindowOnBase] = [], basePixel: UInt32 = 0
        switch base {
        case let .solid(pixel):
            basePixel = pixel
            if let last = lastOnBase, last >= start { windows = windowsOnBase(items[start...last], bounds: bounds) }
            let unfilled = windows.isEmpty ? area : area.subtracting(Region(windows.map(\.window)))
            view.fill(view.bounds, premultiplied: pixel, operator: .source, clip: unfilled)
        case let .bitmap(picture): view.composite(picture, atX: 0, y: 0, operator: .source, clip: area)
        }
        var next = 0
        for index in start..<items.count {
            // Most items miss a small damage entirely: a rectangle test before any region work.
            // Read in place, before the item is copied: a copy retains its source, and the
            // sources are shared by every band's thread, whose writes to one reference count
            // bounce its cache line between cores.
            guard items[index].extent.intersects(bounds) else { continue }
            // An item on the base is read in place too: only its mask is retained, not the
            // item's source, footprint and the rest, copied out and destroyed for every line.
            if next < windows.count, windows[next].index == index, case let .coverage(mask, color) = items[index].source {
                let on = windows[next]
                next += 1
                view.composite(mask, color: color, atX: on.x, y: on.y, opacity: items[index].opacity, onBase: basePixel, clip: area,
                               window: on.window, variant: on.variant)
                continue
            }
            let item = items[index]
            // Cut to the item's rectangle, not its footprint's bands: a turned or perspective
            // composite writes only its quad's exact row spans (the kernels solve them per row),
            // which the footprint holds, so the bands would only cost region work.
            switch item.source {
            case let .bitmap(source):
                let reach = area.intersection(Region(item.extent))
                guard !reach.isEmpty else { continue }
                if let (pixel, rect) = opaqueFill(item) {
                    view.fill(rect, premultiplied: pixel, operator: .source, clip: reach)
                    continue
                }
                // An item the band's edges cut is composited in pieces, each too small to afford
                // the kernels' peeling of its clear border (they read at most an eighth of a
                // composite's pixels): peeled whole when that reads no more texels than the item
                // covers, its pieces sample no more than it would unbanded. Only small sources
                // (`peelWholeTexels`): every piece peels the whole source again, and a flip
                // clock's turning page, cut by a dozen bands, read its 0.4 M texels a dozen times
                // a frame (two cores 514 → 396 fps).
                let cut = item.extent.minY < rows.lowerBound || item.extent.maxY > rows.upperBound
                let texels = source.width * source.height
                try? view.composite(source, transform: item.transform, filter: item.filter, clip: reach, opacity: item.opacity,
                                    peelsWhole: cut && texels <= min(item.extent.area, peelWholeTexels))
            case let .coverage(mask, color):
                // Only where the mask has ink (a line of text is mostly empty store): one
                // rectangle, which the kernels cut the damage's boxes to as they walk them.
                var window = item.extent.intersection(bounds)
                if let ink = inkedPixels(of: mask, through: item.transform) { window = window.intersection(ink) }
                guard !window.isEmpty else { continue }
                try? view.composite(mask, color: color, transform: item.transform, filter: item.filter, clip: area,
                                    opacity: item.opacity, pairs: pairs, window: window)
            }
        }
    }

    /// The one opaque pixel value `item` paints, and the target pixels it paints it on, when
    /// its source is a bitmap known to hold that value throughout (`Bitmap.knownUniformPixel`),
    /// placed at a whole-pixel offset at full opacity: compositing it stores that value on those
    /// pixels (each sample is a texel, and an opaque pixel `over` anything is itself), so it is
    /// filled instead, without reading the source. Nil for any other item.
    ///
    /// Asked only while painting: a store's value is known once it is drawn, and the bands are
    /// planned while helpers may still draw the stores (`plan(_:damage:threads:)`).
    static func opaqueFill(_ item: PaintItem) -> (pixel: UInt32, rect: PixelRect)? {
        guard case let .bitmap(source) = item.source, let pixel = source.knownUniformPixel, pixel >> 24 == 0xFF,
              item.opacity == 1, case let .integerTranslation(x, y) = item.transform.kind else { return nil }
        return (pixel, PixelRect(x: x, y: y, width: source.width, height: source.height).intersection(item.extent))
    }

    /// A coverage item whose pixels within `window` are all the base when it is painted: placed
    /// with its mask's pixel (0, 0) at (`x`, `y`), composited by the kernels in `variant`.
    struct WindowOnBase {
        let index: Int
        let window: PixelRect
        let x: Int, y: Int
        let variant: KernelVariant?
    }

    /// The index of the last coverage item of `items` at a whole-pixel offset the kernels composite
    /// (only such an item can be drawn on the base, `windowsOnBase`), nil when there is none: a
    /// frame's bands look for windows on the base among the items up to it, and not at all
    /// without it (a thousand turned sprites' shadows).
    static func lastKernelOffsetCoverage(_ items: [PaintItem]) -> Int? {
        let engine = Bitmap.compositeEngine
        return items.indices.last { index in
            guard case .coverage = items[index].source else { return false }
            let transform = items[index].transform
            guard case .kernelOffset = CompositePath(transform, kind: transform.kind, operator: .over, engine: engine,
                                                     coverage: true) else { return false }
            return true
        }
    }

    /// A band tests each item's window against at most this many windows of items before it;
    /// beyond, no later item is taken (a scene of thousands of layers would cost the square).
    static let windowsOnBaseBudget = 256

    /// The coverage items of `items` (in order) that reach `bounds` at whole-pixel offsets, and
    /// whose window — the pixels they can change there: their extent, mask and ink cut to
    /// `bounds` — meets no window of an item before them. Over a solid base, every pixel of such
    /// a window is still the base when the item is painted, so what it draws there is a function
    /// of the coverage alone. Windows are exact pixel rectangles (lines that abut are taken).
    static func windowsOnBase(_ items: [PaintItem], bounds: PixelRect) -> [WindowOnBase] {
        windowsOnBase(items[...], bounds: bounds)
    }

    /// `windowsOnBase(_:bounds:)` among the first items of a frame (indices are the frame's).
    static func windowsOnBase(_ items: ArraySlice<PaintItem>, bounds: PixelRect) -> [WindowOnBase] {
        var earlier = EarlierWindows(bounds: bounds, capacity: min(items.count, windowsOnBaseBudget))
        var found: [WindowOnBase] = []
        let engine = Bitmap.compositeEngine
        for index in items.indices {
            let extent = items[index].extent
            guard extent.intersects(bounds) else { continue }
            guard earlier.count < windowsOnBaseBudget else { break }
            var window = extent.intersection(bounds)
            guard case let .coverage(mask, _) = items[index].source else {
                earlier.append(Box(window))
                continue
            }
            let transform = items[index].transform, kind = transform.kind
            if case let .kernelOffset(x, y, variant) = CompositePath(transform, kind: kind, operator: .over, engine: engine,
                                                                    coverage: true) {
                window = window.intersection(PixelRect(x: x, y: y, width: mask.width, height: mask.height))
                if let ink = mask.inkBounds { window = window.intersection(PixelRect(x: ink.x + x, y: ink.y + y, width: ink.width,
                                                                                        height: ink.height)) }
                guard !window.isEmpty else { continue }
                if !earlier.meetAny(Box(window)) {
                    if found.isEmpty { found.reserveCapacity(min(items.count, windowsOnBaseBudget)) }
                    found.append(WindowOnBase(index: index, window: window, x: x, y: y, variant: variant))
                }
            } else if let ink = inkedPixels(of: mask, through: transform) {
                window = window.intersection(ink)
            }
            if !window.isEmpty { earlier.append(Box(window)) }
        }
        return found
    }

    /// A window as the tests against earlier windows read it: its edges, in 32 bits (windows lie
    /// within a band of a bitmap).
    struct Box {
        let x0, y0, x1, y1: Int32

        init(_ rect: PixelRect) {
            (x0, y0, x1, y1) = (Int32(rect.minX), Int32(rect.minY), Int32(rect.maxX), Int32(rect.maxY))
        }

        /// Whether this box shares a pixel with `other` (neither empty).
        @inline(__always) func meets(_ other: Box) -> Bool { other.x0 < x1 && x0 < other.x1 && other.y0 < y1 && y0 < other.y1 }
    }

    /// The windows of earlier items (`windowsOnBase`), each listed in every bucket of
    /// `1 << rowShift` rows of the band it spans, so that a window is tested only against the
    /// windows sharing a bucket with it: a board of text lines tests each line against its
    /// neighbours, not against every line before it (which cost the square of the lines).
    struct EarlierWindows {
        static let rowShift: Int32 = 6
        /// How many windows were added.
        private(set) var count = 0
        /// The band's top row.
        private let top: Int32
        /// Per bucket, the last link listing a window in it (-1: none).
        private var heads: [Int32]
        /// A window and the link listing the window before it in the same bucket (-1: none).
        private struct Link {
            let box: Box
            let next: Int32
        }
        private var links: [Link] = []

        /// No windows yet, for the band `bounds`, room for `capacity` windows of one bucket.
        init(bounds: PixelRect, capacity: Int) {
            top = Int32(bounds.minY)
            heads = Array(repeating: -1, count: (max(bounds.height, 0) >> Int(Self.rowShift)) + 1)
            links.reserveCapacity(capacity)
        }

        /// The buckets `box` (not empty) spans (clamped to the band's).
        @inline(__always) private func buckets(of box: Box) -> ClosedRange<Int> {
            let last = heads.count - 1
            let first = Int((box.y0 - top) >> Self.rowShift), end = Int((box.y1 - 1 - top) >> Self.rowShift)
            return min(max(first, 0), last)...min(max(end, 0), last)
        }

        /// Adds a window (not empty, within the band).
        mutating func append(_ box: Box) {
            count += 1
            for bucket in buckets(of: box) {
                links.append(Link(box: box, next: heads[bucket]))
                heads[bucket] = Int32(links.count - 1)
            }
        }

        /// Whether `box` (not empty, within the band) shares a pixel with any window added.
        func meetAny(_ box: Box) -> Bool {
            links.withUnsafeBufferPointer { links in
                for bucket in buckets(of: box) {
                    var link = heads[bucket]
                    // (Every link is below `links.count`: each names one appended before it.)
                    while link >= 0 {
                        if links[Int(link)].box.meets(box) { return true }
                        link = links[Int(link)].next
                    }
                }
                return false
            }
        }
    }
}

extension Painter {
    /// The target pixels a coverage mask drawn through `transform` can change: where its ink
    /// lands, a texel wider for bilinear sampling (every sample outside reads only zeros). Nil
    /// when the mask does not know its ink, or the map does not give a bounded box.
    static func inkedPixels(of mask: AlphaMask, through transform: Homography) -> PixelRect? {
        mask.inkBounds.flatMap { inkedPixels(ofInk: $0, through: transform) }
    }

    /// `inkedPixels(of:through:)` for a mask whose ink was `ink`.
    static func inkedPixels(ofInk ink: PixelRect, through transform: Homography) -> PixelRect? {
        if ink.isEmpty { return ink }
        if case let .integerTranslation(x, y) = transform.kind {
            return PixelRect(x: ink.x + x, y: ink.y + y, width: ink.width, height: ink.height)
        }
        guard let box = transform.projectedBounds(of: ink.cgRect.insetBy(dx: -1, dy: -1)),
              [box.minX, box.minY, box.maxX, box.maxY].allSatisfy(\.isFinite) else { return nil }
        return PixelRect(covering: box)
    }
}

/// What every band of one frame reads.
///
/// `@unchecked Sendable` is safe here: while its bands are painted the items, their source
/// bitmaps and masks (and what is known of their pixels, `Bitmap.knownUniformPixel`, set by
/// the content pass, which finished before painting began), the damage region and the base (a
/// color, or the raster cache's picture) are only read (composites take their own pixman
/// source images; the one thing a band may write besides its rows is a mask's vertical pairs,
/// made under the mask's own lock), and each band writes only its own rows of `target` (every
/// composite is clipped to them) through its own pixman image (`Bitmap(sharingPixelsOf:)`), so
/// no two threads write the same memory or the same pixman object. Each band is painted once
/// (`Crew.offer`, `concurrentPerform`).
private final class BandJob: @unchecked Sendable {
    let items: [PaintItem]
    let target: Bitmap
    let damage: Region
    let base: Painter.Base
    let pairs: Bool
    let lastOnBase: Int?
    /// The bands' rows, from the top.
    let bands: [Range<Int>]

    init(items: [PaintItem], target: Bitmap, damage: Region, base: Painter.Base, pairs: Bool, lastOnBase: Int?,
         bands: [Range<Int>]) {
        self.items = items
        self.target = target
        self.damage = damage
        self.base = base
        self.pairs = pairs
        self.lastOnBase = lastOnBase
        self.bands = bands
    }

    /// Paints band `band`.
    func paint(band: Int) {
        Painter.paintBand(items, into: target, rows: bands[band], damage: damage, base: base, pairs: pairs,
                          lastOnBase: lastOnBase)
    }
}
