import Foundation

/// Why a layer does not show a value as it was given: the value was refused, or a limit of the
/// renderer cut what the layer draws. Each is reported once per layer and property (or limit),
/// never once per frame.
public enum LayerValueError: Error, Equatable, CustomStringConvertible {
    /// A value was refused (one with a NaN or infinite number in it, for every numeric
    /// property); the property kept its value. On a presentation (a value an animation
    /// computed) the value beneath the animation shows.
    case refused(layer: String, property: String, reason: String)
    /// The layer's path has more segments than `RenderLimits.maximumPathSegments`: it is not
    /// drawn (the rest of the layer is).
    case tooManyPathSegments(layer: String, property: String, segments: Int, limit: Int)
    /// The replicators above the layer ask for more copies of it than
    /// `RenderLimits.maximumReplicatedInstances`: only that many are drawn.
    case tooManyInstances(layer: String, requested: Double, limit: Int)
    /// A running animation's timing was changed, after it was added, to numbers that place it
    /// nowhere in time (a NaN or infinite speed, time offset, begin time or duration; a NaN
    /// repeat count or duration): it has no effect until they are usable again.
    case animationTimingRefused(layer: String, key: String, reason: String)

    /// What was wrong, naming the layer and the property.
    public var description: String {
        switch self {
        case let .refused(layer, property, reason):
            "layer \(layer): \(property) refused a value (\(reason)); it keeps its previous value"
        case let .tooManyPathSegments(layer, property, segments, limit):
            "layer \(layer): \(property) has \(segments) segments, over the limit of \(limit) (RenderLimits.maximumPathSegments); it is not drawn"
        case let .tooManyInstances(layer, requested, limit):
            "replicator \(layer): its instances and those of the replicators above it make \(requested) copies, " +
                "over the limit of \(limit) (RenderLimits.maximumReplicatedInstances); only the first \(limit) are drawn"
        case let .animationTimingRefused(layer, key, reason):
            "layer \(layer): the running animation \"\(key)\" was changed after it was added (\(reason)); it has no effect"
        }
    }
}

/// Where refused layer values and cut content are reported. By default the message goes to
/// standard error; tests and apps may install their own handler.
public enum LayerValueDiagnostics {
    /// The handler for refused values and limits reached.
    public static var handler: @Sendable (LayerValueError) -> Void {
        get { channel.current }
        set { channel.current = newValue }
    }

    private static let channel = DiagnosticHandler<LayerValueError>()
}

extension Layer {
    /// Reports a problem with one of the layer's values, once for the layer (its model, when this
    /// is a presentation copy) and `topic`: a value refused every frame is reported once.
    func reportValueProblem(_ topic: String, _ error: @autoclosure () -> LayerValueError) {
        let model = self.model()
        guard model.reportedValueProblems.insert(topic).inserted else { return }
        LayerValueDiagnostics.handler(error())
    }
}
