import CPixman

/// How source pixels combine with the destination: the Porter–Duff operators and the PDF
/// separable blend modes, all on premultiplied sRGB-encoded pixels.
public enum CompositeOperator: Hashable, Sendable, CaseIterable {
    /// Transparent, whatever source and destination are.
    case clear
    /// The source, replacing the destination.
    case source
    /// The destination, unchanged.
    case destination
    /// Source over destination: what layers normally use.
    case over
    /// Destination over source: the source shows only where the destination is transparent.
    case destinationOver
    /// The source where the destination is, nothing elsewhere.
    case sourceIn
    /// The destination where the source is, nothing elsewhere (masks with the source's alpha).
    case destinationIn
    /// The source where the destination is not.
    case sourceOut
    /// The destination where the source is not (erases with the source's alpha).
    case destinationOut
    /// The source on top of the destination, only where the destination is.
    case sourceAtop
    /// The destination on top of the source, only where the source is.
    case destinationAtop
    /// Source and destination where they do not overlap.
    case xor
    /// Sums source and destination, saturating.
    case add
    /// Multiplies the colors: never lighter than either (PDF's multiply).
    case multiply
    /// Inverse of multiplying the inverses: never darker than either (PDF's screen).
    case screen
    /// Multiplies or screens depending on the destination (PDF's overlay).
    case overlay
    /// The darker of the two, per component.
    case darken
    /// The lighter of the two, per component.
    case lighten
    /// Brightens the destination to reflect the source (PDF's color dodge).
    case colorDodge
    /// Darkens the destination to reflect the source (PDF's color burn).
    case colorBurn
    /// Multiplies or screens depending on the source (PDF's hard light).
    case hardLight
    /// Darkens or lightens depending on the source, softly (PDF's soft light).
    case softLight
    /// The absolute difference of the two, per component.
    case difference
    /// Like difference, with lower contrast (PDF's exclusion).
    case exclusion

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
