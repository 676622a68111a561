import CCairoOracle
import ExampleScenes
import Foundation
import LayerKit

/// The scenes of the comparison, each at any frame size.
public enum Scenes {
    /// 10:10:30 — all three hands apart.
    static let clockTime: TimeInterval = 10 * 3600 + 10 * 60 + 30

    /// The Clock example (continuously turning shape hands, shadows) running live at 60 frames a
    /// second, every pixel of every frame: what a presenter that needs whole frames (no buffer
    /// age, a fresh buffer each frame) gets. The hands move each frame; what stays still is the
    /// renderer's to reuse (its raster cache), as cairo's program is free to draw as it likes.
    public static func clock(width: Int, height: Int) -> Scene {
        let clock = ClockScene(size: CGSize(width: width, height: height), style: .shapes, startTime: clockTime)
        let cairo = CairoClock(width: width, height: height, startTime: clockTime)
        // Eight frames 1/60 s apart, repeated (the baselines copy each distinct frame's sources).
        let times = (0..<8).map { 0.5 + TimeInterval($0) / 60 }
        return Scene(name: "clock", width: width, height: height, root: clock.root, times: times,
                     cairo: .draw { cr, i in cairo.draw(cr, elapsed: times[i % times.count]) })
    }

    /// The Clock example ticking: frames one second apart into the same bitmap, so each frame
    /// repaints only what the hands moved through (damage tracking). cairo redraws the whole clock
    /// at each tick's time: for an immediate-mode program, that is its tick.
    public static func clockTick(width: Int, height: Int) -> Scene {
        let clock = ClockScene(size: CGSize(width: width, height: height), style: .shapes, startTime: clockTime)
        let cairo = CairoClock(width: width, height: height, startTime: clockTime)
        let times: [TimeInterval] = [0.5, 1.5]
        return Scene(name: "clock tick (damage)", width: width, height: height, root: clock.root, mode: .damage,
                     times: times, cairo: .draw { cr, i in cairo.draw(cr, elapsed: times[i % times.count]) })
    }

    /// The clock drawn again at the same time, nothing changed (the hands' endless rotations are
    /// still running): an idle frame, which should cost next to nothing.
    public static func clockIdle(width: Int, height: Int) -> Scene {
        let clock = ClockScene(size: CGSize(width: width, height: height), style: .shapes, startTime: clockTime)
        return Scene(name: "clock, same time again", width: width, height: height, root: clock.root, mode: .damage,
                     times: [0.5], cairo: .unsupported("an idle frame is LayerKit's own measure"))
    }

    /// The clock in its layers style (hands set once a second, no animation running between
    /// ticks) drawn again at the same time: the idlest frame there is.
    public static func clockIdleBetweenTicks(width: Int, height: Int) -> Scene {
        let clock = ClockScene(size: CGSize(width: width, height: height), style: .layers, startTime: clockTime)
        return Scene(name: "clock (layers style), between ticks", width: width, height: height, root: clock.root,
                     mode: .damage, times: [0.5], cairo: .unsupported("an idle frame is LayerKit's own measure"))
    }

    /// The FlipClock example at 10:59:59.35: all three cards a third of the way through the flip.
    public static func flipClock(width: Int, height: Int) -> Scene {
        let start: TimeInterval = 10 * 3600 + 59 * 60 + 59.35
        let flip = FlipClockScene(size: CGSize(width: width, height: height), startTime: start)
        flip.update(elapsed: 0)
        return Scene(name: "flip clock mid-flip", width: width, height: height, root: flip.root, times: [0],
                     cairo: .unsupported(perspectiveUnsupported))
    }

    /// The Countdown example with 12 min 34 s to go.
    public static func countdown(width: Int, height: Int) -> Scene {
        let countdown = CountdownScene(size: CGSize(width: width, height: height), seconds: 20 * 60)
        let elapsed: TimeInterval = 20 * 60 - (12 * 60 + 34) + 0.5
        countdown.update(elapsed: elapsed)
        let cairo = CairoCountdown(width: width, height: height, seconds: 20 * 60)
        return Scene(name: "countdown", width: width, height: height, root: countdown.root, times: [elapsed],
                     cairo: .draw { cr, _ in cairo.draw(cr, elapsed: elapsed) })
    }

