import Foundation

/// How open ends of a stroke look (Core Animation's CAShapeLayerLineCap).
public enum LineCap: String, Hashable, Sendable {
    /// The stroke ends square at the end point (the default).
    case butt
    /// A half circle of the line's width around the end point.
    case round
    /// A half square of the line's width past the end point.
    case square
}

/// How a stroke turns corners (Core Animation's CAShapeLayerLineJoin).
public enum LineJoin: String, Hashable, Sendable {
    /// The outer edges meet in a point, beveled past the miter limit (the default).
    case miter
    /// An arc of the line's width around the corner.
    case round
    /// The outer corners joined by a straight cut.
    case bevel
}

/// A stroke's style, with Core Animation's defaults.
public struct StrokeStyle: Hashable, Sendable {
    /// The line's width, centred on the path (a width that is not positive draws nothing).
    public var lineWidth: CGFloat = 1
    /// How open ends look.
    public var lineCap: LineCap = .butt
    /// How corners look.
    public var lineJoin: LineJoin = .miter
    /// The longest miter, in line widths, before a miter join is bevelled.
    public var miterLimit: CGFloat = 10
    /// Lengths of dashes and gaps, alternating; empty for a solid line.
    public var dashPattern: [CGFloat] = []
    /// How far into the dash pattern the path starts.
    public var dashPhase: CGFloat = 0

    /// A stroke style; the defaults are Core Animation's.
    public init(lineWidth: CGFloat = 1, lineCap: LineCap = .butt, lineJoin: LineJoin = .miter, miterLimit: CGFloat = 10,
                dashPattern: [CGFloat] = [], dashPhase: CGFloat = 0) {
        self.lineWidth = lineWidth; self.lineCap = lineCap; self.lineJoin = lineJoin
        self.miterLimit = miterLimit; self.dashPattern = dashPattern; self.dashPhase = dashPhase
    }

    /// Whether the dash pattern dashes: a pattern with a negative or non-finite entry, or that
    /// sums to zero, strokes solid (as Core Graphics ignores such patterns).
    var isDashed: Bool {
        !dashPattern.isEmpty && dashPattern.allSatisfy { $0.isFinite && $0 >= 0 } && dashPattern.reduce(0, +) > 0
    }

    /// The style with lengths (width and dashes) multiplied by `scale`.
    func scaled(by scale: CGFloat) -> StrokeStyle {
        var style = self
        style.lineWidth *= scale
        style.dashPattern = dashPattern.map { $0 * scale }
        style.dashPhase *= scale
        return style
    }
}

/// Turns flattened subpaths into stroke outlines: one closed contour around each open subpath
/// or dash (its two offset sides joined by the caps), two around each closed subpath, to be
/// filled with the non-zero rule.
///
/// At each corner the outer side gets the join (miter up to the limit, bevel, or a round arc);
/// the inner side cuts across where the two offset lines meet when both segments are long
/// enough, which leaves no overlap, and otherwise runs through the corner point, which leaves an
/// overlap that the scan converter fills once. Bends gentler than `gentleTurn` (the pieces of a
/// flattened curve) get no join geometry: their offset lines meet, within the tolerance.
/// Round joins and caps are arcs within the tolerance, their points placed to straddle the
/// circle as flattened curves straddle theirs.
///
/// Scratch is reused from subpath to subpath; a stroker belongs to one thread at a time (it
/// lives in a pooled `ScanConverter`).
///
/// Its state is `@exclusivity(unchecked)`: the runtime's checks on every read and append
/// (tens per corner) cost more than the corner's geometry. That is safe because only the
/// stroker's own methods reach these properties, on the one thread that holds its
/// converter, and none holds an access to one of them across a call that reaches the same
/// one: `emit` is handed a buffer of `contour` and reaches only the converter's edges, and
/// the arrays passed `inout` (`left`, `right`, `contour`) are appended to by helpers that
/// read only the style's numbers. The compiler still checks each method on its own.
final class Stroker {
    @exclusivity(unchecked) private var style = StrokeStyle()
    @exclusivity(unchecked) private(set) var half: CGFloat = 0.5
    @exclusivity(unchecked) private var gentleTurn: CGFloat = 0
    @exclusivity(unchecked) private var arcStep: CGFloat = .pi
    @exclusivity(unchecked) private var tolerance: CGFloat = Path.deviceTolerance
    /// Arc points the stroke being drawn may still place at full resolution (see `arc`).
    @exclusivity(unchecked) private var arcPointsLeft = Stroker.arcPointBudget
    /// The dash pattern (even length) and phase, when dashing.
    @exclusivity(unchecked) private var dashes: [CGFloat] = []
    @exclusivity(unchecked) private var dashPhase: CGFloat = 0

