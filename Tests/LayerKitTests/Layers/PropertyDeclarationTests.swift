import Foundation
import Synchronization
import Testing
@testable import LayerKit

// Tests generated from the property declarations: every declared property of every built-in
// layer class is a case, so a property declared tomorrow is tested tomorrow without anyone
// listing it here. Each case says which declaration it is ("ShapeLayer.strokeEnd").

/// The built-in layer classes, by name.
enum LayerClasses {
    static let names = ["Layer", "ShapeLayer", "TextLayer", "GradientLayer", "ReplicatorLayer", "TransformLayer"]

    static func make(_ name: String) -> Layer {
        switch name {
        case "Layer": Layer()
        case "ShapeLayer": ShapeLayer()
        case "TextLayer": TextLayer()
        case "GradientLayer": GradientLayer()
        case "ReplicatorLayer": ReplicatorLayer()
        case "TransformLayer": TransformLayer()
        default: fatalError("no layer class \(name)")
        }
    }
}

/// One property a built-in class declares (not inherits).
struct DeclaredProperty: Sendable, Hashable, CustomTestStringConvertible {
    let className: String
    let name: String

    var testDescription: String { "\(className).\(name)" }

    /// The declaration, from the class's table.
    var declaration: any AnyLayerProperty {
        LayerPropertyTable.of(LayerClasses.make(className)).declarations.first { $0.name == name }!
    }

    /// Every property the built-in classes declare, class by class, in declaration order.
    static let all: [DeclaredProperty] = LayerClasses.names.flatMap { className in
        LayerPropertyTable.of(LayerClasses.make(className)).declarations
            .filter { "\($0.declaringClass)" == className }
            .map { DeclaredProperty(className: className, name: $0.name) }
    }

    /// The animatable ones.
    static let animatable = all.filter { $0.declaration.isAnimatable }
}

// MARK: Values to change to

/// A value of the same kind, different from `value` in a way the fixtures show: numbers halve
/// (0 becomes 0.5), transforms turn by 0.3 rad, red becomes blue and every other color red,
/// paths shrink to half about the origin (keeping their structure, so they interpolate).
func perturbed(_ value: AnimatableValue) -> AnimatableValue {
    func half(_ v: CGFloat) -> CGFloat { v == 0 ? 0.5 : v / 2 }
    func other(_ c: Color) -> Color { c == .red ? .blue : .red }
    switch value {
    case let .scalar(v): return .scalar(v == 0 ? 0.5 : v / 2)
    case let .point(p): return .point(CGPoint(x: half(p.x), y: half(p.y)))
    case let .size(s): return .size(CGSize(width: half(s.width), height: half(s.height)))
    case let .rect(r): return .rect(CGRect(x: half(r.minX), y: half(r.minY), width: half(r.width), height: half(r.height)))
    case let .transform(t): return .transform(t.concatenating(Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)))
    case let .color(c): return .color(other(c))
    case let .colors(c): return .colors(c.map(other))
    case let .numbers(n): return .numbers(n.map { $0 == 0 ? 0.5 : $0 / 2 })
    case let .path(p): return .path(p.applying(CGAffineTransform(scaleX: 0.5, y: 0.5)))
    }
}

