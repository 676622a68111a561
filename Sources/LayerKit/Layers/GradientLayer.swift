import Foundation

/// A layer filled with a color gradient (Core Animation's CAGradientLayer): `colors` at
/// `locations`, from `startPoint` to `endPoint` in unit coordinates of the bounds (default top
/// centre to bottom centre). Radial gradients centre on the start point and reach the end point
/// in each axis; conic ones turn around the start point from the direction of the end point.
/// The gradient follows the layer's rounded corners.
open class GradientLayer: Layer {
    /// The shape of a gradient: along a line, in ellipses about the start point, or around it.
    public enum GradientType: String, Hashable, Sendable {
        /// Along the line from `startPoint` to `endPoint` (the default).
        case axial
        /// In ellipses about `startPoint`, reaching `endPoint` in each axis.
        case radial
        /// Around `startPoint`, from the direction of `endPoint`.
        case conic
    }

    /// The declarations of the gradient layer's properties (see `Layer.Properties`).
    enum Properties {
        typealias Declaration<Value: Sendable> = LayerProperty<GradientLayer, Value>

        static let colors: Declaration<[Color]?> = .init("colors", \.colors, default: nil, invalidates: .content, animatable: .colors)
        static let locations: Declaration<[Double]?> = .init("locations", \.locations, default: nil, invalidates: .content,
                                                             animatable: .numbers)
        static let startPoint: Declaration<CGPoint> = .init("startPoint", \.startPoint, default: CGPoint(x: 0.5, y: 0), invalidates: .content,
                                                            animatable: .point)
        static let endPoint: Declaration<CGPoint> = .init("endPoint", \.endPoint, default: CGPoint(x: 0.5, y: 1), invalidates: .content,
                                                          animatable: .point)
        static let type: Declaration<GradientType> = .init("type", \.type, default: .axial, invalidates: .content)
    }

    /// The colors, from the start to the end (none draws nothing).
    @Declared(Properties.colors) public var colors: [Color]?
    /// Where each color sits, as fractions 0…1 of the way (evenly spread when nil).
    @Declared(Properties.locations) public var locations: [Double]?
    /// Where the gradient starts, in unit coordinates of the bounds.
    @Declared(Properties.startPoint) public var startPoint: CGPoint
    /// Where the gradient ends, in unit coordinates of the bounds.
    @Declared(Properties.endPoint) public var endPoint: CGPoint
    /// The gradient's shape.
    @Declared(Properties.type) public var type: GradientType

    /// The gradient in bounds space.
    public var gradient: Gradient? {
        guard let colors, !colors.isEmpty, bounds.width > 0, bounds.height > 0 else { return nil }
        func place(_ p: CGPoint) -> CGPoint { CGPoint(x: bounds.minX + p.x * bounds.width, y: bounds.minY + p.y * bounds.height) }
        let start = place(startPoint), end = place(endPoint)
        // Huge (finite) points can place the gradient beyond any number: nothing is drawn.
        guard start.isFiniteValue, end.isFiniteValue else { return nil }
        let kind: Gradient.Kind
        switch type {
        case .axial: kind = .axial(start: start, end: end)
        case .radial: kind = .radial(center: start, radii: CGSize(width: abs(end.x - start.x), height: abs(end.y - start.y)))
        case .conic: kind = .conic(center: start, angle: atan2(end.y - start.y, end.x - start.x))
        }
        return Gradient(kind, colors: colors, locations: locations)
    }

    override var gradientDescription: Gradient? { gradient }
}
