// FlipClock: HH:MM:SS cards whose digits change with a 3D page flip.
import ArgumentParser
import ExampleScenes
import ExampleSupport
import Foundation
import LayerKit

enum FlipClockDefaults: ExampleDefaults {
    static let size = PointSize(width: 480, height: 200)
}

struct FlipClock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "FlipClock",
        abstract: "A flip clock: each digit card folds its old value down in 3D as the new one arrives.",
        discussion: """
            Each flip finishes exactly as the new second begins. Live, it opens a window when a display \
            can show one, else fills the terminal (q, Escape or Ctrl-C quits), else writes flipclock.png.
            """)

    @Flag(name: .customLong("12h"), help: "A 12-hour display, with AM or PM under the hours.")
    var twelveHour = false

    @Flag(name: .customLong("no-seconds"), help: "Hours and minutes only.")
    var noSeconds = false

    @OptionGroup(title: "Time")
    var clock: ClockTimeOptions

    @OptionGroup(title: "Output")
    var output: OutputOptions<FlipClockDefaults>
}

/// The FlipClock as the runner drives it.
final class FlipClockApp: ExampleApp {
    let command: FlipClock
    let startTime: TimeInterval
    var scene: FlipClockScene?

    init(_ command: FlipClock) {
        self.command = command
        startTime = command.clock.startTime()
    }

    func layOut(size: CGSize) -> Layer {
        let scene = FlipClockScene(size: size, startTime: startTime, twelveHour: command.twelveHour,
                                   showsSeconds: !command.noSeconds)
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

let command = FlipClock.parseOrExit2()
ExampleRunner.run(FlipClockApp(command), options: command.output, title: "FlipClock", defaultPNG: "flipclock.png")
