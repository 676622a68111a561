import Foundation
import LayerKit

/// The analog clock of the Clock example, built the Core Animation way: a face (drawn ticks
/// and numerals, or a picture), hour, minute and second hands turning about anchorPoint
/// (0.5, 1) at the centre, with shadows, and a centre cap.
public final class ClockScene {
    /// How the hands are made and moved.
    public enum Style: String, Sendable, CaseIterable {
        /// Hands are plain layers whose transforms are set every second; the implicit animation
        /// gives each tick a short sweep.
        case layers
        /// Hands are shape layers with round caps, turned by endless linear rotations of 60 s,
        /// 3600 s and 43200 s.
        case shapes
    }

    /// The clock's root layer: render this.
    public let root: Layer
    /// The hands, each turning about the face's centre.
    public let hourHand: Layer, minuteHand: Layer, secondHand: Layer
    /// How the hands are made and moved.
    public let style: Style
    /// Seconds since midnight at elapsed time 0.
    public let startTime: TimeInterval
    private var shownSecond: Int?
    /// The date line under the centre ("Mon 23 Nov"), when the clock has a day.
    public let dateLabel: TextLayer?
    private let day: Date?
    private let dateFormatter: DateFormatter?
    private var shownMinute: Int?

    /// The color of the hands, ticks and numerals.
    public static let ink = try! Color(hex: "#262A33")
    /// The color of the second hand.
    public static let accent = try! Color(hex: "#D9432F")
    /// The color of the face.
    public static let paper = try! Color(hex: "#F7F4EC")

    /// A clock of `size` points showing `startTime` (seconds since midnight) at elapsed time 0.
    ///
    /// - Parameters:
    ///   - size: the clock's size in points; the face is the largest circle that fits.
    ///   - style: hands as layers or as shape layers.
    ///   - startTime: the time of day shown at elapsed time 0, in seconds since midnight.
    ///   - picture: an image for the face instead of the drawn one.
    ///   - day: the midnight `startTime` counts from; when given, a date line under the centre
    ///     shows the date (in `timeZone`, in English), turning over at midnight.
    ///   - timeZone: the zone the date line is given in.
    public init(size: CGSize, style: Style, startTime: TimeInterval, face picture: Image? = nil,
                day: Date? = nil, timeZone: TimeZone = .current) {
        self.style = style
        self.startTime = startTime
        self.day = day
        if day != nil {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = "EEE d MMM"
            dateFormatter = formatter
        } else {
            dateFormatter = nil
        }
        let root = Layer()
        self.root = root
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = try! Color(hex: "#1E2230")
        let diameter = min(size.width, size.height) * 0.92
        let center = CGPoint(x: size.width / 2, y: size.height / 2)
        let radius = diameter / 2

        let face = Layer()
        face.bounds = CGRect(x: 0, y: 0, width: diameter, height: diameter)
        face.position = center
        face.cornerRadius = radius
        face.masksToBounds = picture != nil
        if let picture {
            face.contents = picture
            face.contentsGravity = .resizeAspectFill
        } else {
            face.backgroundColor = Self.paper
            face.borderWidth = max(2, diameter / 80)
            face.borderColor = Self.ink
            Self.addTicksAndNumerals(to: face, radius: radius)
        }
        root.addSublayer(face)
        if day != nil {
            let label = TextLayer()
            label.fontSize = radius * 0.11
            label.foregroundColor = Self.ink
            label.alignmentMode = .center
            label.bounds = CGRect(x: 0, y: 0, width: radius * 0.9, height: radius * 0.16)
            label.position = CGPoint(x: center.x, y: center.y + radius * 0.36)
            label.backgroundColor = picture == nil ? try! Color(hex: "#ECE6D8") : Self.paper.withAlphaComponent(0.85)
            label.cornerRadius = radius * 0.03
            root.addSublayer(label)
            dateLabel = label
        } else {
            dateLabel = nil
        }

        func hand(length: CGFloat, width: CGFloat, color: Color) -> Layer {
            let layer: Layer
            switch style {
            case .layers:
                layer = Layer()
                layer.bounds = CGRect(x: 0, y: 0, width: width, height: length)
                layer.backgroundColor = color
                layer.cornerRadius = width / 2
            case .shapes:
                let shape = ShapeLayer()
                shape.bounds = CGRect(x: 0, y: 0, width: width, height: length)
                var path = Path()
                path.move(to: CGPoint(x: width / 2, y: length))
                path.addLine(to: CGPoint(x: width / 2, y: width / 2))
                shape.path = path
                shape.strokeColor = color
                shape.lineWidth = width
                shape.lineCap = .round
                layer = shape
            }
            layer.anchorPoint = CGPoint(x: 0.5, y: 1)
            layer.position = center
            layer.shadowOpacity = 0.35
            layer.shadowOffset = CGSize(width: radius / 80, height: radius / 50)
            layer.shadowRadius = radius / 60
            root.addSublayer(layer)
            return layer
        }
        hourHand = hand(length: radius * 0.52, width: max(3, radius * 0.06), color: Self.ink)
        minuteHand = hand(length: radius * 0.78, width: max(2, radius * 0.04), color: Self.ink)
        secondHand = hand(length: radius * 0.86, width: max(1, radius * 0.015), color: Self.accent)

        let cap = Layer()
        cap.bounds = CGRect(x: 0, y: 0, width: radius * 0.08, height: radius * 0.08)
        cap.cornerRadius = radius * 0.04
        cap.position = center
        cap.backgroundColor = Self.accent
        root.addSublayer(cap)

        if style == .shapes { startRotations() }
        update(elapsed: 0)
    }