    /// `count` 64x64 image layers placed at random with random rotation, scale and opacity,
    /// optionally with shadows (LayerKit blurs them once and caches them; cairo blurs its own each
    /// frame, once per sprite image).
    public static func layers(_ count: Int, shadows: Bool = false, width: Int, height: Int) -> Scene {
        let root = backdrop(width: width, height: height)
        let bitmaps = spriteBitmaps()
        let sprites = bitmaps.map { try! Image($0) }
        var random = SplitMix(seed: UInt64(count) &* 7919 &+ (shadows ? 1 : 0))
        var placements: [CairoSprites.Placement] = []
        for i in 0..<count {
            let layer = Layer()
            layer.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
            layer.contents = sprites[i % sprites.count]
            layer.position = CGPoint(x: random.uniform(0...CGFloat(width)), y: random.uniform(0...CGFloat(height)))
            let angle = random.uniform(0...(2 * .pi)), scale = random.uniform(0.6...1.4)
            layer.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
                .concatenating(Transform3D(scaleX: scale, y: scale, z: 1))
            layer.opacity = Float(random.uniform(0.5...1))
            placements.append(CairoSprites.Placement(position: layer.position, angle: angle, scale: scale,
                                                     opacity: Double(layer.opacity), image: i % sprites.count))
            if shadows {
                layer.shadowOpacity = 0.6
                layer.shadowRadius = 4
                layer.shadowOffset = CGSize(width: 0, height: 3)
            }
            root.addSublayer(layer)
        }
        let name = shadows ? "\(count) layers + shadows" : "\(count) layers"
        let cairo = CairoSprites(images: bitmaps, placements: placements,
                                 shadow: shadows ? .init(sigma: 4, offset: CGSize(width: 0, height: 3), opacity: 0.6) : nil)
        return Scene(name: name, width: width, height: height, root: root, times: [0], cairo: .draw { cr, _ in cairo.draw(cr) })
    }

