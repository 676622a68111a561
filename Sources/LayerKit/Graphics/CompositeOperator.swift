import CPixman

/// How source pixels combine with the destination: the Porter–Duff operators and the PDF
/// separable blend modes, all on premultiplied sRGB-encoded pixels.
public enum CompositeOperator: Hashable, Sendable, CaseIterable {
    case clear, source, destination
    /// Source over destination: what layers normally use.
    case over
    case destinationOver, sourceIn, destinationIn, sourceOut, destinationOut
    case sourceAtop, destinationAtop, xor
    /// Sums source and destination, saturating.
    case add
    case multiply, screen, overlay, darken, lighten, colorDodge, colorBurn
    case hardLight, softLight, difference, exclusion

    var pixmanOperator: pixman_op_t {
        switch self {
        case .clear: PIXMAN_OP_CLEAR
        case .source: PIXMAN_OP_SRC
        case .destination: PIXMAN_OP_DST
        case .over: PIXMAN_OP_OVER
        case .destinationOver: PIXMAN_OP_OVER_REVERSE
        case .sourceIn: PIXMAN_OP_IN
        case .destinationIn: PIXMAN_OP_IN_REVERSE
        case .sourceOut: PIXMAN_OP_OUT
        case .destinationOut: PIXMAN_OP_OUT_REVERSE
        case .sourceAtop: PIXMAN_OP_ATOP
        case .destinationAtop: PIXMAN_OP_ATOP_REVERSE
        case .xor: PIXMAN_OP_XOR
        case .add: PIXMAN_OP_ADD
        case .multiply: PIXMAN_OP_MULTIPLY
        case .screen: PIXMAN_OP_SCREEN
        case .overlay: PIXMAN_OP_OVERLAY
        case .darken: PIXMAN_OP_DARKEN
        case .lighten: PIXMAN_OP_LIGHTEN
        case .colorDodge: PIXMAN_OP_COLOR_DODGE
        case .colorBurn: PIXMAN_OP_COLOR_BURN
        case .hardLight: PIXMAN_OP_HARD_LIGHT
        case .softLight: PIXMAN_OP_SOFT_LIGHT
        case .difference: PIXMAN_OP_DIFFERENCE
        case .exclusion: PIXMAN_OP_EXCLUSION
        }
    }

    /// Whether a fully transparent source leaves the destination unchanged, so that pixels the
    /// source cannot reach need not be visited.
    var isBoundedBySource: Bool {
        switch self {
        case .clear, .source, .sourceIn, .destinationIn, .sourceOut, .destinationAtop: false
        default: true
        }
    }
}

/// How a transformed image is sampled between its pixels.
public enum ImageFilter: Hashable, Sendable {
    /// The nearest source pixel: hard edges, exact for whole-pixel offsets.
    case nearest
    /// Weighted average of the four nearest pixels: smooth under rotation and scale.
    case bilinear

    var pixmanFilter: pixman_filter_t {
        switch self {
        case .nearest: PIXMAN_FILTER_NEAREST
        case .bilinear: PIXMAN_FILTER_BILINEAR
        }
    }
}
