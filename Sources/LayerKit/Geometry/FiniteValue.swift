import Foundation

/// A value made of numbers, every one of which must be finite for a layer to store it or an
/// animation to run with it (see `LayerProperty` and `Animation.validate(for:)`).
///
/// Core Animation raises an exception when a layer is given NaN geometry; LayerKit refuses the
/// value instead, and does so for every numeric property, so that nothing downstream ever has to
/// guess what NaN means.
protocol FiniteValue: SendableMetatype {
    /// Whether every number in the value is finite (not NaN, not infinite).
    var isFiniteValue: Bool { get }
}

extension Double: FiniteValue { var isFiniteValue: Bool { isFinite } }
extension Float: FiniteValue { var isFiniteValue: Bool { isFinite } }
extension CGFloat: FiniteValue { var isFiniteValue: Bool { isFinite } }
extension CGPoint: FiniteValue { var isFiniteValue: Bool { x.isFinite && y.isFinite } }
extension CGSize: FiniteValue { var isFiniteValue: Bool { width.isFinite && height.isFinite } }
extension CGRect: FiniteValue { var isFiniteValue: Bool { origin.isFiniteValue && size.isFiniteValue } }
extension Transform3D: FiniteValue { var isFiniteValue: Bool { isFinite } }

extension Optional: FiniteValue where Wrapped: FiniteValue {
    var isFiniteValue: Bool { self?.isFiniteValue ?? true }
}

extension Array: FiniteValue where Element: FiniteValue {
    var isFiniteValue: Bool { allSatisfy(\.isFiniteValue) }
}

/// Values in messages about non-finite numbers.
enum FiniteValueText {
    /// The value as text, cut short (a path may have millions of points).
    static func short(_ value: Any) -> String {
        if let many = value as? any Collection, many.count > 16 { return "\(many.count) values" }
        let text = "\(value)"
        return text.count > 120 ? text.prefix(117) + "..." : text
    }
}
