// LayerKitQuartzCore: Core Animation's names for LayerKit, so that a file written for iOS
// compiles by importing this module instead of QuartzCore.
//
// Every name here is LayerKit's own type or function under Core Animation's spelling; nothing
// is a second implementation. Where LayerKit's value type differs from Core Animation's
// (`Path` for CGPath, `Color` for CGColor), this module supplies the CG/UIKit spelling.
// The differences that remain are listed in the documentation's "Porting from Core Animation".

@_exported import Foundation
@_exported import LayerKit

// MARK: Layers

/// Core Animation's CALayer: LayerKit's `Layer`.
public typealias CALayer = Layer
/// Core Animation's CAShapeLayer: LayerKit's `ShapeLayer`.
public typealias CAShapeLayer = ShapeLayer
/// Core Animation's CATextLayer: LayerKit's `TextLayer`.
public typealias CATextLayer = TextLayer
/// Core Animation's CAGradientLayer: LayerKit's `GradientLayer`.
public typealias CAGradientLayer = GradientLayer
/// Core Animation's CAReplicatorLayer: LayerKit's `ReplicatorLayer`.
public typealias CAReplicatorLayer = ReplicatorLayer
/// Core Animation's CATransformLayer: LayerKit's `TransformLayer`.
public typealias CATransformLayer = TransformLayer
/// Core Animation's CALayerDelegate: LayerKit's `LayerDelegate`.
public typealias CALayerDelegate = LayerDelegate
/// Core Animation's CAAction: LayerKit's `LayerAction` (`.none` is CA's `NSNull()`,
/// `.default` its `nil`).
public typealias CAAction = LayerAction

// MARK: Layer property types

/// Core Animation's CALayerContentsGravity: LayerKit's `ContentsGravity`.
public typealias CALayerContentsGravity = ContentsGravity
/// Core Animation's CALayerContentsFilter: LayerKit's `ContentsFilter`.
public typealias CALayerContentsFilter = ContentsFilter
/// Core Animation's CACornerMask: LayerKit's `CornerMask`.
public typealias CACornerMask = CornerMask
/// Core Animation's CAShapeLayerLineCap: LayerKit's `LineCap`.
public typealias CAShapeLayerLineCap = LineCap
/// Core Animation's CAShapeLayerLineJoin: LayerKit's `LineJoin`.
public typealias CAShapeLayerLineJoin = LineJoin
/// Core Animation's CAShapeLayerFillRule: LayerKit's `FillRule`.
public typealias CAShapeLayerFillRule = FillRule
/// Core Animation's CATextLayerAlignmentMode: LayerKit's `TextAlignment`.
public typealias CATextLayerAlignmentMode = TextAlignment
/// Core Animation's CATextLayerTruncationMode: LayerKit's `TextTruncation`.
public typealias CATextLayerTruncationMode = TextTruncation
/// Core Animation's CAGradientLayerType: LayerKit's `GradientLayer.GradientType`.
public typealias CAGradientLayerType = GradientLayer.GradientType

// MARK: Animations and timing

/// Core Animation's CAAnimation: LayerKit's `Animation`.
public typealias CAAnimation = Animation
/// Core Animation's CAPropertyAnimation: LayerKit's `PropertyAnimation`.
public typealias CAPropertyAnimation = PropertyAnimation
/// Core Animation's CABasicAnimation: LayerKit's `BasicAnimation`.
public typealias CABasicAnimation = BasicAnimation
/// Core Animation's CAKeyframeAnimation: LayerKit's `KeyframeAnimation`.
public typealias CAKeyframeAnimation = KeyframeAnimation
/// Core Animation's CAAnimationGroup: LayerKit's `AnimationGroup`.
public typealias CAAnimationGroup = AnimationGroup
/// Core Animation's CASpringAnimation: LayerKit's `SpringAnimation`.
public typealias CASpringAnimation = SpringAnimation
/// Core Animation's CAAnimationDelegate: LayerKit's `AnimationDelegate`.
public typealias CAAnimationDelegate = AnimationDelegate
/// Core Animation's CAMediaTimingFunction: LayerKit's `TimingFunction`.
public typealias CAMediaTimingFunction = TimingFunction
/// Core Animation's CAMediaTimingFunctionName (`.linear`, `.easeIn`, `.easeOut`,
/// `.easeInEaseOut`, `.default`): LayerKit's `TimingFunction.Name`.
public typealias CAMediaTimingFunctionName = TimingFunction.Name
/// Core Animation's CAMediaTimingFillMode (`.removed`, `.forwards`, `.backwards`, `.both`):
/// LayerKit's `FillMode`.
public typealias CAMediaTimingFillMode = FillMode
/// Core Animation's CAAnimationCalculationMode: LayerKit's `CalculationMode`.
public typealias CAAnimationCalculationMode = CalculationMode
/// Core Animation's CAAnimationRotationMode: LayerKit's `RotationMode`.
public typealias CAAnimationRotationMode = RotationMode

#if !canImport(Darwin)
/// Core Foundation's time interval in seconds, which Foundation on Linux does not export.
public typealias CFTimeInterval = TimeInterval
#endif

/// Core Animation's `Float` initializer.
extension TimingFunction {
    /// A custom curve from Core Animation's `Float` control points
    /// (`CAMediaTimingFunction(controlPoints:_:_:_:)`).
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.init(controlPoints: Double(c1x), Double(c1y), Double(c2x), Double(c2y))
    }
}

// MARK: Images and drawing

/// CoreGraphics' CGImage: LayerKit's `Image`, what `contents` holds.
public typealias CGImage = Image
/// CoreGraphics' CGContext: LayerKit's `GraphicsContext`, what `draw(in:)` receives.
public typealias CGContext = GraphicsContext
/// CoreGraphics' CGLineCap: LayerKit's `LineCap`.
public typealias CGLineCap = LineCap
/// CoreGraphics' CGLineJoin: LayerKit's `LineJoin`.
public typealias CGLineJoin = LineJoin
/// CoreGraphics' CGPathFillRule (`.winding`, `.evenOdd`): LayerKit's `FillRule`.
public typealias CGPathFillRule = FillRule
/// CoreGraphics' CGPathDrawingMode: LayerKit's `GraphicsContext.DrawingMode`.
public typealias CGPathDrawingMode = GraphicsContext.DrawingMode

/// CoreGraphics' name for the non-zero rule.
extension FillRule {
    /// CoreGraphics' name for the non-zero winding rule.
    public static var winding: FillRule { .nonZero }
}
