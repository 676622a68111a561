import Foundation

/// A layer that draws its sublayers `instanceCount` times (Core Animation's
/// CAReplicatorLayer): each instance is turned by `instanceTransform` once more than the one
/// before (about the replicator's anchor point), runs `instanceDelay` seconds later, and is
/// tinted by `instanceColor` plus the per-instance color offsets. A clock's 60 ticks are one
/// tick layer and an instance transform of 6°.
open class ReplicatorLayer: Layer {
    /// Instances beyond this are not drawn (a guard against absurd counts).
    public static let maximumInstanceCount = 10_000

    public var instanceCount = 1 { didSet { if instanceCount != oldValue { changed(.content) } } }
    public var instanceTransform: Transform3D = .identity {
        didSet { if instanceTransform != oldValue { didChange("instanceTransform", .content, from: .transform(oldValue)) } }
    }
    /// Seconds each instance's animations run behind the previous instance's.
    public var instanceDelay: TimeInterval = 0 { didSet { if instanceDelay != oldValue { changed(.content) } } }
    /// The color the first instance is multiplied by (white: unchanged).
    public var instanceColor: Color = .white {
        didSet { if instanceColor != oldValue { didChange("instanceColor", .content, from: .color(oldValue)) } }
    }
    public var instanceRedOffset: Float = 0 { didSet { if instanceRedOffset != oldValue { changed(.content) } } }
    public var instanceGreenOffset: Float = 0 { didSet { if instanceGreenOffset != oldValue { changed(.content) } } }
    public var instanceBlueOffset: Float = 0 { didSet { if instanceBlueOffset != oldValue { changed(.content) } } }
    public var instanceAlphaOffset: Float = 0 { didSet { if instanceAlphaOffset != oldValue { changed(.content) } } }

    public override init() { super.init() }

    public required init(layer: Layer) {
        super.init(layer: layer)
        guard let r = layer as? ReplicatorLayer else { return }
        instanceCount = r.instanceCount; instanceTransform = r.instanceTransform; instanceDelay = r.instanceDelay
        instanceColor = r.instanceColor; instanceRedOffset = r.instanceRedOffset; instanceGreenOffset = r.instanceGreenOffset
        instanceBlueOffset = r.instanceBlueOffset; instanceAlphaOffset = r.instanceAlphaOffset
    }

    /// The tint of instance `i`, or nil when it changes nothing.
    func instanceTint(_ i: Int) -> Color? {
        let k = Double(i)
        let tint = Color(red: Color.unit(instanceColor.red + k * Double(instanceRedOffset)),
                         green: Color.unit(instanceColor.green + k * Double(instanceGreenOffset)),
                         blue: Color.unit(instanceColor.blue + k * Double(instanceBlueOffset)),
                         alpha: Color.unit(instanceColor.alpha + k * Double(instanceAlphaOffset)))
        return tint == .white ? nil : tint
    }

    override class func animatableProperty(forKeyPath keyPath: String) -> AnimatableProperty? {
        switch keyPath {
        case "instanceTransform":
            return AnimatableProperty(kind: .transform, get: { .transform(($0 as? ReplicatorLayer)?.instanceTransform ?? .identity) },
                                      set: { layer, v in if case let .transform(t) = v { (layer as? ReplicatorLayer)?.instanceTransform = t } })
        case "instanceColor":
            return AnimatableProperty(kind: .color, get: { .color(($0 as? ReplicatorLayer)?.instanceColor ?? .white) },
                                      set: { layer, v in if case let .color(c) = v { (layer as? ReplicatorLayer)?.instanceColor = c } })
        default:
            return super.animatableProperty(forKeyPath: keyPath)
        }
    }
}
