import Foundation

/// One composite of a frame: a source bitmap drawn through a homography into the target.
///
/// Painting a list of items in order over a cleared target makes the frame; comparing an
/// object's items from one frame to the next (`paintsSame(as:)`) gives the damage.
struct PaintItem {
    /// Which of a layer's paints this is.
    enum Part: Hashable { case shadow, content, border, group }

    struct Key: Hashable {
        let layer: LayerID
        let part: Part
        var instance: Int = 0
    }

    /// What an item draws: a bitmap, or a color through a coverage mask (a shadow, or text of
    /// one color: a quarter of a bitmap's bytes to sample).
    enum Source {
        case bitmap(Bitmap)
        case coverage(AlphaMask, Color)

        var width: Int {
            switch self {
            case let .bitmap(b): b.width
            case let .coverage(m, _): m.width
            }
        }
        var height: Int {
            switch self {
            case let .bitmap(b): b.height
            case let .coverage(m, _): m.height
            }
        }
        /// The store object (for the content pass's dependencies).
        var object: AnyObject {
            switch self {
            case let .bitmap(b): b
            case let .coverage(m, _): m
            }
        }
    }

    let key: Key
    private(set) var source: Source
    /// Source pixels → target pixels.
    let transform: Homography
    let opacity: Double
    let filter: ImageFilter
    /// Target pixels outside which nothing may change (ancestors' `masksToBounds`).
    let clip: PixelRect?
    /// Target pixels this item may change: its projected quad, cut to the clip and the target.
    let extent: PixelRect
    /// The same pixels more tightly: bands of rows, each only as wide as the quad within them
    /// (just `extent` for rectilinear maps). Damage and painting follow the footprint, so a
    /// turned layer costs its own area, not its bounding box's.
    let footprint: [PixelRect]
    /// Changes whenever the source's pixels do (a store generation, or an image's identity and
    /// version).
    private(set) var sourceIdentity: Int

    /// Makes the item draw `source`, of the same size as the one it drew, whose pixels are
    /// `identity` (a store drawn again): it lands on the same pixels. In place: a line of text
    /// whose store is redrawn every frame keeps its item, footprint and all.
    mutating func redraw(from source: Source, identity: Int) {
        assert(source.width == self.source.width && source.height == self.source.height, "a redrawn source keeps its size")
        self.source = source
        sourceIdentity = identity
    }

    /// Whether the item paints exactly what `other` paints: the same source pixels, in the same
    /// color, through the same map, opacity, filter and clip, onto the same pixels. Compared
    /// field by field (a frame compares every changed item with its last one; hashing each
    /// item's fields into a signature first cost more than the comparison).
    func paintsSame(as other: PaintItem) -> Bool {
        guard key == other.key, sourceIdentity == other.sourceIdentity, extent == other.extent, transform == other.transform,
              opacity == other.opacity, filter == other.filter, clip == other.clip else { return false }
        switch (source, other.source) {
        case (.bitmap, .bitmap): return true
        case let (.coverage(_, a), .coverage(_, b)): return a == b
        default: return false
        }
    }

    /// Feeds what `paintsSame(as:)` compares into `hasher`: equal items hash equally (a group's
    /// fingerprint is made from its items').
    func combineSignature(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(sourceIdentity)
        if case let .coverage(_, color) = source { hasher.combine(color) }
        hasher.combine(transform)
        hasher.combine(opacity)
        hasher.combine(filter)
        hasher.combine(clip)
        hasher.combine(extent)
    }
}

extension PaintItem {
    /// An item drawing a bitmap.
    init?(key: Key, source: Bitmap, sourceIdentity: Int, transform: Homography, opacity: Double,
          filter: ImageFilter, clip: PixelRect?, targetArea: PixelRect) {
        self.init(key: key, source: .bitmap(source), sourceIdentity: sourceIdentity, transform: transform, opacity: opacity,
                  filter: filter, clip: clip, targetArea: targetArea)
    }

    /// Builds an item, computing its extent. `sourceIdentity` must change whenever
    /// the source's pixels do (a store generation, or an image's identity and version).
    ///
    /// `placedAmong` are items drawn into the same target area before (the last frame's items
    /// of the object, usually): when the one of the same key has the same transform, clip and
    /// source size, the new item lands on exactly its pixels, and its extent and footprint are
    /// taken as they are rather than projected again (a line of text whose figures change keeps
    /// its store). It is read in place, by index: copied out, it was retained and released.
    init?(key: Key, source: Source, sourceIdentity: Int, transform: Homography, opacity: Double,
          filter: ImageFilter, clip: PixelRect?, targetArea: PixelRect, placedAmong previous: [PaintItem] = []) {
        guard opacity > 0 else { return nil }
        let extent: PixelRect, footprint: [PixelRect]
        if let i = previous.firstIndex(where: { $0.key == key }), previous[i].transform == transform, previous[i].clip == clip,
           previous[i].source.width == source.width, previous[i].source.height == source.height {
            (extent, footprint) = (previous[i].extent, previous[i].footprint)
        } else {
            guard let placement = Self.placement(of: source, through: transform, clip: clip, targetArea: targetArea) else { return nil }
            (extent, footprint) = placement
        }
        self.init(key: key, source: source, transform: transform, opacity: opacity, filter: filter,
                  clip: clip, extent: extent, footprint: footprint, sourceIdentity: sourceIdentity)
    }