    // Scratch, reused.
    @exclusivity(unchecked) private var points: [CGPoint] = []
    /// Per point of `points`: whether it lies inside a curve, where the stroke bends smoothly.
    @exclusivity(unchecked) private var smooth: [Bool] = []
    @exclusivity(unchecked) private var directions: [CGPoint] = []
    @exclusivity(unchecked) private var lengths: [CGFloat] = []
    /// Per segment, how much of each inner offset its corners cut away: start on the left,
    /// start on the right, end on the left, end on the right.
    @exclusivity(unchecked) private var consumed: [CGFloat] = []
    @exclusivity(unchecked) private var left: [CGPoint] = []
    @exclusivity(unchecked) private var right: [CGPoint] = []
    @exclusivity(unchecked) private var contour: [CGPoint] = []
    @exclusivity(unchecked) private var dash: [CGPoint] = []
    @exclusivity(unchecked) private var dashSmooth: [Bool] = []
    @exclusivity(unchecked) private var firstDash: [CGPoint] = []
    @exclusivity(unchecked) private var firstDashSmooth: [Bool] = []

    /// The most dashes one subpath is cut into; beyond, the rest of it is one dash.
    static let maximumDashes = 100_000
    /// The largest difference of coordinates a stroked subpath may have between neighbouring
    /// points (so that lengths, and everything built on them, stay finite).
    static let farthest: CGFloat = 1e307
    /// The finest angular resolution of a round join or cap, in pieces per full turn: a curve
    /// is never cut into more pieces either (`Path.maximumSegmentsPerCurve`), so a stroke wider
    /// than about 10⁶ pixels (where the 0.1-pixel tolerance would ask for more) is not refined
    /// past the polyline it offsets.
    static let arcPiecesPerTurn: CGFloat = CGFloat(Path.maximumSegmentsPerCurve)
    /// The arc points one stroke may place at `arcPiecesPerTurn`; beyond, arcs take at most 64
    /// pieces per turn, so that many round joins of an absurdly wide stroke (up to
    /// `RenderLimits.maximumPathSegments` of them) stay within a few hundred megabytes.
    static let arcPointBudget = 1 << 20

    /// Sets the style for the subpaths to come, in their units; `tolerance` is how far the
    /// outline may stray from the true stroke. False when the stroke draws nothing.
    func configure(_ style: StrokeStyle, tolerance: CGFloat) -> Bool {
        let half = style.lineWidth / 2
        guard half > 0, half.isFinite, tolerance > 0, tolerance.isFinite else { return false }
        self.style = style
        self.half = half
        self.tolerance = tolerance
        arcPointsLeft = Self.arcPointBudget
        gentleTurn = min(Self.maximumTurn(half: half, tolerance: tolerance), 0.5)
        // A sagitta of 1.5 × tolerance, with points moved out by two thirds of it: within tolerance.
        arcStep = 2 * acos(1 - min(1.5 * tolerance / half, 1))
        if style.isDashed {
            dashes = style.dashPattern.count % 2 == 0 ? style.dashPattern : style.dashPattern + style.dashPattern
            dashPhase = style.dashPhase.isFinite ? style.dashPhase : 0
        } else {
            dashes = []
        }
        return true
    }

    /// The largest turn one flattened piece of a curve may make under a stroke of half-width
    /// `half`: the offset of a polyline bending by θ strays about half·θ²/8 from the offset
    /// curve, kept within half the tolerance.
    static func maximumTurn(half: CGFloat, tolerance: CGFloat) -> CGFloat {
        2 * (tolerance / half).squareRoot()
    }

