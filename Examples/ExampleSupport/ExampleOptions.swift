import Foundation
import LayerKit

/// The command-line options every example shares, parsed without dependencies.
public struct ExampleOptions {
    public enum Output: Equatable {
        /// Live: a window, the terminal, or a PNG, whichever is available.
        case automatic
        case png(String)
        case frames(String)
        case video(String)
        case terminal
    }

    public var output: Output = .automatic
    public var duration: TimeInterval?
    public var fps: Double = 30
    public var size = CGSize(width: 240, height: 240)
    public var scale: CGFloat = 2
    /// Seconds since midnight to start at (fixed, so outputs are reproducible); nil: now.
    public var startTime: TimeInterval?
    public var timeZone = TimeZone.current
    /// Options the example itself understands, with their values.
    public var extra: [String: String] = [:]
    /// Arguments that are not options.
    public var positional: [String] = []

    /// Why arguments were refused: the message is printed on one line, and the process exits 2.
    public struct UsageError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Parses `arguments` (without the program name). `flags` are the example's own options that
    /// take no value; `valued` those that take one.
    public init(_ arguments: [String], flags: Set<String> = [], valued: Set<String> = []) throws(UsageError) {
        var rest = arguments[...]
        func value(_ option: String) throws(UsageError) -> String {
            guard let v = rest.popFirst(), !v.hasPrefix("--") || Double(v) != nil else { throw UsageError("\(option) needs a value") }
            return v
        }
        while let argument = rest.popFirst() {
            switch argument {
            case "--output":
                let path = try value(argument)
                guard path.lowercased().hasSuffix(".png") else { throw UsageError("--output writes one PNG frame: give a name ending in .png") }
                output = .png(path)
            case "--frames": output = .frames(try value(argument))
            case "--video":
                let path = try value(argument)
                guard ["mp4", "gif", "webm", "apng"].contains((path as NSString).pathExtension.lowercased()) else {
                    throw UsageError("--video needs a file ending in .mp4, .gif, .webm or .apng")
                }
                output = .video(path)
            case "--terminal": output = .terminal
            case "--duration":
                guard let d = Double(try value(argument)), d.isFinite, d > 0, d <= 86400 else { throw UsageError("--duration needs seconds in (0, 86400]") }
                duration = d
            case "--fps":
                guard let f = Double(try value(argument)), f.isFinite, f > 0, f <= 240 else { throw UsageError("--fps needs a rate in (0, 240]") }
                fps = f
            case "--size":
                let parts = try value(argument).lowercased().split(separator: "x").compactMap { Double($0) }
                guard parts.count == 2, parts.allSatisfy({ $0 >= 16 && $0 <= 4096 }) else { throw UsageError("--size needs WxH points, each 16…4096") }
                size = CGSize(width: parts[0], height: parts[1])
            case "--scale":
                guard let s = Double(try value(argument)), s.isFinite, s > 0, s <= 8 else { throw UsageError("--scale needs a number in (0, 8]") }
                scale = CGFloat(s)
            case "--time":
                let text = try value(argument)
                let parts = text.split(separator: ":").map { Int($0) }
                guard parts.count == 3, let h = parts[0], let m = parts[1], let s = parts[2],
                      (0..<24).contains(h), (0..<60).contains(m), (0..<60).contains(s) else {
                    throw UsageError("--time needs HH:MM:SS (24-hour), not \"\(text)\"")
                }
                startTime = TimeInterval(h * 3600 + m * 60 + s)
            case "--timezone":
                let name = try value(argument)
                guard let zone = TimeZone(identifier: name) else { throw UsageError("unknown time zone \"\(name)\" (try Europe/Berlin or UTC)") }
                timeZone = zone
            default:
                if flags.contains(argument) {
                    extra[argument] = ""
                } else if valued.contains(argument) {
                    extra[argument] = try value(argument)
                } else if argument.hasPrefix("-") && Double(argument) == nil {
                    throw UsageError("unknown option \(argument) (see --help)")
                } else {
                    positional.append(argument)
                }
            }
        }
    }

    /// Seconds since local midnight at which the example starts.
    public func resolvedStartTime(now: Date = Date()) -> TimeInterval {
        if let startTime { return startTime }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let start = calendar.startOfDay(for: now)
        return now.timeIntervalSince(start)
    }

    /// The options every example documents in its --help.
    public static let commonHelp = """
      --output FILE.png     render one frame to a PNG and exit
      --frames DIR          render --duration seconds as DIR/frame-0001.png, …
      --video FILE          render --duration seconds to .mp4, .gif, .webm or .apng (needs ffmpeg)
      --terminal            show live in the terminal even when a display is available
      --duration SECONDS    how long to run (default: until closed live, 5 s for files)
      --fps N               frames per second (default 30)
      --size WxH            size in points (default 240x240)
      --scale N             pixels per point (default 2)
      --time HH:MM:SS       start at this time of day instead of now (reproducible output)
      --timezone ZONE       the time zone for the current time (default: the system's)
      --help                show this help
    Without an output option the example runs live in a window when a display is available,
    else in the terminal, else it writes a PNG.
    """
}
