import Foundation

/// A rectangle of whole device pixels: columns `x ..< x + width`, rows `y ..< y + height`.
public struct PixelRect: Hashable, Sendable {
    /// The leftmost column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// The number of columns.
    public var width: Int
    /// The number of rows.
    public var height: Int

    /// Creates a rectangle; a negative width or height is treated as empty.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = max(0, width); self.height = max(0, height)
    }

    /// The smallest pixel rectangle that covers `rect`; empty for a non-finite or null rect.
    /// Coordinates are clamped to ±2³⁰ so that later sums cannot overflow.
    public init(covering rect: CGRect) {
        let limit = CGFloat(1 << 30)
        guard !rect.isNull, rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else {
            self.init(x: 0, y: 0, width: 0, height: 0)
            return
        }
        let x0 = Int(min(max(rect.minX.rounded(.down), -limit), limit))
        let y0 = Int(min(max(rect.minY.rounded(.down), -limit), limit))
        let x1 = Int(min(max(rect.maxX.rounded(.up), -limit), limit))
        let y1 = Int(min(max(rect.maxY.rounded(.up), -limit), limit))
        self.init(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The leftmost column, `x`.
    public var minX: Int { x }
    /// The top row, `y`.
    public var minY: Int { y }
    /// The column just past the right edge.
    public var maxX: Int { x + width }
    /// The row just below the bottom edge.
    public var maxY: Int { y + height }
    /// Whether the rectangle holds no pixel.
    public var isEmpty: Bool { width == 0 || height == 0 }
    /// The number of pixels.
    public var area: Int { width * height }

    /// The overlap of two rectangles (empty when they do not meet).
    public func intersection(_ other: PixelRect) -> PixelRect {
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return PixelRect(x: x0, y: y0, width: 0, height: 0) }
        return PixelRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The smallest rectangle holding both (an empty one adds nothing).
    func union(_ other: PixelRect) -> PixelRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return PixelRect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    /// Whether the two rectangles share a pixel.
    public func intersects(_ other: PixelRect) -> Bool {
        max(minX, other.minX) < min(maxX, other.maxX) && max(minY, other.minY) < min(maxY, other.maxY)
    }

    /// Whether the pixel at (px, py) lies inside.
    public func contains(x px: Int, y py: Int) -> Bool { px >= minX && px < maxX && py >= minY && py < maxY }

    /// Whether every pixel of `other` lies inside (an empty rectangle lies in any).
    func contains(_ other: PixelRect) -> Bool {
        other.isEmpty || other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// The same rectangle as a `CGRect`.
    public var cgRect: CGRect { CGRect(x: x, y: y, width: width, height: height) }
}