    /// Strokes one flattened subpath, handing each contour of its outline to `emit`.
    /// `smoothness` (empty, or one flag per point) tells the points inside curves: the stroke
    /// bends round there whatever its join, as the offset of a curve does (at a cusp too).
    func addSubpath(_ raw: UnsafeBufferPointer<CGPoint>, smoothness: UnsafeBufferPointer<Bool>, closed: Bool,
                    emit: (UnsafeBufferPointer<CGPoint>) -> Void) {
        // A lone move (one point) draws nothing; a segment without length draws a dot.
        guard raw.count >= 2 else { return }
        points.removeAll(keepingCapacity: true)
        smooth.removeAll(keepingCapacity: true)
        for (i, p) in raw.enumerated() {
            let isSmooth = i < smoothness.count && smoothness[i]
            if let last = points.last, Self.same(last, p) {
                smooth[smooth.count - 1] = smooth[smooth.count - 1] && isSmooth
            } else {
                points.append(p)
                smooth.append(isSmooth)
            }
        }
        if closed, points.count > 2, Self.same(points[0], points[points.count - 1]) {
            points.removeLast()
            smooth[0] = smooth[0] && smooth.removeLast()
        }
        // Points so far apart that the distance between them overflows (beyond ±8·10³⁰⁷)
        // give no direction: such a subpath is not stroked.
        for i in points.indices {
            guard i > 0 || closed else { continue }
            let a = points[i > 0 ? i - 1 : points.count - 1], b = points[i]
            guard abs(b.x - a.x) < Self.farthest, abs(b.y - a.y) < Self.farthest else { return }
        }
        if points.count == 1 {
            dot(at: points[0], direction: nil, emit: emit)
            return
        }
        if dashes.isEmpty {
            let line = points, flags = smooth
            line.withUnsafeBufferPointer { p in flags.withUnsafeBufferPointer { stroke(p, $0, closed: closed, emit: emit) } }
        } else {
            dashPieces(closed: closed, emit: emit)
        }
    }

    private static func same(_ a: CGPoint, _ b: CGPoint) -> Bool { abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 }

    // MARK: Outlines

    /// The outline of a polyline without repeated points (two or more), `smooth` flagging the
    /// points inside curves.
    private func stroke(_ p: UnsafeBufferPointer<CGPoint>, _ smooth: UnsafeBufferPointer<Bool>, closed: Bool,
                        emit: (UnsafeBufferPointer<CGPoint>) -> Void) {
        let n = p.count
        let segments = closed ? n : n - 1
        directions.removeAll(keepingCapacity: true)
        lengths.removeAll(keepingCapacity: true)
        for i in 0..<segments {
            let a = p[i], b = p[(i + 1) % n]
            let length = hypot(b.x - a.x, b.y - a.y)
            directions.append(CGPoint(x: (b.x - a.x) / length, y: (b.y - a.y) / length))
            lengths.append(length)
        }
        consumed.removeAll(keepingCapacity: true)
        consumed.append(contentsOf: repeatElement(0, count: 4 * segments))
        left.removeAll(keepingCapacity: true)
        right.removeAll(keepingCapacity: true)
        let h = half
        if !closed {
            let n0 = normal(directions[0])
            left.append(p[0] + n0 * h)
            right.append(p[0] - n0 * h)
        }
        for v in (closed ? 0 : 1)..<(closed ? n : n - 1) {
            join(at: p[v], incoming: (v - 1 + segments) % segments, outgoing: v, smooth: smooth[v])
        }
        contour.removeAll(keepingCapacity: true)
        if closed {
            contour.append(contentsOf: left)
            contour.withUnsafeBufferPointer { emit($0) }
            contour.removeAll(keepingCapacity: true)
            contour.append(contentsOf: right.reversed())
            contour.withUnsafeBufferPointer { emit($0) }
            return
        }
        let end = p[n - 1], endDirection = directions[segments - 1], endNormal = normal(endDirection)
        left.append(end + endNormal * h)
        right.append(end - endNormal * h)
        contour.append(contentsOf: left)
        cap(at: end, direction: endDirection)
        contour.append(contentsOf: right.reversed())
        cap(at: p[0], direction: directions[0] * -1)
        contour.withUnsafeBufferPointer { emit($0) }
    }

