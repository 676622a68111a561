import Foundation
import Testing
@testable import LayerKit

/// Core Animation's geometry rules under transforms. Each expected value names its source:
/// Apple's documentation, a measurement on a device published by a well-known reference, or the
/// arithmetic those sources imply (shown beside the number).
@Suite struct CoreAnimationGeometryTests {
    /// A layer whose frame is set from nothing, with `transform` applied first.
    private func layer(transform: Transform3D, frame: CGRect, anchorPoint: CGPoint = CGPoint(x: 0.5, y: 0.5)) -> Layer {
        let layer = Layer()
        layer.anchorPoint = anchorPoint
        layer.transform = transform
        layer.frame = frame
        return layer
    }

    // MARK: frame under a transform

    @Test func frameSetUnderAHalfScaleDoublesTheBoundsAndReadsBack() {
        // flowkey/UIKit-cross-platform's CALayerTests (run against iOS as well):
        // testLayerBoundsSizeWithTransform — under a 0.5 scale a 100x100 frame gives bounds of
        // 100 / 0.5 = 200; testLayerFrameWithTransform — the frame reads back as set.
        let l = layer(transform: Transform3D(scaleX: 0.5, y: 0.5), frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        #expect(l.bounds.size == CGSize(width: 200, height: 200))
        #expect(l.position == CGPoint(x: 100, y: 100))   // the frame's centre, anchor (0.5, 0.5)
        #expect(close(l.frame, CGRect(x: 50, y: 50, width: 100, height: 100)))
    }

    @Test func frameSetUnderAnUnevenScaleReadsBack() {
        // UIKit-cross-platform's testLayerFrameWithTransform: scales 0.25 and 0.75 "to detect
        // x/y swapped accidentally"; bounds = 100 / 0.25 by 100 / 0.75.
        let l = layer(transform: Transform3D(scaleX: 0.25, y: 0.75), frame: CGRect(x: 50, y: 50, width: 100, height: 100))
        #expect(close(l.bounds.width, 400) && close(l.bounds.height, 100 / 0.75))
        #expect(close(l.frame, CGRect(x: 50, y: 50, width: 100, height: 100)))
    }

    @Test func frameSetUnderAScaleWithACornerAnchorReadsBack() {
        // Apple (CALayer.frame): the frame derives from bounds, anchorPoint, position and
        // transform, and setting it sets position and bounds to match. With anchor (0, 0) the
        // position is the frame's origin: the scale turns about it.
        let l = layer(transform: Transform3D(scaleX: 0.5, y: 0.5), frame: CGRect(x: 10, y: 20, width: 30, height: 40),
                      anchorPoint: .zero)
        #expect(l.bounds.size == CGSize(width: 60, height: 80))
        #expect(l.position == CGPoint(x: 10, y: 20))
        #expect(close(l.frame, CGRect(x: 10, y: 20, width: 30, height: 40)))
    }

    @Test func frameSetUnderATranslationTakesTheShiftOffThePosition() {
        // The frame is the transformed bounds' box, so a translation in `transform` moves it;
        // setting it must take the shift off the position for the frame to read back as set.
        let l = layer(transform: Transform3D(translationX: 10, y: -20), frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(l.bounds.size == CGSize(width: 100, height: 50))
        #expect(l.position == CGPoint(x: 50 - 10, y: 25 + 20))
        #expect(l.frame == CGRect(x: 0, y: 0, width: 100, height: 50))
    }

    @Test func frameSetUnderAQuarterTurnSwapsTheBoundsSize() {
        // Apple: do not set the frame under a rotation "that is not a multiple of 90 degrees";
        // under a quarter turn it is exact: a 100 wide, 50 high frame is a 50x100 layer turned.
        let l = layer(transform: Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1), frame: CGRect(x: 0, y: 0, width: 100, height: 50))
        #expect(close(l.bounds.width, 50) && close(l.bounds.height, 100))
        #expect(close(l.frame, CGRect(x: 0, y: 0, width: 100, height: 50)))
    }

    @Test func frameSetUnderAnArbitraryRotationMatchesTheDevice() {
        // Measured on an iPhone (Stack Overflow, "Strange behavior of UIView frame after
        // rotation", 2011): a 100x100 view at (20, 20) turned by 0.1 rad reports the frame
        // (15.258121, 15.258121, 109.483757, 109.483757); setting the frame back to
        // (20, 20, 100, 100) then reads (11.063205, 20, 117.873589, 100).
        let l = Layer()
        l.frame = CGRect(x: 20, y: 20, width: 100, height: 100)
        l.transform = Transform3D(rotationAngle: 0.1, x: 0, y: 0, z: 1)
        // The device computed in 32-bit floats: agreement to 2e-5 is agreement to its precision.
        #expect(close(l.frame, CGRect(x: 15.258121, y: 15.258121, width: 109.483757, height: 109.483757), 2e-5))
        l.frame = CGRect(x: 20, y: 20, width: 100, height: 100)
        #expect(close(l.frame, CGRect(x: 11.063205, y: 20, width: 117.873589, height: 100), 2e-5))
    }

    @Test func frameReadsTheTransformedBoundsBoxWithoutTheSuperlayersSublayerTransform() {
        // Apple: the frame derives from the layer's bounds, anchorPoint, position (and
        // transform); a superlayer's sublayerTransform (a shared perspective) is not among them,
        // so laying sublayers out by frame under a perspective container still reads back.
        let container = Layer()
        container.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        container.sublayerTransform = Transform3D(perspectiveDistance: 500).rotated(by: 0.3, x: 0, y: 1, z: 0)
        let card = Layer()
        container.addSublayer(card)
        card.frame = CGRect(x: 10, y: 20, width: 80, height: 60)
        #expect(card.frame == CGRect(x: 10, y: 20, width: 80, height: 60))
        #expect(card.position == CGPoint(x: 50, y: 50))
    }

    // MARK: bounds and position round trips

    @Test func boundsAndPositionRoundTripThroughFrame() {
        // Apple (CALayer.frame): position = frame.origin + anchorPoint · size when the
        // transform is the identity; growing the bounds keeps the anchor point fixed
        // (UIKit-cross-platform's testBoundsSizeMovesAroundAnchorPoint).
        let l = Layer()
        l.frame = CGRect(x: 50, y: 50, width: 100, height: 100)
        #expect(l.position == CGPoint(x: 100, y: 100))
        l.bounds.size = CGSize(width: 256, height: 512)
        #expect(l.frame == CGRect(x: 100 - 128, y: 100 - 256, width: 256, height: 512))
        let frame = l.frame
        l.frame = frame
        #expect(l.position == CGPoint(x: 100, y: 100) && l.bounds.size == CGSize(width: 256, height: 512))
    }

    @Test func boundsOriginDoesNotMoveTheFrame() {
        // Apple (CALayer.bounds): the origin is the layer's own coordinate space, not where it
        // sits; the frame only depends on its size.
        let l = Layer()
        l.frame = CGRect(x: 10, y: 10, width: 40, height: 20)
        l.bounds.origin = CGPoint(x: 500, y: -300)
        #expect(l.frame == CGRect(x: 10, y: 10, width: 40, height: 20))
    }

    // MARK: conversions

    @Test func conversionBetweenSiblingsGoesThroughTheirSuperlayer() {
        // Apple (convert(_:from:)): the receiver and the layer share a common parent. Sibling a
        // at frame (10, 10, 50, 50), b at (100, 40, 20, 20): a's (5, 5) is the parent's
        // (15, 15), which is b's (15 − 100, 15 − 40).
        let root = Layer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let a = Layer(), b = Layer()
        root.addSublayer(a); root.addSublayer(b)
        a.frame = CGRect(x: 10, y: 10, width: 50, height: 50)
        b.frame = CGRect(x: 100, y: 40, width: 20, height: 20)
        #expect(b.convert(CGPoint(x: 5, y: 5), from: a) == CGPoint(x: -85, y: -25))
        #expect(a.convert(CGPoint(x: -85, y: -25), from: b) == CGPoint(x: 5, y: 5))
        #expect(a.convert(CGPoint(x: 5, y: 5), to: b) == CGPoint(x: -85, y: -25))
    }

    @Test func conversionThroughScaledAndTranslatedAncestors() {
        // Apple's convert(_:from:) example: a layer scaled to half its size inside another;
        // a point in it maps through position, anchor and the scale. Here the parent at
        // (100, 50) is scaled by 0.5 about its centre (anchor (0.5, 0.5), bounds 200x100) and
        // translated by (10, 0); the child sits at the parent's (0, 0) corner.
        let root = Layer()
        root.frame = CGRect(x: 0, y: 0, width: 400, height: 400)
        let parent = Layer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        parent.position = CGPoint(x: 100, y: 50)
        parent.transform = Transform3D(scaleX: 0.5, y: 0.5).concatenating(Transform3D(translationX: 10, y: 0))
        root.addSublayer(parent)
        let child = Layer()
        child.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        parent.addSublayer(child)
        // child (0, 0) = parent (0, 0) = root (100 + 10 + (0 − 100)·0.5, 50 + (0 − 50)·0.5).
        #expect(close(child.convert(CGPoint.zero, to: root), CGPoint(x: 60, y: 25)))
        // child (20, 20) = parent (20, 20) = root (110 − 40, 50 − 15).
        #expect(close(child.convert(CGPoint(x: 20, y: 20), to: root), CGPoint(x: 70, y: 35)))
        #expect(close(root.convert(CGPoint(x: 70, y: 35), to: child), CGPoint(x: 20, y: 20)))
        let rect = child.convert(child.bounds, to: root)
        #expect(close(rect, CGRect(x: 60, y: 25, width: 10, height: 10)))
    }

    @Test func conversionAcrossTreesGoesThroughEachRoot() {
        // Core Animation converts between layers with no common superlayer through each
        // root's own geometry, as if the roots were sublayers of one space; nil names that
        // space (Apple: with nil, "the original point subtracted from the layer's frame's
        // origin"). Tree 1's root has its frame at (100, 0); tree 2's root is scaled by 2
        // about its centre, frame origin (−50, −50) of its 100x100 bounds.
        let root1 = Layer()
        root1.frame = CGRect(x: 100, y: 0, width: 50, height: 50)
        let leaf1 = Layer()
        leaf1.frame = CGRect(x: 10, y: 10, width: 10, height: 10)
        root1.addSublayer(leaf1)
        let root2 = Layer()
        root2.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root2.position = CGPoint(x: 50, y: 50)
        root2.transform = Transform3D(scaleX: 2, y: 2)
        // leaf1 (0, 0) = root1 (10, 10) = common (110, 10) = root2 (50 + (110 − 50)/2, 50 + (10 − 50)/2).
        #expect(close(root2.convert(CGPoint.zero, from: leaf1), CGPoint(x: 80, y: 30)))
        #expect(close(leaf1.convert(CGPoint(x: 80, y: 30), from: root2), .zero))
        #expect(close(leaf1.convert(CGPoint.zero, to: nil), CGPoint(x: 110, y: 10)))
        #expect(close(leaf1.convert(CGPoint(x: 110, y: 10), from: nil), .zero))
    }

    @Test func conversionFromADetachedLayerUsesItsOwnFrame() {
        // Apple (convert(_:from:) with nil): a point is "subtracted from the layer's frame's
        // origin". A detached layer with frame (30, 40, 10, 10) converts its (0, 0) to a tree's
        // layer at frame (5, 5) as the point (30 − 5, 40 − 5).
        let detached = Layer()
        detached.frame = CGRect(x: 30, y: 40, width: 10, height: 10)
        #expect(detached.convert(CGPoint(x: 31, y: 42), from: nil) == CGPoint(x: 1, y: 2))
        #expect(detached.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 31, y: 42))
        let root = Layer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let target = Layer()
        target.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
        root.addSublayer(target)
        #expect(target.convert(CGPoint.zero, from: detached) == CGPoint(x: 25, y: 35))
    }

    @Test func conversionWithinOneTreeIgnoresTheRootsOwnTransform() {
        // Within one tree the common ancestor is as far as a conversion goes: a root that is
        // scaled to nothing (singular) still lets its sublayers convert between themselves.
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.transform = Transform3D(scaleX: 0, y: 0)
        let a = Layer(), b = Layer()
        a.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        b.frame = CGRect(x: 50, y: 50, width: 10, height: 10)
        root.addSublayer(a); root.addSublayer(b)
        #expect(b.convert(CGPoint(x: 1, y: 1), from: a) == CGPoint(x: -49, y: -49))
        // Out of the tree, through the singular root, there is no way back: (nan, nan).
        #expect(b.convert(CGPoint(x: 1, y: 1), from: nil).x.isNaN)
    }

    // MARK: hit testing

    /// A 100x100 root at the origin with a child hanging out of it to the right.
    private func treeWithOverhang() -> (root: Layer, parent: Layer, overhang: Layer) {
        let root = Layer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        let parent = Layer()
        parent.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(parent)
        let overhang = Layer()
        overhang.frame = CGRect(x: 90, y: 10, width: 50, height: 20)   // 40 points outside
        parent.addSublayer(overhang)
        return (root, parent, overhang)
    }

    @Test func hitTestFindsAChildOutsideItsSuperlayersBounds() {
        // Core Animation (measured by swizzling -hitTest: on iOS, lxian.github.io 2016, "CALayer
        // hittest 检索顺序"): the search is depth first with no cut at a layer's own bounds, so
        // a point outside a layer but inside its sublayer finds the sublayer; only
        // masksToBounds cuts the search. (UIKit's view rule is different.)
        let (root, parent, overhang) = treeWithOverhang()
        #expect(root.hitTest(CGPoint(x: 120, y: 20)) === overhang)
        #expect(root.hitTest(CGPoint(x: 95, y: 20)) === overhang)   // the part inside, on top
        #expect(root.hitTest(CGPoint(x: 50, y: 50)) === parent)
        #expect(root.hitTest(CGPoint(x: 250, y: 250)) === root)
        #expect(root.hitTest(CGPoint(x: 350, y: 20)) == nil)        // outside everything
        #expect(parent.hitTest(CGPoint(x: 120, y: 20)) === overhang) // from the parent: its superlayer's point
    }

    @Test func masksToBoundsCutsTheSearchAtTheBounds() {
        // The same source: with masksToBounds the layer's sublayers are not searched outside
        // its bounds (what is clipped away cannot be hit), but still are inside.
        let (root, parent, overhang) = treeWithOverhang()
        parent.masksToBounds = true
        #expect(root.hitTest(CGPoint(x: 120, y: 20)) === root)
        #expect(root.hitTest(CGPoint(x: 95, y: 20)) === overhang)
    }

    @Test func hitTestFollowsTransforms() {
        // Apple (hitTest(_:)): the point is in the superlayer's coordinate space and is mapped
        // into each layer through its geometry. A 100x10 bar turned a quarter about its centre
        // (100, 100) covers x 95…105, y 50…150; scaled by 2 about the same centre, a 10x10 box
        // covers 90…110.
        let root = Layer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        let bar = Layer()
        bar.bounds = CGRect(x: 0, y: 0, width: 100, height: 10)
        bar.position = CGPoint(x: 100, y: 100)
        bar.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        root.addSublayer(bar)
        #expect(root.hitTest(CGPoint(x: 100, y: 140)) === bar)
        #expect(root.hitTest(CGPoint(x: 140, y: 100)) === root)
        bar.isHidden = true
        let box = Layer()
        box.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        box.position = CGPoint(x: 100, y: 100)
        box.transform = Transform3D(scaleX: 2, y: 2)
        root.addSublayer(box)
        #expect(root.hitTest(CGPoint(x: 91, y: 109)) === box)
        #expect(root.hitTest(CGPoint(x: 89, y: 100)) === root)
    }

    @Test func hitTestOnARootTakesThePointInTheSpaceTheRootSitsIn() {
        // Apple (hitTest(_:)): "a point in the coordinate system of the receiver's
        // superlayer"; a root has none, so the point is in the space `convert(_:from: nil)`
        // names: a root with frame (100, 100, 50, 50) is hit at (120, 120), not at (20, 20).
        let root = Layer()
        root.frame = CGRect(x: 100, y: 100, width: 50, height: 50)
        #expect(root.hitTest(CGPoint(x: 120, y: 120)) === root)
        #expect(root.hitTest(CGPoint(x: 20, y: 20)) == nil)
    }
}