/// A value different from the one `layer` has at `keyPath`, as `setValue(_:forKeyPath:)` takes
/// it; records an issue for a type no rule here covers (add one).
func perturbedValue(forKeyPath keyPath: String, of layer: Layer) -> Any? {
    guard let entry = LayerPropertyTable.of(layer).entries[keyPath] else {
        Issue.record("no key path \(keyPath)")
        return nil
    }
    if let animatable = entry.animatable { return perturbed(animatable.get(layer)).boxed }
    // By the property's type, not the value's: a nil of any optional type casts to every other.
    let value = entry.get(layer)
    func rule<T>(_: T.Type, _ change: (T) -> Any?) -> Any?? {
        type(of: value) == T.self ? .some(change(value as! T)) : nil
    }
    let rules: [Any??] = [
        rule(Bool.self) { !$0 },
        rule(Int.self) { $0 + 2 },
        rule(Float.self) { $0 + 0.25 },
        rule(CGFloat.self) { $0 + 0.25 },
        rule(Double.self) { $0 + 0.25 },
        rule(String.self) { $0 + "x" },
        rule(String?.self) { ($0 ?? "") + "x" },
        rule([CGFloat]?.self) { ($0 ?? []) + [3, 2] },
        rule([TextRun]?.self) { ($0 ?? []) + [TextRun("run")] },
        rule(Path?.self) { $0 == nil ? Path(rect: CGRect(x: 1, y: 2, width: 5, height: 5)) : nil },
        rule(Image?.self) { _ in try? Image(Bitmap(width: 2, height: 2)) },
        rule(CornerMask.self) { $0 == .all ? CornerMask.layerMinXMinYCorner : .all },
        rule(ContentsGravity.self) { $0 == .center ? ContentsGravity.top : .center },
        rule(ContentsFilter.self) { $0 == .nearest ? ContentsFilter.linear : .nearest },
        rule(FillRule.self) { $0 == .nonZero ? FillRule.evenOdd : .nonZero },
        rule(LineCap.self) { $0 == .round ? LineCap.square : .round },
        rule(LineJoin.self) { $0 == .round ? LineJoin.bevel : .round },
        rule(TextAlignment.self) { $0 == .center ? TextAlignment.left : .center },
        rule(TextTruncation.self) { $0 == .end ? TextTruncation.start : .end },
        rule(GradientLayer.GradientType.self) { $0 == .radial ? GradientLayer.GradientType.conic : .radial },
    ]
    if let match = rules.first(where: { $0 != nil }) { return match! }
    Issue.record("no test value for \(type(of: value)) (\(keyPath)): add a rule to perturbedValue")
    return nil
}

// MARK: Fixtures

/// A scene in which every animatable property `className` declares shows: a 96x96 root under a
/// perspective (so depth shows) holding the layer of that class, and a sibling drawn after it
/// that overlaps it (so drawing order shows). Everything a property needs to be seen is set:
/// background, border, rounded corners, shadow, a contents image with transparent cells,
/// rasterization, a sublayer, a dashed path with a sharp join, text, gradient colors,
/// replicated instances.
func propertyFixture(_ className: String) throws -> (root: Layer, layer: Layer) {
    let root = Layer()
    root.bounds = CGRect(x: 0, y: 0, width: 96, height: 96)
    root.backgroundColor = Color(red: 0.1, green: 0.15, blue: 0.3)
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 150
    root.sublayerTransform = perspective

    let layer = LayerClasses.make(className)
    layer.position = CGPoint(x: 44, y: 44)
    root.addSublayer(layer)
    let sibling = Layer()
    sibling.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
    sibling.position = CGPoint(x: 58, y: 58)
    sibling.backgroundColor = .orange
    root.addSublayer(sibling)

    switch layer {
    case let shape as ShapeLayer:
        shape.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
        // A V whose apex needs a miter 8.4 line widths long: drawn under the default limit of 10,
        // beveled under 7.5 and below. The apex falls inside a dash.
        var path = Path()
        path.move(to: CGPoint(x: 24, y: 55))
        path.addLine(to: CGPoint(x: 30, y: 5))
        path.addLine(to: CGPoint(x: 36, y: 55))
        shape.path = path
        shape.fillColor = .green
        shape.strokeColor = .blue
        shape.lineWidth = 4
        shape.lineDashPattern = [6, 3]
    case let text as TextLayer:
        text.bounds = CGRect(x: 0, y: 0, width: 80, height: 48)
        text.string = "Ag"
    case let gradient as GradientLayer:
        gradient.bounds = CGRect(x: 0, y: 0, width: 60, height: 60)
        gradient.colors = [.red, .blue]
        gradient.locations = [0, 1]
    case let replicator as ReplicatorLayer:
        replicator.bounds = CGRect(x: 0, y: 0, width: 80, height: 40)
        replicator.instanceCount = 3
        replicator.instanceTransform = Transform3D(translationX: 24, y: 0)
        let instance = Layer()
        instance.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
        instance.position = CGPoint(x: 10, y: 20)
        instance.backgroundColor = .green
        replicator.addSublayer(instance)
    default:
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        layer.anchorPointZ = 20
        layer.backgroundColor = .green
        layer.cornerRadius = 8
        layer.borderWidth = 4
        layer.borderColor = .blue
        layer.shadowOpacity = 1
        layer.shadowOffset = CGSize(width: 4, height: 4)
        layer.contents = try checkerImage()
        layer.shouldRasterize = true
        let sublayer = Layer()
        sublayer.bounds = CGRect(x: 0, y: 0, width: 12, height: 12)
        sublayer.position = CGPoint(x: 12, y: 12)
        sublayer.backgroundColor = .yellow
        layer.addSublayer(sublayer)
    }
    return (root, layer)
}

