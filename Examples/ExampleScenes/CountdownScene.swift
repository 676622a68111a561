import Foundation
import LayerKit

/// The Countdown example's scene, after the countdown tutorial: the time left as large text
/// above a 60-minute face, on which a translucent red sector shows the time remaining under the
/// ticks and minute numerals (the tutorial paints it first), with a hand at its edge; at zero,
/// the result page: "Time is over".
///
/// The face is four layers, bottom to top: `dial` (rim and paper), `sector`, `marks` (ticks and
/// numerals) and `hand`.
public final class CountdownScene {
    /// The scene's root layer: render this.
    public let root: Layer
    /// Seconds left at elapsed time 0.
    public let total: TimeInterval
    /// The time left, fitted to the width for the longest text the countdown shows.
    public let label = TextLayer()
    /// The face: a container of the dial, sector, marks and hand.
    public let face = Layer()
    /// The rim and the paper, drawn once.
    public let dial = CountdownDial()
    /// The red sector of the minutes left.
    public let sector = ShapeLayer()
    /// The ticks and numerals, drawn once above the sector.
    public let marks = CountdownMarks()
    /// The minute hand, turned to the time left.
    public let hand = Layer()
    /// "Time is over", shown at zero.
    public let over = TextLayer()
    /// A line under the face or under "Time is over": "paused", or which keys do what.
    public let status = TextLayer()
    /// Whether `status` tells the keys (live runs); files show none.
    public let showsKeys: Bool

    static let ink = try! Color(hex: "#2B2F3A")

    /// A countdown of `seconds` laid out at `size` points; `showsKeys` adds the key hints of a
    /// live run (space, r, any key) to the pause and end screens.
    public init(size: CGSize, seconds: TimeInterval, showsKeys: Bool = false) {
        total = seconds.isFinite ? max(0, seconds) : 0
        self.showsKeys = showsKeys
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = try! Color(hex: "#F4EFE6")
        self.root = root
        let labelHeight = size.height * 0.2
        label.frame = CGRect(x: 0, y: size.height * 0.03, width: size.width, height: labelHeight)
        label.fontSize = Self.fittedFontSize(for: Self.widestText(from: total), width: size.width * 0.92,
                                             height: labelHeight * 0.75)
        label.foregroundColor = Self.ink
        label.alignmentMode = .center
        root.addSublayer(label)

        let statusHeight = size.height * 0.07
        let diameter = max(1, min(size.width, size.height - labelHeight - statusHeight) * 0.9)
        face.bounds = CGRect(x: 0, y: 0, width: diameter, height: diameter)
        face.position = CGPoint(x: size.width / 2, y: labelHeight + (size.height - labelHeight - statusHeight) / 2)
        root.addSublayer(face)
        for layer in [dial, marks] as [Layer] {
            layer.frame = face.bounds
            layer.setNeedsDisplay()
        }
        sector.frame = face.bounds
        sector.fillColor = Color.red.withAlphaComponent(0.7)
        face.addSublayer(dial)
        face.addSublayer(sector)
        face.addSublayer(marks)

        let radius = diameter / 2
        hand.bounds = CGRect(x: 0, y: 0, width: max(2, radius * 0.05), height: radius * 0.75)
        hand.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.position = CGPoint(x: radius, y: radius)
        hand.backgroundColor = Self.ink
        hand.cornerRadius = hand.bounds.width / 2
        hand.shadowOpacity = 0.3
        hand.shadowOffset = CGSize(width: 1, height: 2)
        face.addSublayer(hand)

        over.string = "Time is over"
        over.fontSize = Self.fittedFontSize(for: "Time is over", width: size.width * 0.8, height: size.height / 7)
        over.foregroundColor = .red
        over.alignmentMode = .center
        over.frame = CGRect(x: 0, y: size.height / 2 - over.fontSize * 0.7, width: size.width, height: over.fontSize * 1.4)
        over.isHidden = true
        root.addSublayer(over)

        status.fontSize = Self.fittedFontSize(for: "r: again · any other key: quit", width: size.width * 0.9, height: statusHeight * 0.6)
        status.foregroundColor = try! Color(hex: "#6B6F7A")
        status.alignmentMode = .center
        status.frame = CGRect(x: 0, y: size.height - statusHeight, width: size.width, height: statusHeight)
        root.addSublayer(status)
        update(elapsed: 0)
    }

