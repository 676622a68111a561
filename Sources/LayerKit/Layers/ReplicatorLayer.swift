import Foundation

/// A layer that draws its sublayers `instanceCount` times (Core Animation's
/// CAReplicatorLayer): each instance is turned by `instanceTransform` once more than the one
/// before (about the replicator's anchor point), runs `instanceDelay` seconds later, and is
/// tinted by `instanceColor` plus the per-instance color offsets. A clock's 60 ticks are one
/// tick layer and an instance transform of 6°.
open class ReplicatorLayer: Layer {
    /// Instances beyond this are not drawn (a guard against absurd counts).
    public static let maximumInstanceCount = 10_000

    /// The declarations of the replicator's properties (see `Layer.Properties`). They change
    /// how the sublayers are drawn, not the replicator's own store.
    enum Properties {
        typealias Declaration<Value: Sendable> = LayerProperty<ReplicatorLayer, Value>

        static let instanceCount: Declaration<Int> = .init("instanceCount", \.instanceCount, default: 1, invalidates: .sublayers)
        static let instanceTransform: Declaration<Transform3D> = .init("instanceTransform", \.instanceTransform, default: .identity,
                                                                       invalidates: .geometry, animatable: .transform)
        static let instanceDelay: Declaration<TimeInterval> = .init("instanceDelay", \.instanceDelay, default: 0, invalidates: .timing)
        static let instanceColor: Declaration<Color> = .init("instanceColor", \.instanceColor, default: .white, invalidates: .compositing,
                                                             animatable: .color)
        static let instanceRedOffset: Declaration<Float> = .init("instanceRedOffset", \.instanceRedOffset, default: 0,
                                                                 invalidates: .compositing)
        static let instanceGreenOffset: Declaration<Float> = .init("instanceGreenOffset", \.instanceGreenOffset, default: 0,
                                                                   invalidates: .compositing)
        static let instanceBlueOffset: Declaration<Float> = .init("instanceBlueOffset", \.instanceBlueOffset, default: 0,
                                                                  invalidates: .compositing)
        static let instanceAlphaOffset: Declaration<Float> = .init("instanceAlphaOffset", \.instanceAlphaOffset, default: 0,
                                                                   invalidates: .compositing)
    }

    /// How many times the sublayers are drawn (capped at `maximumInstanceCount`; negative
    /// counts draw none). Nested replicators multiply: a renderer draws at most
    /// `RenderLimits.maximumReplicatedInstances` copies of a layer in all, the first ones.
    @Declared(Properties.instanceCount) public var instanceCount: Int
    /// The transform between one instance and the next, about the replicator's anchor point.
    @Declared(Properties.instanceTransform) public var instanceTransform: Transform3D
    /// Seconds each instance's animations run behind the previous instance's.
    @Declared(Properties.instanceDelay) public var instanceDelay: TimeInterval
    /// The color the first instance is multiplied by (white: unchanged).
    @Declared(Properties.instanceColor) public var instanceColor: Color
    /// Added to the red of the tint for each instance after the first.
    @Declared(Properties.instanceRedOffset) public var instanceRedOffset: Float
    /// Added to the green of the tint for each instance after the first.
    @Declared(Properties.instanceGreenOffset) public var instanceGreenOffset: Float
    /// Added to the blue of the tint for each instance after the first.
    @Declared(Properties.instanceBlueOffset) public var instanceBlueOffset: Float
    /// Added to the alpha of the tint for each instance after the first.
    @Declared(Properties.instanceAlphaOffset) public var instanceAlphaOffset: Float

    /// The tint of instance `i`, or nil when it changes nothing.
    func instanceTint(_ i: Int) -> Color? {
        let k = Double(i)
        let tint = Color(red: Color.unit(instanceColor.red + k * Double(instanceRedOffset)),
                         green: Color.unit(instanceColor.green + k * Double(instanceGreenOffset)),
                         blue: Color.unit(instanceColor.blue + k * Double(instanceBlueOffset)),
                         alpha: Color.unit(instanceColor.alpha + k * Double(instanceAlphaOffset)))
        return tint == .white ? nil : tint
    }
}
