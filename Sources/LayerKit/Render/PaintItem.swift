import Foundation

/// One composite of a frame: a source bitmap drawn through a homography into the target.
///
/// Painting a list of items in order over a cleared target makes the frame; comparing two
/// lists' keys, signatures and extents gives the damage between two frames.
struct PaintItem {
    /// Which of a layer's paints this is.
    enum Part: Hashable { case shadow, content, border, group }

    struct Key: Hashable {
        let layer: LayerID
        let part: Part
        var instance: Int = 0
    }

    let key: Key
    let source: Bitmap
    /// Source pixels → target pixels.
    let transform: Homography
    let opacity: Double
    let filter: ImageFilter
    /// Target pixels outside which nothing may change (ancestors' `masksToBounds`).
    let clip: PixelRect?
    /// Target pixels this item may change: its projected quad, cut to the clip and the target.
    let extent: PixelRect
    /// Equal signatures (at equal keys and extents) paint equal pixels.
    let signature: Int
}

extension PaintItem {
    /// Builds an item, computing its extent and signature. `sourceIdentity` must change whenever
    /// the source's pixels do (a store generation, or an image's identity and version).
    init?(key: Key, source: Bitmap, sourceIdentity: Int, transform: Homography, opacity: Double,
          filter: ImageFilter, clip: PixelRect?, targetArea: PixelRect, index: Int) {
        guard opacity > 0, transform.kind != .degenerate else { return nil }
        let reach = source.bounds.cgRect.insetBy(dx: -1, dy: -1)
        guard let projected = transform.projectedBounds(of: reach) else { return nil }
        var extent = PixelRect(covering: projected).intersection(targetArea)
        if let clip { extent = extent.intersection(clip) }
        guard !extent.isEmpty else { return nil }
        var hasher = Hasher()
        hasher.combine(key)
        hasher.combine(sourceIdentity)
        hasher.combine(transform)
        hasher.combine(opacity)
        hasher.combine(filter)
        hasher.combine(clip)
        hasher.combine(extent)
        hasher.combine(index)
        self.init(key: key, source: source, transform: transform, opacity: opacity, filter: filter,
                  clip: clip, extent: extent, signature: hasher.finalize())
    }
}
