// The spellings of Swift 1 and 2 (2014–2016), which many Core Animation tutorials still show:
// CoreGraphics' C functions, `kCA…` string constants, `UIColor.blackColor().CGColor`,
// `layer.addAnimation(_:forKey:)`. Apple replaced them in Swift 3; they are here so that such
// code compiles on its own terms, each forwarding to the modern spelling beside it.

// MARK: CoreGraphics' C functions

/// A new, empty mutable path (`CGMutablePath()`).
public func CGPathCreateMutable() -> CGMutablePath { CGMutablePath() }

/// Starts a new subpath at `(x, y)` (`path.move(to:transform:)`).
public func CGPathMoveToPoint(_ path: CGMutablePath, _ transform: UnsafePointer<CGAffineTransform>?, _ x: CGFloat, _ y: CGFloat) {
    path.move(to: CGPoint(x: x, y: y), transform: transform?.pointee ?? .identity)
}

/// A line from the current point to `(x, y)` (`path.addLine(to:transform:)`).
public func CGPathAddLineToPoint(_ path: CGMutablePath, _ transform: UnsafePointer<CGAffineTransform>?, _ x: CGFloat, _ y: CGFloat) {
    path.addLine(to: CGPoint(x: x, y: y), transform: transform?.pointee ?? .identity)
}

/// An arc with CoreGraphics' rule (`path.addArc(center:radius:startAngle:endAngle:clockwise:transform:)`).
public func CGPathAddArc(_ path: CGMutablePath, _ transform: UnsafePointer<CGAffineTransform>?, _ x: CGFloat, _ y: CGFloat,
                         _ radius: CGFloat, _ startAngle: CGFloat, _ endAngle: CGFloat, _ clockwise: Bool) {
    path.addArc(center: CGPoint(x: x, y: y), radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise,
                transform: transform?.pointee ?? .identity)
}

/// A closed rectangle subpath (`path.addRect(_:transform:)`).
public func CGPathAddRect(_ path: CGMutablePath, _ transform: UnsafePointer<CGAffineTransform>?, _ rect: CGRect) {
    path.addRect(rect, transform: transform?.pointee ?? .identity)
}

/// A closed ellipse subpath (`path.addEllipse(in:transform:)`).
public func CGPathAddEllipseInRect(_ path: CGMutablePath, _ transform: UnsafePointer<CGAffineTransform>?, _ rect: CGRect) {
    path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
}

/// Closes the current subpath (`path.closeSubpath()`).
public func CGPathCloseSubpath(_ path: CGMutablePath) { path.closeSubpath() }

/// A rectangle (`CGRect(x:y:width:height:)`).
public func CGRectMake(_ x: CGFloat, _ y: CGFloat, _ width: CGFloat, _ height: CGFloat) -> CGRect {
    CGRect(x: x, y: y, width: width, height: height)
}

