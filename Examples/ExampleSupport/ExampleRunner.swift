import ArgumentParser
import Foundation
import LayerKit
import LayerKitSDL

/// An example as the runner drives it: a scene it can lay out at any size, updated before each
/// frame, that may hear keys and may end by itself.
public protocol ExampleApp: AnyObject {
    /// Builds (or rebuilds, after a resize) the scene at `size` points and returns its root.
    func layOut(size: CGSize) -> Layer
    /// Sets the scene for the frame `elapsed` seconds after the start.
    func update(elapsed: TimeInterval)
    /// A key pressed while running live (the quit keys q, Escape and Ctrl-C never arrive here).
    func handle(key: Character, at elapsed: TimeInterval)
    /// Whether the app is done after its frame at `elapsed` (the runner then exits 0).
    func isFinished(at elapsed: TimeInterval) -> Bool
    /// Whether the terminal bell should ring now; true once per ring.
    func takeBell() -> Bool
    /// When, after `elapsed`, the app next changes its scene by itself rather than through a
    /// running animation (a clock's next second); nil when nothing is due. A live run sleeps
    /// until then when nothing animates.
    func nextUpdate(after elapsed: TimeInterval) -> TimeInterval?
}

extension ExampleApp {
    public func handle(key: Character, at elapsed: TimeInterval) {}
    public func isFinished(at elapsed: TimeInterval) -> Bool { false }
    public func takeBell() -> Bool { false }
    public func nextUpdate(after elapsed: TimeInterval) -> TimeInterval? { nil }
}

extension ParsableCommand {
    /// Parses the command line: `--help` and `--generate-completion-script` print and exit 0;
    /// a usage error prints its message and the usage, and exits 2.
    public static func parseOrExit2(_ arguments: [String]? = nil) -> Self {
        do {
            let parsed = try parseAsRoot(arguments)
            if let command = parsed as? Self { return command }
            // One of argument-parser's own commands (help): it prints, and that is all.
            var builtIn = parsed
            try builtIn.run()
            Glibc.exit(0)
        } catch {
            let message = fullMessage(for: error)
            if exitCode(for: error) == .success {
                print(message)
                Glibc.exit(0)
            }
            FileHandle.standardError.write(Data((message + "\n").utf8))
            Glibc.exit(2)
        }
    }
}

/// Runs an example to the output its options ask for.
public enum ExampleRunner {
    /// Renders or shows `app`, then exits the process: 0 when done (or quit), 2 for a user's
    /// error (an output that cannot be written, no terminal), 1 for any other failure, each
    /// with a one-line message; a signal that ended a live run ends the process the same way.
    public static func run<D>(_ app: some ExampleApp, options: OutputOptions<D>, title: String,
                              defaultPNG: String) -> Never {
        var presenter: (any Presenter)?
        do {
            switch options.destination {
            case let .png(path):
                try render(app, options: options, to: PNGPresenter(path: path), frameCount: 1)
                print("wrote \(path)")
            case let .frames(directory):
                let written = try render(app, options: options, to: FrameSequencePresenter(directory: directory))
                print("wrote \(written) frames to \(directory)")
            case let .video(path):
                let written = try render(app, options: options, to: VideoPresenter(path: path, fps: options.fps))
                print("wrote \(path) (\(written) frames)")
            case .terminal:
                let terminal = try TerminalPresenter()
                presenter = terminal
                try live(app, options: options, presenter: terminal)
            case .live:
                let size = options.size
                let choice = AutomaticPresenter.choose(title: title, width: size.width, height: size.height,
                                                       fallbackPath: defaultPNG)
                presenter = choice.presenter
                guard let interactive = choice.presenter as? any InteractivePresenter else {
                    try render(app, options: options, to: choice.presenter, frameCount: 1)
                    print("wrote \(choice.description) (\(choice.fallbackReason ?? "nothing else to show it on"))")
                    exit(0)
                }
                if let reason = choice.fallbackReason {
                    FileHandle.standardError.write(Data("\(title): showing in \(choice.description); \(reason)\n".utf8))
                }
                try live(app, options: options, presenter: interactive)
            }
            exit(0)
        } catch {
            // Whatever happened, give the terminal back before saying so.
            try? presenter?.finish()
            FileHandle.standardError.write(Data("\(title): \(error)\n".utf8))
            exit(isUsersError(error) ? 2 : 1)
        }
    }

