import Foundation

/// An sRGB color with straight (not premultiplied) alpha; components run from 0 to 1.
///
/// Components outside 0…1 are kept as given and clamped only when the color becomes pixels;
/// a NaN component becomes 0 there.
public struct Color: Hashable, Sendable {
    /// The red component, 0…1 (sRGB-encoded).
    public var red: Double
    /// The green component, 0…1 (sRGB-encoded).
    public var green: Double
    /// The blue component, 0…1 (sRGB-encoded).
    public var blue: Double
    /// The opacity, 0 (transparent) … 1 (opaque), not premultiplied.
    public var alpha: Double

    /// Creates a color from sRGB components and alpha.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }

    /// A gray of the given brightness (UIKit's `UIColor(white:alpha:)`).
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Creates a color from 8-bit components and alpha.
    public init(red8: UInt8, green8: UInt8, blue8: UInt8, alpha8: UInt8 = 255) {
        self.init(red: Double(red8) / 255, green: Double(green8) / 255,
                  blue: Double(blue8) / 255, alpha: Double(alpha8) / 255)
    }

    /// Parses `#RGB`, `#RGBA`, `#RRGGBB` or `#RRGGBBAA` (the `#` may be left out; case does not matter).
    ///
    /// - Throws: `ColorError.invalidHexString` naming the text and what is wrong with it.
    public init(hex text: String) throws(ColorError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let digits = trimmed.hasPrefix("#") ? trimmed.dropFirst() : Substring(trimmed)
        if let bad = digits.first(where: { !$0.isHexDigit }) {
            throw .invalidHexString(text, reason: "'\(bad)' is not a hexadecimal digit")
        }
        let values = digits.map { UInt8($0.hexDigitValue!) }
        func byte(_ i: Int) -> UInt8 { values[i] << 4 | values[i + 1] }
        switch values.count {
        case 3, 4:
            let expanded = values.map { $0 << 4 | $0 }
            self.init(red8: expanded[0], green8: expanded[1], blue8: expanded[2],
                      alpha8: values.count == 4 ? expanded[3] : 255)
        case 6, 8:
            self.init(red8: byte(0), green8: byte(2), blue8: byte(4), alpha8: values.count == 8 ? byte(6) : 255)
        default:
            throw .invalidHexString(text, reason: "expected 3, 4, 6 or 8 hexadecimal digits, found \(values.count)")
        }
    }

    /// The same color with a different alpha (UIKit's `withAlphaComponent`).
    public func withAlphaComponent(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The color multiplied channel by channel by `tint` (a replicator instance's color): what
    /// `Bitmap.multiply(by:)` makes of pixels of this color, to within rounding.
    func tinted(by tint: Color) -> Color {
        Color(red: red * tint.red, green: green * tint.green, blue: blue * tint.blue, alpha: alpha * tint.alpha)
    }

    /// The color as one premultiplied `a8r8g8b8` pixel (alpha in the top byte), each channel
    /// rounded to nearest.
    ///
    /// Every coverage item a frame paints asks for its color this way, so it is done without an
    /// array and without libm: `byte` rounds as `rounded()` does (half away from zero).
    public var premultipliedARGB32: UInt32 {
        let a = Self.unit(alpha)
        return Self.byte(a) << 24 | Self.byte(Self.unit(red) * a) << 16 | Self.byte(Self.unit(green) * a) << 8 |
            Self.byte(Self.unit(blue) * a)
    }

    /// A unit value (0…1) as a byte, `UInt32((unit * 255).rounded())` exactly: the product
    /// `v` lies in 0…255, so truncating gives its floor `t`, `v - t` is exact (both are
    /// multiples of `v`'s last place), and rounding half away from zero adds one when that
    /// fraction is at least a half.
    @inline(__always)
    static func byte(_ unit: Double) -> UInt32 {
        let v = unit * 255, t = UInt32(v)
        return v - Double(t) >= 0.5 ? t + 1 : t
    }

    /// The color of a premultiplied `a8r8g8b8` pixel, un-premultiplied and rounded to 8 bits.
    /// A fully transparent pixel gives clear black.
    public init(premultipliedARGB32 pixel: UInt32) {
        let a = pixel >> 24 & 0xFF
        guard a > 0 else { self = .clear; return }
        func straight(_ shift: UInt32) -> UInt8 {
            // Round to nearest; a valid premultiplied channel never exceeds alpha.
            UInt8(min(255, ((pixel >> shift & 0xFF) * 255 + a / 2) / a))
        }
        self.init(red8: straight(16), green8: straight(8), blue8: straight(0), alpha8: UInt8(a))
    }

    /// The color as `#RRGGBBAA`, each component rounded to 8 bits.
    public var hexString: String {
        let bytes = [red, green, blue, alpha].map { UInt8((Self.unit($0) * 255).rounded()) }
        return "#" + bytes.map { String(format: "%02X", $0) }.joined()
    }

    /// Clamps to 0…1, sending NaN to 0.
    static func unit(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }
}

extension Color {
    // UIKit's named colors, with UIKit's component values.

    /// Transparent black (UIKit's `clear`).
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque black.
    public static let black = Color(white: 0)
    /// A third of white (UIKit's `darkGray`).
    public static let darkGray = Color(white: 1.0 / 3.0)
    /// Half white (UIKit's `gray`).
    public static let gray = Color(white: 0.5)
    /// Two thirds of white (UIKit's `lightGray`).
    public static let lightGray = Color(white: 2.0 / 3.0)
    /// Opaque white.
    public static let white = Color(white: 1)
    /// Pure red, (1, 0, 0).
    public static let red = Color(red: 1, green: 0, blue: 0)
    /// Pure green, (0, 1, 0).
    public static let green = Color(red: 0, green: 1, blue: 0)
    /// Pure blue, (0, 0, 1).
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// (0, 1, 1).
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    /// (1, 1, 0).
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    /// (1, 0, 1).
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    /// (1, 0.5, 0), as UIKit's `orange`.
    public static let orange = Color(red: 1, green: 0.5, blue: 0)
    /// (0.5, 0, 0.5), as UIKit's `purple`.
    public static let purple = Color(red: 0.5, green: 0, blue: 0.5)
    /// (0.6, 0.4, 0.2), as UIKit's `brown`.
    public static let brown = Color(red: 0.6, green: 0.4, blue: 0.2)
}

extension Color: CustomStringConvertible {
    public var description: String { "Color(\(hexString))" }
}

/// A color that could not be made from its description.
public enum ColorError: Error, Equatable, CustomStringConvertible {
    /// The text is not a hex color; `reason` says why.
    case invalidHexString(String, reason: String)

    public var description: String {
        switch self {
        case let .invalidHexString(text, reason):
            "invalid hex color \"\(text)\": \(reason) (expected #RGB, #RGBA, #RRGGBB or #RRGGBBAA)"
        }
    }
}

extension ColorError: LocalizedError {
    public var errorDescription: String? { description }
}