/// A point (`CGPoint(x:y:)`).
public func CGPointMake(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

/// A size (`CGSize(width:height:)`).
public func CGSizeMake(_ width: CGFloat, _ height: CGFloat) -> CGSize { CGSize(width: width, height: height) }

/// The rectangle's smallest x (`rect.minX`).
public func CGRectGetMinX(_ rect: CGRect) -> CGFloat { rect.minX }
/// The rectangle's middle x (`rect.midX`).
public func CGRectGetMidX(_ rect: CGRect) -> CGFloat { rect.midX }
/// The rectangle's largest x (`rect.maxX`).
public func CGRectGetMaxX(_ rect: CGRect) -> CGFloat { rect.maxX }
/// The rectangle's smallest y (`rect.minY`).
public func CGRectGetMinY(_ rect: CGRect) -> CGFloat { rect.minY }
/// The rectangle's middle y (`rect.midY`).
public func CGRectGetMidY(_ rect: CGRect) -> CGFloat { rect.midY }
/// The rectangle's largest y (`rect.maxY`).
public func CGRectGetMaxY(_ rect: CGRect) -> CGFloat { rect.maxY }
/// The rectangle's width (`rect.width`).
public func CGRectGetWidth(_ rect: CGRect) -> CGFloat { rect.width }
/// The rectangle's height (`rect.height`).
public func CGRectGetHeight(_ rect: CGRect) -> CGFloat { rect.height }

// MARK: Core Animation's string constants

/// `.butt`.
public let kCALineCapButt = CAShapeLayerLineCap.butt
/// `.round`.
public let kCALineCapRound = CAShapeLayerLineCap.round
/// `.square`.
public let kCALineCapSquare = CAShapeLayerLineCap.square
/// `.miter`.
public let kCALineJoinMiter = CAShapeLayerLineJoin.miter
/// `.round`.
public let kCALineJoinRound = CAShapeLayerLineJoin.round
/// `.bevel`.
public let kCALineJoinBevel = CAShapeLayerLineJoin.bevel
/// `.nonZero`.
public let kCAFillRuleNonZero = CAShapeLayerFillRule.nonZero
/// `.evenOdd`.
public let kCAFillRuleEvenOdd = CAShapeLayerFillRule.evenOdd

/// `.linear`.
public let kCAMediaTimingFunctionLinear = CAMediaTimingFunctionName.linear
/// `.easeIn`.
public let kCAMediaTimingFunctionEaseIn = CAMediaTimingFunctionName.easeIn
/// `.easeOut`.
public let kCAMediaTimingFunctionEaseOut = CAMediaTimingFunctionName.easeOut
/// `.easeInEaseOut`.
public let kCAMediaTimingFunctionEaseInEaseOut = CAMediaTimingFunctionName.easeInEaseOut
/// `.default`.
public let kCAMediaTimingFunctionDefault = CAMediaTimingFunctionName.default

/// `.removed`.
public let kCAFillModeRemoved = CAMediaTimingFillMode.removed
/// `.forwards`.
public let kCAFillModeForwards = CAMediaTimingFillMode.forwards
/// `.backwards`.
public let kCAFillModeBackwards = CAMediaTimingFillMode.backwards
/// `.both`.
public let kCAFillModeBoth = CAMediaTimingFillMode.both

/// `.center`.
public let kCAGravityCenter = CALayerContentsGravity.center
/// `.resize`.
public let kCAGravityResize = CALayerContentsGravity.resize
/// `.resizeAspect`.
public let kCAGravityResizeAspect = CALayerContentsGravity.resizeAspect
/// `.resizeAspectFill`.
public let kCAGravityResizeAspectFill = CALayerContentsGravity.resizeAspectFill

/// `.natural`.
public let kCAAlignmentNatural = CATextLayerAlignmentMode.natural
/// `.left`.
public let kCAAlignmentLeft = CATextLayerAlignmentMode.left
/// `.right`.
public let kCAAlignmentRight = CATextLayerAlignmentMode.right
/// `.center`.
public let kCAAlignmentCenter = CATextLayerAlignmentMode.center
/// `.justified`.
public let kCAAlignmentJustified = CATextLayerAlignmentMode.justified

// MARK: UIKit's and Core Animation's old method names

/// UIKit's Swift 2 color names: `UIColor.blackColor().CGColor`.
extension Color {
    /// The color as CoreGraphics' type (Swift 2's `CGColor` property; `cgColor` since).
    public var CGColor: Color { self }

    /// Opaque black (`UIColor.black`).
    public static func blackColor() -> Color { .black }
    /// Opaque white (`UIColor.white`).
    public static func whiteColor() -> Color { .white }
    /// Transparent (`UIColor.clear`).
    public static func clearColor() -> Color { .clear }
    /// 50 % gray (`UIColor.gray`).
    public static func grayColor() -> Color { .gray }
    /// 1/3 white (`UIColor.darkGray`).
    public static func darkGrayColor() -> Color { .darkGray }
    /// 2/3 white (`UIColor.lightGray`).
    public static func lightGrayColor() -> Color { .lightGray }
    /// Pure red (`UIColor.red`).
    public static func redColor() -> Color { .red }
    /// Pure green (`UIColor.green`).
    public static func greenColor() -> Color { .green }
    /// Pure blue (`UIColor.blue`).
    public static func blueColor() -> Color { .blue }
    /// Cyan (`UIColor.cyan`).
    public static func cyanColor() -> Color { .cyan }
    /// Yellow (`UIColor.yellow`).
    public static func yellowColor() -> Color { .yellow }
    /// Magenta (`UIColor.magenta`).
    public static func magentaColor() -> Color { .magenta }
    /// Orange (`UIColor.orange`).
    public static func orangeColor() -> Color { .orange }
    /// Purple (`UIColor.purple`).
    public static func purpleColor() -> Color { .purple }
    /// Brown (`UIColor.brown`).
    public static func brownColor() -> Color { .brown }
}

/// Core Animation's Swift 2 method name.
extension CALayer {
    /// Runs a copy of `animation` (Swift 2's name for `add(_:forKey:)`).
    public func addAnimation(_ animation: CAAnimation, forKey key: String?) { add(animation, forKey: key) }
}
