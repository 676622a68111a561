import Foundation

/// What redrawing a group's offscreen bitmap keeps from one redraw to the next, so that a group
/// redrawn every frame — a flip clock's turning page, whose shade darkens inside its rounded
/// bounds — repaints only what changed in it: the coverage of its rounded bounds, and a
/// picture of its bottom items.
///
/// One per group object. The walk (on the model's thread) decides what a redraw reuses and
/// hands the redraw what it needs; the redraw runs in the content pass, after the walk.
final class GroupRedraw {
    /// The coverage that cuts the bitmap to its rounded bounds, kept while they are the same.
    private var clip: ClipCoverage?
    /// The picture of the bottom items, while every redraw starts with them.
    private var bottom: BottomPicture?
    /// The items of the last redraw and the tree update it was queued in.
    private var lastItems: [PaintItem] = []
    private var lastUpdate: UInt64 = 0

    /// The picture a redraw of `items` queued in tree update `update` starts from, if any (and
    /// whether it is made by this redraw). Called for each redraw queued, as it is queued.
    ///
    /// The picture holds the leading items that were the same in two redraws in a row (the
    /// bitmap's content and what does not move, under an animated shade): painted once, then
    /// copied as each redraw's base, the items above it painted over the copy. That makes
    /// exactly the pixels painting every item makes — each pixel goes through the same
    /// composites in the same order — as the frame's raster cache does for frames. A group
    /// redrawn once in a while (a label changed) keeps no picture.
    func bottomPicture(for items: [PaintItem], update: UInt64) -> (picture: BottomPicture, isNew: Bool)? {
        defer { lastItems = items; lastUpdate = update }
        if let bottom, bottom.items.count < items.count, Self.samePaint(items, bottom.items, count: bottom.items.count) {
            return (bottom, false)
        }
        bottom = nil
        guard update == lastUpdate &+ 1 else { return nil }
        let count = min(items.count, lastItems.count)
        var same = 0
        while same < count, Self.samePaint(items, lastItems, at: same) { same += 1 }
        guard same > 0, same < items.count else { return nil }
        let made = BottomPicture(items: Array(items[..<same]))
        bottom = made
        return (made, true)
    }

    /// Whether the first `count` items of `a` and `b` paint the same.
    private static func samePaint(_ a: [PaintItem], _ b: [PaintItem], count: Int) -> Bool {
        (0..<count).allSatisfy { samePaint(a, b, at: $0) }
    }

    /// Whether item `index` of `a` paints what item `index` of `b` paints, over what painting
    /// the items before it left: the same composite (`paintsSame`).
    private static func samePaint(_ a: [PaintItem], _ b: [PaintItem], at index: Int) -> Bool {
        a[index].paintsSame(as: b[index])
    }

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

/// A group's bottom items painted over transparent, at the size of the group's bitmap: what its
/// redraws start from (see `GroupRedraw.bottomPicture(for:update:)`).
final class BottomPicture {
    /// The items painted, in order: the first items of every redraw that uses the picture.
    let items: [PaintItem]
    /// The pixels, once the first redraw needing them has painted them: written by that redraw
    /// in the content pass, read by later ones (under the lock: two redraws of one group may
    /// share a pass when its store is queued twice in a frame). Only read once painted:
    /// compositing from a bitmap does not change it.
    private var bitmap: Bitmap?
    private let lock = NSLock()

    init(items: [PaintItem]) { self.items = items }

    /// The picture at `width` x `height`, painted first when no redraw has yet (`pairs` as
    /// for the whole redraw); nil when no such bitmap can be made.
    func pixels(width: Int, height: Int, pairs: Bool) -> Bitmap? {
        lock.withLock {
            if let bitmap, bitmap.width == width, bitmap.height == height { return bitmap }
            guard let made = try? Bitmap(width: width, height: height) else { return nil }
            Painter.paintBand(items, into: made, rows: 0..<height, damage: Region(made.bounds), base: .solid(0), pairs: pairs)
            bitmap = made
            return made
        }
    }
}
