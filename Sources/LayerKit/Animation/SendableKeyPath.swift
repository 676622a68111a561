import Foundation

/// A key path shared across threads.
///
/// Safe as `@unchecked Sendable`: key path objects are immutable once made, and the standard
/// library itself treats key path literals as Sendable (SE-0418); only the `AnyKeyPath`
/// existential lost that conformance on the way here.
struct SendableKeyPath: @unchecked Sendable, Hashable {
    let keyPath: AnyKeyPath
    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}
