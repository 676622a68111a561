import Foundation

/// Immediate-mode drawing into a bitmap in the spirit of CGContext: a transform, a graphics
/// state stack, a current path, fills and strokes, a clip, images. Coordinates are y-down
/// points; `scale` device pixels per point are applied before anything else.
///
/// Layers get custom content through one: override `Layer.draw(in:)` (or set a delegate) and
/// call `setNeedsDisplay()`.
public final class GraphicsContext {
    /// The bitmap drawn into.
    public let bitmap: Bitmap

    private struct State {
        var ctm: CGAffineTransform
        var fillColor: Color = .black
        var strokeColor: Color = .black
        var alpha: Double = 1
        var stroke = StrokeStyle()
        var blendMode: CompositeOperator = .over
        /// The clip as coverage in device pixels (nil: no clip).
        var clip: Bitmap?
    }

    private var state: State
    private var stack: [State] = []
    private var path = Path()

    /// A context over `bitmap`, with `scale` device pixels per point.
    public init(bitmap: Bitmap, scale: CGFloat = 1) {
        self.bitmap = bitmap
        state = State(ctm: CGAffineTransform(scaleX: scale, y: scale))
    }

    // MARK: State

    /// Pushes the graphics state (transform, colors, line style, alpha, clip).
    public func saveGState() { stack.append(state) }

    /// Pops the graphics state saved last (nothing happens when none is saved).
    public func restoreGState() { if let saved = stack.popLast() { state = saved } }

    /// The current transform from user space to device pixels.
    public var ctm: CGAffineTransform { state.ctm }

    /// Moves the user space's origin by (`x`, `y`).
    public func translateBy(x: CGFloat, y: CGFloat) { state.ctm = CGAffineTransform(translationX: x, y: y).concatenating(state.ctm) }
    /// Scales the user space by `x` and `y`.
    public func scaleBy(x: CGFloat, y: CGFloat) { state.ctm = CGAffineTransform(scaleX: x, y: y).concatenating(state.ctm) }
    /// Turns the user space by `angle` radians (clockwise on the y-down screen).
    public func rotate(by angle: CGFloat) { state.ctm = CGAffineTransform(rotationAngle: angle).concatenating(state.ctm) }
    /// Applies `transform` to the user space, before the current transform.
    public func concatenate(_ transform: CGAffineTransform) { state.ctm = transform.concatenating(state.ctm) }

