import Foundation
import LayerKit

/// The FlipClock example's scene: HH:MM:SS cards whose digits change with a 3D page flip.
///
/// Each card is the seed's A/B/C scheme: static top and bottom halves (X and Y) and a turning
/// page. Over the second before a change the page — the old value's upper half in front, the new
/// value's lower half behind — turns half a turn about the card's horizontal axis under
/// perspective (transform.rotation.x over 1.0 s, as the seed does), while the static top half
/// already shows the new value. The flip ends exactly when the new second begins. The page's
/// sides hide their back faces and darken as they turn.
public final class FlipClockScene {
    /// The scene's root layer: render this.
    public let root: Layer
    /// Seconds since midnight at elapsed time 0.
    public let startTime: TimeInterval
    /// Whether hours run 1…12 with AM/PM.
    public let twelveHour: Bool
    /// Whether a seconds card is shown.
    public let showsSeconds: Bool
    /// The cards, hours first.
    public let cards: [Card]
    /// "AM" or "PM" under the hours card, in 12-hour mode.
    public let meridiem: TextLayer?

    static let cardColor = try! Color(hex: "#2B2F3A")
    static let digitColor = try! Color(hex: "#F2F0EA")

    /// Seconds the whole flip takes (the seed's 1.0 s), ending at the change.
    public static let flipDuration: TimeInterval = 1

    /// A flip clock of `size` points showing `startTime` (seconds since midnight) at elapsed
    /// time 0, in 24-hour or 12-hour form, with or without a seconds card.
    public init(size: CGSize, startTime: TimeInterval, twelveHour: Bool = false, showsSeconds: Bool = true) {
        self.startTime = startTime
        self.twelveHour = twelveHour
        self.showsSeconds = showsSeconds
        let root = Layer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.backgroundColor = try! Color(hex: "#15171D")
        self.root = root
        let count = showsSeconds ? 3 : 2
        let gap = size.width * 0.04
        // In 12-hour mode a band under the cards holds AM or PM.
        let band = twelveHour ? size.height * 0.16 : 0
        let width = min((size.width - gap * CGFloat(count + 1)) / CGFloat(count), (size.height - band) * 0.9 / 1.25)
        let height = width * 1.25
        let total = width * CGFloat(count) + gap * CGFloat(count - 1)
        let cardsCenter = (size.height - band) / 2 + (twelveHour ? band * 0.25 : 0)
        cards = (0..<count).map { i in
            let card = Card(size: CGSize(width: width, height: height))
            card.layer.position = CGPoint(x: (size.width - total) / 2 + width / 2 + CGFloat(i) * (width + gap), y: cardsCenter)
            root.addSublayer(card.layer)
            return card
        }
        if twelveHour {
            let label = TextLayer()
            label.fontSize = min(band * 0.7, width * 0.3)
            label.foregroundColor = Self.digitColor.withAlphaComponent(0.8)
            label.alignmentMode = .center
            label.bounds = CGRect(x: 0, y: 0, width: width, height: label.fontSize * 1.3)
            label.position = CGPoint(x: (size.width - total) / 2 + width / 2,
                                     y: min(size.height - label.bounds.height / 2, cardsCenter + height / 2 + gap * 0.3 + label.bounds.height / 2))
            root.addSublayer(label)
            meridiem = label
        } else {
            meridiem = nil
        }
        update(elapsed: 0)
    }

    /// The card values (hours, minutes, seconds) at `seconds` since midnight.
    public func values(at seconds: TimeInterval) -> [Int] {
        let s = Int(seconds.rounded(.down)) % 86400
        var hours = s / 3600
        if twelveHour { hours = hours % 12 == 0 ? 12 : hours % 12 }
        let all = [hours, s / 60 % 60, s % 60]
        return Array(all.prefix(cards.count))
    }

    /// "AM" before noon and "PM" from noon, at `seconds` since midnight.
    public static func meridiem(at seconds: TimeInterval) -> String {
        Int(seconds.rounded(.down)) % 86400 < 43200 ? "AM" : "PM"
    }

    /// Sets each card for elapsed time `t`: a flip runs on every card whose value changes at the
    /// next whole second, scheduled on the tree's timeline so any frame in it is exact; in
    /// 12-hour mode, AM or PM.

    public func update(elapsed t: TimeInterval) {
        let now = startTime + t
        let current = values(at: now)
        if let meridiem {
            let text = Self.meridiem(at: now)
            if meridiem.string != text { Transaction.perform(disableActions: true) { meridiem.string = text } }
        }
        let boundary = now.rounded(.down) + 1
        let next = values(at: boundary)
        Transaction.perform(disableActions: true) {
            for (i, card) in cards.enumerated() {
                if current[i] != next[i] {
                    card.flip(from: current[i], to: next[i], endingAt: boundary - startTime)
                } else {
                    card.show(current[i])
                }
            }
        }
    }

    /// One two-digit card.
    public final class Card {
        /// The card's layer in the scene.
        public let layer = Layer()
        let topHalf: Half, bottomHalf: Half
        /// The moving halves (exposed for tests and for apps that restyle them).
        public let topLeaf: Half, bottomLeaf: Half
        private var scheduledFlip: TimeInterval?

