import Foundation
import Testing
@testable import LayerKit

// Tests generated from the property declarations: every declared property of every built-in
// layer class is a case, so a property declared tomorrow is tested tomorrow without anyone
// listing it here. Each case says which declaration it is ("ShapeLayer.strokeEnd"). Fixtures and
// helpers are in PropertyDeclarationFixtures.swift.

@Suite struct PropertyDeclarationTests {
    /// Changing the property (without animation) repaints the pixels it governs, tells
    /// `changed(_:)`, and declares content or shadow if it made the renderer rasterize a store
    /// again.
    @Test(arguments: DeclaredProperty.animatable)
    func changingEachAnimatablePropertyRepaints(_ property: DeclaredProperty) throws {
        let (root, layer) = try propertyFixture(property.className)
        let access = try #require(LayerPropertyTable.of(layer).entries[property.name]?.animatable)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 96, height: 96)
        renderer.render(root, at: 0, into: target)
        let before = try target.copy()

        let new = perturbed(access.get(layer))
        let changed = type(of: layer).init(layer: layer)
        access.set(changed, new)
        let invalidation = property.declaration.invalidation(from: layer, to: changed)
        let changes = layer.changeCount
        Transaction.perform(disableActions: true) { layer.setValue(new.boxed, forKeyPath: property.name) }
        #expect(layer.changeCount > changes, "\(property) changed without telling changed(_:)")
        #expect(!invalidation.isEmpty, "\(property) declares that its change invalidates nothing")

        let damage = renderer.render(root, at: 0, into: target)
        try expectRepaint(from: before, to: target, damage: damage, root: root, at: 0, "changing \(property)")

        // What the renderer rasterizes again tells content from the rest. Without sublayers, so
        // that every store rasterized again is the layer's own (sublayers' placement inside a
        // rasterized group, and a replicator's tints, are rasterized too).
        let (bareRoot, bare) = try propertyFixture(property.className)
        bare.sublayers = nil
        let bareRenderer = Renderer(threadCount: 1)
        _ = try bareRenderer.render(bareRoot, at: 0)
        let stores = bareRenderer.rasterizationCount
        Transaction.perform(disableActions: true) { bare.setValue(new.boxed, forKeyPath: property.name) }
        _ = try bareRenderer.render(bareRoot, at: 0)
        if bareRenderer.rasterizationCount > stores {
            #expect(!invalidation.isDisjoint(with: [.content, .shadow]),
                    "changing \(property) rasterized the layer's store again, but it declares only \(invalidation)")
        }
    }

    /// Animating the property from its value to another repaints mid-animation, and leaves the
    /// model value alone.
    @Test(arguments: DeclaredProperty.animatable)
    func animatingEachAnimatablePropertyRepaints(_ property: DeclaredProperty) throws {
        let (root, layer) = try propertyFixture(property.className)
        let access = try #require(LayerPropertyTable.of(layer).entries[property.name]?.animatable)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 96, height: 96)
        renderer.render(root, at: 0, into: target)
        let before = try target.copy()

        let model = access.get(layer)
        let animation = BasicAnimation(keyPath: property.name)
        animation.toValue = perturbed(model).boxed
        animation.duration = 1
        animation.timingFunction = TimingFunction(name: .linear)
        layer.add(animation, forKey: "probe")
        #expect(layer.animationKeys() == ["probe"], "an animation of \(property) was refused")

        let damage = renderer.render(root, at: 0.5, into: target)
        try expectRepaint(from: before, to: target, damage: damage, root: root, at: 0.5, "animating \(property)")
        #expect(access.get(layer) == model, "animating \(property) changed the model value")
    }

    /// The property's name and its parts' names round-trip through string and typed key
    /// paths: a typed key path names its string key path, both reach the same value, and a value
    /// set by name lands in the property's own storage.
    @Test(arguments: DeclaredProperty.all)
    func namesRoundTripThroughStringAndTypedKeyPaths(_ property: DeclaredProperty) throws {
        let layer = LayerClasses.make(property.className)
        let table = LayerPropertyTable.of(layer)
        let declaration = property.declaration
        let typed = declaration.typedKeyPaths()
        #expect(typed.first?.name == property.name)
        for (keyPath, name) in typed {
            #expect(LayerPropertyTable.name(of: keyPath.keyPath) == name, "\(name)")
            let entry = try #require(table.entries[name], "typed key path \(name) has no string key path")
            let typedValue = try #require(layer[keyPath: keyPath.keyPath], "\(name)")
            #expect(sameValue(typedValue, entry.get(layer), entry), "\(name)")
        }
        let entry = try #require(table.entries[property.name])
        let new = try #require(perturbedValue(forKeyPath: property.name, of: layer))
        layer.setValue(new, forKeyPath: property.name)
        #expect(sameValue(new, entry.get(layer), entry), "setValue(_:forKeyPath: \"\(property.name)\") did not set it")
        let typedValue = try #require(layer[keyPath: typed[0].keyPath.keyPath])
        #expect(sameValue(typedValue, new, entry), "the typed key path reads another property")
        let stored = try #require(storedValue(of: declaration, in: layer), "no @Declared storage holds \(property)")
        #expect(sameValue(stored, new, entry), "the value set by name is not in \(property)'s own storage")
    }

    /// Every part ("position.x", "bounds.size.width", "transform.rotation.z", …) reads its part
    /// and writes only it.
    @Test(arguments: DeclaredProperty.animatable)
    func partsReadAndWriteOnlyTheirPart(_ property: DeclaredProperty) throws {
        let table = LayerPropertyTable.of(LayerClasses.make(property.className))
        let prefix = property.name + "."
        let parts = table.entries.keys.filter { $0.hasPrefix(prefix) }.sorted()
        for part in parts {
            let layer = LayerClasses.make(property.className)
            let access = try #require(table.entries[part]?.animatable)
            let whole = try #require(table.entries[property.name]?.animatable)
            let wholeBefore = whole.get(layer)
            // Parts under another first name ("size.width" beside "origin.x", "scale.x" beside
            // "rotation.z") must keep their values.
            func group(_ name: String) -> Substring? { name.dropFirst(prefix.count).split(separator: ".").first }
            let others = parts.filter { group($0) != group(part) }
            let othersBefore = others.map { table.entries[$0]!.animatable!.get(layer) }
            let new = perturbed(access.get(layer))
            layer.setValue(new.boxed, forKeyPath: part)
            #expect(approximatelyEqual(access.get(layer), new), "\(part) reads \(access.get(layer)) after being set to \(new)")
            #expect(whole.get(layer) != wholeBefore, "setting \(part) left \(property.name) as it was")
            for (other, before) in zip(others, othersBefore) {
                #expect(approximatelyEqual(table.entries[other]!.animatable!.get(layer), before), "setting \(part) changed \(other)")
            }
        }
    }

    /// Presentation copies carry every declared property, the inherited ones too.
    @Test(arguments: LayerClasses.names)
    func presentationCopiesCarryEveryDeclaredProperty(_ className: String) throws {
        let layer = LayerClasses.make(className)
        let pristine = LayerClasses.make(className)
        let declarations = LayerPropertyTable.of(layer).declarations
        for declaration in declarations {
            layer.setValue(perturbedValue(forKeyPath: declaration.name, of: layer), forKeyPath: declaration.name)
            #expect(!declaration.hasSameValue(layer, pristine), "\(className).\(declaration.name) did not change")
        }
        let copy = type(of: layer).init(layer: layer)
        for declaration in declarations {
            #expect(declaration.hasSameValue(copy, layer), "the presentation copy lost \(className).\(declaration.name)")
        }
        // The same through presentation(): a running animation makes it a copy.
        let nudge = BasicAnimation(keyPath: "anchorPointZ")
        nudge.byValue = 1.0
        nudge.duration = 10
        layer.add(nudge, forKey: "nudge")
        let presented = layer.presentation(at: 1)
        #expect(presented !== layer)
        for declaration in declarations where declaration.name != "anchorPointZ" {
            #expect(declaration.hasSameValue(presented, layer), "presentation() lost \(className).\(declaration.name)")
        }
    }

    /// A new stored property must be declared (or be listed here as state that is not a layer
    /// property), so that it cannot miss the derived tables.
    @Test(arguments: LayerClasses.names)
    func everyStoredPropertyIsDeclaredOrKnownState(_ className: String) {
        // The class's own stored properties (its superclass has its own case).
        for child in Mirror(reflecting: LayerClasses.make(className)).children where !(child.value is DeclaredStorage) {
            #expect(Self.undeclaredState.contains(child.label ?? ""),
                    "\(className).\(child.label ?? "?") is stored but not declared: declare it with @Declared, or list it in undeclaredState if it is not a layer property")
        }
    }

    /// What a layer stores besides its declared properties: identity, tree links, animations,
    /// delegation, and the renderer's bookkeeping. None of it is copied to presentations or
    /// reached by key path.
    static let undeclaredState: Set<String> = [
        "id", "superlayer", "sublayerStorage", "maskStorage", "maskOwner", "animationEntries", "actions", "delegate",
        "hasBeenRendered", "isPresentationCopy", "modelLayerStorage", "treeTime", "needsDisplay", "drawsContent",
        "drawnCache", "contentVersion", "changeCount", "tracking", "reportedValueProblems", "declaredChanges", "writtenSlots",
        "lastResolved",
    ]

    /// The animatable properties are Core Animation's that LayerKit draws (a property that stops
    /// animating, or starts, shows up here).
    @Test func theAnimatablePropertiesAreTheExpectedOnes() {
        let names = Dictionary(grouping: DeclaredProperty.animatable, by: \.className).mapValues { Set($0.map(\.name)) }
        #expect(names["Layer"] == ["bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform", "sublayerTransform",
                                   "backgroundColor", "opacity", "cornerRadius", "borderWidth", "borderColor", "contentsRect",
                                   "contentsCenter", "shadowColor", "shadowOpacity", "shadowOffset", "shadowRadius",
                                   "rasterizationScale"])
        #expect(names["ShapeLayer"] == ["path", "fillColor", "strokeColor", "lineWidth", "miterLimit", "lineDashPhase",
                                        "strokeStart", "strokeEnd"])
        #expect(names["TextLayer"] == ["fontSize", "foregroundColor"])
        #expect(names["GradientLayer"] == ["colors", "locations", "startPoint", "endPoint"])
        #expect(names["ReplicatorLayer"] == ["instanceTransform", "instanceColor"])
        #expect(names["TransformLayer"] == nil)
    }

    /// Core Animation's key paths, string and typed, as ported code spells them.
    @Test func coreAnimationKeyPathsAreThere() {
        let layer = Layer()
        for keyPath in ["position.x", "position.y", "anchorPoint.x", "bounds.origin", "bounds.origin.y", "bounds.size",
                        "bounds.size.width", "shadowOffset.height", "transform.rotation", "transform.rotation.z",
                        "transform.rotation.x", "transform.scale", "transform.scale.y", "transform.translation",
                        "transform.translation.x", "sublayerTransform.rotation.y", "contentsRect.origin.x",
                        "contentsCenter.size.height", "hidden", "doubleSided", "masksToBounds", "contentsGravity", "name"] {
            #expect(layer.value(forKeyPath: keyPath) != nil, "\(keyPath)")
        }
        #expect(PropertyAnimation.name(of: \Layer.position) == "position")
        #expect(PropertyAnimation.name(of: \Layer.position.x) == "position.x")
        #expect(PropertyAnimation.name(of: \Layer.bounds.origin) == "bounds.origin")
        #expect(PropertyAnimation.name(of: \Layer.bounds.size.width) == "bounds.size.width")
        #expect(PropertyAnimation.name(of: \Layer.shadowOffset.height) == "shadowOffset.height")
        #expect(PropertyAnimation.name(of: \Layer.contentsRect.origin.x) == "contentsRect.origin.x")
        #expect(PropertyAnimation.name(of: \Layer.isHidden) == "hidden")
        #expect(PropertyAnimation.name(of: \ShapeLayer.strokeEnd) == "strokeEnd")
        #expect(PropertyAnimation.name(of: \TextLayer.isWrapped) == "wrapped")
        #expect(PropertyAnimation.name(of: \GradientLayer.startPoint.x) == "startPoint.x")
        #expect(PropertyAnimation.name(of: \ReplicatorLayer.instanceColor) == "instanceColor")
        #expect(PropertyAnimation.name(of: \Layer.frame) == nil)
        #expect(BasicAnimation(keyPath: \Layer.anchorPoint.y).keyPath == "anchorPoint.y")
    }

    /// Key-value access reaches non-animatable properties too, and refuses values of the wrong
    /// type with a message.
    @Test func keyValueAccessCoversEveryDeclaredProperty() {
        let layer = ShapeLayer()
        layer.setValue(true, forKeyPath: "hidden")
        #expect(layer.isHidden)
        layer.setValue(LineCap.round, forKeyPath: "lineCap")
        #expect(layer.lineCap == .round)
        layer.backgroundColor = .red
        layer.setValue(nil, forKeyPath: "backgroundColor")
        #expect(layer.backgroundColor == nil)
        layer.setValue(Float(0.5), forKeyPath: "strokeEnd")
        #expect(layer.strokeEnd == 0.5)
        #expect(layer.value(forKeyPath: "lineCap") as? LineCap == .round)
        #expect(layer.value(forKeyPath: "opacity") as? Double == 1)
        let reported = Locked<[AnimationError]>([])
        let previous = AnimationDiagnostics.handler
        AnimationDiagnostics.handler = { error in reported.withLock { $0.append(error) } }
        defer { AnimationDiagnostics.handler = previous }
        layer.setValue("yes", forKeyPath: "hidden")
        layer.setValue(1.0, forKeyPath: "wobble")
        #expect(layer.isHidden)
        // Other tests may report at the same time: look for these two.
        let errors = reported.withLock { $0 }.map(\.description)
        #expect(errors.contains("setValue(_:forKeyPath: \"hidden\"): value must be Bool, not String"))
        #expect(errors.contains("\"wobble\" is not an animatable key path of ShapeLayer"))
    }

    /// What a change invalidates follows the declaration, down to the value: moving the bounds'
    /// origin moves the sublayers, resizing rasterizes again.
    @Test func boundsNarrowItsInvalidationToWhatChanged() {
        let layer = Layer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        let moved = Layer(layer: layer), resized = Layer(layer: layer)
        moved.bounds.origin = CGPoint(x: 3, y: 3)
        resized.bounds.size.width = 20
        let bounds = Layer.Properties.bounds
        #expect(bounds.invalidation(from: layer, to: moved) == .geometry)
        #expect(bounds.invalidation(from: layer, to: resized) == [.geometry, .content])
        #expect(Layer.Properties.opacity.invalidation == .compositing)
        #expect(ShapeLayer.Properties.strokeEnd.invalidation == .content)
    }
}
