import Foundation
@testable import LayerKit

/// Collects every refused layer value and refused tree change of the test process (the
/// handlers are installed once and never swapped, so tests running in parallel do not race on
/// them); a test looks for the messages naming its own uniquely named layers.
enum DiagnosticLog {
    private static let messages = Locked<[String]>([])

    private static let installed: Void = {
        LayerValueDiagnostics.handler = { error in messages.withLock { $0.append(error.description) } }
        LayerTreeDiagnostics.handler = { error in messages.withLock { $0.append(error.description) } }
    }()

    /// Starts collecting (call before the changes whose diagnostics are looked for).
    static func start() { _ = installed }

    /// The messages that mention `name` (a layer's name appears quoted in them).
    static func messages(mentioning name: String) -> [String] {
        _ = installed
        return messages.withLock { $0.filter { $0.contains("'\(name)'") } }
    }
}

/// A name no other test uses.
func uniqueName(_ prefix: String) -> String { "\(prefix)-\(UUID().uuidString.prefix(8))" }