    /// The points of both sides at a corner between two segments.
    private func join(at v: CGPoint, incoming a: Int, outgoing b: Int, smooth: Bool) {
        let da = directions[a], db = directions[b]
        let na = normal(da), nb = normal(db)
        let cross = da.x * db.y - da.y * db.x, dot = da.x * db.x + da.y * db.y
        let turn = atan2(abs(cross), dot)
        let h = half
        // The outline turns towards the inner side: the left side (+normal) when cross > 0.
        let inner: CGFloat = cross > 0 ? 1 : -1
        let side = inner > 0 ? 0 : 1
        let cut = turn < .pi - 1e-9 ? h * tan(turn / 2) : .infinity
        var innerPoints: (CGPoint, CGPoint?, CGPoint?)
        if consumed[4 * a + side] + cut <= lengths[a], cut + consumed[4 * b + 2 + side] <= lengths[b] {
            // The two inner offset lines meet inside both segments.
            consumed[4 * a + 2 + side] = cut
            consumed[4 * b + side] = cut
            innerPoints = (v + (na + nb) * (inner * h / (1 + dot)), nil, nil)
        } else {
            innerPoints = (v + na * (inner * h), v, v + nb * (inner * h))
        }
        if inner > 0 { append(innerPoints, to: &left) } else { append(innerPoints, to: &right) }

        let outer = -inner
        if outer > 0 {
            outerJoin(at: v, da, na, nb, turn: turn, dot: dot, side: outer, round: smooth, into: &left)
        } else {
            outerJoin(at: v, da, na, nb, turn: turn, dot: dot, side: outer, round: smooth, into: &right)
        }
    }

    /// The outer side of a corner: where the offset lines meet for gentle bends and miters
    /// within the limit; otherwise the bevel, with a round join's arc between its ends (always
    /// round inside a curve).
    private func outerJoin(at v: CGPoint, _ da: CGPoint, _ na: CGPoint, _ nb: CGPoint, turn: CGFloat, dot: CGFloat,
                           side: CGFloat, round: Bool, into chain: inout [CGPoint]) {
        let h = half
        // The miter's ratio only for miter joins (a cosine a corner less for the others).
        if turn <= gentleTurn || (!round && style.lineJoin == .miter && 1 / cos(turn / 2) <= style.miterLimit && 1 + dot > 1e-12) {
            chain.append(v + (na + nb) * (side * h / (1 + dot)))
            return
        }
        chain.append(v + na * (side * h))
        if round || style.lineJoin == .round {
            let u = na * side, w = nb * side
            var sweep = atan2(u.x * w.y - u.y * w.x, u.x * w.x + u.y * w.y)
            if abs(sweep) > .pi - 1e-9 {
                // Straight back: the arc goes round the front, the way the path came.
                let middle = rotate(u, by: .pi / 2)
                sweep = middle.x * da.x + middle.y * da.y > 0 ? .pi : -.pi
            }
            arc(around: v, from: u, sweep: sweep, into: &chain)
        }
        chain.append(v + nb * (side * h))
    }

    private func append(_ points: (CGPoint, CGPoint?, CGPoint?), to chain: inout [CGPoint]) {
        chain.append(points.0)
        if let p = points.1 { chain.append(p) }
        if let p = points.2 { chain.append(p) }
    }

    /// A cap's points between the left and the right side at an end, `direction` pointing out.
    private func cap(at end: CGPoint, direction d: CGPoint) {
        let h = half, n = normal(d)
        switch style.lineCap {
        case .butt: break
        case .square:
            contour.append(end + n * h + d * h)
            contour.append(end - n * h + d * h)
        case .round:
            arc(around: end, from: n, sweep: -.pi, into: &contour)
        }
    }

