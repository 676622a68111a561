import Foundation

/// A path is finite when every point of it is (see `FiniteValue`).
extension Path: FiniteValue {
    var isFiniteValue: Bool {
        elements.allSatisfy { element in
            switch element {
            case let .move(p), let .line(p): p.isFiniteValue
            case let .quadCurve(p, c): p.isFiniteValue && c.isFiniteValue
            case let .curve(p, c1, c2): p.isFiniteValue && c1.isFiniteValue && c2.isFiniteValue
            case .closeSubpath: true
            }
        }
    }
}
