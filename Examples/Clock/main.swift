// Clock: an analog clock built from layers, live or rendered to files.
import ArgumentParser
import ExampleScenes
import ExampleSupport
import Foundation
import LayerKit

enum ClockDefaults: ExampleDefaults {
    static let size = PointSize(width: 240, height: 240)
}

extension ClockScene.Style: ExpressibleByArgument {}

struct Clock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "Clock",
        abstract: "An analog clock built from Core Animation-style layers.",
        discussion: """
            Live, it opens a window when a display can show one, else fills the terminal (q, Escape or \
            Ctrl-C quits), else writes clock.png. --output, --frames and --video render files instead.
            """)

    @Option(help: ArgumentHelp("Hands as layers set every second (with a short sweep), or as shape layers turned by endless rotations.",
                               valueName: "style"))
    var style: ClockScene.Style = .layers

    @Option(help: ArgumentHelp("A picture for the face instead of the drawn ticks and numerals.", valueName: "file.png"),
            completion: .file(extensions: ["png"]))
    var face: String?

    @Flag(help: "Show the date under the centre.")
    var date = false

    @OptionGroup(title: "Time")
    var clock: ClockTimeOptions

    @OptionGroup(title: "Output")
    var output: OutputOptions<ClockDefaults>

    /// The face picture, read once here so that a bad file is a usage error.
    var picture: Image?

    enum CodingKeys: CodingKey { case style, face, date, clock, output }

    mutating func validate() throws {
        if let face {
            do {
                picture = try Image(pngAt: face)
            } catch {
                throw ValidationError("--face: \(error)")
            }
        }
    }
}

/// The Clock as the runner drives it.
final class ClockApp: ExampleApp {
    let command: Clock
    let startTime: TimeInterval
    let day: Date
    var scene: ClockScene?

    init(_ command: Clock) {
        self.command = command
        let now = Date()
        startTime = command.clock.startTime(now: now)
        day = command.clock.startOfDay(now)
    }

    func layOut(size: CGSize) -> Layer {
        let scene = ClockScene(size: size, style: command.style, startTime: startTime, face: command.picture,
                               day: command.date ? day : nil, timeZone: command.clock.timezone.zone)
        self.scene = scene
        return scene.root
    }

    func update(elapsed: TimeInterval) { scene?.update(elapsed: elapsed) }

    /// The next whole second of the time shown.
    func nextUpdate(after elapsed: TimeInterval) -> TimeInterval? {
        let now = startTime + elapsed
        return elapsed + (now.rounded(.down) + 1 - now)
    }
}

let command = Clock.parseOrExit2()
ExampleRunner.run(ClockApp(command), options: command.output, title: "Clock", defaultPNG: "clock.png")
