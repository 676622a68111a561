import CCairoOracle
import ExampleScenes
import Foundation
import LayerKit

/// The Countdown example's picture drawn from scratch with cairo each frame: background, the
/// time left as large text, then the face bottom to top as the tutorial paints it — rim and
/// dial, the red sector of the minutes left, 60 + 12 ticks and the minute numerals over it, and
/// the hand over its blurred shadow; "Time is over" at zero.
///
/// The geometry, colours and order are `CountdownScene`'s (its `dial`, `sector`, `marks` and
/// `hand`). Text sizes are fitted to the width as the scene fits them, measured with cairo's own
/// text extents, as a cairo program would. The scene's status line is empty in a countdown that
/// runs unpaused with no key hints (the benchmark's), so there is none to draw.
final class CairoCountdown {
    private let width: CGFloat, height: CGFloat
    private let total: TimeInterval
    private let labelHeight: CGFloat
    private let diameter: CGFloat
    private let faceCenter: CGPoint
    private let font: OpaquePointer  // cairo_font_face_t
    /// The label's size, fitted to 92 % of the width for the widest text the count shows.
    private let labelSize: CGFloat
    /// The size of "Time is over", fitted to 80 % of the width.
    private let overSize: CGFloat

    private static let background = try! Color(hex: "#F4EFE6")
    private static let ink = try! Color(hex: "#2B2F3A")
    private static let dial = try! Color(hex: "#FFFDF7")
    private static let over = "Time is over"

    init(width: Int, height: Int, seconds: TimeInterval) {
        self.width = CGFloat(width)
        self.height = CGFloat(height)
        total = seconds.isFinite ? max(0, seconds) : 0
        labelHeight = self.height * 0.2
        // The scene keeps 7 % of the height under the face for its status line.
        let statusHeight = self.height * 0.07
        diameter = max(1, min(self.width, self.height - labelHeight - statusHeight) * 0.9)
        faceCenter = CGPoint(x: self.width / 2, y: labelHeight + (self.height - labelHeight - statusHeight) / 2)
        let font = cairo_toy_font_face_create(Font.defaultFamily, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)!
        self.font = font
        // Measured once on a scratch context: the sizes depend on the frame, not the time. The
        // widest label is the first with every digit an 8 (the count only shortens it).
        let scratch = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1)!, cr = cairo_create(scratch)!
        defer { cairo_destroy(cr); cairo_surface_destroy(scratch) }
        cairo_set_font_face(cr, font)
        let widest = String(CountdownScene.text(for: total).map { $0.isNumber ? "8" : $0 })
        labelSize = Self.fittedSize(cr, widest, width: CGFloat(width) * 0.92, height: labelHeight * 0.75)
        overSize = Self.fittedSize(cr, Self.over, width: CGFloat(width) * 0.8, height: CGFloat(height) / 7)
    }

    deinit { cairo_font_face_destroy(font) }

    /// The largest font size up to `height` at which `text` advances at most `width`.
    private static func fittedSize(_ cr: OpaquePointer, _ text: String, width: CGFloat, height: CGFloat) -> CGFloat {
        guard height > 0 else { return 1 }
        cairo_set_font_size(cr, height)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance > width ? max(1, height * width / extents.x_advance) : height
    }

    /// Draws the countdown `elapsed` seconds after it started.
    func draw(_ cr: OpaquePointer, elapsed: TimeInterval) {
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        setSource(cr, Self.background)
        cairo_paint(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
        cairo_set_font_face(cr, font)
        let left = max(0, total - elapsed)
        guard left > 0 else {
            showCentered(cr, Self.over, size: overSize, color: .red, top: height / 2 - overSize * 0.7)
            return
        }
        showCentered(cr, CountdownScene.text(for: left), size: labelSize, color: Self.ink, top: height * 0.03)
        let angle = CGFloat(min(left, 3600) / 3600 * 2 * .pi)
        cairo_save(cr)
        cairo_translate(cr, faceCenter.x, faceCenter.y)
        drawDial(cr)
        drawSector(cr, angle: angle)
        drawMarks(cr)
        cairo_restore(cr)
        drawHand(cr, angle: angle)
    }

    /// The rim and the paper disc, centred on the origin.
    private func drawDial(_ cr: OpaquePointer) {
        let size = diameter
        // The rim's circle as the example's `CountdownDial` strokes it: its stroke a point inside.
        cairo_arc(cr, 0, 0, size / 2 - size / 160 - 1, 0, 2 * .pi)
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
    }

    /// The minutes left as a translucent red sector from 12 o'clock clockwise, under the marks.
    private func drawSector(_ cr: OpaquePointer, angle: CGFloat) {
        guard angle > 0 else { return }
        cairo_move_to(cr, 0, 0)
        cairo_arc(cr, 0, 0, diameter / 2 * 0.85, -.pi / 2, -.pi / 2 + angle)
        cairo_close_path(cr)
        setSource(cr, Color.red.withAlphaComponent(0.7))
        cairo_fill(cr)
    }

    /// The dial's radius.
    private var radius: CGFloat { diameter / 2 * 0.92 }

    /// The 60 minute ticks, the 12 longer ones (each kind one path, stroked once) and the minute
    /// numerals, centred on the origin.
    private func drawMarks(_ cr: OpaquePointer) {
        let size = diameter
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
        for minutes in stride(from: 5, through: 60, by: 5) {
            // 3 o'clock is 15 minutes, 12 o'clock is 60, as in the tutorial.
            let angle = Double(minutes) / 60 * 2 * .pi - .pi / 2
            let text = "\(minutes)"
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, text, &extents)
            cairo_move_to(cr, cos(angle) * radius * 0.78 - extents.x_advance / 2, sin(angle) * radius * 0.78 + fontSize * 0.36)
            cairo_show_text(cr, text)
        }
        cairo_new_path(cr)  // show_text leaves a current point, which the next path would join
    }

    /// The hand: a bar with fully rounded ends from the centre along `angle`, over its shadow
    /// (offset (1, 2) in the hand's own space, σ = 3, opacity 0.3).
    private func drawHand(_ cr: OpaquePointer, angle: CGFloat) {
        let r = diameter / 2
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

    /// One line of text centred across the frame, its baseline an ascent below `top` (as a text
    /// layer sets its first line).
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
