import Foundation
import Synchronization

/// One property of a layer class, declared once: its Core Animation name, its default, what a
/// change to it invalidates and, when it animates, how its values animate.
///
/// Everything else about the property is derived from this one declaration: the setter's change
/// tracking and implicit animation (through `@Declared`), the presentation copy
/// (`init(layer:)`), string key paths with their parts ("position.x", "bounds.size.width",
/// "transform.rotation.z"), typed key paths (`\Layer.position.x`) and `value(forKeyPath:)` /
/// `setValue(_:forKeyPath:)`. Nothing keeps a second list of properties that could drift.
/// Presentation copies copy the storage itself, without running setters.
///
/// A subclass declares a property of its own the same way, and it animates as Core Animation's
/// custom animatable properties do:
///
/// ```swift
/// final class ProgressLayer: Layer {
///     enum Properties {
///         static let progress: LayerProperty<ProgressLayer, CGFloat> =
///             .init("progress", \.progress, default: 0, invalidates: .content, animatable: .number)
///     }
///     @Declared(Properties.progress) var progress: CGFloat
/// }
/// ```
///
/// Declarations live in static constants (their type must be written out: the key path refers
/// back to the property). The declared properties of a class are found by reflection over its
/// `@Declared` storage, so a class that customizes its `Mirror` hides them.
public final class LayerProperty<Root: Layer, Value: Sendable>: Sendable {
    /// The Core Animation name ("opacity", "hidden", "strokeEnd"), used by string key paths,
    /// implicit actions and `actions` dictionaries.
    public let name: String
    /// The value a new layer has (Core Animation's default).
    public let defaultValue: Value
    /// Everything a change may invalidate; some changes invalidate less (a bounds change that
    /// keeps the size rasterizes nothing).
    public let invalidation: Layer.Invalidation
    /// Whether the property animates (explicitly, and implicitly when changed).
    public let isAnimatable: Bool
    /// How the property animates; nil when it does not.
    let animation: AnimatableKind<Value>?
    /// The property itself.
    let keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable
    /// Whether two values are the same (a set to the same value is no change).
    let isSame: @Sendable (Value, Value) -> Bool
    /// What a change from the first value to the second invalidates, when that can be less
    /// than `invalidation`.
    let narrowing: (@Sendable (Value, Value) -> Layer.Invalidation)?
    /// What the value proposed for the property becomes, given the current one, or why it is
    /// refused (the refusal is reported once per layer, and the property keeps its value). This
    /// is where a property states how it treats non-finite and out-of-range values: by default a
    /// value with a NaN or infinite number in it is refused (`FiniteValue`); nil stores every
    /// value as given.
    let admission: (@Sendable (_ proposed: Value, _ current: Value) -> Admission<Value>)?
    /// Runs after a change of a model layer's property, with the old value (a bounds change
    /// asks for display when `needsDisplayOnBoundsChange` is set).
    let sideEffect: (@Sendable (Root, Value) -> Void)?
    /// Where the property is stored, to copy it without the setter (presentation copies).
    let storage = DeclaredStorageSlot()

    /// Declares a property.
    ///
    /// - Parameters:
    ///   - name: the Core Animation name.
    ///   - keyPath: the property this declares (its `@Declared` storage must name this
    ///     declaration).
    ///   - defaultValue: Core Animation's default.
    ///   - invalidation: what a change makes stale.
    ///   - animation: how values animate; nil for a property that does not animate.
    ///
    /// A property whose values are numbers (`CGFloat`, `Double`, `Float`, points, sizes, rects,
    /// transforms, paths, arrays and optionals of them) refuses a value with a NaN or infinite
    /// number in it, as Core Animation refuses NaN geometry: the property keeps its value and
    /// `LayerValueDiagnostics` hears about it once for the layer and property.
    @inline(__always)   // the comparison is then made for the concrete value type
    public convenience init(_ name: String, _ keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable,
                            default defaultValue: Value, invalidates invalidation: Layer.Invalidation,
                            animatable animation: AnimatableKind<Value>? = nil) where Value: Equatable {
        self.init(name, keyPath, default: defaultValue, invalidates: invalidation, animatable: animation,
                  isSame: { $0 == $1 })
    }

    /// Declares a property whose value is an object, compared by identity (a contents image).
    @inline(__always)
    public convenience init<Object: AnyObject & Sendable>(_ name: String, _ keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable,
                                                          default defaultValue: Value, invalidates invalidation: Layer.Invalidation)
    where Value == Object? {
        self.init(name, keyPath, default: defaultValue, invalidates: invalidation, animatable: nil, isSame: { $0 === $1 })
    }

