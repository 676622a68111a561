// FlipClock: HH:MM:SS cards whose digits change with a 3D page flip.
import ExampleScenes
import ExampleSupport
import Foundation
import LayerKit

let options = ExampleRunner.options(help: """
    FlipClock — a flip clock: each digit card folds its old value down in 3D as the new one
    arrives, finishing exactly as the new second begins.
    usage: FlipClock [options]
      --12h / --24h          12- or 24-hour display (default 24)
      --no-seconds           hours and minutes only
    """, flags: ["--12h", "--24h", "--no-seconds"])

var sized = options
if options.extra["--size"] == nil, options.size == CGSize(width: 240, height: 240) {
    sized.size = CGSize(width: 480, height: 200)
}
let scene = FlipClockScene(size: sized.size, startTime: sized.resolvedStartTime(),
                           twelveHour: sized.extra["--12h"] != nil, showsSeconds: sized.extra["--no-seconds"] == nil)
ExampleRunner.run(scene.root, options: sized, title: "FlipClock", defaultPNG: "flipclock.png") { elapsed in
    scene.update(elapsed: elapsed)
}