    /// The color fills paint with (opaque black at first).
    public func setFillColor(_ color: Color) { state.fillColor = color }
    /// The color strokes paint with (opaque black at first).
    public func setStrokeColor(_ color: Color) { state.strokeColor = color }
    /// Multiplies everything drawn by `alpha`.
    public func setAlpha(_ alpha: Double) { state.alpha = Color.unit(alpha) }
    /// The stroke's width, in user space (1 at first).
    public func setLineWidth(_ width: CGFloat) { state.stroke.lineWidth = width }
    /// How open ends of strokes look.
    public func setLineCap(_ cap: LineCap) { state.stroke.lineCap = cap }
    /// How strokes turn corners.
    public func setLineJoin(_ join: LineJoin) { state.stroke.lineJoin = join }
    /// How far a miter may reach, in line widths, before it is beveled (10 at first).
    public func setMiterLimit(_ limit: CGFloat) { state.stroke.miterLimit = limit }
    /// Dashes strokes: `lengths` of dashes and gaps, alternating, started `phase` into the
    /// pattern (an empty array draws solid lines).
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        state.stroke.dashPhase = phase
        state.stroke.dashPattern = lengths
    }
    /// How what is drawn combines with the bitmap (`.over` at first).
    public func setBlendMode(_ mode: CompositeOperator) { state.blendMode = mode }

    // MARK: Current path (in user space, transformed when it is added)

    /// Empties the current path.
    public func beginPath() { path = Path() }
    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { path.move(to: point.applying(state.ctm)) }
    /// A straight line from the current point to `point`.
    public func addLine(to point: CGPoint) { path.addLine(to: point.applying(state.ctm)) }
    /// A cubic Bézier from the current point to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        path.addCurve(to: end.applying(state.ctm), control1: control1.applying(state.ctm), control2: control2.applying(state.ctm))
    }
    /// A quadratic Bézier from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        path.addQuadCurve(to: end.applying(state.ctm), control: control.applying(state.ctm))
    }
    /// Closes the current subpath with a line back to its start.
    public func closePath() { path.closeSubpath() }
    /// Adds a closed rectangle to the current path.
    public func addRect(_ rect: CGRect) { addPath(Path(rect: rect)) }
    /// Adds the closed ellipse inscribed in `rect` to the current path.
    public func addEllipse(in rect: CGRect) { addPath(Path(ellipseIn: rect)) }

    /// An arc with CGContext's rule (clockwise false: increasing angles), joined to the current
    /// point by a line.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        var arc = Path()
        if let current = path.currentPoint, let inverse = invertedCTM { arc.move(to: current.applying(inverse)) }
        arc.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
        let device = arc.applying(state.ctm)
        for (index, element) in device.elements.enumerated() {
            if index == 0, path.currentPoint != nil, case .move = element { continue }
            append(element)
        }
    }

    /// Adds a path given in user space.
    public func addPath(_ userPath: Path) { path.addPath(userPath, transform: state.ctm) }

    /// The current path, in user space.
    public var currentPath: Path { invertedCTM.map { path.applying($0) } ?? Path() }

    // MARK: Drawing

    /// How `drawPath(using:)` paints.
    public enum DrawingMode: Sendable {
        /// Fill, non-zero winding.
        case fill
        /// Fill, even-odd.
        case eoFill
        /// Stroke.
        case stroke
        /// Fill (non-zero), then stroke.
        case fillStroke
        /// Fill (even-odd), then stroke.
        case eoFillStroke
    }

    /// Fills the current path and clears it.
    public func fillPath(using rule: FillRule = .nonZero) {
        paint(path, color: state.fillColor, rule: rule)
        path = Path()
    }

    /// Strokes the current path with the line style and clears it.
    public func strokePath() {
        paint(strokeOutline(path), color: state.strokeColor, rule: .nonZero)
        path = Path()
    }

    /// Paints the current path and clears it.
    public func drawPath(using mode: DrawingMode) {
        let current = path
        switch mode {
        case .fill: paint(current, color: state.fillColor, rule: .nonZero)
        case .eoFill: paint(current, color: state.fillColor, rule: .evenOdd)
        case .stroke: paint(strokeOutline(current), color: state.strokeColor, rule: .nonZero)
        case .fillStroke, .eoFillStroke:
            paint(current, color: state.fillColor, rule: mode == .fillStroke ? .nonZero : .evenOdd)
            paint(strokeOutline(current), color: state.strokeColor, rule: .nonZero)
        }
        path = Path()
    }

    /// Fills a rectangle with the fill color (the current path is kept).
    public func fill(_ rect: CGRect) { paint(Path(rect: rect).applying(state.ctm), color: state.fillColor, rule: .nonZero) }
    /// Fills the ellipse inscribed in `rect` with the fill color.
    public func fillEllipse(in rect: CGRect) { paint(Path(ellipseIn: rect).applying(state.ctm), color: state.fillColor, rule: .nonZero) }
    /// Strokes a rectangle with the stroke color and line style.
    public func stroke(_ rect: CGRect) { paint(strokeOutline(Path(rect: rect).applying(state.ctm)), color: state.strokeColor, rule: .nonZero) }
    /// Strokes the ellipse inscribed in `rect` with the stroke color and line style.
    public func strokeEllipse(in rect: CGRect) {
        paint(strokeOutline(Path(ellipseIn: rect).applying(state.ctm)), color: state.strokeColor, rule: .nonZero)
    }

    /// Makes the pixels of `rect` transparent (inside the clip).
    public func clear(_ rect: CGRect) {
        guard let coverage = try? Bitmap(width: bitmap.width, height: bitmap.height) else { return }
        coverage.fill(Path(rect: rect).applying(state.ctm), with: .white)
        if let clip = state.clip { coverage.composite(clip, atX: 0, y: 0, operator: .destinationIn) }
        bitmap.composite(coverage, atX: 0, y: 0, operator: .destinationOut)
    }

    /// Narrows the clip to the current path (restored by `restoreGState()`), and clears the path.
    public func clip(using rule: FillRule = .nonZero) {
        guard let coverage = try? Bitmap(width: bitmap.width, height: bitmap.height) else { return }
        coverage.fill(path, with: .white, rule: rule)
        if let old = state.clip { coverage.composite(old, atX: 0, y: 0, operator: .destinationIn) }
        state.clip = coverage
        path = Path()
    }

    /// Draws a bitmap into `rect` (user space), bilinearly filtered through the transform.
    public func draw(_ image: Bitmap, in rect: CGRect) {
        guard image.width > 0, image.height > 0 else { return }
        let toRect = CGAffineTransform(a: rect.width / CGFloat(image.width), b: 0, c: 0, d: rect.height / CGFloat(image.height),
                                       tx: rect.minX, ty: rect.minY).concatenating(state.ctm)
        guard let layer = try? Bitmap(width: bitmap.width, height: bitmap.height) else { return }
        try? layer.composite(image, transform: Homography(toRect))
        finish(layer)
    }

    /// Draws an image into `rect`.
    public func draw(_ image: Image, in rect: CGRect) { draw(image.bitmap, in: rect) }

    /// Fills the clip (the whole bitmap when there is none) with an axial gradient between two
    /// points of user space (CGContext's drawLinearGradient).
    public func drawLinearGradient(colors: [Color], locations: [Double]? = nil, start: CGPoint, end: CGPoint) {
        drawGradient(Gradient(.axial(start: start, end: end), colors: colors, locations: locations))
    }

    /// Fills the clip with a radial gradient around `center` out to `radius` (user space).
    public func drawRadialGradient(colors: [Color], locations: [Double]? = nil, center: CGPoint, radius: CGFloat) {
        drawGradient(Gradient(.radial(center: center, radii: CGSize(width: radius, height: radius)), colors: colors, locations: locations))
    }

    /// Fills the current path with a gradient given in user space, and clears the path.
    public func fillPath(with gradient: Gradient, using rule: FillRule = .nonZero) {
        guard let inverse = invertedCTM else { path = Path(); return }
        paint { $0.fill(self.path.applying(inverse), with: gradient, rule: rule, transform: self.state.ctm) }
        path = Path()
    }

    /// Draws text with its baseline's left end at `point` (user space), shaped with HarfBuzz in
    /// the family's font.
    public func draw(_ text: String, at point: CGPoint, font family: String = Font.defaultFamily, size: CGFloat = 17,
                     color: Color? = nil) {
        let layout = TextLayout(runs: [TextRun(text)], font: family, fontSize: size, color: color ?? state.fillColor,
                                width: nil, wrapped: false, truncation: .none, alignment: .left)
        let origin = CGPoint(x: point.x, y: point.y - layout.metrics.ascent)
        paint { layout.draw(into: $0, at: origin, transform: self.state.ctm) }
    }

    private func drawGradient(_ gradient: Gradient) {
        guard let inverse = invertedCTM else { return }
        let everything = Path(rect: bitmap.bounds.cgRect).applying(inverse)
        paint { $0.fill(everything, with: gradient, transform: self.state.ctm) }
    }

    /// Runs a drawing into a layer of its own when the clip, alpha or blend mode must apply to
    /// it as a whole, else straight into the bitmap.
    private func paint(_ draw: (Bitmap) -> Void) {
        if state.clip == nil, state.blendMode == .over, state.alpha >= 1 {
            draw(bitmap)
            return
        }
        guard let layer = try? Bitmap(width: bitmap.width, height: bitmap.height) else { return }
        draw(layer)
        finish(layer)
    }

    // MARK: Internals

    private var invertedCTM: CGAffineTransform? {
        let t = state.ctm
        let det = t.a * t.d - t.b * t.c
        return det != 0 && det.isFinite ? t.inverted() : nil
    }

    private func append(_ element: Path.Element) {
        switch element {
        case let .move(p): path.move(to: p)
        case let .line(p): path.addLine(to: p)
        case let .quadCurve(p, c): path.addQuadCurve(to: p, control: c)
        case let .curve(p, c1, c2): path.addCurve(to: p, control1: c1, control2: c2)
        case .closeSubpath: path.closeSubpath()
        }
    }

    /// The stroke of a device-space path, with the line width (in user space) scaled by the
    /// transform's uniform scale.
    private func strokeOutline(_ devicePath: Path) -> Path {
        let t = state.ctm
        let scale = abs(t.a * t.d - t.b * t.c).squareRoot()
        var style = state.stroke
        style.lineWidth *= scale
        style.dashPattern = style.dashPattern.map { $0 * scale }
        style.dashPhase *= scale
        return devicePath.strokedOutline(style)
    }

    private func paint(_ devicePath: Path, color: Color, rule: FillRule) {
        let painted = color.withAlphaComponent(color.alpha * state.alpha)
        if state.clip == nil, state.blendMode == .over {
            bitmap.fill(devicePath, with: painted, rule: rule)
            return
        }
        guard let layer = try? Bitmap(width: bitmap.width, height: bitmap.height) else { return }
        layer.fill(devicePath, with: painted, rule: rule)
        finish(layer, alreadyFaded: true)
    }

    /// Composites a full-size layer into the bitmap through the clip, alpha and blend mode.
    private func finish(_ layer: Bitmap, alreadyFaded: Bool = false) {
        if let clip = state.clip { layer.composite(clip, atX: 0, y: 0, operator: .destinationIn) }
        bitmap.composite(layer, atX: 0, y: 0, operator: state.blendMode, opacity: alreadyFaded ? 1 : state.alpha)
    }
}
