import Foundation

/// What the declarations of one layer class give: the declarations themselves (superclass first)
/// and every string key path with its parts. Built once per class, by reflection over the
/// `@Declared` storage of an instance, so that no declared property can be left out.
final class LayerPropertyTable: Sendable {
    /// The class's declared properties, the base class's first, each class's in the order its
    /// stored properties are laid out.
    let declarations: [any AnyLayerProperty]
    /// Every string key path: each property's name and its parts' ("position", "position.x").
    let entries: [String: LayerKeyPathEntry]
    /// Where each declaration's property is stored, in the order of `declarations`.
    private let storage: [DeclaredStorageSlot]

    /// Collects the declarations of `layer`'s class and its superclasses.
    ///
    /// A declaration found twice, or in a class it does not declare a property of, is a
    /// programmer error caught here, with a message naming both.
    private init(reflecting layer: Layer) {
        var mirrors: [Mirror] = []
        var next: Mirror? = Mirror(reflecting: layer)
        while let mirror = next {
            mirrors.append(mirror)
            next = mirror.superclassMirror
        }
        var declarations: [any AnyLayerProperty] = []
        var entries: [String: LayerKeyPathEntry] = [:]
        for mirror in mirrors.reversed() {
            for child in mirror.children {
                guard let storage = child.value as? DeclaredStorage else { continue }
                let declaration = storage.anyDeclaration
                precondition(ObjectIdentifier(declaration.declaringClass) == ObjectIdentifier(mirror.subjectType),
                             "\(mirror.subjectType).\(child.label ?? "?") is declared by a property of \(declaration.declaringClass)")
                for (name, entry) in declaration.keyPathEntries() {
                    precondition(entries[name] == nil, "\(type(of: layer)) declares the key path \"\(name)\" twice")
                    entries[name] = entry
                }
                declarations.append(declaration)
            }
        }
        self.declarations = declarations
        self.entries = entries
        storage = declarations.map(\.storage)
    }

    /// Copies every declared property `source` shares with `target` (all of them when they are
    /// of one class): the presentation copy.
    func copyProperties(from source: Layer, to target: Layer) {
        if type(of: source) == type(of: target) {
            for slot in storage { slot.copy(from: source, to: target) }
            return
        }
        for (declaration, slot) in zip(declarations, storage) where declaration.isDeclared(by: source) {
            slot.copy(from: source, to: target)
        }
    }

    // MARK: The tables of all classes

    private static let tables = Locked<[ObjectIdentifier: LayerPropertyTable]>([:])
    private static let typedNames = Locked<[SendableKeyPath: String]>([:])

    /// The table of `layer`'s class, built the first time a layer of the class asks.
    static func of(_ layer: Layer) -> LayerPropertyTable {
        let key = ObjectIdentifier(type(of: layer))
        if let table = tables.withLock({ $0[key] }) { return table }
        let table = LayerPropertyTable(reflecting: layer)
        let names = table.declarations.flatMap { $0.typedKeyPaths() }
        typedNames.withLock { registry in
            for (keyPath, name) in names { registry[keyPath] = name }
        }
        return tables.withLock { tables in
            if let existing = tables[key] { return existing }
            tables[key] = table
            return table
        }
    }

    /// The Core Animation name of a typed key path to a declared property or one of its parts
    /// (`\Layer.position.x` → "position.x"), once a layer of its root class has been made; the
    /// built-in classes are always known.
    static func name(of keyPath: AnyKeyPath) -> String? {
        let key = SendableKeyPath(keyPath)
        if let name = typedNames.withLock({ $0[key] }) { return name }
        _ = builtInClassesRegistered
        return typedNames.withLock { $0[key] }
    }

    /// Registers the built-in classes' tables, so their typed key paths are known before any of
    /// their layers is made.
    private static let builtInClassesRegistered: Void = {
        for layer in [Layer(), ShapeLayer(), TextLayer(), GradientLayer(), ReplicatorLayer(), TransformLayer()] {
            _ = of(layer)
        }
    }()
}
