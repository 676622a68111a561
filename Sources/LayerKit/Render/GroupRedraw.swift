import Foundation

/// What redrawing a group's offscreen bitmap keeps from one redraw to the next, so that a group
/// redrawn every frame — a flip clock's turning page, whose shade darkens inside its rounded
/// bounds — repaints only what changed in it.
///
/// One per group object. The walk (on the model's thread) decides what a redraw reuses and
/// hands the redraw what it needs; the redraw runs in the content pass, after the walk, and is
/// its object's only one in that pass.
final class GroupRedraw {
    /// The coverage that cuts the bitmap to its rounded bounds, kept while they are the same.
    private var clip: ClipCoverage?

    /// The coverage for a group's bitmap of `width`x`height` cut to `bounds`: the last one
    /// while nothing it depends on changed, else a new one (rasterized by the redraw that first
    /// uses it).
    func clipCoverage(bounds: CGRect, _ group: GroupDescription, width: Int, height: Int) -> ClipCoverage {
        let key = ClipCoverage.Key(bounds: bounds, radius: group.cornerRadius, corners: group.maskedCorners, area: group.area,
                                   scale: group.scale, width: width, height: height)
        if let clip, clip.key == key { return clip }
        let made = ClipCoverage(key: key)
        clip = made
        return made
    }
}

/// The coverage of a group's rounded bounds over its bitmap where it can be below one
/// (`ItemEmitter.partlyCovered`): a few small bitmaps, which depend only on the bounds, the
/// corners, the part of them the bitmap covers and its scale. A group redrawn every frame cut
/// its bitmap with the same coverage every frame; rasterizing it was a third of the redraw.
final class ClipCoverage {
    struct Key: Equatable {
        let bounds: CGRect
        let radius: CGFloat
        let corners: CornerMask
        let area: CGRect
        let scale: CGFloat
        let width: Int, height: Int
    }

    let key: Key
    /// The boxes of the bitmap and their coverage, once a redraw has rasterized them: written
    /// by that redraw in the content pass, read by later ones (under the lock: two redraws of
    /// one group may share a pass when its store is queued twice in a frame). Only read once
    /// made: compositing from a bitmap does not change it.
    private var boxes: [(box: PixelRect, coverage: Bitmap)]?
    private let lock = NSLock()

    init(key: Key) { self.key = key }

    /// Multiplies `offscreen` (a bitmap as the key says) by the coverage, rasterizing it first
    /// when no redraw has yet.
    func cut(_ offscreen: Bitmap, bounds: CGRect, _ group: GroupDescription) {
        let boxes = lock.withLock {
            let made = self.boxes ?? ItemEmitter.clipCoverage(bounds: bounds, group, width: offscreen.width, height: offscreen.height)
            self.boxes = made
            return made
        }
        ItemEmitter.multiply(offscreen, by: boxes)
    }
}