/// 4x4 cells of red, white and clear, so that every part of the image differs from the others.
func checkerImage() throws -> Image {
    let bitmap = try Bitmap(width: 4, height: 4)
    for y in 0..<4 {
        for x in 0..<4 {
            let colors = [Color.red, .white, .clear, Color(red: 0, green: 0, blue: 0.5)]
            bitmap.setPixel(x: x, y: y, to: colors[(x + 2 * y + y / 2) % colors.count])
        }
    }
    return try Image(bitmap)
}

/// The pixels where two bitmaps of one size differ.
func changedPixels(_ a: Bitmap, _ b: Bitmap) -> [(x: Int, y: Int)] {
    a.withUnsafePixels { pa in
        b.withUnsafePixels { pb in
            (0..<pa.count).filter { pa[$0] != pb[$0] }.map { (x: $0 % a.width, y: $0 / a.width) }
        }
    }
}

/// Checks that a frame after a change repainted what it must: some pixels changed, every changed
/// pixel is inside the damage, and the incremental frame equals a fresh full render.
func expectRepaint(from before: Bitmap, to after: Bitmap, damage: Region, root: Layer, at time: TimeInterval,
                   _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let changed = changedPixels(before, after)
    #expect(!changed.isEmpty, "\(what) changed no pixel (the fixture must show it)", sourceLocation: sourceLocation)
    let missed = changed.filter { !damage.contains(x: $0.x, y: $0.y) }
    #expect(missed.isEmpty, "\(what): \(missed.count) changed pixels lie outside the damage \(damage)", sourceLocation: sourceLocation)
    let fresh = try Renderer(threadCount: 1).render(root, at: time)
    #expect(after.hasSamePixels(as: fresh), "\(what): the incremental frame differs from a fresh one", sourceLocation: sourceLocation)
}

// MARK: Tests

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
        "id", "superlayer", "sublayerStorage", "mask", "maskOwner", "animationEntries", "actions", "delegate",
        "hasBeenRendered", "isPresentationCopy", "modelLayerStorage", "treeTime", "needsDisplay", "drawsContent",
        "drawnCache", "contentVersion", "changeCount", "tracking",
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
        let reported = Mutex<[AnimationError]>([])
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

// MARK: Helpers

/// Whether two values read through key paths are the same: as animations carry them when the
/// entry animates (numbers of any type alike; a missing color is clear, a missing path or list
/// empty), else by description.
func sameValue(_ a: Any, _ b: Any, _ entry: LayerKeyPathEntry) -> Bool {
    guard let kind = entry.animatable?.kind else { return describe(a) == describe(b) }
    func form(_ value: Any) -> AnimatableValue? {
        if let converted = AnimatableValue(value, as: kind) { return converted }
        switch kind {
        case .color: return .color(.clear)
        case .path: return .path(Path())
        case .colors: return .colors([])
        case .numbers: return .numbers([])
        default: return nil
        }
    }
    guard let u = form(a), let v = form(b) else { return false }
    return approximatelyEqual(u, v)
}

/// A value's description with any optional wrapping taken off (`Optional("x")` and `"x"` read
/// alike).
func describe(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return String(reflecting: value) }
    return mirror.children.first.map { describe($0.value) } ?? "nil"
}

/// The value in the `@Declared` storage that holds `declaration`, found by reflection.
func storedValue(of declaration: any AnyLayerProperty, in layer: Layer) -> Any? {
    var next: Mirror? = Mirror(reflecting: layer)
    while let mirror = next {
        for child in mirror.children {
            guard let storage = child.value as? DeclaredStorage, storage.anyDeclaration === declaration else { continue }
            return Mirror(reflecting: child.value).children.first { $0.label == "value" }?.value
        }
        next = mirror.superclassMirror
    }
    return nil
}

/// Equality with rounding noise allowed (transform parts are read back through a
/// decomposition).
func approximatelyEqual(_ a: AnimatableValue, _ b: AnimatableValue, _ tolerance: Double = 1e-9) -> Bool {
    switch (a, b) {
    case let (.scalar(u), .scalar(v)): abs(u - v) <= tolerance
    case let (.size(u), .size(v)): abs(u.width - v.width) <= tolerance && abs(u.height - v.height) <= tolerance
    case let (.point(u), .point(v)): abs(u.x - v.x) <= tolerance && abs(u.y - v.y) <= tolerance
    case let (.transform(u), .transform(v)): close(u, v, tolerance)
    default: a == b
    }
}
