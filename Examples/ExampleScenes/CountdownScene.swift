import Foundation
import LayerKit

/// The Countdown example's scene, after the countdown tutorial: the time left as large text
/// above a 60-minute face (ticks, minute numerals), a translucent red sector showing the time
/// remaining and a hand at its edge; at zero, a "Time is over" screen.
public final class CountdownScene {
    public let root: Layer
    /// Seconds left at elapsed time 0.
    public let total: TimeInterval
    public let label = TextLayer()
    public let face: CountdownFace
    public let sector = ShapeLayer()
    public let hand = Layer()
    public let over = TextLayer()

    public init(size: CGSize, seconds: TimeInterval) {
        total = max(0, seconds)
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = try! Color(hex: "#F4EFE6")
        self.root = root
        let labelHeight = size.height * 0.2
        label.frame = CGRect(x: 0, y: size.height * 0.03, width: size.width, height: labelHeight)
        label.fontSize = labelHeight * 0.75
        label.foregroundColor = try! Color(hex: "#2B2F3A")
        label.alignmentMode = .center
        root.addSublayer(label)

        let diameter = min(size.width, size.height - labelHeight) * 0.9
        face = CountdownFace()
        face.bounds = CGRect(x: 0, y: 0, width: diameter, height: diameter)
        face.position = CGPoint(x: size.width / 2, y: labelHeight + (size.height - labelHeight) / 2)
        face.setNeedsDisplay()
        root.addSublayer(face)

        sector.frame = face.bounds
        sector.fillColor = Color.red.withAlphaComponent(0.7)
        face.addSublayer(sector)

        let radius = diameter / 2
        hand.bounds = CGRect(x: 0, y: 0, width: max(2, radius * 0.05), height: radius * 0.75)
        hand.anchorPoint = CGPoint(x: 0.5, y: 1)
        hand.position = CGPoint(x: radius, y: radius)
        hand.backgroundColor = try! Color(hex: "#2B2F3A")
        hand.cornerRadius = hand.bounds.width / 2
        hand.shadowOpacity = 0.3
        hand.shadowOffset = CGSize(width: 1, height: 2)
        face.addSublayer(hand)

        over.string = "Time is over"
        over.fontSize = min(size.width / 8, size.height / 5)
        over.foregroundColor = .red
        over.alignmentMode = .center
        over.frame = CGRect(x: 0, y: size.height / 2 - over.fontSize * 0.7, width: size.width, height: over.fontSize * 1.4)
        over.isHidden = true
        root.addSublayer(over)
        update(elapsed: 0)
    }

    /// Seconds left at elapsed time `t` (never negative).
    public func remaining(at t: TimeInterval) -> TimeInterval { max(0, total - t) }

    /// Whether the countdown has reached zero at `t`.
    public func isOver(at t: TimeInterval) -> Bool { remaining(at: t) <= 0 }

    /// The label text for `seconds` left: M:SS, or H:MM:SS from an hour up (whole seconds, rounded up).
    public static func text(for seconds: TimeInterval) -> String {
        let s = Int(seconds.rounded(.up))
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%d:%02d", s / 60, s % 60)
    }

    /// Sets the label, sector and hand for elapsed time `t`.
    public func update(elapsed t: TimeInterval) {
        let left = remaining(at: t)
        Transaction.perform(disableActions: true) {
            label.string = Self.text(for: left)
            let done = left <= 0
            over.isHidden = !done
            face.isHidden = done
            label.isHidden = done
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

    /// Parses "90", "1m30s", "2h", "1h2m3s" into seconds.
    public static func parseDuration(_ text: String) -> TimeInterval? {
        if let plain = Double(text), plain.isFinite, plain >= 0 { return plain }
        var total: TimeInterval = 0, number = "", sawUnit = false
        for character in text.lowercased() {
            if character.isNumber || character == "." { number.append(character); continue }
            guard let value = Double(number), let unit = ["h": 3600.0, "m": 60, "s": 1][character] else { return nil }
            total += value * unit
            number = ""
            sawUnit = true
        }
        return number.isEmpty && sawUnit && total.isFinite ? total : nil
    }
}

/// The countdown's face, drawn the way the tutorial draws it in a canvas: a brown rim, a light
/// dial, 60 minute ticks, longer ticks every five minutes with their minute numerals.
public final class CountdownFace: Layer {
    public override func draw(in context: GraphicsContext) {
        let size = bounds.width
        let center = CGPoint(x: size / 2, y: size / 2)
        let radius = size / 2 * 0.92
        context.setStrokeColor(.black)
        context.setFillColor(.brown)
        context.setLineWidth(size / 80)
        context.addEllipse(in: CGRect(x: center.x - size / 2 + 2, y: center.y - size / 2 + 2, width: size - 4, height: size - 4))
        context.drawPath(using: .fillStroke)
        context.setFillColor(try! Color(hex: "#FFFDF7"))
        context.setLineWidth(size / 200)
        context.addEllipse(in: CGRect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius))
        context.drawPath(using: .fillStroke)

        context.saveGState()
        context.translateBy(x: center.x, y: center.y)
        drawTicks(in: context, count: 60, radius: radius, inner: 0.95, width: size / 300, color: .gray)
        drawTicks(in: context, count: 12, radius: radius, inner: 0.9, width: size / 120, color: .black)
        for mark in 0..<12 {
            let angle = Double(mark) / 12 * 2 * .pi
            // The tutorial's numbering: 3 o'clock is 15 minutes, 12 o'clock is 60.
            var minutes = (mark + 3) % 12
            minutes = (minutes == 0 ? 12 : minutes) * 5
            let text = "\(minutes)"
            let fontSize = size * 0.07
            let metrics = (try? Font.named(Font.defaultFamily))?.metrics(of: text, fontSize: fontSize)
            let width = metrics?.size.width ?? fontSize
            context.setFillColor(try! Color(hex: "#2B2F3A"))
            context.draw(text, at: CGPoint(x: cos(angle) * radius * 0.78 - width / 2, y: sin(angle) * radius * 0.78 + fontSize * 0.36),
                         size: fontSize)
        }
        context.restoreGState()
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
