import Foundation
import Testing
import LayerKit   // not @testable: subclasses declare their properties with the public API alone

/// A layer with properties of its own, declared as the built-in ones are: an animatable
/// `progress` that its drawing shows, and a plain `label`.
final class ProgressLayer: Layer {
    enum Properties {
        static let progress: LayerProperty<ProgressLayer, CGFloat> =
            .init("progress", \.progress, default: 0, invalidates: .content, animatable: .number)
        static let label: LayerProperty<ProgressLayer, String> = .init("label", \.label, default: "", invalidates: [])
    }

    @Declared(Properties.progress) var progress: CGFloat
    @Declared(Properties.label) var label: String

    /// Fills the left `progress` of the bounds.
    override func draw(in context: GraphicsContext) {
        context.setFillColor(.green)
        context.fill(CGRect(x: bounds.minX, y: bounds.minY, width: bounds.width * progress, height: bounds.height))
    }
}

/// A class no test makes a layer of before its typed key path is used.
final class LevelLayer: Layer {
    enum Properties {
        static let level: LayerProperty<LevelLayer, Double> = .init("level", \.level, default: 1, invalidates: .content, animatable: .number)
    }

    @Declared(Properties.level) var level: Double
}

@Suite struct CustomLayerPropertyTests {
    @Test func aSubclassPropertyIsReachedByNameAndByTypedKeyPath() {
        let layer = ProgressLayer()
        #expect(layer.progress == 0)
        #expect(layer.value(forKeyPath: "progress") as? Double == 0)
        layer.setValue(0.25, forKeyPath: "progress")
        #expect(layer.progress == 0.25)
        layer.setValue("half", forKeyPath: "label")
        #expect(layer.label == "half")
        #expect(PropertyAnimation.name(of: \ProgressLayer.progress) == "progress")
        #expect(BasicAnimation(keyPath: \ProgressLayer.progress).keyPath == "progress")
        // Inherited properties keep working beside them.
        layer.setValue(CGPoint(x: 3, y: 4), forKeyPath: "position")
        #expect(layer.position == CGPoint(x: 3, y: 4))
    }

    @Test func aSubclassPropertyAnimatesAndReachesPresentationCopies() throws {
        let layer = ProgressLayer()
        layer.label = "loading"
        let fill = BasicAnimation(keyPath: "progress")
        fill.fromValue = 0.0
        fill.toValue = 1.0
        fill.duration = 2
        fill.timingFunction = TimingFunction(name: .linear)
        try fill.validate(for: layer)
        layer.add(fill, forKey: "fill")
        let presented = layer.presentation(at: 0.5)   // typed: a ProgressLayer
        #expect(abs(presented.progress - 0.25) < 1e-12)
        #expect(presented.label == "loading")
        #expect(layer.progress == 0)
        let copy = ProgressLayer(layer: layer)
        #expect(copy.label == "loading")
    }

    @Test func aSubclassPropertyTracksChangesAnimatesImplicitlyAndRepaints() throws {
        let layer = ProgressLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 10)
        layer.setNeedsDisplay()
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 40, height: 10)
        renderer.render(layer, at: 0, into: target)
        #expect(target.pixel(x: 5, y: 5).alpha == 0)

        let version = layer.contentVersion, changes = layer.changeCount
        layer.label = "no content"
        #expect(layer.changeCount == changes)   // declared to invalidate nothing
        Transaction.perform(disableActions: true) { layer.progress = 0.5 }
        #expect(layer.contentVersion == version + 1)
        let damage = renderer.render(layer, at: 0, into: target)
        #expect(target.pixel(x: 5, y: 5) == .green)
        #expect(target.pixel(x: 30, y: 5).alpha == 0)
        #expect(damage.contains(x: 5, y: 5))

        // Once rendered, a change animates (as every animatable property does).
        layer.progress = 1
        #expect(layer.animationKeys() == ["progress"])
    }

    @Test func aTypedKeyPathOfAClassNotYetSeenResolvesWhenAdded() throws {
        let rise = BasicAnimation(keyPath: \LevelLayer.level)
        rise.toValue = 3.0
        rise.duration = 1
        rise.timingFunction = TimingFunction(name: .linear)
        let layer = LevelLayer()
        layer.add(rise, forKey: "rise")
        #expect((layer.animation(forKey: "rise") as? BasicAnimation)?.keyPath == "level")
        let presented = layer.presentation(at: 0.5)   // typed: a LevelLayer
        #expect(abs(presented.level - 2) < 1e-12)
    }
}
