import Foundation

/// The storage of a declared layer property: `@Declared(Properties.opacity) public var opacity: Float`.
///
/// Reading the property reads the stored value and nothing else. Setting it admits the value
/// (see `LayerProperty`), and when it differs from the current one stores it and reports the
/// change through `Layer.propertyDidChange`, which tells `changed(_:)` what the declaration says
/// the change invalidates and starts the property's implicit animation.
///
/// Only for properties of `Layer` and its subclasses, each naming its own declaration.
@propertyWrapper
public struct Declared<Root: Layer, Value: Sendable> {
    /// Unavailable: a declared property lives in a layer, which reaches it through
    /// `subscript(_enclosingInstance:wrapped:storage:)`.
    @available(*, unavailable, message: "@Declared is only for properties of layers")
    public var wrappedValue: Value {
        get { fatalError("unreachable") }
        set { fatalError("unreachable") }
    }

    /// The value.
    var value: Value
    /// The declaration. Not retained: declarations are static constants, alive for the whole
    /// process, and a layer holds dozens of these.
    unowned(unsafe) let declaration: LayerProperty<Root, Value>

    /// Storage for the property `declaration` declares, holding its default.
    public init(_ declaration: LayerProperty<Root, Value>) {
        value = declaration.defaultValue
        self.declaration = declaration
    }

    /// Reads and writes the property of `layer`.
    @inline(__always)
    public static subscript<Enclosing: AnyObject>(_enclosingInstance layer: Enclosing,
                                                  wrapped wrappedKeyPath: ReferenceWritableKeyPath<Enclosing, Value>,
                                                  storage storageKeyPath: ReferenceWritableKeyPath<Enclosing, Self>) -> Value {
        // Inlined, the storage key path folds into a field access: the getter costs what a
        // stored property costs (measured in release: 0.86 ns either way).
        get { layer[keyPath: storageKeyPath].value }
        set {
            let declaration = layer[keyPath: storageKeyPath].declaration
            let old = layer[keyPath: storageKeyPath].value
            var new = newValue
            if let admission = declaration.admission {
                switch admission(newValue, old) {
                case let .admit(admitted):
                    new = admitted
                case let .refuse(reason):
                    let name = declaration.name
                    let owner = unsafeDowncast(layer, to: Layer.self)
                    owner.reportValueProblem(name, .refused(layer: owner.debugName, property: name, reason: reason))
                    return
                }
            }
            guard !declaration.isSame(old, new) else { return }
            if !declaration.storage.isKnown {
                // Where the storage is in the layer (see `LayerProperty.learnStorage(offset:)`): the
                // address of a class's stored field, found here where the compiler folds the key
                // path into that field, so that no key path to it is kept at run time.
                let base = UnsafeRawPointer(Unmanaged.passUnretained(layer).toOpaque())
                let offset = withUnsafeMutablePointer(to: &layer[keyPath: storageKeyPath]) { UnsafeRawPointer($0) - base }
                // Checked once a declaration, in every build: the field lies just after the
                // layer's header (no layer class has 64 KB of fields; a temporary elsewhere in
                // memory would not) and holds this very declaration. Key path application gives a
                // stored field's own address, but the language does not promise it; were a
                // temporary ever handed out instead, this stops here rather than copying through
                // a wrong address.
                guard offset > 0, offset < 1 << 16,
                      (base + offset).assumingMemoryBound(to: Self.self).pointee.declaration === declaration else {
                    preconditionFailure("LayerKit: the storage of \(Root.self).\(declaration.name) is not a field of the layer")
                }
                declaration.learnStorage(offset: offset)
            }
            layer[keyPath: storageKeyPath].value = new
            unsafeDowncast(layer, to: Layer.self).propertyDidChange(declaration, from: old, to: new)
        }
    }
}

/// A `@Declared` storage seen without its types: how reflection finds a class's declarations.
protocol DeclaredStorage {
    /// The declaration of the property stored here.
    var anyDeclaration: any AnyLayerProperty { get }
}

extension Declared: DeclaredStorage {
    var anyDeclaration: any AnyLayerProperty { declaration }
}
