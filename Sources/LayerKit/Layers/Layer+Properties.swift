import Foundation

extension Layer {
    /// The declarations of `Layer`'s properties, one line each: Core Animation's name, the
    /// property, its default, what a change invalidates and how it animates (none: it does not).
    /// Setters, presentation copies, string and typed key paths all follow from these.
    enum Properties {
        typealias Declaration<Value: Sendable> = LayerProperty<Layer, Value>

        // Geometry
        static let bounds: Declaration<CGRect> = .init(
            "bounds", \.bounds, default: .zero, invalidates: [.geometry, .content], animatable: .rect, isSame: { $0 == $1 },
            // Moving the origin only moves the sublayers; a new size rasterizes again.
            narrowing: { old, new in old.size == new.size ? .geometry : [.geometry, .content] },
            sideEffect: { layer, old in
                if layer.bounds.size != old.size, layer.needsDisplayOnBoundsChange { layer.setNeedsDisplay() }
            })
        static let position: Declaration<CGPoint> = .init("position", \.position, default: .zero, invalidates: .geometry, animatable: .point)
        static let anchorPoint: Declaration<CGPoint> = .init("anchorPoint", \.anchorPoint, default: CGPoint(x: 0.5, y: 0.5),
                                                             invalidates: .geometry, animatable: .point)
        static let anchorPointZ: Declaration<CGFloat> = .init("anchorPointZ", \.anchorPointZ, default: 0, invalidates: .geometry, animatable: .number)
        static let zPosition: Declaration<CGFloat> = .init("zPosition", \.zPosition, default: 0, invalidates: .geometry, animatable: .number)
        static let transform: Declaration<Transform3D> = .init("transform", \.transform, default: .identity, invalidates: .geometry,
                                                               animatable: .transform)
        static let sublayerTransform: Declaration<Transform3D> = .init("sublayerTransform", \.sublayerTransform, default: .identity,
                                                                       invalidates: .geometry, animatable: .transform)
        static let isHidden: Declaration<Bool> = .init("hidden", \.isHidden, default: false, invalidates: .compositing)
        static let isDoubleSided: Declaration<Bool> = .init("doubleSided", \.isDoubleSided, default: true, invalidates: .compositing)
        static let isGeometryFlipped: Declaration<Bool> = .init("geometryFlipped", \.isGeometryFlipped, default: false, invalidates: .geometry)

        // Appearance
        static let backgroundColor: Declaration<Color?> = .init("backgroundColor", \.backgroundColor, default: nil, invalidates: .content,
                                                                animatable: .color)
        static let opacity: Declaration<Float> = .init("opacity", \.opacity, default: 1, invalidates: .compositing, animatable: .number)
        static let cornerRadius: Declaration<CGFloat> = .init("cornerRadius", \.cornerRadius, default: 0, invalidates: .content, animatable: .number)
        static let maskedCorners: Declaration<CornerMask> = .init("maskedCorners", \.maskedCorners, default: .all, invalidates: .content)
        static let borderWidth: Declaration<CGFloat> = .init("borderWidth", \.borderWidth, default: 0, invalidates: .content, animatable: .number)
        static let borderColor: Declaration<Color?> = .init("borderColor", \.borderColor, default: .black, invalidates: .content,
                                                            animatable: .color)
        static let masksToBounds: Declaration<Bool> = .init("masksToBounds", \.masksToBounds, default: false,
                                                            invalidates: [.geometry, .compositing])
        static let allowsGroupOpacity: Declaration<Bool> = .init("allowsGroupOpacity", \.allowsGroupOpacity, default: true,
                                                                 invalidates: .compositing)
        static let contents: Declaration<Image?> = .init("contents", \.contents, default: nil, invalidates: .content)
        static let contentsGravity: Declaration<ContentsGravity> = .init("contentsGravity", \.contentsGravity, default: .resize,
                                                                         invalidates: .content)
        static let contentsRect: Declaration<CGRect> = .init("contentsRect", \.contentsRect, default: CGRect(x: 0, y: 0, width: 1, height: 1),
                                                             invalidates: .content, animatable: .rect)
        static let contentsCenter: Declaration<CGRect> = .init("contentsCenter", \.contentsCenter,
                                                               default: CGRect(x: 0, y: 0, width: 1, height: 1), invalidates: .content,
                                                               animatable: .rect)
        static let contentsScale: Declaration<CGFloat> = .init("contentsScale", \.contentsScale, default: 1, invalidates: .content)
        static let minificationFilter: Declaration<ContentsFilter> = .init("minificationFilter", \.minificationFilter, default: .linear,
                                                                           invalidates: .content)
        static let magnificationFilter: Declaration<ContentsFilter> = .init("magnificationFilter", \.magnificationFilter, default: .linear,
                                                                            invalidates: .content)

        // Shadow
        static let shadowColor: Declaration<Color?> = .init("shadowColor", \.shadowColor, default: .black, invalidates: .shadow,
                                                            animatable: .color)
        static let shadowOpacity: Declaration<Float> = .init("shadowOpacity", \.shadowOpacity, default: 0, invalidates: .shadow,
                                                             animatable: .number)
        static let shadowOffset: Declaration<CGSize> = .init("shadowOffset", \.shadowOffset, default: CGSize(width: 0, height: -3),
                                                             invalidates: .shadow, animatable: .size)
        static let shadowPath: Declaration<Path?> = .init("shadowPath", \.shadowPath, default: nil, invalidates: .shadow)
        static let shadowRadius: Declaration<CGFloat> = .init("shadowRadius", \.shadowRadius, default: 3, invalidates: .shadow, animatable: .number)

        // Caching
        static let shouldRasterize: Declaration<Bool> = .init("shouldRasterize", \.shouldRasterize, default: false, invalidates: .content)
        static let rasterizationScale: Declaration<CGFloat> = .init("rasterizationScale", \.rasterizationScale, default: 1,
                                                                    invalidates: .content, animatable: .number)

        // Timing
        static let beginTime: Declaration<TimeInterval> = .init("beginTime", \.beginTime, default: 0, invalidates: .timing)
        static let speed: Declaration<Float> = .init("speed", \.speed, default: 1, invalidates: .timing)
        static let timeOffset: Declaration<TimeInterval> = .init("timeOffset", \.timeOffset, default: 0, invalidates: .timing)

        // Neither drawn nor timed: copied to presentations and reachable by key path.
        static let name: Declaration<String?> = .init("name", \.name, default: nil, invalidates: [])
        static let needsDisplayOnBoundsChange: Declaration<Bool> = .init("needsDisplayOnBoundsChange", \.needsDisplayOnBoundsChange,
                                                                         default: false, invalidates: [])
    }
}