    /// Seconds left at elapsed time `t` (never negative), without pauses.
    public func remaining(at t: TimeInterval) -> TimeInterval { max(0, total - t) }

    /// Whether the countdown has reached zero at `t`, without pauses.
    public func isOver(at t: TimeInterval) -> Bool { remaining(at: t) <= 0 }

    /// The label text for `seconds` left: M:SS, or H:MM:SS from an hour up (whole seconds, rounded up).
    public static func text(for seconds: TimeInterval) -> String {
        let s = seconds.isFinite ? Int(min(seconds, 1e12).rounded(.up)) : 0
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// The widest label a countdown from `seconds` shows: its first, with every digit an 8
    /// (the count only shortens the text as it goes).
    static func widestText(from seconds: TimeInterval) -> String {
        String(text(for: seconds).map { $0.isNumber ? "8" : $0 })
    }

    /// The largest font size up to `height` at which `text` is at most `width` wide.
    public static func fittedFontSize(for text: String, width: CGFloat, height: CGFloat) -> CGFloat {
        guard let font = try? Font.named(Font.defaultFamily), height > 0 else { return max(1, height) }
        let measured = font.metrics(of: text, fontSize: height).size.width
        return measured > width && measured > 0 ? max(1, height * width / measured) : height
    }

    /// Sets the scene for elapsed time `t` of an uninterrupted countdown.
    public func update(elapsed t: TimeInterval) {
        show(remaining: remaining(at: t), paused: false)
    }

    /// Sets the label, sector and hand for `left` seconds (the end screen at zero), and the
    /// paused line.
    public func show(remaining left: TimeInterval, paused: Bool) {
        Transaction.perform(disableActions: true) {
            label.string = Self.text(for: left)
            let done = left <= 0
            over.isHidden = !done
            face.isHidden = done
            label.isHidden = done
            status.string = done ? (showsKeys ? "r: again · any other key: quit" : "")
                : paused ? (showsKeys ? "paused · space: go on" : "paused")
                : (showsKeys ? "space: pause · r: restart" : "")
            // A 60-minute face: the sector covers the minutes left, from 12 o'clock clockwise.
            let angle = CGFloat(min(left, 3600) / 3600 * 2 * .pi)
            let r = face.bounds.width / 2
            var path = Path()
            if angle > 0 {
                path.move(to: CGPoint(x: r, y: r))
                path.addArc(center: CGPoint(x: r, y: r), radius: r * 0.85, startAngle: -.pi / 2, endAngle: -.pi / 2 + angle, clockwise: false)
                path.closeSubpath()
            }
            sector.path = path
            hand.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
        }
    }

    /// The longest countdown: ten years.
    public static let maximumDuration: TimeInterval = 10 * 366 * 86400

    /// Parses a duration: seconds ("90", "2.5"), units ("1m30s", "2h", "1h2m3s"), or a clock
    /// reading ("1:30" is M:SS, "00:01:30" and "1:00:00" are H:MM:SS). Nil when it is none of
    /// these, negative, or longer than `maximumDuration`.
    public static func parseDuration(_ text: String) -> TimeInterval? {
        let seconds: TimeInterval?
        if text.contains(":") {
            seconds = clockReading(text)
        } else if let plain = Double(text), text.first?.isNumber == true || text.first == "." {
            seconds = plain
        } else {
            seconds = withUnits(text)
        }
        guard let seconds, seconds.isFinite, seconds >= 0, seconds <= maximumDuration else { return nil }
        return seconds
    }

    /// "M:SS" or "H:MM:SS": the fields after the first below 60.
    private static func clockReading(_ text: String) -> TimeInterval? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count) else { return nil }
        var total: TimeInterval = 0
        for (i, field) in fields.enumerated() {
            guard !field.isEmpty, field.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Double(field),
                  i == 0 || value < 60 else { return nil }
            total = total * 60 + value
        }
        return total
    }

    /// "1h2m3s": numbers each followed by h, m or s.
    private static func withUnits(_ text: String) -> TimeInterval? {
        var total: TimeInterval = 0, number = "", sawUnit = false
        for character in text.lowercased() {
            if character.isASCII && (character.isNumber || character == ".") { number.append(character); continue }
            guard let value = Double(number), let unit = ["h": 3600.0, "m": 60, "s": 1][character] else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        return number.isEmpty && sawUnit ? total : nil
    }
}

