// UIKit's path builder, as layer code uses it: build a shape, hand `cgPath` to a layer.
// Drawing methods (`fill()`, `stroke()`) need UIKit's current context and are not provided;
// draw into a `CGContext` with `addPath(_:)` instead.

/// The corners `UIBezierPath(roundedRect:byRoundingCorners:cornerRadii:)` rounds.
public struct UIRectCorner: OptionSet, Hashable, Sendable {
    /// The corners as bits.
    public let rawValue: UInt
    /// Corners from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// The top-left corner (y-down).
    public static let topLeft = UIRectCorner(rawValue: 1 << 0)
    /// The top-right corner.
    public static let topRight = UIRectCorner(rawValue: 1 << 1)
    /// The bottom-left corner.
    public static let bottomLeft = UIRectCorner(rawValue: 1 << 2)
    /// The bottom-right corner.
    public static let bottomRight = UIRectCorner(rawValue: 1 << 3)
    /// All four.
    public static let allCorners: UIRectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

/// UIKit's Bézier path: a mutable outline with a line style, whose `cgPath` a shape layer
/// takes. Arcs follow UIKit's rule: `clockwise` true turns clockwise on screen.
open class UIBezierPath {
    /// The outline as CoreGraphics' type (a copy; setting it replaces the outline).
    public var cgPath: CGPath {
        get { CGPath(path) }
        set { path = newValue.path }
    }

    /// The outline as LayerKit's value type.
    public var path: Path

    /// The line width (1 by default). Kept for code that sets it; a shape layer strokes with
    /// its own `lineWidth`.
    public var lineWidth: CGFloat = 1
    /// The line cap (butt by default).
    public var lineCapStyle: CGLineCap = .butt
    /// The line join (miter by default).
    public var lineJoinStyle: CGLineJoin = .miter
    /// The miter limit (10 by default).
    public var miterLimit: CGFloat = 10
    /// Whether the even-odd rule decides the inside (non-zero by default).
    public var usesEvenOddFillRule = false

    /// An empty path.
    public init() { path = Path() }

    /// A rectangle.
    public init(rect: CGRect) { path = Path(rect: rect) }

    /// The oval inscribed in `rect`.
    public init(ovalIn rect: CGRect) { path = Path(ellipseIn: rect) }

    /// A rectangle with all corners rounded by `cornerRadius`.
    public init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        path = Path(roundedRect: rect, cornerRadius: cornerRadius)
    }

    /// A rectangle with the given corners rounded by `cornerRadii.width`.
    public init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        var mask = CornerMask()
        if corners.contains(.topLeft) { mask.insert(.layerMinXMinYCorner) }
        if corners.contains(.topRight) { mask.insert(.layerMaxXMinYCorner) }
        if corners.contains(.bottomLeft) { mask.insert(.layerMinXMaxYCorner) }
        if corners.contains(.bottomRight) { mask.insert(.layerMaxXMaxYCorner) }
        path = Path(roundedRect: rect, cornerRadius: cornerRadii.width, corners: mask)
    }

    /// An arc of a circle; `clockwise` true turns clockwise on screen (UIKit's meaning).
    public init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path = Path(arcCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// A path with the outline of `cgPath`.
    public init(cgPath: CGPath) { path = cgPath.path }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { path.move(to: point) }

    /// A line from the current point.
    public func addLine(to point: CGPoint) { path.addLine(to: point) }

    /// A cubic Bézier from the current point.
    public func addCurve(to end: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: end, control1: controlPoint1, control2: controlPoint2)
    }

    /// A quadratic Bézier from the current point.
    public func addQuadCurve(to end: CGPoint, controlPoint: CGPoint) {
        path.addQuadCurve(to: end, control: controlPoint)
    }

    /// An arc with UIKit's rule (`clockwise` true: clockwise on screen), joined to the current
    /// point by a line.
    public func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }

    /// Closes the current subpath.
    public func close() { path.closeSubpath() }

    /// Appends another path's outline.
    public func append(_ other: UIBezierPath) { path.addPath(other.path) }

    /// Maps every point through `transform`.
    public func apply(_ transform: CGAffineTransform) { path = path.applying(transform) }

    /// Removes every element.
    public func removeAllPoints() { path = Path() }

    /// Whether the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// The smallest rectangle holding the path, control points included.
    public var bounds: CGRect { path.boundingBox }

    /// The end of the last element (`.zero` when empty).
    public var currentPoint: CGPoint { path.currentPoint ?? .zero }

    /// Whether `point` is inside, under the path's fill rule.
    public func contains(_ point: CGPoint) -> Bool {
        path.contains(point, using: usesEvenOddFillRule ? .evenOdd : .nonZero)
    }
}
