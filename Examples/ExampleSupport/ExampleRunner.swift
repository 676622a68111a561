import Foundation
import LayerKit
import LayerKitSDL

/// Runs an example scene to the output its options ask for.
public enum ExampleRunner {
    /// Renders or shows `root`, calling `update` with the elapsed seconds before each frame, and
    /// exits the process (0 on success, 1 with a one-line message on failure).
    public static func run(_ root: Layer, options: ExampleOptions, title: String, defaultPNG: String,
                           update: @escaping (TimeInterval) -> Void, isFinished: @escaping () -> Bool = { false }) -> Never {
        do {
            let renderer = Renderer(scale: options.scale, backgroundColor: .black)
            let step: (FrameTime) -> Void = { frame in update(frame.time) }
            switch options.output {
            case let .png(path):
                try FrameLoop(layer: root, renderer: renderer, presenter: PNGPresenter(path: path))
                    .run(try OfflineClock(fps: options.fps, frameCount: 1), update: step)
                print("wrote \(path)")
            case let .frames(directory):
                let clock = try OfflineClock(fps: options.fps, duration: options.duration ?? 5)
                try FrameLoop(layer: root, renderer: renderer, presenter: try FrameSequencePresenter(directory: directory)).run(clock, update: step)
                print("wrote \(clock.frameCount) frames to \(directory)")
            case let .video(path):
                let clock = try OfflineClock(fps: options.fps, duration: options.duration ?? 5)
                try FrameLoop(layer: root, renderer: renderer, presenter: try VideoPresenter(path: path, fps: options.fps)).run(clock, update: step)
                print("wrote \(path) (\(clock.frameCount) frames)")
            case .terminal, .automatic:
                let width = Int(options.size.width), height = Int(options.size.height)
                let presenter: any Presenter
                if options.output == .terminal {
                    presenter = try TerminalPresenter()
                } else {
                    let choice = AutomaticPresenter.choose(title: title, width: width, height: height, fallbackPath: defaultPNG)
                    presenter = choice.presenter
                    if choice.presenter is PNGPresenter {
                        try FrameLoop(layer: root, renderer: renderer, presenter: presenter)
                            .run(try OfflineClock(fps: options.fps, frameCount: 1), update: step)
                        print("wrote \(defaultPNG): \(choice.description)")
                        exit(0)
                    }
                }
                let window = presenter as? WindowPresenter
                try FrameLoop(layer: root, renderer: renderer, presenter: presenter)
                    .run(try DisplayLink(fps: options.fps), duration: options.duration ?? .infinity, update: step,
                         shouldContinue: { !(window?.isCloseRequested ?? false) && !isFinished() })
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("\(title): \(error)\n".utf8))
            exit(1)
        }
    }

    /// Parses the command line or exits 2 with a one-line message (0 after printing help).
    public static func options(help: String, flags: Set<String> = [], valued: Set<String> = []) -> ExampleOptions {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.contains("--help") || arguments.contains("-h") {
            print(help + "\n" + ExampleOptions.commonHelp)
            exit(0)
        }
        do {
            return try ExampleOptions(arguments, flags: flags, valued: valued)
        } catch {
            let name = (CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent }) ?? "example"
            FileHandle.standardError.write(Data("\(name): \(error.description)\n".utf8))
            exit(2)
        }
    }
}