    /// The target pixels `source` may change drawn through `transform` (within `clip` and
    /// `targetArea`) and their footprint; nil when there are none.
    private static func placement(of source: Source, through transform: Homography, clip: PixelRect?,
                                  targetArea: PixelRect) -> (extent: PixelRect, footprint: [PixelRect])? {
        guard transform.kind != .degenerate else { return nil }
        let reach = CGRect(x: 0, y: 0, width: source.width, height: source.height).insetBy(dx: -1, dy: -1)
        let polygon = transform.projectedPolygon(of: reach)
        guard let projected = CGRect(boundingPoints: polygon) else { return nil }
        var extent = PixelRect(covering: projected).intersection(targetArea)
        if let clip { extent = extent.intersection(clip) }
        guard !extent.isEmpty else { return nil }
        // Quarter turns leave rounding residue (cos π/2 ≈ 6e-17) where an exact zero is meant.
        let residue = 1e-12 * (abs(transform.m11) + abs(transform.m12) + abs(transform.m21) + abs(transform.m22))
        let rectilinear = transform.kind != .projective && (abs(transform.m12) <= residue && abs(transform.m21) <= residue
                                                            || abs(transform.m11) <= residue && abs(transform.m22) <= residue)
        let footprint = rectilinear ? [extent] : Self.bands(covering: polygon, within: extent)
        guard !footprint.isEmpty else { return nil }
        return (extent, footprint)
    }

    /// Rows per band of a footprint: tighter bands follow a slanted edge more closely, but each
    /// is rectangles more for the frame's damage region to sort and merge, and a band more for
    /// every composite under it to walk. A clock tick (six turned items, old and new) measured
    /// 2.50 M instructions with bands of 8 rows, 2.36 M with 16, 2.29 M with 32 and 2.27 M with
    /// 64: 32 takes most of the gain and repaints less than 64 around a slanted edge.
    static let bandHeight = 32

    /// Bands of `extent`'s rows on the target's grid of `bandHeight` rows, each holding every
    /// pixel whose centre the convex `polygon` covers in those rows (exactly: the polygon's
    /// x-range over the band's rows). On the grid, the footprints of different items — and of
    /// one item before and after it moved a little — share their bands' edges, so their union
    /// (a frame's damage) stays a few rectangles a band instead of splitting at every item's
    /// own band edges: the region is cheaper to build and to paint through.
    static func bands(covering polygon: [CGPoint], within extent: PixelRect) -> [PixelRect] {
        guard polygon.count >= 3 else { return [] }
        // Each edge once, its upper end first (the same arithmetic per band as ever).
        let edges = polygon.indices.map { index -> (a: CGPoint, b: CGPoint) in
            let p = polygon[index], q = polygon[index + 1 == polygon.count ? 0 : index + 1]
            return p.y <= q.y ? (p, q) : (q, p)
        }
        var bands: [PixelRect] = []
        bands.reserveCapacity(extent.height / bandHeight + 2)
        var y0 = extent.minY
        while y0 < extent.maxY {
            let gridRow = y0 >= 0 ? y0 / bandHeight : -((-y0 + bandHeight - 1) / bandHeight)
            let y1 = min((gridRow + 1) * bandHeight, extent.maxY)
            let top = CGFloat(y0), bottom = CGFloat(y1)
            var low = CGFloat.infinity, high = -CGFloat.infinity
            for (a, b) in edges {
                guard b.y >= top, a.y <= bottom else { continue }
                let dy = b.y - a.y
                if dy <= 0 {
                    low = min(low, a.x, b.x)
                    high = max(high, a.x, b.x)
                    continue
                }
                // The part of edge ab within the band's rows: x where it enters and leaves them.
                let upper = a.x + (b.x - a.x) * (max(a.y, top) - a.y) / dy
                let lower = a.x + (b.x - a.x) * (min(b.y, bottom) - a.y) / dy
                low = min(low, upper, lower)
                high = max(high, upper, lower)
            }
            if low <= high {
                // Pixels whose centres (x + ½) lie in low...high.
                // (Clamped to the extent before converting: far perspective corners are huge.)
                let x0 = Int(min(max((low - 0.5).rounded(.down), CGFloat(extent.minX)), CGFloat(extent.maxX)))
                let x1 = Int(min(max((high - 0.5).rounded(.up) + 1, CGFloat(extent.minX)), CGFloat(extent.maxX)))
                if x1 > x0 { bands.append(PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) }
            }
            y0 = y1
        }
        return bands
    }
}
