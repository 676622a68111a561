// Clock: an analog clock built from layers, live or rendered to files.
import ExampleScenes
import ExampleSupport
import Foundation
import LayerKit

let options = ExampleRunner.options(help: """
    Clock — an analog clock built from Core Animation-style layers.
    usage: Clock [options]
      --style layers|shapes  hands as layers set every second (with a short sweep), or as shape
                             layers turned by endless rotation animations (default: layers)
      --face FILE.png        a picture for the face instead of the drawn ticks and numerals
    """, valued: ["--style", "--face"])

let style = ClockScene.Style(rawValue: options.extra["--style"] ?? "layers")
guard let style else {
    FileHandle.standardError.write(Data("Clock: --style must be layers or shapes\n".utf8))
    exit(2)
}
var picture: Image?
if let path = options.extra["--face"] {
    do {
        picture = try Image(pngAt: path)
    } catch {
        FileHandle.standardError.write(Data("Clock: \(error)\n".utf8))
        exit(2)
    }
}
let clock = ClockScene(size: options.size, style: style, startTime: options.resolvedStartTime(), face: picture)
ExampleRunner.run(clock.root, options: options, title: "Clock", defaultPNG: "clock.png") { elapsed in
    clock.update(elapsed: elapsed)
}
