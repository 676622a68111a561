// Colors as iOS code spells them: `UIColor.black.cgColor`, `CGColor(red:green:blue:alpha:)`.
// Both names stand for LayerKit's `Color` (an sRGB value with straight alpha), so a
// `UIColor` goes wherever a `CGColor` is expected and `.cgColor` costs nothing.

/// CoreGraphics' CGColor: LayerKit's `Color`, an sRGB color with straight alpha.
public typealias CGColor = Color

/// UIKit's UIColor, as far as layer code uses it: LayerKit's `Color` (`UIColor.red`,
/// `UIColor(red:green:blue:alpha:)`, `UIColor(white:alpha:)`, `.withAlphaComponent(_:)`),
/// whose `cgColor` is itself.
public typealias UIColor = Color

/// CoreGraphics' and UIKit's color API on LayerKit's `Color`.
extension Color {
    /// The color as CoreGraphics' type: the same value (`UIColor.black.cgColor`).
    public var cgColor: CGColor { self }

    /// A gray with the given white level and alpha (`CGColor(gray:alpha:)`).
    public init(gray: CGFloat, alpha: CGFloat) {
        self.init(white: Double(gray), alpha: Double(alpha))
    }

    /// The same color with another alpha (`CGColor.copy(alpha:)`).
    public func copy(alpha: CGFloat) -> CGColor? { withAlphaComponent(Double(alpha)) }

    /// The components red, green, blue and alpha (`CGColor.components`).
    public var components: [CGFloat]? { [CGFloat(red), CGFloat(green), CGFloat(blue), CGFloat(alpha)] }

    /// Four: red, green, blue and alpha (`CGColor.numberOfComponents`).
    public var numberOfComponents: Int { 4 }
}
