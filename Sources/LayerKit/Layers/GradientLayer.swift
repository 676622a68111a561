import Foundation

/// A layer filled with a color gradient (Core Animation's CAGradientLayer): `colors` at
/// `locations`, from `startPoint` to `endPoint` in unit coordinates of the bounds (default top
/// centre to bottom centre). Radial gradients centre on the start point and reach the end point
/// in each axis; conic ones turn around the start point from the direction of the end point.
/// The gradient follows the layer's rounded corners.
open class GradientLayer: Layer {
    public enum GradientType: String, Hashable, Sendable { case axial, radial, conic }

    public var colors: [Color]? {
        didSet { if colors != oldValue { didChange("colors", .content, from: .colors(oldValue ?? [])) } }
    }
    public var locations: [Double]? {
        didSet { if locations != oldValue { didChange("locations", .content, from: .numbers(oldValue ?? [])) } }
    }
    public var startPoint = CGPoint(x: 0.5, y: 0) {
        didSet { if startPoint != oldValue { didChange("startPoint", .content, from: .point(oldValue)) } }
    }
    public var endPoint = CGPoint(x: 0.5, y: 1) {
        didSet { if endPoint != oldValue { didChange("endPoint", .content, from: .point(oldValue)) } }
    }
    public var type: GradientType = .axial { didSet { if type != oldValue { changed(.content) } } }

    public override init() { super.init() }

    public required init(layer: Layer) {
        super.init(layer: layer)
        guard let gradient = layer as? GradientLayer else { return }
        colors = gradient.colors; locations = gradient.locations; startPoint = gradient.startPoint
        endPoint = gradient.endPoint; type = gradient.type
    }

    /// The gradient in bounds space.
    public var gradient: Gradient? {
        guard let colors, !colors.isEmpty, bounds.width > 0, bounds.height > 0 else { return nil }
        func place(_ p: CGPoint) -> CGPoint { CGPoint(x: bounds.minX + p.x * bounds.width, y: bounds.minY + p.y * bounds.height) }
        let start = place(startPoint), end = place(endPoint)
        let kind: Gradient.Kind
        switch type {
        case .axial: kind = .axial(start: start, end: end)
        case .radial: kind = .radial(center: start, radii: CGSize(width: abs(end.x - start.x), height: abs(end.y - start.y)))
        case .conic: kind = .conic(center: start, angle: atan2(end.y - start.y, end.x - start.x))
        }
        return Gradient(kind, colors: colors, locations: locations)
    }

    override var gradientDescription: Gradient? { gradient }

    override class func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        switch keyPath {
        case "colors":
            return AnimatableProperty(kind: .colors, get: { .colors(($0 as? GradientLayer)?.colors ?? []) },
                                      set: { layer, v in if case let .colors(c) = v { (layer as? GradientLayer)?.colors = c } })
        case "locations":
            return AnimatableProperty(kind: .numbers, get: { .numbers(($0 as? GradientLayer)?.locations ?? []) },
                                      set: { layer, v in if case let .numbers(n) = v { (layer as? GradientLayer)?.locations = n } })
        case "startPoint", "endPoint":
            let isStart = keyPath == "startPoint"
            return AnimatableProperty(kind: .point,
                                      get: { layer in .point(isStart ? (layer as? GradientLayer)?.startPoint ?? .zero : (layer as? GradientLayer)?.endPoint ?? .zero) },
                                      set: { layer, v in
                                          guard case let .point(p) = v, let g = layer as? GradientLayer else { return }
                                          if isStart { g.startPoint = p } else { g.endPoint = p }
                                      })
        default:
            return super.animatableProperty(forKeyPath: keyPath)
        }
    }
}
