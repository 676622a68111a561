import Foundation

/// A replaceable, thread-safe handler for one kind of diagnostic (refused tree changes,
/// animations that cannot run, font substitutions). By default messages go to standard error.
final class DiagnosticHandler<Message: Sendable>: Sendable {
    private let storage = Locked<@Sendable (Message) -> Void>({ message in
        FileHandle.standardError.write(Data("LayerKit: \(message)\n".utf8))
    })

    var current: @Sendable (Message) -> Void {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
