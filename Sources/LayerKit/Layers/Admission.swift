import Foundation

/// What a declared property makes of a value proposed for it.
enum Admission<Value> {
    /// The value to store (the proposed one, or what it becomes).
    case admit(Value)
    /// The change is refused, for the reason given (the property keeps its value).
    case refuse(reason: String)
}

enum FiniteAdmission {
    /// The admission of a property whose values are numbers: a value with a non-finite number in
    /// it is refused. Nil for value types that hold no numbers (they are stored as given).
    ///
    /// Chosen once per declaration, so a setter pays for no dynamic cast.
    static func admission<Value>(for _: Value.Type) -> (@Sendable (Value, Value) -> Admission<Value>)? {
        guard let numeric = Value.self as? any FiniteValue.Type else { return nil }
        return admission(numeric, as: Value.self)
    }

    private static func admission<Checked: FiniteValue, Value>(_: Checked.Type, as _: Value.Type)
        -> @Sendable (Value, Value) -> Admission<Value> {
        { proposed, _ in
            // Value is Checked (found by the cast above); the bit cast only names it so.
            unsafeBitCast(proposed, to: Checked.self).isFiniteValue
                ? .admit(proposed) : .refuse(reason: "\(FiniteValueText.short(proposed)) is not finite")
        }
    }
}