    /// Errors that are the user's to fix (exit 2), as opposed to failures (exit 1).
    static func isUsersError(_ error: any Error) -> Bool {
        switch error as? DisplayError {
        case .cannotWrite?, .notATerminal?, .unsupportedFormat?, .toolMissing?: true
        default: false
        }
    }

    /// Renders to files on an exact timeline at the options' size and scale, until `duration`
    /// (5 s by default) or the app is finished; returns the number of frames.
    @discardableResult
    static func render<D>(_ app: some ExampleApp, options: OutputOptions<D>, to presenter: any Presenter,
                          frameCount: Int? = nil) throws -> Int {
        let root = app.layOut(size: options.size.cgSize)
        let renderer = Renderer(scale: CGFloat(options.scale), backgroundColor: .black)
        let loop = FrameLoop(layer: root, renderer: renderer, presenter: presenter)
        let timeline = try frameCount.map { try OfflineClock(fps: options.fps, frameCount: $0) }
            ?? OfflineClock(fps: options.fps, duration: options.duration ?? 5)
        var written = 0
        for frame in timeline {
            try loop.step(frame) { app.update(elapsed: $0.time) }
            written += 1
            if app.isFinished(at: frame.time) { break }
        }
        try presenter.finish()
        return written
    }

    /// Shows the app live until it is quit, finished or `--duration` passes. The scene fills the
    /// presenter's drawable area and is laid out again when that is resized; keys go to the app.
    static func live<D>(_ app: some ExampleApp, options: OutputOptions<D>, presenter: any InteractivePresenter) throws {
        let container = Layer()
        var scene: Layer?
        let renderer = Renderer(scale: presenter.drawableScale, backgroundColor: .black)
        func layOut() {
            let pixels = presenter.drawableSize, scale = presenter.drawableScale
            renderer.scale = scale
            let size = CGSize(width: CGFloat(max(1, pixels.width)) / scale, height: CGFloat(max(1, pixels.height)) / scale)
            Transaction.perform(disableActions: true) {
                container.bounds = CGRect(origin: .zero, size: size)
                scene?.removeFromSuperlayer()
                let root = app.layOut(size: size)
                root.position = CGPoint(x: size.width / 2, y: size.height / 2)
                container.addSublayer(root)
                scene = root
            }
        }
        layOut()
        var quit = false, signal: Int32?
        var lastTime: TimeInterval = 0
        var requested: TimeInterval?
        let terminal = presenter as? TerminalPresenter
        let loop = FrameLoop(layer: container, renderer: renderer, presenter: presenter)
        try loop.run(try DisplayLink(fps: options.fps), duration: options.duration ?? .infinity, update: { frame in
                lastTime = frame.time
                var resized = false
                for event in presenter.takeEvents() {
                    switch event {
                    case let .quit(s): quit = true; signal = signal ?? s
                    case .resized: resized = true
                    case let .key(key): app.handle(key: key, at: frame.time)
                    }
                }
                if resized { layOut() }
                app.update(elapsed: frame.time)
                // Woken for the app's own next change, not only for animations and events.
                if let next = app.nextUpdate(after: frame.time), next != requested {
                    requested = next
                    loop.requestUpdate(at: next)
                }
                if app.takeBell() {
                    if let terminal {
                        try? terminal.bell()
                    } else if isatty(STDOUT_FILENO) != 0 {
                        FileHandle.standardOutput.write(Data("\u{07}".utf8))   // the terminal the window was started from
                    }
                }
            }, shouldContinue: { !quit && !app.isFinished(at: lastTime) })
        if let signal {
            // Ended by a signal, with the terminal restored: end the way the signal would have.
            Glibc.signal(signal, SIG_DFL)
            kill(getpid(), signal)
        }
    }
}