    /// A wall of 160x160 image cards turned about their vertical axes under perspective (every
    /// composite projective).
    public static func perspective(width: Int, height: Int) -> Scene {
        let root = backdrop(width: width, height: height)
        var eye = Transform3D.identity
        eye.m34 = -1.0 / 900
        root.sublayerTransform = eye
        let cards = cardImages()
        let side = CGFloat(height) / 5.5
        let columns = Int(CGFloat(width) / (side * 1.1)), rows = 5
        for row in 0..<rows {
            for column in 0..<columns {
                let card = Layer()
                card.bounds = CGRect(x: 0, y: 0, width: side, height: side)
                card.contents = cards[(row * columns + column) % cards.count]
                card.position = CGPoint(x: (CGFloat(column) + 0.5) * CGFloat(width) / CGFloat(columns),
                                        y: (CGFloat(row) + 0.5) * CGFloat(height) / CGFloat(rows))
                let angle = (CGFloat(column) / CGFloat(max(1, columns - 1)) - 0.5) * 1.6 + CGFloat(row) * 0.05
                card.transform = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0)
                root.addSublayer(card)
            }
        }
        return Scene(name: "perspective wall", width: width, height: height, root: root, times: [0],
                     cairo: .unsupported(perspectiveUnsupported))
    }

    /// A board of 3 columns of 22 pt text lines whose figures change every frame: LayerKit shapes
    /// and rasterizes each line again; cairo draws the same strings with the same font each frame.
    public static func text(width: Int, height: Int) -> Scene { text(width: width, height: height, mode: .fullFrame) }

    /// The text board drawn as a live board is, into the same bitmap through damage: LayerKit
    /// repaints where the lines' glyphs were and are; cairo redraws the board.
    public static func textThroughDamage(width: Int, height: Int) -> Scene { text(width: width, height: height, mode: .damage) }

    private static func text(width: Int, height: Int, mode: Scene.Mode) -> Scene {
        let root = backdrop(width: width, height: height)
        let fontSize: CGFloat = 22, lineHeight: CGFloat = 30, columns = 3
        let rows = max(1, Int((CGFloat(height) - 40) / lineHeight))
        let columnWidth = (CGFloat(width) - 40) / CGFloat(columns)
        var labels: [TextLayer] = []
        for column in 0..<columns {
            for row in 0..<rows {
                let label = TextLayer()
                label.frame = CGRect(x: 20 + CGFloat(column) * columnWidth, y: 20 + CGFloat(row) * lineHeight,
                                     width: columnWidth - 10, height: lineHeight)
                label.fontSize = fontSize
                label.font = textFamily
                label.foregroundColor = Color(red: 0.9, green: 0.92, blue: 0.85)
                root.addSublayer(label)
                labels.append(label)
            }
        }
        let strings = { (frame: Int) in
            labels.indices.map { i in Self.tickerLine(i, frame: frame) }
        }
        let frames = (0..<4).map(strings)
        let origins = labels.map { $0.frame.origin }
        let ascent = textAscent(fontSize: fontSize)
        return Scene(
            name: mode == .damage ? "text board (damage)" : "text board", width: width, height: height, root: root,
            mode: mode, times: [0, 0, 0, 0],
            prepare: { frame in
                for (label, string) in zip(labels, frames[frame % frames.count]) { label.string = string }
            },
            cairo: .draw { cr, frame in
                fillBackdrop(cr, width: width, height: height)
                cairo_select_font_face(cr, textFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
                cairo_set_font_size(cr, fontSize)
                cairo_set_source_rgba(cr, 0.9, 0.92, 0.85, 1)
                for (origin, string) in zip(origins, frames[frame % frames.count]) {
                    cairo_move_to(cr, origin.x, origin.y + ascent)
                    cairo_show_text(cr, string)
                }
            })
    }

    /// 400 filled and outlined shape layers (stars and curved blobs) whose paths change every
    /// frame: LayerKit rasterizes each again; cairo fills and strokes the same paths each frame.
    public static func paths(width: Int, height: Int) -> Scene {
        let root = backdrop(width: width, height: height)
        var random = SplitMix(seed: 4242)
        struct Shape { let layer: ShapeLayer; let fill: Color; let points: Int; let radius: CGFloat; let origin: CGPoint }
        var shapes: [Shape] = []
        let scale = CGFloat(height) / 1080
        for i in 0..<400 {
            let layer = ShapeLayer()
            let radius = random.uniform(20...60) * scale
            layer.frame = CGRect(x: random.uniform(0...CGFloat(width) - 2 * radius),
                                 y: random.uniform(0...CGFloat(height) - 2 * radius), width: 2 * radius, height: 2 * radius)
            let fill = Color(red: Double(random.unit()), green: Double(random.unit()), blue: Double(random.unit()), alpha: 0.85)
            layer.fillColor = fill
            layer.strokeColor = .white
            layer.lineWidth = 2
            layer.lineJoin = .round
            root.addSublayer(layer)
            shapes.append(Shape(layer: layer, fill: fill, points: 5 + i % 5, radius: radius, origin: layer.frame.origin))
        }
        let path = { (shape: Shape, frame: Int) -> Path in
            star(points: shape.points, radius: shape.radius, inner: 0.4 + 0.1 * CGFloat(frame % 4), turn: CGFloat(frame % 4) * 0.1)
        }
        return Scene(
            name: "path shapes", width: width, height: height, root: root, times: [0, 0, 0, 0],
            prepare: { frame in
                Transaction.perform(disableActions: true) {
                    for shape in shapes { shape.layer.path = path(shape, frame) }
                }
            },
            cairo: .draw { cr, frame in
                fillBackdrop(cr, width: width, height: height)
                cairo_set_line_width(cr, 2)
                cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
                for shape in shapes {
                    cairo_save(cr)
                    cairo_translate(cr, shape.origin.x, shape.origin.y)
                    cairo_new_path(cr)
                    appendCairoPath(cr, path(shape, frame))
                    cairo_set_source_rgba(cr, shape.fill.red, shape.fill.green, shape.fill.blue, shape.fill.alpha)
                    cairo_fill_preserve(cr)
                    cairo_set_source_rgba(cr, 1, 1, 1, 1)
                    cairo_stroke(cr)
                    cairo_restore(cr)
                }
            })
    }

    /// 400 shapes stroked only, with no fill, whose paths change every frame: open zig-zags,
    /// open waves of cubic curves and closed stars, 1 to 10 points wide, every cap with every
    /// join (miter limit 10). LayerKit strokes each again every frame; cairo strokes the same
    /// paths with the same widths, caps, joins and miter limit.
    public static func strokes(width: Int, height: Int) -> Scene {
        let root = backdrop(width: width, height: height)
        var random = SplitMix(seed: 1515)
        struct Shape {
            let layer: ShapeLayer, kind: Int, radius: CGFloat, origin: CGPoint
            let color: Color, width: CGFloat, cap: cairo_line_cap_t, join: cairo_line_join_t
        }
        var shapes: [Shape] = []
        let scale = CGFloat(height) / 1080
        let widths: [CGFloat] = [1, 2, 3.5, 6, 10]
        let caps: [LineCap] = [.butt, .round, .square], joins: [LineJoin] = [.miter, .round, .bevel]
        for i in 0..<400 {
            let layer = ShapeLayer()
            let radius = random.uniform(20...60) * scale
            layer.frame = CGRect(x: random.uniform(0...CGFloat(width) - 2 * radius),
                                 y: random.uniform(0...CGFloat(height) - 2 * radius), width: 2 * radius, height: 2 * radius)
            layer.fillColor = nil
            layer.strokeColor = Color(red: 0.4 + 0.6 * Double(random.unit()), green: 0.4 + 0.6 * Double(random.unit()),
                                      blue: 0.4 + 0.6 * Double(random.unit()), alpha: 0.9)
            layer.lineWidth = widths[i % widths.count] * scale
            layer.lineCap = caps[(i / widths.count) % caps.count]
            layer.lineJoin = joins[(i / (widths.count * caps.count)) % joins.count]
            root.addSublayer(layer)
            shapes.append(Shape(layer: layer, kind: i % 3, radius: radius, origin: layer.frame.origin,
                                color: layer.strokeColor!, width: layer.lineWidth,
                                cap: cairoCap(layer.lineCap), join: cairoJoin(layer.lineJoin)))
        }
        let path = { (shape: Shape, frame: Int) -> Path in
            let phase = CGFloat(frame % 4)
            let r = shape.radius, inset = r * 0.2
            switch shape.kind {
            case 0:  // a zig-zag whose teeth deepen and flatten
                let depth = r * (0.4 + 0.15 * phase)
                var path = Path()
                path.addLines(between: (0...6).map { k in
                    CGPoint(x: inset + CGFloat(k) * (2 * r - 2 * inset) / 6, y: r + (k % 2 == 0 ? -depth : depth) / 2)
                })
                return path
            case 1:  // a wave of three cubic curves
                var path = Path()
                let step = (2 * r - 2 * inset) / 3, swing = r * (0.5 + 0.2 * phase)
                path.move(to: CGPoint(x: inset, y: r))
                for k in 0..<3 {
                    let x0 = inset + CGFloat(k) * step, sign: CGFloat = k % 2 == 0 ? -1 : 1
                    path.addCurve(to: CGPoint(x: x0 + step, y: r), control1: CGPoint(x: x0 + step / 3, y: r + sign * swing),
                                  control2: CGPoint(x: x0 + 2 * step / 3, y: r + sign * swing))
                }
                return path
            default:
                return star(points: 5 + Int(phase), radius: r, inner: 0.45 + 0.05 * phase, turn: phase * 0.1)
            }
        }
        return Scene(
            name: "stroke-only shapes", width: width, height: height, root: root, times: [0, 0, 0, 0],
            prepare: { frame in
                Transaction.perform(disableActions: true) {
                    for shape in shapes { shape.layer.path = path(shape, frame) }
                }
            },
            cairo: .draw { cr, frame in
                fillBackdrop(cr, width: width, height: height)
                cairo_set_miter_limit(cr, 10)
                for shape in shapes {
                    cairo_save(cr)
                    cairo_translate(cr, shape.origin.x, shape.origin.y)
                    cairo_new_path(cr)
                    appendCairoPath(cr, path(shape, frame))
                    cairo_set_line_width(cr, shape.width)
                    cairo_set_line_cap(cr, shape.cap)
                    cairo_set_line_join(cr, shape.join)
                    setSource(cr, shape.color)
                    cairo_stroke(cr)
                    cairo_restore(cr)
                }
            })
    }

    static func cairoCap(_ cap: LineCap) -> cairo_line_cap_t {
        switch cap {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
    }

    static func cairoJoin(_ join: LineJoin) -> cairo_line_join_t {
        switch join {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
    }

    // MARK: Pieces

    static let textFamily = "DejaVu Sans"
    static let backdropColor = Color(red: 0.11, green: 0.12, blue: 0.16)

    static func backdrop(width: Int, height: Int) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.backgroundColor = backdropColor
        return root
    }

    static func fillBackdrop(_ cr: OpaquePointer, width: Int, height: Int) {
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_rgba(cr, backdropColor.red, backdropColor.green, backdropColor.blue, 1)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }

    static let perspectiveUnsupported = "perspective: cairo's matrices are affine, so it cannot turn a plane in depth"

    /// Four 64x64 sprites: soft-edged discs and rounded squares in different colors.
    static func spriteImages() -> [Image] { spriteBitmaps().map { try! Image($0) } }

    /// The sprites' pixels.
    static func spriteBitmaps() -> [Bitmap] {
        let colors = [Color(red: 0.95, green: 0.45, blue: 0.2), Color(red: 0.2, green: 0.6, blue: 0.95),
                      Color(red: 0.3, green: 0.85, blue: 0.45), Color(red: 0.9, green: 0.8, blue: 0.25)]
        return colors.enumerated().map { i, color in
            let bitmap = try! Bitmap(width: 64, height: 64)
            let shape = i % 2 == 0 ? Path(ellipseIn: CGRect(x: 2, y: 2, width: 60, height: 60))
                                   : Path(roundedRect: CGRect(x: 4, y: 4, width: 56, height: 56), cornerRadius: 12)
            bitmap.fill(shape, with: color)
            bitmap.fill(Path(ellipseIn: CGRect(x: 18, y: 14, width: 20, height: 14)), with: Color(red: 1, green: 1, blue: 1, alpha: 0.5))
            return bitmap
        }
    }

    /// Six 256x256 opaque cards with a gradient and a frame.
    static func cardImages() -> [Image] {
        (0..<6).map { i in
            let bitmap = try! Bitmap(width: 256, height: 256)
            let hue = Double(i) / 6
            for y in 0..<256 {
                let t = Double(y) / 255
                let color = Color(red: 0.3 + 0.6 * abs(sin(.pi * (hue + t / 3))), green: 0.3 + 0.5 * abs(sin(.pi * (hue + 0.33))),
                                  blue: 0.4 + 0.5 * t)
                bitmap.fill(PixelRect(x: 0, y: y, width: 256, height: 1), with: color, operator: .source)
            }
            var frame = Path(rect: CGRect(x: 0, y: 0, width: 256, height: 256))
            frame.addRect(CGRect(x: 12, y: 12, width: 232, height: 232))
            bitmap.fill(frame, with: .white, rule: .evenOdd)
            return try! Image(bitmap)
        }
    }

    static func backdropImage(width: Int, height: Int) -> Image {
        let bitmap = try! Bitmap(width: width, height: height)
        for y in 0..<height {
            let t = Double(y) / Double(max(1, height - 1))
            bitmap.fill(PixelRect(x: 0, y: y, width: width, height: 1),
                        with: Color(red: 0.1 + 0.2 * t, green: 0.15, blue: 0.3 - 0.15 * t), operator: .source)
        }
        return try! Image(bitmap)
    }

    static func star(points: Int, radius: CGFloat, inner: CGFloat, turn: CGFloat) -> Path {
        var path = Path()
        let center = CGPoint(x: radius, y: radius), outer = radius - 2
        path.addLines(between: (0..<(2 * points)).map { k in
            let a = turn - .pi / 2 + CGFloat(k) * .pi / CGFloat(points)
            let r = k % 2 == 0 ? outer : outer * inner
            return CGPoint(x: center.x + r * cos(a), y: center.y + r * sin(a))
        })
        path.closeSubpath()
        return path
    }

    static func tickerLine(_ i: Int, frame: Int) -> String {
        let symbols = ["ALPHA", "BRAVO", "DELTA", "ECHO", "KILO", "LIMA", "OSCAR", "SIERRA", "TANGO", "ZULU"]
        let value = Double((i * 7919 + frame * 104_729) % 100_000) / 100
        let change = Double((i * 31 + frame * 17) % 900) / 100 - 4.5
        return String(format: "%@-%02d  %8.2f  %+5.2f%%", symbols[i % symbols.count], i % 100, value, change)
    }

    /// Where a line's baseline sits below its layer's top, as LayerKit lays out a single line.
    static func textAscent(fontSize: CGFloat) -> CGFloat { fontSize * 0.93 }
}
