import Foundation
import Testing
@testable import LayerKit

// What the tests generated from the property declarations (PropertyDeclarationTests) are made
// of: the cases, values to change to, fixtures that show every property, pixel comparisons.

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
