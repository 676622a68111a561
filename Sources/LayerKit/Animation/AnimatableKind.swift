import Foundation

/// How values of one property type take part in animations: the form animations carry them in,
/// and the parts Core Animation's key paths reach inside them.
///
/// A layer property declared with a kind animates, and its parts get key paths of their own,
/// as Core Animation's key-value coding extensions for structures give them: a point has `x`
/// and `y` ("position.x"), a size `width` and `height`, a rectangle `origin` and `size` and
/// their parts ("bounds.size.width"), a transform `rotation`, `scale` and `translation` with
/// their axes ("transform.rotation.z"). The presets (`number`, `point`, `size`, `rect`,
/// `transform`, `color`, `colors`, `numbers`, `path`) cover the types Core Animation animates.
public struct AnimatableKind<Value>: Sendable {
    /// The form animations carry the values in.
    let form: AnimatableValue.Kind
    /// A value as animations carry it.
    let wrap: @Sendable (Value) -> AnimatableValue
    /// The value an animation wrote, or nil when it has the wrong form.
    let unwrap: @Sendable (AnimatableValue) -> Value?
    /// The parts with key paths of their own, in Core Animation's names.
    let components: [Component]

    /// One part of a value ("x" of a point, "size.width" of a rectangle, "rotation.z" of a
    /// transform).
    struct Component: Sendable {
        /// The part's name, following the property's ("position" + "." + "x").
        let name: String
        /// The form the part's values take.
        let form: AnimatableValue.Kind
        /// Reads the part.
        let get: @Sendable (Value) -> AnimatableValue
        /// Writes the part, leaving the rest of the value as it is.
        let set: @Sendable (inout Value, AnimatableValue) -> Void
        /// The part as a typed key path into the value (`\CGRect.size.width`); nil for parts
        /// that are not stored members (a transform's rotation).
        let keyPath: SendableKeyPath?
    }

    init(form: AnimatableValue.Kind, wrap: @escaping @Sendable (Value) -> AnimatableValue,
         unwrap: @escaping @Sendable (AnimatableValue) -> Value?, components: [Component] = []) {
        self.form = form
        self.wrap = wrap
        self.unwrap = unwrap
        self.components = components
    }

    /// The components of a stored member of the value: the member itself under `name`, then
    /// the member's own parts under "name.part".
    static func member<Part>(_ name: String, _ keyPath: WritableKeyPath<Value, Part> & Sendable,
                             _ kind: AnimatableKind<Part>) -> [Component] {
        var result = [Component(name: name, form: kind.form,
                                get: { kind.wrap($0[keyPath: keyPath]) },
                                set: { value, new in if let part = kind.unwrap(new) { value[keyPath: keyPath] = part } },
                                keyPath: SendableKeyPath(keyPath))]
        for part in kind.components {
            let nested = part.keyPath.flatMap { (keyPath as AnyKeyPath).appending(path: $0.keyPath) }
            result.append(Component(name: name + "." + part.name, form: part.form,
                                    get: { part.get($0[keyPath: keyPath]) },
                                    set: { value, new in part.set(&value[keyPath: keyPath], new) },
                                    keyPath: nested.map(SendableKeyPath.init)))
        }
        return result
    }
}

// MARK: Presets

extension AnimatableKind where Value == CGFloat {
    /// A number, animated linearly.
    public static var number: Self {
        Self(form: .scalar, wrap: { .scalar(Double($0)) }, unwrap: { $0.scalarValue.map { CGFloat($0) } })
    }
}

extension AnimatableKind where Value == Float {
    /// A number, animated linearly.
    public static var number: Self {
        Self(form: .scalar, wrap: { .scalar(Double($0)) }, unwrap: { $0.scalarValue.map { Float($0) } })
    }
}

extension AnimatableKind where Value == Double {
    /// A number, animated linearly.
    public static var number: Self {
        Self(form: .scalar, wrap: { .scalar($0) }, unwrap: { $0.scalarValue })
    }
}

extension AnimatableKind where Value == CGPoint {
    /// A point, with the parts `x` and `y`.
    public static var point: Self {
        Self(form: .point, wrap: { .point($0) }, unwrap: { if case let .point(p) = $0 { p } else { nil } },
             components: member("x", \.x, .number) + member("y", \.y, .number))
    }
}

extension AnimatableKind where Value == CGSize {
    /// A size, with the parts `width` and `height`.
    public static var size: Self {
        Self(form: .size, wrap: { .size($0) }, unwrap: { if case let .size(s) = $0 { s } else { nil } },
             components: member("width", \.width, .number) + member("height", \.height, .number))
    }
}

extension AnimatableKind where Value == CGRect {
    /// A rectangle, with the parts `origin` and `size` and theirs (`origin.x`, `size.width`, …).
    public static var rect: Self {
        Self(form: .rect, wrap: { .rect($0) }, unwrap: { if case let .rect(r) = $0 { r } else { nil } },
             components: member("origin", \.origin, .point) + member("size", \.size, .size))
    }
}

extension AnimatableKind where Value == Transform3D {
    /// A transform, interpolated through its decomposition, with the parts Core Animation's
    /// transform key paths name: `rotation` (about z), `rotation.x`/`.y`/`.z`, `scale` (all
    /// three axes), `scale.x`/`.y`/`.z`, `translation` (a size) and `translation.x`/`.y`/`.z`.
    /// Writing a part keeps the others.
    public static var transform: Self {
        Self(form: .transform, wrap: { .transform($0) }, unwrap: { if case let .transform(t) = $0 { t } else { nil } },
             components: TransformComponents.Field.names.map { name, field in
                 Component(name: name, form: field.kind,
                           get: { TransformComponents($0).value(of: field) },
                           set: { transform, new in
                               guard new.kind == field.kind else { return }
                               var components = TransformComponents(transform)
                               components.set(field, to: new)
                               transform = components.transform
                           },
                           keyPath: nil)
             })
    }
}

extension AnimatableKind where Value == Color {
    /// A color, animated component-wise.
    public static var color: Self {
        Self(form: .color, wrap: { .color($0) }, unwrap: { if case let .color(c) = $0 { c } else { nil } })
    }
}

extension AnimatableKind where Value == Color? {
    /// An optional color: none reads as clear, and animating to clear leaves a clear color.
    public static var color: Self {
        Self(form: .color, wrap: { .color($0 ?? .clear) }, unwrap: { if case let .color(c) = $0 { c } else { nil } })
    }
}

extension AnimatableKind where Value == [Color]? {
    /// A list of colors, animated color by color (lists of other lengths switch halfway).
    public static var colors: Self {
        Self(form: .colors, wrap: { .colors($0 ?? []) }, unwrap: { if case let .colors(c) = $0 { c } else { nil } })
    }
}

extension AnimatableKind where Value == [Double]? {
    /// A list of numbers, animated number by number (lists of other lengths switch halfway).
    public static var numbers: Self {
        Self(form: .numbers, wrap: { .numbers($0 ?? []) }, unwrap: { if case let .numbers(n) = $0 { n } else { nil } })
    }
}

extension AnimatableKind where Value == Path? {
    /// A path, animated point by point between paths of the same structure (others switch
    /// halfway); none reads as the empty path.
    public static var path: Self {
        Self(form: .path, wrap: { .path($0 ?? Path()) }, unwrap: { if case let .path(p) = $0 { p } else { nil } })
    }
}