    /// A segment without length: round caps draw a disc, square caps a square (turned along
    /// `direction` when there is one, as a zero-length dash is).
    private func dot(at p: CGPoint, direction: CGPoint?, emit: (UnsafeBufferPointer<CGPoint>) -> Void) {
        let h = half
        contour.removeAll(keepingCapacity: true)
        switch style.lineCap {
        case .butt: return
        case .square:
            let d = direction ?? CGPoint(x: 1, y: 0), n = normal(d)
            contour.append(contentsOf: [p + (d + n) * h, p + (n - d) * h, p - (d + n) * h, p + (d - n) * h])
        case .round:
            contour.append(p + CGPoint(x: h, y: 0))
            arc(around: p, from: CGPoint(x: 1, y: 0), sweep: 2 * .pi, into: &contour)
        }
        contour.withUnsafeBufferPointer { emit($0) }
    }

    /// The points strictly inside an arc of the stroke's circle around `center`, from unit
    /// direction `u` turning by `sweep`, placed to straddle the circle.
    ///
    /// A sweep that is not a number of radians (directions that overflowed) adds no point; a
    /// stroke so wide that the tolerance needs no angle between points (`arcStep` 0) takes the
    /// most pieces: `arcPiecesPerTurn` in proportion to the sweep (64 once the stroke's
    /// `arcPointBudget` is spent), so the points of all its arcs are bounded by how far the path
    /// turns, not by how finely its curves were cut.
    private func arc(around center: CGPoint, from u: CGPoint, sweep: CGFloat, into chain: inout [CGPoint]) {
        let ratio = abs(sweep) / arcStep
        guard sweep.isFinite, !ratio.isNaN else { return }
        let perTurn = arcPointsLeft > 0 ? Self.arcPiecesPerTurn : 64
        let most = max((abs(sweep) / (2 * .pi) * perTurn).rounded(.up), 1)
        let pieces = Int(min(max(ratio.rounded(.up), 1), most))
        guard pieces > 1 else { return }
        arcPointsLeft -= pieces - 1
        let step = sweep / CGFloat(pieces)
        let radius = half * (1 + 2 * (1 - cos(step / 2)) / 3)
        for j in 1..<pieces {
            chain.append(center + rotate(u, by: step * CGFloat(j)) * radius)
        }
    }

    // MARK: Dashes

    /// Cuts the polyline in `points` into dashes and strokes each. On a closed subpath, a dash
    /// running over its start is one dash, joined there (as Core Graphics and cairo draw it).
    private func dashPieces(closed: Bool, emit: (UnsafeBufferPointer<CGPoint>) -> Void) {
        let line = points, flags = smooth
        let period = dashes.reduce(0, +)
        var offset = dashPhase.truncatingRemainder(dividingBy: period)
        if offset < 0 { offset += period }
        var index = 0
        while offset >= dashes[index] {
            offset -= dashes[index]
            index = (index + 1) % dashes.count
        }
        var remaining = dashes[index] - offset
        var on = index % 2 == 0
        let startsOn = on
        var cuts = 0
        var finished = 0
        dash.removeAll(keepingCapacity: true)
        dashSmooth.removeAll(keepingCapacity: true)
        firstDash.removeAll(keepingCapacity: true)
        firstDashSmooth.removeAll(keepingCapacity: true)
        if on { dash.append(line[0]); dashSmooth.append(false) }
        func finish(direction: CGPoint) {
            if closed, startsOn, finished == 0 {
                firstDash = dash
                firstDashSmooth = dashSmooth
            } else {
                strokeDash(direction: direction, emit: emit)
            }
            finished += 1
        }
        let count = closed ? line.count + 1 : line.count
        for i in 1..<count {
            let a = line[i - 1], b = line[i % line.count]
            let length = hypot(b.x - a.x, b.y - a.y)
            let direction = CGPoint(x: (b.x - a.x) / length, y: (b.y - a.y) / length)
            var travelled: CGFloat = 0
            while length - travelled > remaining, cuts < Self.maximumDashes {
                travelled += remaining
                let point = a + direction * travelled
                dash.append(point)
                dashSmooth.append(false)
                if on {
                    finish(direction: direction)
                    dash.removeAll(keepingCapacity: true)
                    dashSmooth.removeAll(keepingCapacity: true)
                }
                on.toggle()
                cuts += 1
                index = (index + 1) % dashes.count
                remaining = dashes[index]
            }
            remaining -= length - travelled
            if on {
                dash.append(b)
                dashSmooth.append(i < line.count && flags[i])
            }
        }
        if closed, startsOn {
            if cuts == 0 {
                // Never off: the whole closed subpath.
                line.withUnsafeBufferPointer { p in flags.withUnsafeBufferPointer { stroke(p, $0, closed: true, emit: emit) } }
                return
            }
            if on {
                // The last dash runs on into the first, through the subpath's start.
                if !dashSmooth.isEmpty { dashSmooth[dashSmooth.count - 1] = flags[0] }
                dash.append(contentsOf: firstDash.dropFirst())
                dashSmooth.append(contentsOf: firstDashSmooth.dropFirst())
            } else {
                dash = firstDash
                dashSmooth = firstDashSmooth
            }
            strokeDash(direction: CGPoint(x: 1, y: 0), emit: emit)
        } else if on, dash.count > 1 {
            strokeDash(direction: CGPoint(x: 1, y: 0), emit: emit)
        }
    }

