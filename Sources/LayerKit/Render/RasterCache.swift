import Foundation

/// Device-space pictures of the bottom of a frame that has stopped changing: the items beneath
/// the first one that changed in recent frames, painted over the background. A damaged pixel
/// then starts from a copy of that picture, and only the items above it are composited again —
/// a clock's face, ticks and numerals become one copy per tick.
///
/// Only a frame's bottom is flattened, never a subtree above something that changes: compositing
/// a flattened group is not bit-identical to compositing its items one by one (8-bit `over` does
/// not associate), while a picture of the bottom items is exactly what painting them makes. So
/// frames are the same bit for bit with the cache on and off.
///
/// Pictures are kept within a byte budget, the least recently used dropped first; one is dropped
/// as soon as anything beneath its boundary changes.
final class RasterCache {
    /// The most bytes of pictures kept; 0 keeps none.
    var budget: Int { didSet { trim(keeping: nil) } }

    struct Key: Hashable {
        let tree: ObjectIdentifier
        let background: Color
    }

    final class Picture {
        /// Items strictly before this position are in the picture.
        let boundary: PaintPosition
        let bitmap: Bitmap
        /// The one premultiplied pixel value every pixel has, when they all have one (a plain
        /// backdrop): frames then start from a fill rather than a copy.
        let uniformPixel: UInt32?
        var lastUse: UInt64
        init(boundary: PaintPosition, bitmap: Bitmap, lastUse: UInt64) {
            self.boundary = boundary
            self.bitmap = bitmap
            self.uniformPixel = bitmap.uniformPixel()
            self.lastUse = lastUse
        }

        /// What a damaged pixel starts from: a fill for a uniform picture, else a copy of it.
        var base: Painter.Base { uniformPixel.map(Painter.Base.solid) ?? .bitmap(bitmap) }
    }

    private var pictures: [Key: Picture] = [:]
    private var clock: UInt64 = 0
    /// The first change of each of the last frames that changed something (most recent last).
    private var recentChanges: [Key: [PaintPosition]] = [:]
    /// How many frames a boundary must hold before a picture is made under it.
    static let stableFrames = 2

    /// Pictures made since the cache was made (for tests).
    private(set) var picturesMade = 0

    init(budget: Int) { self.budget = budget }

    /// Pictures held whose pixels are all one value.
    var uniformPictures: Int { pictures.values.filter { $0.uniformPixel != nil }.count }

    /// The bytes of pixels held.
    var byteCount: Int { pictures.values.reduce(0) { $0 + $1.bitmap.bytesPerRow * $1.bitmap.height } }

    /// The picture usable for a frame of `tree` whose earliest change is `firstChange`, after
    /// dropping it if that change lies beneath its boundary.
    func picture(for key: Key, firstChange: PaintPosition?) -> Picture? {
        guard let picture = pictures[key] else { return nil }
        if let firstChange, firstChange < picture.boundary {
            pictures[key] = nil
            return nil
        }
        clock += 1
        picture.lastUse = clock
        return picture
    }

    /// Called after a frame that changed something: once the bottom of the frame has held for a
    /// few frames, paints a picture of it (or a taller one, when what changes moved up).
    func frameDidChange(_ key: Key, firstChange: PaintPosition, tree: RenderTree, width: Int, height: Int, threads: Int,
                        reusing: Bool = true) {
        var recent = recentChanges[key, default: []]
        recent.append(firstChange)
        if recent.count > Self.stableFrames { recent.removeFirst(recent.count - Self.stableFrames) }
        recentChanges[key] = recent
        guard recent.count == Self.stableFrames, let boundary = recent.min(), let root = tree.rootObject else { return }
        if let current = pictures[key], !(current.boundary < boundary) { return }
        let bytes = width * height * 4
        guard bytes <= budget else { return }
        var items: [PaintItem] = []
        root.appendItems(before: boundary.path[...], to: &items)
        guard !items.isEmpty else { return }
        // A bottom that is one opaque value over the whole frame (a plain root's background)
        // needs no picture: painting starts each band from that value anyway (`Painter.paintBand`),
        // and the picture would hold a frame's bytes to say the same.
        if items.count == 1, let (_, rect) = Painter.opaqueFill(items[0]), rect.contains(PixelRect(x: 0, y: 0, width: width, height: height)) {
            return
        }
        let reusable = !reusing ? nil : pictures[key].map(\.bitmap).flatMap { $0.width == width && $0.height == height ? $0 : nil }
        pictures[key] = nil
        trim(keeping: bytes)
        guard let bitmap = reusable ?? (try? Bitmap(width: width, height: height)) else { return }
        Painter.paint(items, into: bitmap, damage: Region(bitmap.bounds), base: .solid(key.background.premultipliedARGB32), threads: threads)
        clock += 1
        pictures[key] = Picture(boundary: boundary, bitmap: bitmap, lastUse: clock)
        picturesMade += 1
    }

    /// Drops every picture of `tree` (it is being replaced).
    func removeAll(of tree: ObjectIdentifier) {
        pictures = pictures.filter { $0.key.tree != tree }
        recentChanges = recentChanges.filter { $0.key.tree != tree }
    }

    /// Drops least recently used pictures until `incoming` more bytes fit the budget.
    private func trim(keeping incoming: Int?) {
        var total = byteCount + (incoming ?? 0)
        for (key, picture) in pictures.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where total > budget {
            total -= picture.bitmap.bytesPerRow * picture.bitmap.height
            pictures[key] = nil
        }
    }
}
