// Countdown: the time left on a 60-minute face with a red sector, then "Time is over".
import ExampleScenes
import ExampleSupport
import Foundation
import LayerKit

let options = ExampleRunner.options(help: """
    Countdown — counts down on a 60-minute face: the time left as text, a red sector for the
    minutes remaining and a hand at its edge; at zero "Time is over", and the program exits 0.
    usage: Countdown DURATION | --until YYYY-MM-DDTHH:MM:SS [options]
      DURATION               90, 1m30s, 2h, 1h2m3s …
      --until TIME           count down to a moment (ISO 8601; without an offset, in --timezone)
      --hold                 keep showing "Time is over" instead of exiting
    """, flags: ["--hold"], valued: ["--until"])

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Countdown: \(message)\n".utf8))
    exit(2)
}

let seconds: TimeInterval
if let until = options.extra["--until"] {
    guard options.positional.isEmpty else { fail("give either a duration or --until, not both") }
    let plain = DateFormatter()
    plain.locale = Locale(identifier: "en_US_POSIX")
    plain.timeZone = options.timeZone
    plain.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
    guard let date = ISO8601DateFormatter().date(from: until) ?? plain.date(from: until) else {
        fail("--until needs a time like 2026-12-31T23:59:59, not \"\(until)\"")
    }
    seconds = max(0, date.timeIntervalSinceNow)
} else {
    guard options.positional.count == 1, let parsed = CountdownScene.parseDuration(options.positional[0]) else {
        fail("give one duration (90, 1m30s, 2h) or --until TIME (see --help)")
    }
    seconds = parsed
}
var sized = options
if options.size == CGSize(width: 240, height: 240) { sized.size = CGSize(width: 300, height: 360) }
let scene = CountdownScene(size: sized.size, seconds: seconds)
var elapsed: TimeInterval = 0
ExampleRunner.run(scene.root, options: sized, title: "Countdown", defaultPNG: "countdown.png",
                  update: { t in elapsed = t; scene.update(elapsed: t) },
                  isFinished: { sized.extra["--hold"] == nil && scene.isOver(at: elapsed) })
