// Countdown: the time left on a 60-minute face with a red sector, then "Time is over".
import ArgumentParser
import ExampleScenes
import ExampleSupport
import Foundation
import LayerKit

enum CountdownDefaults: ExampleDefaults {
    static let size = PointSize(width: 300, height: 360)
}

/// A countdown's length on the command line.
struct Duration: ExpressibleByArgument {
    var seconds: TimeInterval
    init?(argument: String) {
        guard let seconds = CountdownScene.parseDuration(argument) else { return nil }
        self.seconds = seconds
    }
}

struct Countdown: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "Countdown",
        abstract: "Counts down on a 60-minute face: the time left as text, a red sector for the minutes remaining.",
        discussion: """
            At zero the terminal bell rings and "Time is over" stays for --end-screen seconds (or, with \
            --hold, until a key), then the program exits 0. Live: space pauses and goes on, r starts again \
            (also from "Time is over"), any other key leaves "Time is over", and q, Escape or Ctrl-C quits.
            """)

    @Argument(help: ArgumentHelp("How long: 90 (seconds), 1m30s, 2h, 1:30 (M:SS) or 00:01:30 (H:MM:SS).",
                                 valueName: "duration"))
    var duration: Duration?

    @Option(help: ArgumentHelp("Count down to a moment instead: 2026-12-31T23:59:59 (ISO 8601, an offset allowed), "
                               + "\"2026-12-31 23:59\", 2026-12-31, or a time today like 17:30.", valueName: "date"))
    var until: String?

    @Option(name: .customLong("end-screen"), help: ArgumentHelp("Seconds \"Time is over\" stays before the program exits.",
                                                                valueName: "seconds"))
    var endScreen = Number(10)

    @Flag(help: "Keep \"Time is over\" until a key is pressed.")
    var hold = false

    @Option(help: ArgumentHelp("The time zone of --until when it has no offset.", valueName: "zone"))
    var timezone = ZoneArgument(.current)

    @OptionGroup(title: "Output")
    var output: OutputOptions<CountdownDefaults>

    /// Seconds to count down, from the duration or --until.
    var seconds: TimeInterval = 0

    enum CodingKeys: CodingKey { case duration, until, endScreen, hold, timezone, output }

    mutating func validate() throws {
        guard endScreen.value.isFinite, endScreen.value >= 0, endScreen.value <= 86400 else {
            throw ValidationError("--end-screen needs seconds in [0, 86400], not \(endScreen)")
        }
        switch (duration, until) {
        case (nil, nil):
            throw ValidationError("give a duration (90, 1m30s, 1:30, 00:01:30) or --until DATE")
        case (.some, .some):
            throw ValidationError("give either a duration or --until, not both")
        case let (duration?, nil):
            seconds = duration.seconds
        case let (nil, text?):
            guard let date = Self.date(text, in: timezone.zone) else {
                throw ValidationError("--until needs a moment like 2026-12-31T23:59:59, \"2026-12-31 23:59\" or 17:30, not \"\(text)\"")
            }
            let left = date.timeIntervalSinceNow
            guard left > 0 else { throw ValidationError("--until \(text) has already passed") }
            guard left <= CountdownScene.maximumDuration else { throw ValidationError("--until \(text) is more than ten years away") }
            seconds = left
        }
    }

    /// The moment `text` names: a full ISO 8601 time, a local date and time, a date (its
    /// midnight), or a time of day (its next occurrence).
    static func date(_ text: String, in zone: TimeZone, now: Date = Date()) -> Date? {
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
        guard (2...3).contains(fields.count), let h = fields[0], let m = fields[1], (0..<24).contains(h), (0..<60).contains(m),
              fields.count == 2 || (fields[2].map { (0..<60).contains($0) } ?? false) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.nextDate(after: now, matching: DateComponents(hour: h, minute: m, second: fields.count == 3 ? fields[2]! : 0),
                                 matchingPolicy: .nextTime)
    }
}

/// The Countdown as the runner drives it: the timer, the keys, the bell.
final class CountdownApp: ExampleApp {
    let live: Bool
    var timer: CountdownTimer
    var scene: CountdownScene?
    private var rang = false, bell = false

    init(_ command: Countdown) {
        live = !command.output.writesFiles
        timer = CountdownTimer(total: command.seconds, endScreen: command.hold ? nil : command.endScreen.value)
    }

    func layOut(size: CGSize) -> Layer {
        let scene = CountdownScene(size: size, seconds: timer.total, showsKeys: live)
        self.scene = scene
        return scene.root
    }

    func update(elapsed t: TimeInterval) {
        scene?.show(remaining: timer.remaining(at: t), paused: timer.isPaused)
        if timer.isOver(at: t), !rang {
            rang = true
            bell = true
        }
    }

    func handle(key: Character, at t: TimeInterval) {
        switch key {
        case "r", "R":
            timer.restart(at: t)
            rang = false
        case " " where !timer.isOver(at: t):
            timer.togglePause(at: t)
        default:
            timer.dismiss(at: t)
        }
    }

    func isFinished(at t: TimeInterval) -> Bool { timer.isFinished(at: t) }

    /// The next whole second of the time left, or when the result page has stayed long enough;
    /// nothing while paused.
    func nextUpdate(after t: TimeInterval) -> TimeInterval? {
        guard !timer.isPaused else { return nil }
        guard timer.isOver(at: t) else {
            let left = timer.remaining(at: t)
            return t + left - (left.rounded(.up) - 1)
        }
        guard let zero = timer.zeroTime(), let endScreen = timer.endScreen else { return nil }
        return zero + endScreen > t ? zero + endScreen : nil
    }

    func takeBell() -> Bool {
        defer { bell = false }
        return bell
    }
}

let command = Countdown.parseOrExit2()
ExampleRunner.run(CountdownApp(command), options: command.output, title: "Countdown", defaultPNG: "countdown.png")
