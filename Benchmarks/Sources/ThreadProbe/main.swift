// What a frame costs the threads drawing it, beside the wall clock: for timing two cores on a
// machine other work shares, where wall-clock ratios say more about the neighbours than the code.
//
//   swift run -c release --package-path Benchmarks ThreadProbe [SCENE [FRAMES [ROUNDS [THREADS]]]]
//
// SCENE: text, paths, clock, 10, 1000, 100s (100 layers + shadows), persp, flip, countdown
// (default text); FRAMES per round (default 400); ROUNDS (default 5); THREADS: 1, 2 (frames
// rendered and waited for one by one, `Renderer.render`) or 2s (frames submitted back to back,
// `Renderer.submit`, the last waited for) — default all three, taken in turn in each round. Prints medians per frame: wall time, the calling thread's
// CPU time, the process's CPU time (all threads), and context switches (voluntary and not).
// The calling thread's CPU time bounds a frame from below whatever the other threads do; the
// process's over one thread's is what splitting the frame costs; switches are sleeps and wakes.
import CompositorBench
import Foundation
import LayerKit

func microseconds(_ clock: clockid_t) -> Double {
    var t = timespec()
    clock_gettime(clock, &t)
    return Double(t.tv_sec) * 1e6 + Double(t.tv_nsec) / 1e3
}

func contextSwitches() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_nvcsw + usage.ru_nivcsw
}

let arguments = CommandLine.arguments
let name = arguments.count > 1 ? arguments[1] : "text"
let frames = max(1, arguments.count > 2 ? Int(arguments[2]) ?? 400 : 400)
let rounds = max(1, arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5)
struct Way: Hashable, CustomStringConvertible {
    let threads: Int, submits: Bool
    var description: String { "\(threads) thread(s)\(submits ? ", submitted" : "")" }
}
let allWays = [Way(threads: 1, submits: false), Way(threads: 2, submits: false), Way(threads: 2, submits: true)]
let ways = arguments.count > 4 ? allWays.filter { "\($0.threads)\($0.submits ? "s" : "")" == arguments[4] } : allWays
guard !ways.isEmpty else {
    print("ThreadProbe: THREADS is 1, 2 or 2s")
    exit(2)
}
let (width, height) = (1920, 1080)
let scenes: [String: () -> Scene] = [
    "text": { Scenes.text(width: width, height: height) }, "paths": { Scenes.paths(width: width, height: height) },
    "clock": { Scenes.clock(width: width, height: height) }, "10": { Scenes.layers(10, width: width, height: height) },
    "1000": { Scenes.layers(1000, width: width, height: height) },
    "100s": { Scenes.layers(100, shadows: true, width: width, height: height) },
    "persp": { Scenes.perspective(width: width, height: height) }, "flip": { Scenes.flipClock(width: width, height: height) },
    "countdown": { Scenes.countdown(width: width, height: height) },
]
guard let make = scenes[name] else {
    print("ThreadProbe: no scene \"\(name)\"; one of \(scenes.keys.sorted().joined(separator: ", "))")
    exit(2)
}
let scene = make()
struct Round { let wall, thread, process, switches: Double }
var drawers: [Way: LayerKitDrawer] = [:]
var measured: [Way: [Round]] = [:]
for way in ways {
    let drawer = try LayerKitDrawer(scene, threads: way.threads, submits: way.submits)
    for i in 0..<30 { drawer.draw(frame: i) }
    drawer.finish()
    drawers[way] = drawer
}
for _ in 0..<rounds {
    for way in ways {
        let drawer = drawers[way]!
        let wall = microseconds(CLOCK_MONOTONIC), thread = microseconds(CLOCK_THREAD_CPUTIME_ID)
        let process = microseconds(CLOCK_PROCESS_CPUTIME_ID), switches = contextSwitches()
        for i in 0..<frames { drawer.draw(frame: i) }
        drawer.finish()
        let n = Double(frames)
        measured[way, default: []].append(Round(
            wall: (microseconds(CLOCK_MONOTONIC) - wall) / n, thread: (microseconds(CLOCK_THREAD_CPUTIME_ID) - thread) / n,
            process: (microseconds(CLOCK_PROCESS_CPUTIME_ID) - process) / n, switches: Double(contextSwitches() - switches) / n))
    }
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
for way in ways {
    let r = measured[way]!
    print(String(format: "%@, %@, per frame: wall %.1f us (min %.1f), calling thread CPU %.1f us, process CPU %.1f us, %.2f context switches",
                 name, way.description, median(r.map(\.wall)), r.map(\.wall).min()!, median(r.map(\.thread)), median(r.map(\.process)),
                 median(r.map(\.switches))))
}