    init(_ name: String, _ keyPath: ReferenceWritableKeyPath<Root, Value> & Sendable, default defaultValue: Value,
         invalidates invalidation: Layer.Invalidation, animatable animation: AnimatableKind<Value>?,
         isSame: @escaping @Sendable (Value, Value) -> Bool,
         narrowing: (@Sendable (Value, Value) -> Layer.Invalidation)? = nil,
         admission: (@Sendable (Value, Value) -> Admission<Value>)?? = nil,
         sideEffect: (@Sendable (Root, Value) -> Void)? = nil) {
        self.name = name
        self.keyPath = keyPath
        self.defaultValue = defaultValue
        self.invalidation = invalidation
        self.animation = animation
        isAnimatable = animation != nil
        self.isSame = isSame
        self.narrowing = narrowing
        // Not given: the rule for the value type (numbers must be finite).
        self.admission = admission ?? FiniteAdmission.admission(for: Value.self)
        self.sideEffect = sideEffect
    }

    /// Learns where the property is stored (see `DeclaredStorageSlot`): `offset` bytes into a
    /// layer of the declaring class (or a subclass: a class's fields keep their offsets in its
    /// subclasses). Called by the setter before the first value other than the default is
    /// stored.
    ///
    /// An offset, not the storage's key path: a key path to a stored property that is kept at
    /// run time makes the compiler check every access to that property for exclusivity, at
    /// run time (about 75 instructions a read; a text line described per frame reads a dozen).
    /// Without one, it proves the declared storage's accesses (each a single read or write, in
    /// `Declared`'s subscript) cannot overlap and checks them statically.
    func learnStorage(offset: Int) {
        storage.learn {
            StorageCopier { target, source in
                // Both are alive (arguments) and of the declaring class: the field at `offset` is
                // this property's `Declared` storage in each.
                let from = UnsafeRawPointer(Unmanaged.passUnretained(source).toOpaque()) + offset
                let to = UnsafeMutableRawPointer(Unmanaged.passUnretained(target).toOpaque()) + offset
                to.assumingMemoryBound(to: Declared<Root, Value>.self).pointee.value =
                    from.assumingMemoryBound(to: Declared<Root, Value>.self).pointee.value
            }
        }
    }

    /// What a change from `old` to `new` invalidates.
    func invalidation(from old: Value, to new: Value) -> Layer.Invalidation {
        narrowing.map { $0(old, new).intersection(invalidation) } ?? invalidation
    }
}

extension Layer {
    /// Records a change of a declared property: the one place a declared setter reports to.
    /// Tells `changed(_:)` what the change invalidates, then (on model layers, not on
    /// presentation copies) runs the property's side effect and its implicit animation.
    func propertyDidChange<Root, Value>(_ property: LayerProperty<Root, Value>, from old: Value, to new: Value) {
        let invalidation = property.invalidation(from: old, to: new)
        if !invalidation.isEmpty { changed(invalidation) }
        guard !isPresentationCopy else {
            writtenSlots.append(property.storage)
            return
        }
        declaredChanges &+= 1
        if let sideEffect = property.sideEffect { sideEffect(unsafeDowncast(self, to: Root.self), old) }
        if hasBeenRendered, property.isAnimatable, let kind = property.animation {
            runImplicitAction(forKey: property.name, from: kind.wrap(old))
        }
    }
}

/// Where one declared property is stored, as a copy between two layers of its class.
///
/// Only the property's setter is told where its storage is (`Declared`'s subscript receives the
/// storage key path), so the slot learns it from the property's first change on any layer.
/// Until then every layer holds the default, and there is nothing to copy. Not generic, so that
/// copying a layer's properties costs no generic metadata lookups.
final class DeclaredStorageSlot: Sendable {
    /// Retained once, never released: declarations live for the whole process.
    private let copier = Atomic<Unmanaged<StorageCopier>?>(nil)

    /// Whether the storage is known.
    var isKnown: Bool { copier.load(ordering: .acquiring) != nil }

    /// Records the copier `make` builds, unless one is known already.
    func learn(_ make: () -> StorageCopier) {
        guard !isKnown else { return }
        let new = Unmanaged.passRetained(make())
        if !copier.compareExchange(expected: nil, desired: new, ordering: .acquiringAndReleasing).exchanged {
            new.release()
        }
    }

    /// Copies the property from `source` to `target` (both of the declaring class).
    func copy(from source: Layer, to target: Layer) {
        copier.load(ordering: .acquiring)?.takeUnretainedValue().copy(target, source)
    }
}

/// Copies one declared property's storage between two layers of its class.
final class StorageCopier: Sendable {
    let copy: @Sendable (_ target: Layer, _ source: Layer) -> Void
    init(_ copy: @escaping @Sendable (_ target: Layer, _ source: Layer) -> Void) { self.copy = copy }
}

// MARK: Type-erased access, for the tables derived from declarations

