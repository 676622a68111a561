import Foundation
import LayerKit

/// Where frames go when the app does not say: a window when a display is available, the
/// terminal when standard output is one, a PNG file otherwise.
public enum AutomaticPresenter {
    /// What was chosen, and why, for the app to mention.
    public struct Choice {
        public let presenter: any Presenter
        public let description: String
    }

    /// Chooses a presenter for frames of `width` x `height` points.
    ///
    /// - Parameter fallbackPath: the PNG written when there is neither display nor terminal.
    public static func choose(title: String, width: Int, height: Int, fallbackPath: String) -> Choice {
        let environment = ProcessInfo.processInfo.environment
        var windowProblem: String?
        if environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil {
            do {
                return Choice(presenter: try WindowPresenter(title: title, width: width, height: height),
                              description: "a window")
            } catch {
                windowProblem = error.description
            }
        }
        if isatty(STDOUT_FILENO) != 0, let terminal = try? TerminalPresenter() {
            return Choice(presenter: terminal, description: "the terminal (\(terminal.mode.rawValue))"
                          + (windowProblem.map { "; \($0)" } ?? ""))
        }
        return Choice(presenter: PNGPresenter(path: fallbackPath), description: "\(fallbackPath) (no display or terminal)")
    }
}
