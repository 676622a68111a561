import Foundation

/// How a layer's `contents` image is placed in its bounds (Core Animation's `contentsGravity`).
///
/// Positions are as seen on LayerKit's y-down screen: `.top` is the top edge. (Core Animation on
/// iOS famously swaps top and bottom here; ported code that relied on that swap needs flipping.)
public enum ContentsGravity: String, Hashable, Sendable, CaseIterable {
    /// Centred, at its own size.
    case center
    /// Centred along the top edge, at its own size.
    case top
    /// Centred along the bottom edge, at its own size.
    case bottom
    /// Centred along the left edge, at its own size.
    case left
    /// Centred along the right edge, at its own size.
    case right
    /// In the top-left corner, at its own size.
    case topLeft
    /// In the top-right corner, at its own size.
    case topRight
    /// In the bottom-left corner, at its own size.
    case bottomLeft
    /// In the bottom-right corner, at its own size.
    case bottomRight
    /// Stretch to fill the bounds exactly (the default).
    case resize
    /// Scale uniformly to fit inside the bounds, centred.
    case resizeAspect
    /// Scale uniformly to cover the bounds, centred (the overflow is cut by `masksToBounds`).
    case resizeAspectFill

    /// The rectangle, in bounds space, that an image of `size` points occupies.
    func rect(forContentOfSize size: CGSize, in bounds: CGRect) -> CGRect {
        switch self {
        case .resize:
            return bounds
        case .resizeAspect, .resizeAspectFill:
            guard size.width > 0, size.height > 0 else { return bounds }
            let sx = bounds.width / size.width, sy = bounds.height / size.height
            let s = self == .resizeAspect ? min(sx, sy) : max(sx, sy)
            let w = size.width * s, h = size.height * s
            return CGRect(x: bounds.midX - w / 2, y: bounds.midY - h / 2, width: w, height: h)
        default:
            let x: CGFloat, y: CGFloat
            switch self {
            case .left, .topLeft, .bottomLeft: x = bounds.minX
            case .right, .topRight, .bottomRight: x = bounds.maxX - size.width
            default: x = bounds.midX - size.width / 2
            }
            switch self {
            case .top, .topLeft, .topRight: y = bounds.minY
            case .bottom, .bottomLeft, .bottomRight: y = bounds.maxY - size.height
            default: y = bounds.midY - size.height / 2
            }
            return CGRect(x: x, y: y, width: size.width, height: size.height)
        }
    }
}

/// How `contents` is sampled when drawn at another size (Core Animation's filters).
public enum ContentsFilter: String, Hashable, Sendable {
    /// Nearest pixel: hard edges, for pixel art.
    case nearest
    /// Bilinear interpolation (the default).
    case linear
    /// Bilinear from a prefiltered (halved as often as needed) copy, so that strong
    /// reductions do not alias.
    case trilinear
}
