// CoreGraphics' paths: a reference type, immutable `CGPath` and its mutable subclass, as iOS
// code builds them (`let path = CGMutablePath(); path.move(to: p)`). Each holds a LayerKit
// `Path` value; layers and animations take them where Core Animation does.

/// CoreGraphics' immutable path: an outline of lines and Béziers (LayerKit's `Path` inside).
public class CGPath: Hashable, CustomStringConvertible {
    /// The outline, as LayerKit's value type.
    public internal(set) var path: Path

    /// A path holding `path`.
    public init(_ path: Path) { self.path = path }

    /// A rectangle (`CGPath(rect:transform:)`).
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(Path(rect: rect).applying(transform?.pointee ?? .identity))
    }

    /// The ellipse inscribed in `rect` (`CGPath(ellipseIn:transform:)`).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(Path(ellipseIn: rect).applying(transform?.pointee ?? .identity))
    }

    /// A rounded rectangle with elliptical corners (`CGPath(roundedRect:cornerWidth:cornerHeight:transform:)`).
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        var path = Path()
        path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight)
        self.init(path.applying(transform?.pointee ?? .identity))
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { path.isEmpty }

    /// The smallest rectangle holding every point, control points included (null when empty).
    public var boundingBox: CGRect { path.boundingBox }

    /// The smallest rectangle holding the path itself, without control points.
    public var boundingBoxOfPath: CGRect { path.boundingBoxOfPath }

    /// The end of the last element; `.zero` for an empty path, as CoreGraphics answers.
    public var currentPoint: CGPoint { path.currentPoint ?? .zero }

    /// Whether `point` (through `transform`) is inside the path under `rule`.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        path.applying(transform).contains(point, using: rule)
    }

    /// An immutable copy.
    public func copy() -> CGPath? { CGPath(path) }

    /// A copy with every point mapped through `transform` (`copy(using:)`).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        CGPath(path.applying(transform?.pointee ?? .identity))
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(path) }

    /// The outline of the path stroked with the given line style
    /// (`copy(strokingWithWidth:lineCap:lineJoin:miterLimit:transform:)`).
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin, miterLimit: CGFloat,
                     transform: CGAffineTransform = .identity) -> CGPath {
        let style = StrokeStyle(lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit)
        return CGPath(path.strokedOutline(style).applying(transform))
    }

    /// Paths are equal when their elements are.
    public static func == (a: CGPath, b: CGPath) -> Bool { a.path == b.path }

    /// Hashes the elements.
    public func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// The elements.
    public var description: String { "CGPath(\(path.elements))" }
}

extension CGPath: AnimatableValueConvertible {
    /// Animations of "path" and "shadowPath" take a CGPath as the `Path` it holds.
    package var animatableValue: Any { path }
}

/// CoreGraphics' mutable path, built in place (`path.move(to:)`, `path.addArc(…)`).
public final class CGMutablePath: CGPath {
    /// An empty path.
    public init() { super.init(Path()) }

    /// A path starting with the elements of `path`.
    public override init(_ path: Path) { super.init(path) }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        path.move(to: point.applying(transform))
    }

    /// A line from the current point.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        path.addLine(to: point.applying(transform))
    }

    /// Lines through `points`, starting a new subpath at the first.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        path.addLines(between: points.map { $0.applying(transform) })
    }

    /// A quadratic Bézier from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        path.addQuadCurve(to: end.applying(transform), control: control.applying(transform))
    }

    /// A cubic Bézier from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        path.addCurve(to: end.applying(transform), control1: control1.applying(transform), control2: control2.applying(transform))
    }

    /// A closed rectangle subpath.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        path.addPath(Path(rect: rect), transform: transform)
    }

    /// Closed rectangle subpaths.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// A closed ellipse subpath inscribed in `rect`.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        path.addPath(Path(ellipseIn: rect), transform: transform)
    }

    /// A closed rounded-rectangle subpath with elliptical corners.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        var rounded = Path()
        rounded.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight)
        path.addPath(rounded, transform: transform)
    }

    /// An arc with CoreGraphics' rule (`clockwise` false: increasing angles, which on the
    /// y-down screen turn clockwise, as in a UIKit view), joined to the current point by a line.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        var arc = Path()
        arc.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        appendJoined(arc.applying(transform), startsAtCurrentPoint: false)
    }

    /// An arc of `delta` radians from `startAngle` (positive: increasing angles).
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        addArc(center: center, radius: radius, startAngle: startAngle, endAngle: startAngle + delta, clockwise: delta < 0,
               transform: transform)
    }

    /// The arc of `radius` tangent to the lines from the current point to `tangent1End` and on
    /// to `tangent2End`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity) {
        if transform.isIdentity {
            path.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius)
            return
        }
        // In the untransformed space, from the current point mapped back.
        let inverse = transform.inverted()
        var arc = Path()
        guard let current = path.currentPoint else { path.move(to: tangent1End.applying(transform)); return }
        arc.move(to: current.applying(inverse))
        arc.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius)
        appendJoined(arc.applying(transform), startsAtCurrentPoint: true)
    }

    /// Appends another path's elements.
    public func addPath(_ other: CGPath, transform: CGAffineTransform = .identity) {
        path.addPath(other.path, transform: transform)
    }

    /// Closes the current subpath.
    public func closeSubpath() { path.closeSubpath() }

    /// Appends `piece` so that it continues the open subpath: its opening move becomes a line
    /// from the current point, or is dropped when the piece was built from the current point.
    private func appendJoined(_ piece: Path, startsAtCurrentPoint: Bool) {
        for (index, element) in piece.elements.enumerated() {
            switch element {
            case let .move(p):
                if index == 0, path.currentPoint != nil {
                    if !startsAtCurrentPoint { path.addLine(to: p) }
                } else {
                    path.move(to: p)
                }
            case let .line(p): path.addLine(to: p)
            case let .quadCurve(p, c): path.addQuadCurve(to: p, control: c)
            case let .curve(p, c1, c2): path.addCurve(to: p, control1: c1, control2: c2)
            case .closeSubpath: path.closeSubpath()
            }
        }
    }
}

// MARK: Where layers and animations take paths

/// The shape as Core Animation types it.
extension CAShapeLayer {
    /// The shape, in the layer's bounds space (Core Animation's `CGPath?`; LayerKit's `path`
    /// holds the same outline as a `Path`).
    public var path: CGPath? {
        get { pathValue.map { CGPath($0) } }
        set { pathValue = newValue?.path }
    }
}

/// The shadow path as Core Animation types it.
extension CALayer {
    /// The shadow's shape in the layer's own space (Core Animation's `CGPath?`).
    public var shadowPath: CGPath? {
        get { shadowPathValue.map { CGPath($0) } }
        set { shadowPathValue = newValue?.path }
    }
}

/// The motion path as Core Animation types it.
extension CAKeyframeAnimation {
    /// The path a point-valued property follows (Core Animation's `CGPath?`).
    public var path: CGPath? {
        get { pathValue.map { CGPath($0) } }
        set { pathValue = newValue?.path }
    }
}

/// Paths as CoreGraphics' type.
extension CGContext {
    /// Adds a path given in user space to the current path.
    public func addPath(_ path: CGPath) { addPath(path.path) }
}
