import CCairoOracle
import ExampleScenes
import Foundation
import LayerKit

/// The Countdown example's picture drawn from scratch with cairo each frame: background, the
/// time left as large text, the face (rim, dial, 60 + 12 ticks, minute numerals), the red sector
/// of the minutes left, and the hand over its blurred shadow; "Time is over" at zero.
///
/// The geometry and colours are `CountdownScene`'s and `CountdownFace`'s.
final class CairoCountdown {
    private let width: CGFloat, height: CGFloat
    private let total: TimeInterval
    private let labelHeight: CGFloat
    private let diameter: CGFloat
    private let faceCenter: CGPoint
    private let font: OpaquePointer  // cairo_font_face_t

    private static let background = try! Color(hex: "#F4EFE6")
    private static let ink = try! Color(hex: "#2B2F3A")
    private static let dial = try! Color(hex: "#FFFDF7")

    init(width: Int, height: Int, seconds: TimeInterval) {
        self.width = CGFloat(width)
        self.height = CGFloat(height)
        total = max(0, seconds)
        labelHeight = self.height * 0.2
        diameter = min(self.width, self.height - labelHeight) * 0.9
        faceCenter = CGPoint(x: self.width / 2, y: labelHeight + (self.height - labelHeight) / 2)
        font = cairo_toy_font_face_create(Font.defaultFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
    }

    deinit { cairo_font_face_destroy(font) }

    /// Draws the countdown `elapsed` seconds after it started.
    func draw(_ cr: OpaquePointer, elapsed: TimeInterval) {
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setSource(cr, Self.background)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_set_font_face(cr, font)
        let left = max(0, total - elapsed)
        guard left > 0 else {
            let size = min(width / 8, height / 5)
            showCentered(cr, "Time is over", size: size, color: .red, top: height / 2 - size * 0.7)
            return
        }
        showCentered(cr, CountdownScene.text(for: left), size: labelHeight * 0.75, color: Self.ink, top: height * 0.03)
        cairo_save(cr)
        cairo_translate(cr, faceCenter.x, faceCenter.y)
        drawFace(cr)
        let angle = CGFloat(min(left, 3600) / 3600 * 2 * .pi)
        let r = diameter / 2
        cairo_move_to(cr, 0, 0)
        cairo_arc(cr, 0, 0, r * 0.85, -.pi / 2, -.pi / 2 + angle)
        cairo_close_path(cr)
        setSource(cr, Color.red.withAlphaComponent(0.7))
        cairo_fill(cr)
        cairo_restore(cr)
        drawHand(cr, angle: angle, r: r)
    }

    /// The face, centred on the origin: rim, dial, ticks and minute numerals.
    private func drawFace(_ cr: OpaquePointer) {
        let size = diameter, radius = size / 2 * 0.92
        cairo_arc(cr, 0, 0, size / 2 - 2, 0, 2 * .pi)
        setSource(cr, .brown)
        cairo_fill_preserve(cr)
        cairo_set_line_width(cr, size / 80)
        setSource(cr, .black)
        cairo_stroke(cr)
        cairo_arc(cr, 0, 0, radius, 0, 2 * .pi)
        setSource(cr, Self.dial)
        cairo_fill_preserve(cr)
        cairo_set_line_width(cr, size / 200)
        setSource(cr, .black)
        cairo_stroke(cr)
        for (count, inner, width, color) in [(60, 0.95, size / 300, Color.gray), (12, 0.9, size / 120, Color.black)] {
            for mark in 0..<count {
                let angle = Double(mark) / Double(count) * 2 * .pi
                cairo_move_to(cr, cos(angle) * radius, sin(angle) * radius)
                cairo_line_to(cr, cos(angle) * radius * inner, sin(angle) * radius * inner)
            }
            cairo_set_line_width(cr, width)
            setSource(cr, color)
            cairo_stroke(cr)
        }
        let fontSize = size * 0.07
        cairo_set_font_size(cr, fontSize)
        setSource(cr, Self.ink)
        for mark in 0..<12 {
            let angle = Double(mark) / 12 * 2 * .pi
            let minutes = ((mark + 3) % 12 == 0 ? 12 : (mark + 3) % 12) * 5
            let text = "\(minutes)"
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, text, &extents)
            cairo_move_to(cr, cos(angle) * radius * 0.78 - extents.x_advance / 2, sin(angle) * radius * 0.78 + fontSize * 0.36)
            cairo_show_text(cr, text)
        }
        cairo_new_path(cr)  // show_text leaves a current point, which the next arc would join
    }

    /// The hand: a bar with fully rounded ends from the centre along `angle`, over its shadow
    /// (offset (1, 2) in the hand's own space, σ = 3, opacity 0.3).
    private func drawHand(_ cr: OpaquePointer, angle: CGFloat, r: CGFloat) {
        let w = max(2, r * 0.05), length = r * 0.75
        let bar = { (cr: OpaquePointer, dx: CGFloat, dy: CGFloat) in
            cairo_save(cr)
            cairo_translate(cr, self.faceCenter.x, self.faceCenter.y)
            cairo_rotate(cr, angle)
            cairo_translate(cr, dx, dy)
            let k = w / 2
            cairo_new_sub_path(cr)
            cairo_arc(cr, 0, -length + k, k, .pi, 2 * .pi)
            cairo_arc(cr, 0, -k, k, 0, .pi)
            cairo_close_path(cr)
            cairo_restore(cr)
            cairo_fill(cr)
        }
        // The shadow's box: the bar's corners, offset by (1, 2), turned and placed.
        let c = cos(angle), s = sin(angle)
        var bounds = CGRect.null
        for (x, y) in [(-w / 2, -length), (w / 2, -length), (-w / 2, 0), (w / 2, 0)] as [(CGFloat, CGFloat)] {
            let point = CGPoint(x: faceCenter.x + (x + 1) * c - (y + 2) * s, y: faceCenter.y + (x + 1) * s + (y + 2) * c)
            bounds = bounds.union(CGRect(origin: point, size: .zero))
        }
        CairoShadow.paint(on: cr, bounds: bounds, sigma: 3, color: (0, 0, 0, 0.3)) { ink in bar(ink, 1, 2) }
        setSource(cr, Self.ink)
        bar(cr, 0, 0)
    }

    /// One line of text centred across the frame, its baseline an ascent below `top`.
    private func showCentered(_ cr: OpaquePointer, _ text: String, size: CGFloat, color: Color, top: CGFloat) {
        cairo_set_font_size(cr, size)
        var font = cairo_font_extents_t(), extents = cairo_text_extents_t()
        cairo_font_extents(cr, &font)
        cairo_text_extents(cr, text, &extents)
        setSource(cr, color)
        cairo_move_to(cr, (width - extents.x_advance) / 2, top + font.ascent)
        cairo_show_text(cr, text)
        cairo_new_path(cr)
    }
}