    /// Strokes the dash in `dash` as an open polyline; `direction` turns the square of a
    /// zero-length dash.
    private func strokeDash(direction: CGPoint, emit: (UnsafeBufferPointer<CGPoint>) -> Void) {
        var piece: [CGPoint] = [], flags: [Bool] = []
        swap(&piece, &dash)
        swap(&flags, &dashSmooth)
        defer { swap(&piece, &dash); swap(&flags, &dashSmooth) }
        var kept = 0
        for (i, p) in piece.enumerated() {
            if kept > 0, Self.same(piece[kept - 1], p) {
                flags[kept - 1] = flags[kept - 1] && flags[i]
                continue
            }
            piece[kept] = p
            flags[kept] = flags[i]
            kept += 1
        }
        if kept == 1 {
            // A zero-length dash: round and square caps still draw it.
            dot(at: piece[0], direction: direction, emit: emit)
        } else if kept > 1 {
            piece.withUnsafeBufferPointer { p in
                flags.withUnsafeBufferPointer { f in
                    stroke(UnsafeBufferPointer(rebasing: p[0..<kept]), UnsafeBufferPointer(rebasing: f[0..<kept]), closed: false, emit: emit)
                }
            }
        }
    }

    private func normal(_ d: CGPoint) -> CGPoint { CGPoint(x: -d.y, y: d.x) }

    private func rotate(_ v: CGPoint, by angle: CGFloat) -> CGPoint {
        let c = cos(angle), s = sin(angle)
        return CGPoint(x: v.x * c - v.y * s, y: v.x * s + v.y * c)
    }
}

private func + (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
private func - (a: CGPoint, b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
private func * (a: CGPoint, k: CGFloat) -> CGPoint { CGPoint(x: a.x * k, y: a.y * k) }

extension Path {
    /// The area a stroke covers, as a path to fill with the non-zero rule: one contour around
    /// each open subpath or dash, two around each closed subpath.
    ///
    /// `tolerance` is how closely curves, round joins and caps are followed, in the path's
    /// units (a tenth, as fills and strokes in device pixels use). A dash pattern with a negative or non-finite entry, or that sums to zero, strokes
    /// solid (as Core Graphics ignores such patterns).
    public func strokedOutline(_ style: StrokeStyle, tolerance: CGFloat = 0.1) -> Path {
        var outline = Path()
        let stroker = Stroker()
        guard stroker.configure(style, tolerance: tolerance) else { return outline }
        var buffer: [CGPoint] = []
        var smoothness: [Bool]? = []
        flatten(transform: nil, tolerance: tolerance, straddling: true, maximumTurn: Stroker.maximumTurn(half: stroker.half, tolerance: tolerance),
                into: &buffer, smoothness: &smoothness) { points, smooth, closed in
            stroker.addSubpath(points, smoothness: smooth, closed: closed) { contour in
                outline.addLines(between: Array(contour))
                outline.closeSubpath()
            }
        }
        return outline
    }
}
