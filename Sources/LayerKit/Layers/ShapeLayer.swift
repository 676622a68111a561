import Foundation

/// A layer that draws a path: filled, stroked, or both (Core Animation's CAShapeLayer), with
/// CA's defaults — opaque black fill, no stroke, 1-point lines, butt caps, miter joins.
///
/// The path is in the layer's bounds space and is not clipped to the bounds (unless
/// `masksToBounds`), so a shape layer with empty bounds still draws, as on iOS.
open class ShapeLayer: Layer {
    public var path: Path? { didSet { if path != oldValue { didChange("path", .content, from: .path(oldValue ?? Path())) } } }
    public var fillColor: Color? = .black { didSet { if fillColor != oldValue { didChange("fillColor", .content, from: .color(oldValue ?? .clear)) } } }
    public var fillRule: FillRule = .nonZero { didSet { if fillRule != oldValue { changed(.content) } } }
    public var strokeColor: Color? { didSet { if strokeColor != oldValue { didChange("strokeColor", .content, from: .color(oldValue ?? .clear)) } } }
    public var lineWidth: CGFloat = 1 { didSet { if lineWidth != oldValue { didChange("lineWidth", .content, from: .scalar(Double(oldValue))) } } }
    public var lineCap: LineCap = .butt { didSet { if lineCap != oldValue { changed(.content) } } }
    public var lineJoin: LineJoin = .miter { didSet { if lineJoin != oldValue { changed(.content) } } }
    public var miterLimit: CGFloat = 10 { didSet { if miterLimit != oldValue { didChange("miterLimit", .content, from: .scalar(Double(oldValue))) } } }
    public var lineDashPattern: [CGFloat]? { didSet { if lineDashPattern != oldValue { changed(.content) } } }
    public var lineDashPhase: CGFloat = 0 { didSet { if lineDashPhase != oldValue { didChange("lineDashPhase", .content, from: .scalar(Double(oldValue))) } } }
    /// Where the stroke starts, as a fraction of the path's length.
    public var strokeStart: CGFloat = 0 { didSet { if strokeStart != oldValue { didChange("strokeStart", .content, from: .scalar(Double(oldValue))) } } }
    /// Where the stroke ends, as a fraction of the path's length.
    public var strokeEnd: CGFloat = 1 { didSet { if strokeEnd != oldValue { didChange("strokeEnd", .content, from: .scalar(Double(oldValue))) } } }

    public override init() { super.init() }

    public required init(layer: Layer) {
        super.init(layer: layer)
        guard let shape = layer as? ShapeLayer else { return }
        path = shape.path; fillColor = shape.fillColor; fillRule = shape.fillRule; strokeColor = shape.strokeColor
        lineWidth = shape.lineWidth; lineCap = shape.lineCap; lineJoin = shape.lineJoin; miterLimit = shape.miterLimit
        lineDashPattern = shape.lineDashPattern; lineDashPhase = shape.lineDashPhase
        strokeStart = shape.strokeStart; strokeEnd = shape.strokeEnd
    }

    /// The stroke style of the layer's line properties.
    public var strokeStyle: StrokeStyle {
        StrokeStyle(lineWidth: lineWidth, lineCap: lineCap, lineJoin: lineJoin, miterLimit: miterLimit,
                    dashPattern: lineDashPattern ?? [], dashPhase: lineDashPhase)
    }

    override var shapeDescription: ShapeDescription? {
        guard let path, !path.isEmpty else { return nil }
        let fill = fillColor.flatMap { $0.alpha > 0 ? $0 : nil }
        let stroke = strokeColor.flatMap { $0.alpha > 0 && lineWidth > 0 && lineWidth.isFinite ? $0 : nil }
        guard fill != nil || stroke != nil else { return nil }
        return ShapeDescription(path: path, fillColor: fill, fillRule: fillRule, strokeColor: stroke, stroke: strokeStyle,
                                strokeStart: strokeStart, strokeEnd: strokeEnd)
    }

    override class func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        func scalar(_ key: ReferenceWritableKeyPath<ShapeLayer, CGFloat>) -> AnimatableProperty {
            AnimatableProperty(kind: .scalar, get: { .scalar(Double(($0 as? ShapeLayer)?[keyPath: key] ?? 0)) },
                               set: { layer, v in if let d = v.scalarValue { (layer as? ShapeLayer)?[keyPath: key] = CGFloat(d) } })
        }
        func color(_ key: ReferenceWritableKeyPath<ShapeLayer, Color?>) -> AnimatableProperty {
            AnimatableProperty(kind: .color, get: { .color(($0 as? ShapeLayer)?[keyPath: key] ?? .clear) },
                               set: { layer, v in if case let .color(c) = v { (layer as? ShapeLayer)?[keyPath: key] = c } })
        }
        switch keyPath {
        case "strokeStart": return scalar(\.strokeStart)
        case "strokeEnd": return scalar(\.strokeEnd)
        case "lineWidth": return scalar(\.lineWidth)
        case "miterLimit": return scalar(\.miterLimit)
        case "lineDashPhase": return scalar(\.lineDashPhase)
        case "fillColor": return color(\.fillColor)
        case "strokeColor": return color(\.strokeColor)
        case "path":
            return AnimatableProperty(kind: .path, get: { .path(($0 as? ShapeLayer)?.path ?? Path()) },
                                      set: { layer, v in if case let .path(p) = v { (layer as? ShapeLayer)?.path = p } })
        default: return super.animatableProperty(forKeyPath: keyPath)
        }
    }
}

/// A shape layer's drawing, as the renderer sees it.
struct ShapeDescription: Sendable, Equatable {
    let path: Path
    let fillColor: Color?
    let fillRule: FillRule
    let strokeColor: Color?
    let stroke: StrokeStyle
    let strokeStart: CGFloat
    let strokeEnd: CGFloat

    /// The bounds-space rectangle the drawing can reach (the stroke's miters included).
    var extent: CGRect {
        let box = path.boundingBox
        guard strokeColor != nil else { return box }
        let miters = stroke.lineJoin == .miter && Self.hasJoins(path) ? stroke.miterLimit : 1
        let reach = stroke.lineWidth / 2 * max(miters, stroke.lineCap == .square ? 1.5 : 1)
        return box.insetBy(dx: -reach, dy: -reach)
    }

    /// Whether any two segments meet (a subpath of two or more segments, or a closed one):
    /// only there can a miter reach past half the line width. A clock hand's single line has
    /// none, and its store need not be ten line widths wide.
    static func hasJoins(_ path: Path) -> Bool {
        var segments = 0
        for element in path.elements {
            switch element {
            case .move: segments = 0
            case .line, .quadCurve, .curve:
                segments += 1
                if segments >= 2 { return true }
            case .closeSubpath:
                if segments >= 1 { return true }
            }
        }
        return false
    }
}
