import CPixman

/// A set of device pixels, stored as pixman's sorted band of disjoint rectangles.
///
/// A value type: copies share storage until one of them changes. Used for clips and for the
/// damage a frame repaints.
public struct Region: Sendable {
    private var storage: RegionStorage

    /// The empty region.
    public init() { storage = RegionStorage() }

    /// The pixels of one rectangle.
    public init(_ rect: PixelRect) {
        storage = RegionStorage()
        let r = Self.clamped(rect)
        pixman_region32_init_rect(storage.pointer, Int32(r.x), Int32(r.y), UInt32(r.width), UInt32(r.height))
    }

    /// The union of several rectangles (which may overlap).
    public init(_ rects: [PixelRect]) {
        self.init()
        // One array, filled in one pass (a frame's damage is hundreds of footprint bands).
        var boxes: [pixman_box32_t] = []
        boxes.reserveCapacity(rects.count)
        for rect in rects {
            let r = Self.clamped(rect)
            if !r.isEmpty { boxes.append(pixman_box32_t(r)) }
        }
        guard !boxes.isEmpty else { return }
        // One pass over all the boxes: pixman sorts them into bands and merges the overlaps,
        // where a union per rectangle would cost the square of their number.
        pixman_region32_fini(storage.pointer)
        if pixman_region32_init_rects(storage.pointer, &boxes, Int32(boxes.count)) == 0 {
            // Out of memory inside pixman: fall back to one union per rectangle.
            pixman_region32_init(storage.pointer)
            for box in boxes {
                formUnion(Region(PixelRect(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1))))
            }
        }
    }

    /// Whether no pixel is in the region.
    public var isEmpty: Bool { pixman_region32_not_empty(storage.pointer) == 0 }

    /// The smallest rectangle holding the region (empty at the origin for an empty region).
    public var extents: PixelRect {
        guard !isEmpty, let box = pixman_region32_extents(storage.pointer)?.pointee else {
            return PixelRect(x: 0, y: 0, width: 0, height: 0)
        }
        return PixelRect(box)
    }

    /// The disjoint rectangles that make up the region, top to bottom, left to right.
    public var rects: [PixelRect] {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(storage.pointer, &count), count > 0 else { return [] }
        return (0..<Int(count)).map { PixelRect(boxes[$0]) }
    }

    /// The number of pixels in the region.
    public var area: Int { rects.reduce(0) { $0 + $1.area } }

    /// Whether the pixel at (x, y) is in the region.
    public func contains(x: Int, y: Int) -> Bool {
        guard let x32 = Int32(exactly: x), let y32 = Int32(exactly: y) else { return false }
        return pixman_region32_contains_point(storage.pointer, x32, y32, nil) != 0
    }

    /// The pixels in either region.
    public func union(_ other: Region) -> Region { combined(with: other, pixman_region32_union) }

    /// The pixels in both regions.
    public func intersection(_ other: Region) -> Region { combined(with: other, pixman_region32_intersect) }

    /// The pixels in `self` but not in `other`.
    public func subtracting(_ other: Region) -> Region { combined(with: other, pixman_region32_subtract) }

    /// Adds the pixels of `other`.
    public mutating func formUnion(_ other: Region) { self = union(other) }

    /// Keeps only the pixels also in `other`.
    public mutating func formIntersection(_ other: Region) { self = intersection(other) }

    /// The region moved by whole pixels.
    public func translatedBy(x dx: Int, y dy: Int) -> Region {
        let result = RegionStorage()
        pixman_region32_copy(result.pointer, storage.pointer)
        pixman_region32_translate(result.pointer, Int32(clamping: dx), Int32(clamping: dy))
        return Region(storage: result)
    }

    /// Lends the pixman region to C calls that only read it.
    func withPixmanRegion<R>(_ body: (UnsafeMutablePointer<pixman_region32_t>) throws -> R) rethrows -> R {
        try body(storage.pointer)
    }

    private init(storage: RegionStorage) { self.storage = storage }

    private typealias Operation = (UnsafeMutablePointer<pixman_region32_t>?, UnsafePointer<pixman_region32_t>?,
                                   UnsafePointer<pixman_region32_t>?) -> pixman_bool_t

    private func combined(with other: Region, _ operation: Operation) -> Region {
        let result = RegionStorage()
        _ = operation(result.pointer, storage.pointer, other.storage.pointer)
        return Region(storage: result)
    }

    /// pixman keeps region coordinates in 32 bits; wider rectangles are cut to fit.
    static func clamped(_ rect: PixelRect) -> PixelRect {
        let limit = Int(Int32.max / 2)
        let x0 = min(max(rect.minX, -limit), limit), y0 = min(max(rect.minY, -limit), limit)
        let x1 = min(max(rect.maxX, -limit), limit), y1 = min(max(rect.maxY, -limit), limit)
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension Region: Equatable {
    public static func == (a: Region, b: Region) -> Bool {
        pixman_region32_equal(a.storage.pointer, b.storage.pointer) != 0
    }
}

extension Region: CustomStringConvertible {
    public var description: String {
        "Region(" + rects.map { "\($0.x),\($0.y) \($0.width)x\($0.height)" }.joined(separator: "; ") + ")"
    }
}

extension PixelRect {
    init(_ box: pixman_box32_t) {
        self.init(x: Int(box.x1), y: Int(box.y1), width: Int(box.x2 - box.x1), height: Int(box.y2 - box.y1))
    }
}

/// Owns one `pixman_region32_t`.
///
/// Sendable because it is immutable after construction: every `Region` operation writes a new
/// storage and only reads existing ones, and pixman's region reads touch no shared state.
private final class RegionStorage: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<pixman_region32_t>

    init() {
        pointer = .allocate(capacity: 1)
        pixman_region32_init(pointer)
    }

    deinit {
        pixman_region32_fini(pointer)
        pointer.deallocate()
    }
}