    /// The angles (radians, clockwise from 12) of the hands at `seconds` since midnight: the
    /// hour hand moves with the minutes, the minute hand with the seconds.
    public static func angles(at seconds: TimeInterval) -> (hour: CGFloat, minute: CGFloat, second: CGFloat) {
        let s = seconds.truncatingRemainder(dividingBy: 86400)
        return (CGFloat((s / 3600).truncatingRemainder(dividingBy: 12) / 12 * 2 * .pi),
                CGFloat((s / 60).truncatingRemainder(dividingBy: 60) / 60 * 2 * .pi),
                CGFloat(s.truncatingRemainder(dividingBy: 60) / 60 * 2 * .pi))
    }

    /// The rotation about z (clockwise from 12, in 0..<2π) a hand's transform shows.
    public static func angleOf(_ t: Transform3D) -> CGFloat {
        let a = atan2(t.m12, t.m11)
        return a < -1e-12 ? a + 2 * .pi : max(a, 0)
    }

    /// Called before each frame with the elapsed time: in the layers style, sets the hands once
    /// per second (the first time at once, later with the implicit sweep).
    public func update(elapsed: TimeInterval) {
        if let day, let dateFormatter, let dateLabel {
            let minute = Int(((startTime + elapsed) / 60).rounded(.down))
            if minute != shownMinute {
                shownMinute = minute
                let text = dateFormatter.string(from: day.addingTimeInterval(startTime + elapsed))
                Transaction.perform(disableActions: true) { dateLabel.string = text }
            }
        }
        guard style == .layers else { return }
        let second = Int((startTime + elapsed).rounded(.down))
        guard second != shownSecond else { return }
        shownSecond = second
        let a = Self.angles(at: TimeInterval(second))
        for (hand, angle) in [(hourHand, a.hour), (minuteHand, a.minute), (secondHand, a.second)] {
            hand.transform = Transform3D(rotationAngle: angle, x: 0, y: 0, z: 1)
        }
    }

    private func startRotations() {
        for (hand, period) in [(hourHand, 43200.0), (minuteHand, 3600.0), (secondHand, 60.0)] {
            let spin = BasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0.0
            spin.toValue = 2 * Double.pi
            spin.duration = period
            spin.repeatCount = .infinity
            spin.timingFunction = .linear
            // Started as far in the past as the start time is into the period.
            spin.beginTime = -startTime.truncatingRemainder(dividingBy: period) - 1e-9
            hand.add(spin, forKey: "spin")
        }
    }

    private static func addTicksAndNumerals(to face: Layer, radius: CGFloat) {
        let center = CGPoint(x: radius, y: radius)
        for tick in 0..<60 {
            let major = tick % 5 == 0
            let mark = Layer()
            mark.bounds = CGRect(x: 0, y: 0, width: major ? radius * 0.035 : radius * 0.012, height: major ? radius * 0.12 : radius * 0.06)
            mark.anchorPoint = CGPoint(x: 0.5, y: 0)
            mark.position = center
            mark.backgroundColor = major ? ink : try! Color(hex: "#8A8F99")
            mark.transform = Transform3D(translationX: 0, y: -radius * 0.9)
                .concatenating(Transform3D(rotationAngle: CGFloat(tick) * .pi / 30, x: 0, y: 0, z: 1))
            face.addSublayer(mark)
        }
        for hour in 1...12 {
            let label = TextLayer()
            label.string = "\(hour)"
            label.fontSize = radius * 0.17
            label.foregroundColor = ink
            label.alignmentMode = .center
            label.bounds = CGRect(x: 0, y: 0, width: radius * 0.4, height: radius * 0.24)
            let angle = CGFloat(hour) * .pi / 6
            label.position = CGPoint(x: center.x + sin(angle) * radius * 0.66, y: center.y - cos(angle) * radius * 0.66 + radius * 0.02)
            face.addSublayer(label)
        }
    }
}