        init(size: CGSize) {
            layer.bounds = CGRect(origin: .zero, size: size)
            // Perspective for the leaves, seen from a few card heights away.
            layer.sublayerTransform.m34 = -1 / (size.height * 3)
            topHalf = Half(card: size, top: true)
            bottomHalf = Half(card: size, top: false)
            topLeaf = Half(card: size, top: true)
            bottomLeaf = Half(card: size, top: false)
            for half in [topHalf, bottomHalf, topLeaf, bottomLeaf] { layer.addSublayer(half.layer) }
            for leaf in [topLeaf, bottomLeaf] {
                leaf.layer.isDoubleSided = false
                leaf.layer.isHidden = true
            }
            // The hinge line between the halves.
            let hinge = Layer()
            hinge.frame = CGRect(x: 0, y: size.height / 2 - max(1, size.height / 150), width: size.width, height: max(2, size.height / 75))
            hinge.backgroundColor = try! Color(hex: "#15171D")
            layer.addSublayer(hinge)
        }

        /// No flip: both halves show `value`.
        func show(_ value: Int) {
            scheduledFlip = nil
            topHalf.show(value)
            bottomHalf.show(value)
            topLeaf.layer.isHidden = true
            bottomLeaf.layer.isHidden = true
        }

        /// Schedules the flip from `old` to `new` over the flip duration before `end` (elapsed time).
        func flip(from old: Int, to new: Int, endingAt end: TimeInterval) {
            guard scheduledFlip != end else { return }
            scheduledFlip = end
            topHalf.show(new)
            bottomHalf.show(old)
            topLeaf.show(old)
            bottomLeaf.show(new)
            topLeaf.layer.isHidden = false
            bottomLeaf.layer.isHidden = false
            let start = end - FlipClockScene.flipDuration
            // One page turning half a turn about the hinge: its front is the old value's top half
            // (shown while it faces the viewer), its back the new value's bottom half (a second
            // layer turned a further half turn). Each hides its back face, so the page shows one
            // side at a time, and it accelerates as it falls.
            topLeaf.animate(from: 0, to: -.pi, shade: (0, 0.6), begin: start, duration: FlipClockScene.flipDuration)
            bottomLeaf.animate(from: .pi, to: 0, shade: (0.6, 0), begin: start, duration: FlipClockScene.flipDuration)
            // The bottom static half keeps the old value until the flip ends; the first update
            // after it shows the new one there, under the now-flat bottom leaf.
        }
    }

    /// Half a card: a clipping layer showing the upper or lower half of a full-card label.
    public final class Half {
        /// The half's clipping layer.
        public let layer = Layer()
        let label = TextLayer()
        let shade = Layer()

        init(card size: CGSize, top: Bool) {
            layer.bounds = CGRect(x: 0, y: 0, width: size.width, height: size.height / 2)
            layer.anchorPoint = CGPoint(x: 0.5, y: top ? 1 : 0)
            layer.position = CGPoint(x: size.width / 2, y: size.height / 2)
            layer.backgroundColor = FlipClockScene.cardColor
            layer.cornerRadius = size.width * 0.06
            layer.maskedCorners = top ? [.layerMinXMinYCorner, .layerMaxXMinYCorner] : [.layerMinXMaxYCorner, .layerMaxXMaxYCorner]
            layer.masksToBounds = true
            let fontSize = size.height * 0.55
            label.fontSize = fontSize
            label.foregroundColor = FlipClockScene.digitColor
            label.alignmentMode = .center
            let metrics = (try? Font.named(Font.defaultFamily))?.metrics(of: "88", fontSize: fontSize)
            let lineHeight = metrics?.lineHeight ?? fontSize * 1.2
            // Digits centred on the card: the label spans the full card, shifted into this half.
            let ascent = metrics?.ascent ?? fontSize * 0.9
            let digitTop = fontSize * 0.73   // cap height of the digits, about 0.73 em
            let y = size.height / 2 - (ascent - digitTop / 2) - (top ? 0 : size.height / 2)
            label.frame = CGRect(x: 0, y: y, width: size.width, height: lineHeight)
            layer.addSublayer(label)
            shade.frame = layer.bounds
            shade.backgroundColor = .black
            shade.opacity = 0
            layer.addSublayer(shade)
        }

        /// Shows `value` as two digits. Called every frame for the cards at rest: the label is
        /// only set when its text changes (String(format:) and a setter each frame were a
        /// measurable part of a live FlipClock's CPU time).
        func show(_ value: Int) {
            let text = value < 10 ? "0\(value)" : "\(value)"
            if label.string != text { label.string = text }
        }

        func animate(from: Double, to: Double, shade darkness: (Double, Double), begin: TimeInterval, duration: TimeInterval) {
            layer.add(Self.held("transform.rotation.x", from, to, begin, duration), forKey: "flip")
            shade.add(Self.held("opacity", darkness.0, darkness.1, begin, duration), forKey: "shade")
        }

        /// An ease-in animation that holds its values before and after (the flip's timeline).
        private static func held(_ keyPath: String, _ from: Double, _ to: Double, _ begin: TimeInterval,
                                 _ duration: TimeInterval) -> BasicAnimation {
            let animation = BasicAnimation(keyPath: keyPath)
            animation.fromValue = from
            animation.toValue = to
            animation.beginTime = begin
            animation.duration = duration
            animation.fillMode = .both
            animation.isRemovedOnCompletion = false
            animation.timingFunction = .easeIn
            return animation
        }
    }
}
