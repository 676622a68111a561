import CCairoOracle
import ExampleScenes
import Foundation
import LayerKit

/// The Clock example's picture drawn from scratch with cairo, as a cairo programmer would write
/// a clock that redraws itself each frame: background, face, 60 ticks, 12 numerals, border, three
/// round-capped hands each over its own blurred shadow, and a centre cap. Nothing is cached
/// between frames but the font face; each shadow is drawn, blurred and masked anew.
///
/// The geometry and colours are `ClockScene`'s (`.shapes` style): the same proportions of the
/// frame, the same hand widths and lengths, shadows offset in each hand's own (turning) space by
/// (r/80, r/50) and blurred with σ = r/60 at opacity 0.35.
final class CairoClock {
    private let center: CGPoint
    private let radius: CGFloat
    private let startTime: TimeInterval
    private let font: OpaquePointer  // cairo_font_face_t

    private struct Hand {
        let length: CGFloat, width: CGFloat, color: Color
    }

    private let hands: [Hand]
    private static let background = try! Color(hex: "#1E2230")
    private static let minorTick = try! Color(hex: "#8A8F99")

    init(width: Int, height: Int, startTime: TimeInterval) {
        let diameter = CGFloat(min(width, height)) * 0.92
        center = CGPoint(x: CGFloat(width) / 2, y: CGFloat(height) / 2)
        radius = diameter / 2
        self.startTime = startTime
        font = cairo_toy_font_face_create(Font.defaultFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        hands = [
            Hand(length: radius * 0.52, width: max(3, radius * 0.06), color: ClockScene.ink),
            Hand(length: radius * 0.78, width: max(2, radius * 0.04), color: ClockScene.ink),
            Hand(length: radius * 0.86, width: max(1, radius * 0.015), color: ClockScene.accent),
        ]
    }

    deinit { cairo_font_face_destroy(font) }

    /// Draws the clock `elapsed` seconds after its start time.
    func draw(_ cr: OpaquePointer, elapsed: TimeInterval) {
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setSource(cr, Self.background)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)

        cairo_arc(cr, center.x, center.y, radius, 0, 2 * .pi)
        setSource(cr, ClockScene.paper)
        cairo_fill(cr)
        drawTicks(cr)
        drawNumerals(cr)
        let border = max(2, radius * 2 / 80)
        cairo_arc(cr, center.x, center.y, radius - border / 2, 0, 2 * .pi)
        cairo_set_line_width(cr, border)
        setSource(cr, ClockScene.ink)
        cairo_stroke(cr)

        let angles = ClockScene.angles(at: startTime + elapsed)
        for (hand, angle) in zip(hands, [angles.hour, angles.minute, angles.second]) {
            drawHand(cr, hand, angle: angle)
        }
        cairo_arc(cr, center.x, center.y, radius * 0.04, 0, 2 * .pi)
        setSource(cr, ClockScene.accent)
        cairo_fill(cr)
    }

    /// Minor and major ticks, each kind one path filled once.
    private func drawTicks(_ cr: OpaquePointer) {
        for major in [false, true] {
            let w = major ? radius * 0.035 : radius * 0.012, h = major ? radius * 0.12 : radius * 0.06
            for tick in 0..<60 where (tick % 5 == 0) == major {
                cairo_save(cr)
                cairo_translate(cr, center.x, center.y)
                cairo_rotate(cr, Double(tick) * .pi / 30)
                cairo_rectangle(cr, -w / 2, -radius * 0.9, w, h)
                cairo_restore(cr)
            }
            setSource(cr, major ? ClockScene.ink : Self.minorTick)
            cairo_fill(cr)
        }
    }

    /// 1…12, each centred in a box of 0.4 r × 0.24 r around its place, baseline an ascent below
    /// the box's top (as a text layer sets a line).
    private func drawNumerals(_ cr: OpaquePointer) {
        cairo_set_font_face(cr, font)
        cairo_set_font_size(cr, radius * 0.17)
        setSource(cr, ClockScene.ink)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        for hour in 1...12 {
            let text = "\(hour)"
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, text, &extents)
            let angle = CGFloat(hour) * .pi / 6
            let x = center.x + sin(angle) * radius * 0.66, y = center.y - cos(angle) * radius * 0.66 + radius * 0.02
            cairo_move_to(cr, x - extents.x_advance / 2, y - radius * 0.12 + font.ascent)
            cairo_show_text(cr, text)
        }
        cairo_new_path(cr)  // show_text leaves a current point, which the next arc would join
    }

    /// A hand from the centre along `angle` (clockwise from 12), round-capped, over its shadow.
    private func drawHand(_ cr: OpaquePointer, _ hand: Hand, angle: CGFloat) {
        let reach = hand.length - hand.width / 2
        let direction = CGPoint(x: sin(angle), y: -cos(angle))
        // The shadow's offset is in the hand's own space, so it turns with the hand.
        let dx = radius / 80, dy = radius / 50
        let offset = CGPoint(x: dx * cos(angle) - dy * sin(angle), y: dx * sin(angle) + dy * cos(angle))
        let start = CGPoint(x: center.x + offset.x, y: center.y + offset.y)
        let end = CGPoint(x: start.x + direction.x * reach, y: start.y + direction.y * reach)
        let bounds = CGRect(x: min(start.x, end.x), y: min(start.y, end.y), width: abs(end.x - start.x), height: abs(end.y - start.y))
            .insetBy(dx: -hand.width / 2, dy: -hand.width / 2)
        CairoShadow.paint(on: cr, bounds: bounds, sigma: radius / 60, color: (0, 0, 0, 0.35)) { ink in
            stroke(ink, from: start, to: end, width: hand.width)
        }
        setSource(cr, hand.color)
        stroke(cr, from: center, to: CGPoint(x: center.x + direction.x * reach, y: center.y + direction.y * reach), width: hand.width)
    }

    private func stroke(_ cr: OpaquePointer, from a: CGPoint, to b: CGPoint, width: CGFloat) {
        cairo_set_line_width(cr, width)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_move_to(cr, a.x, a.y)
        cairo_line_to(cr, b.x, b.y)
        cairo_stroke(cr)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
    }
}

/// Sets an opaque or translucent colour as `cr`'s source.
func setSource(_ cr: OpaquePointer, _ color: Color) {
    cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
}
