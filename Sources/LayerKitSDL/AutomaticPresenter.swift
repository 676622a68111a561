import Foundation
import LayerKit

/// Where frames go when the app does not say: a window when a display can really show one, the
/// terminal when standard output is one, a PNG file otherwise.
public enum AutomaticPresenter {
    /// What was chosen, and why.
    public struct Choice {
        /// The presenter to show frames with.
        public let presenter: any Presenter
        /// What it is, for the app to mention ("a window", "the terminal (halfblock)", a path).
        public let description: String
        /// Why a window was not chosen, in one line, when one was wanted but cannot be shown
        /// (a stale DISPLAY, no display server); nil when a window was chosen or none was tried.
        public let fallbackReason: String?
    }

    /// Chooses a presenter for frames of `width` x `height` points.
    ///
    /// A window is tried when DISPLAY or WAYLAND_DISPLAY is set; when it cannot be shown (see
    /// `WindowPresenter`), the choice falls back and says why.
    ///
    /// - Parameters:
    ///   - title: the window's title.
    ///   - width: the frames' width in points.
    ///   - height: the frames' height in points.
    ///   - fallbackPath: the PNG written when there is neither display nor terminal.
    ///   - environment: where DISPLAY, WAYLAND_DISPLAY and TERM are read (the process's).
    ///   - standardOutputIsTerminal: whether standard output is a terminal the frames can go to.
    public static func choose(title: String, width: Int, height: Int, fallbackPath: String,
                              environment: [String: String] = ProcessInfo.processInfo.environment,
                              standardOutputIsTerminal: Bool = isatty(STDOUT_FILENO) != 0) -> Choice {
        var windowProblem: String?
        if environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil {
            do {
                return Choice(presenter: try WindowPresenter(title: title, width: width, height: height),
                              description: "a window", fallbackReason: nil)
            } catch {
                windowProblem = "no window: " + error.reason
            }
        }
        if standardOutputIsTerminal, let terminal = try? TerminalPresenter() {
            return Choice(presenter: terminal, description: "the terminal (\(terminal.mode.rawValue))",
                          fallbackReason: windowProblem)
        }
        return Choice(presenter: PNGPresenter(path: fallbackPath), description: fallbackPath,
                      fallbackReason: windowProblem ?? "no display and no terminal")
    }
}