/// The countdown's dial, drawn the way the tutorial draws it in a canvas: a brown rim and a
/// light paper disc.
public final class CountdownDial: Layer {
    /// The rim's stroke width, and the radius of the circle it is stroked on, for a face `size`
    /// points wide.
    static func rimWidth(_ size: CGFloat) -> CGFloat { size / 80 }
    static func rimRadius(_ size: CGFloat) -> CGFloat { size / 2 - rimWidth(size) / 2 - 1 }

    public override func draw(in context: GraphicsContext) {
        let size = bounds.width
        let center = CGPoint(x: size / 2, y: size / 2)
        let radius = CountdownMarks.radius(size)
        context.setStrokeColor(.black)
        context.setFillColor(.brown)
        // The rim's stroke kept a point inside the bounds, which clip what a layer draws: on a
        // circle 2 points in, the outer half of a stroke wider than 4 points was cut flat.
        let rim = CountdownDial.rimRadius(size)
        context.setLineWidth(CountdownDial.rimWidth(size))
        context.addEllipse(in: CGRect(x: center.x - rim, y: center.y - rim, width: 2 * rim, height: 2 * rim))
        context.drawPath(using: .fillStroke)
        context.setFillColor(try! Color(hex: "#FFFDF7"))
        context.setLineWidth(size / 200)
        context.addEllipse(in: CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
        context.drawPath(using: .fillStroke)
    }
}

/// The countdown's marks, over the red sector: 60 minute ticks, longer ticks every five minutes
/// and their minute numerals (3 o'clock is 15, 12 o'clock is 60, as in the tutorial).
public final class CountdownMarks: Layer {
    /// The dial's radius for a face `size` points wide.
    static func radius(_ size: CGFloat) -> CGFloat { size / 2 * 0.92 }

    /// Where the numeral for `minutes` (5, 10, … 60) is centred, in the layer's space.
    public func numeralCenter(minutes: Int) -> CGPoint {
        let size = bounds.width, radius = Self.radius(size)
        let angle = Double(minutes) / 60 * 2 * .pi - .pi / 2
        return CGPoint(x: size / 2 + cos(angle) * radius * 0.78, y: size / 2 + sin(angle) * radius * 0.78)
    }

    public override func draw(in context: GraphicsContext) {
        let size = bounds.width
        let radius = Self.radius(size)
        context.saveGState()
        context.translateBy(x: size / 2, y: size / 2)
        drawTicks(in: context, count: 60, radius: radius, inner: 0.95, width: size / 300, color: .gray)
        drawTicks(in: context, count: 12, radius: radius, inner: 0.9, width: size / 120, color: .black)
        context.restoreGState()
        let fontSize = size * 0.07
        let font = try? Font.named(Font.defaultFamily)
        context.setFillColor(CountdownScene.ink)
        for minutes in stride(from: 5, through: 60, by: 5) {
            let text = "\(minutes)"
            let width = font?.metrics(of: text, fontSize: fontSize).size.width ?? fontSize
            let center = numeralCenter(minutes: minutes)
            context.draw(text, at: CGPoint(x: center.x - width / 2, y: center.y + fontSize * 0.36), size: fontSize)
        }
    }

    /// `count` ticks from the rim inwards to `inner` of the radius, from 3 o'clock round.
    private func drawTicks(in context: GraphicsContext, count: Int, radius: CGFloat, inner: CGFloat, width: CGFloat, color: Color) {
        context.setStrokeColor(color)
        context.setLineWidth(width)
        for mark in 0..<count {
            let angle = Double(mark) / Double(count) * 2 * .pi
            context.move(to: CGPoint(x: cos(angle) * radius, y: sin(angle) * radius))
            context.addLine(to: CGPoint(x: cos(angle) * radius * inner, y: sin(angle) * radius * inner))
            context.strokePath()
        }
    }
}
