import Foundation

/// A layer that draws a path: filled, stroked, or both (Core Animation's CAShapeLayer), with
/// CA's defaults — opaque black fill, no stroke, 1-point lines, butt caps, miter joins.
///
/// The path is in the layer's bounds space and is not clipped to the bounds (unless
/// `masksToBounds`), so a shape layer with empty bounds still draws, as on iOS.
open class ShapeLayer: Layer {
    /// The declarations of the shape layer's properties (see `Layer.Properties`).
    enum Properties {
        typealias Declaration<Value: Sendable> = LayerProperty<ShapeLayer, Value>

        static let path: Declaration<Path?> = .init("path", \.path, default: nil, invalidates: .content, animatable: .path)
        static let fillColor: Declaration<Color?> = .init("fillColor", \.fillColor, default: .black, invalidates: .content, animatable: .color)
        static let fillRule: Declaration<FillRule> = .init("fillRule", \.fillRule, default: .nonZero, invalidates: .content)
        static let strokeColor: Declaration<Color?> = .init("strokeColor", \.strokeColor, default: nil, invalidates: .content, animatable: .color)
        static let lineWidth: Declaration<CGFloat> = .init("lineWidth", \.lineWidth, default: 1, invalidates: .content, animatable: .number)
        static let lineCap: Declaration<LineCap> = .init("lineCap", \.lineCap, default: .butt, invalidates: .content)
        static let lineJoin: Declaration<LineJoin> = .init("lineJoin", \.lineJoin, default: .miter, invalidates: .content)
        static let miterLimit: Declaration<CGFloat> = .init("miterLimit", \.miterLimit, default: 10, invalidates: .content, animatable: .number)
        static let lineDashPattern: Declaration<[CGFloat]?> = .init("lineDashPattern", \.lineDashPattern, default: nil, invalidates: .content)
        static let lineDashPhase: Declaration<CGFloat> = .init("lineDashPhase", \.lineDashPhase, default: 0, invalidates: .content,
                                                               animatable: .number)
        static let strokeStart: Declaration<CGFloat> = .init("strokeStart", \.strokeStart, default: 0, invalidates: .content, animatable: .number)
        static let strokeEnd: Declaration<CGFloat> = .init("strokeEnd", \.strokeEnd, default: 1, invalidates: .content, animatable: .number)
    }

    /// The shape, in the layer's bounds space.
    @Declared(Properties.path) public var path: Path?
    /// The color filling the path (opaque black; nil fills nothing).
    @Declared(Properties.fillColor) public var fillColor: Color?
    /// Which parts of the path count as inside.
    @Declared(Properties.fillRule) public var fillRule: FillRule
    /// The color stroking the path (none by default).
    @Declared(Properties.strokeColor) public var strokeColor: Color?
    /// The stroke's width, in points.
    @Declared(Properties.lineWidth) public var lineWidth: CGFloat
    /// How open ends of the stroke look.
    @Declared(Properties.lineCap) public var lineCap: LineCap
    /// How the stroke turns corners.
    @Declared(Properties.lineJoin) public var lineJoin: LineJoin
    /// How far a miter join may reach, in line widths, before it is beveled.
    @Declared(Properties.miterLimit) public var miterLimit: CGFloat
    /// Lengths of dashes and gaps, alternating (nil: a solid line).
    @Declared(Properties.lineDashPattern) public var lineDashPattern: [CGFloat]?
    /// How far into the dash pattern the stroke starts.
    @Declared(Properties.lineDashPhase) public var lineDashPhase: CGFloat
    /// Where the stroke starts, as a fraction of the path's length.
    @Declared(Properties.strokeStart) public var strokeStart: CGFloat
    /// Where the stroke ends, as a fraction of the path's length.
    @Declared(Properties.strokeEnd) public var strokeEnd: CGFloat

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
}

/// A shape layer's drawing, as the renderer sees it.
///
/// Immutable, and a class: a content description holds one (or none) for every layer, and as
/// an optional value of a dozen fields it was copied and destroyed some twenty times each
/// time a layer's content was described, whether the layer had a shape or not.
final class ShapeDescription: Sendable, Equatable {
    let path: Path
    let fillColor: Color?
    let fillRule: FillRule
    let strokeColor: Color?
    let stroke: StrokeStyle
    let strokeStart: CGFloat
    let strokeEnd: CGFloat

    init(path: Path, fillColor: Color?, fillRule: FillRule, strokeColor: Color?, stroke: StrokeStyle, strokeStart: CGFloat,
         strokeEnd: CGFloat) {
        self.path = path
        self.fillColor = fillColor
        self.fillRule = fillRule
        self.strokeColor = strokeColor
        self.stroke = stroke
        self.strokeStart = strokeStart
        self.strokeEnd = strokeEnd
    }

    static func == (a: ShapeDescription, b: ShapeDescription) -> Bool {
        a === b || a.path == b.path && a.fillColor == b.fillColor && a.fillRule == b.fillRule && a.strokeColor == b.strokeColor &&
            a.stroke == b.stroke && a.strokeStart == b.strokeStart && a.strokeEnd == b.strokeEnd
    }

    /// The fill's color when the fill covers anything: nil without one, and for a path of single
    /// lines (a clock hand's, under Core Animation's default black fill), which encloses nothing.
    var paintedFill: Color? { Self.enclosesArea(path) ? fillColor : nil }

    /// The path the stroke follows: the path trimmed to `strokeStart` … `strokeEnd`.
    var strokedPath: Path { path.trimmed(from: strokeStart, to: strokeEnd) }

    /// The one color the drawing is in, or nil: the fill's or the stroke's when only one is
    /// drawn, or both's when they are the same opaque color (the stroke over the fill then
    /// covers as the two coverages combined do; a translucent stroke would show the fill
    /// through it).
    var singleColor: Color? {
        switch (paintedFill, strokeColor) {
        case let (fill?, nil): fill
        case let (nil, stroke?): stroke
        case let (fill?, stroke?): fill == stroke && fill.alpha >= 1 ? fill : nil
        case (nil, nil): nil
        }
    }

    /// The bounds-space rectangle the drawing can reach (the stroke's miters included).
    var extent: CGRect {
        let box = path.boundingBox
        guard strokeColor != nil else { return box }
        let miters = stroke.lineJoin == .miter && Self.hasJoins(path) ? stroke.miterLimit : 1
        let reach = stroke.lineWidth / 2 * max(miters, stroke.lineCap == .square ? 1.5 : 1)
        return box.insetBy(dx: -reach, dy: -reach)
    }

    /// Whether filling the path can cover anything: false when every subpath is a point or a
    /// single straight line (a clock hand's), whose fill has no area whatever the color.
    static func enclosesArea(_ path: Path) -> Bool {
        var segments = 0
        for element in path.elements {
            switch element {
            case .move: segments = 0
            case .line:
                segments += 1
                if segments >= 2 { return true }
            case .quadCurve, .curve: return true
            case .closeSubpath: break
            }
        }
        return false
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