/// A declaration seen without its value type: what the per-class tables are built from.
protocol AnyLayerProperty: AnyObject, Sendable {
    /// The Core Animation name.
    var name: String { get }
    /// Everything a change may invalidate.
    var invalidation: Layer.Invalidation { get }
    /// Whether the property animates.
    var isAnimatable: Bool { get }
    /// The class that declares the property.
    var declaringClass: Layer.Type { get }
    /// Whether `layer` has the property (is of the declaring class).
    func isDeclared(by layer: Layer) -> Bool
    /// The string key paths the property answers to: its name, then its parts ("position.x").
    func keyPathEntries() -> [(name: String, entry: LayerKeyPathEntry)]
    /// The typed key paths the property answers to, with their names.
    func typedKeyPaths() -> [(keyPath: SendableKeyPath, name: String)]
    /// Copies the value from `source` to `target` (both of the declaring class).
    func copyValue(from source: Layer, to target: Layer)
    /// Where the property is stored.
    var storage: DeclaredStorageSlot { get }
    /// Whether two layers of the declaring class hold the same value.
    func hasSameValue(_ a: Layer, _ b: Layer) -> Bool
    /// What a change from `a`'s value to `b`'s invalidates (both of the declaring class).
    func invalidation(from a: Layer, to b: Layer) -> Layer.Invalidation
}

/// One string key path of a layer class: how key-value access and animations reach it.
struct LayerKeyPathEntry: Sendable {
    /// The property the key path belongs to.
    let property: any AnyLayerProperty
    /// How animations read and write it; nil when it does not animate.
    let animatable: AnimatableProperty?
    /// The value as `value(forKeyPath:)` gives it.
    let get: @Sendable (Layer) -> Any
    /// Sets a value given as `setValue(_:forKeyPath:)` takes it; false when it has the wrong
    /// type.
    let set: @Sendable (Layer, Any?) -> Bool
    /// What a value must be, for messages ("a CGPoint").
    let expectedType: String
}

extension LayerProperty: AnyLayerProperty {
    var declaringClass: Layer.Type { Root.self }

    func isDeclared(by layer: Layer) -> Bool { layer is Root }

    func keyPathEntries() -> [(name: String, entry: LayerKeyPathEntry)] {
        let keyPath = self.keyPath
        guard let kind = animation else {
            let entry = LayerKeyPathEntry(
                property: self, animatable: nil,
                get: { unsafeDowncast($0, to: Root.self)[keyPath: keyPath] },
                set: { layer, value in
                    guard let value = value as? Value else { return false }
                    unsafeDowncast(layer, to: Root.self)[keyPath: keyPath] = value
                    return true
                },
                expectedType: "\(Value.self)")
            return [(name, entry)]
        }
        let whole = AnimatableProperty(
            kind: kind.form,
            get: { kind.wrap(unsafeDowncast($0, to: Root.self)[keyPath: keyPath]) },
            set: { target, new in if let value = kind.unwrap(new) { unsafeDowncast(target, to: Root.self)[keyPath: keyPath] = value } })
        var entries = [(name, Self.entry(for: whole, of: self, exact: keyPath))]
        for component in kind.components {
            let part = AnimatableProperty(
                kind: component.form,
                get: { component.get(unsafeDowncast($0, to: Root.self)[keyPath: keyPath]) },
                set: { target, new in
                    let layer = unsafeDowncast(target, to: Root.self)
                    var value = layer[keyPath: keyPath]
                    component.set(&value, new)
                    layer[keyPath: keyPath] = value
                })
            entries.append((name + "." + component.name, Self.entry(for: part, of: self, exact: nil)))
        }
        return entries
    }

    /// An animatable key path's entry: values are read and written as animations carry them
    /// (numbers come back as Double, as they always have); the property's own type is accepted
    /// too (so `setValue(nil, forKeyPath: "backgroundColor")` clears the color).
    private static func entry(for property: AnimatableProperty, of declaration: LayerProperty,
                              exact keyPath: (ReferenceWritableKeyPath<Root, Value> & Sendable)?) -> LayerKeyPathEntry {
        LayerKeyPathEntry(
            property: declaration, animatable: property,
            get: { property.get($0).boxed },
            set: { layer, value in
                if let converted = AnimatableValue(value, as: property.kind) {
                    property.set(layer, converted)
                    return true
                }
                if let keyPath, let exact = value as? Value {
                    unsafeDowncast(layer, to: Root.self)[keyPath: keyPath] = exact
                    return true
                }
                return false
            },
            expectedType: property.kind.rawValue)
    }

    func typedKeyPaths() -> [(keyPath: SendableKeyPath, name: String)] {
        var result = [(SendableKeyPath(keyPath), name)]
        for component in animation?.components ?? [] {
            guard let part = component.keyPath, let path = (keyPath as AnyKeyPath).appending(path: part.keyPath) else { continue }
            result.append((SendableKeyPath(path), name + "." + component.name))
        }
        return result
    }

    func copyValue(from source: Layer, to target: Layer) {
        storage.copy(from: source, to: target)
    }

    func hasSameValue(_ a: Layer, _ b: Layer) -> Bool {
        isSame(unsafeDowncast(a, to: Root.self)[keyPath: keyPath], unsafeDowncast(b, to: Root.self)[keyPath: keyPath])
    }

    func invalidation(from a: Layer, to b: Layer) -> Layer.Invalidation {
        invalidation(from: unsafeDowncast(a, to: Root.self)[keyPath: keyPath], to: unsafeDowncast(b, to: Root.self)[keyPath: keyPath])
    }
}
