import Foundation
import Testing
@testable import LayerKit

/// The examples' command lines, run as executables: every option works, every bad value is a
/// message and exit code 2, help shows the real defaults.
@Suite struct CommandLineTests {
    static let scratch = try! ExampleProcess.temporaryDirectory()
    static let aFile: String = {
        let path = scratch.appendingPathComponent("plain-file").path
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        return path
    }()
    static let fixturePNG = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Graphics/Fixtures/png/rgb8.png").path

    /// A bad command line, and words its message must contain.
    struct Bad: CustomTestStringConvertible, Sendable {
        let example: String, arguments: [String], says: String
        var testDescription: String { "\(example) \(arguments.joined(separator: " "))" }
    }

    static let badLines: [Bad] = {
        let dir = scratch.path, missing = "/nonexistent-\(UUID().uuidString)"
        var lines: [Bad] = []
        for example in ["Clock", "FlipClock", "Countdown"] {
            let lead = example == "Countdown" ? ["90"] : []
            func bad(_ arguments: [String], _ says: String) { lines.append(Bad(example: example, arguments: lead + arguments, says: says)) }
            bad(["--fps", "0"], "--fps needs a rate in (0, 240], not 0")
            bad(["--fps", "241"], "--fps needs a rate")
            bad(["--fps", "nan"], "--fps needs a rate")
            bad(["--fps", "fast"], "'fast' is invalid for '--fps")
            bad(["--size", "10x10"], "'10x10' is invalid for '--size")
            bad(["--size", "100"], "'100' is invalid for '--size")
            bad(["--size", "5000x100"], "'5000x100' is invalid for '--size")
            bad(["--scale", "0", "--output", dir + "/s.png"], "--scale needs a number in (0, 8], not 0")
            bad(["--scale", "9"], "--scale needs a number")
            bad(["--size", "4096x4096", "--scale", "8", "--output", dir + "/big.png"], "makes 32768x32768 pixels")
            bad(["--duration", "0", "--frames", dir + "/d"], "--duration needs seconds in (0, 86400], not 0")
            bad(["--duration", "90000"], "--duration needs seconds")
            bad(["--duration", "long"], "'long' is invalid for '--duration")
            bad(["--duration"], "Missing value for '--duration")
            bad(["--output", "x.jpg"], "give a name ending in .png")
            bad(["--output", dir], "cannot write \(dir): is a directory")
            bad(["--output", missing + "/x.png"], "cannot write \(missing)/x.png: no such directory: \(missing)")
            bad(["--frames", aFile + "/frames"], "not a directory: \(aFile)")
            bad(["--video", "out.avi"], "--video needs a file ending in .mp4, .gif, .webm or .apng")
            bad(["--video", missing + "/x.gif"], "no such directory")
            bad(["--output", dir + "/a.png", "--video", dir + "/b.gif"], "--output and --video were both given")
            bad(["--terminal"], "--terminal needs standard output to be a terminal")
            bad(["--frobnicate"], "Unknown option '--frobnicate'")
            bad(["--timezone", "Mars/Olympus"], "'Mars/Olympus' is invalid for '--timezone")
        }
        for example in ["Clock", "FlipClock"] {
            lines.append(Bad(example: example, arguments: ["--time", "25:00:00"], says: "'25:00:00' is invalid for '--time"))
            lines.append(Bad(example: example, arguments: ["--time", "9:30"], says: "'9:30' is invalid for '--time"))
            lines.append(Bad(example: example, arguments: ["stray"], says: "Unexpected argument 'stray'"))
        }
        lines += [
            Bad(example: "Clock", arguments: ["--style", "round"], says: "'round' is invalid for '--style"),
            Bad(example: "Clock", arguments: ["--face", missing + ".png"], says: "--face:"),
            Bad(example: "Clock", arguments: ["--face", aFile], says: "--face:"),
            Bad(example: "FlipClock", arguments: ["--12h=yes"], says: "--12h"),
            Bad(example: "Countdown", arguments: [], says: "give a duration (90, 1m30s, 1:30, 00:01:30) or --until DATE"),
            Bad(example: "Countdown", arguments: ["90", "--until", "17:00"], says: "give either a duration or --until, not both"),
            Bad(example: "Countdown", arguments: ["abc"], says: "'abc' is invalid for '<duration>'"),
            Bad(example: "Countdown", arguments: ["1:70"], says: "'1:70' is invalid for '<duration>'"),
            Bad(example: "Countdown", arguments: ["90", "100"], says: "Unexpected argument '100'"),
            Bad(example: "Countdown", arguments: ["--time", "10:00:00", "90"], says: "Unknown option '--time'"),
            Bad(example: "Countdown", arguments: ["--until", "2001-01-01"], says: "--until 2001-01-01 has already passed"),
            Bad(example: "Countdown", arguments: ["--until", "someday"], says: "--until needs a moment like"),
            Bad(example: "Countdown", arguments: ["--until", "2999-01-01"], says: "more than ten years away"),
            Bad(example: "Countdown", arguments: ["90", "--end-screen", "nan"], says: "--end-screen needs seconds"),
            Bad(example: "Countdown", arguments: ["90", "--end-screen", "soon"], says: "'soon' is invalid for '--end-screen"),
        ]
        return lines
    }()

    @Test(arguments: badLines)
    func aBadValueIsAMessageAndExitCode2(_ line: Bad) throws {
        let result = try ExampleProcess.run(line.example, line.arguments)
        #expect(result.status == 2, "\(line.testDescription): exit \(result.status), \(result.errors)")
        #expect(result.errors.contains("Error: " + line.says) || result.errors.contains(line.says),
                "\(line.testDescription) said: \(result.errors)")
        #expect(result.errors.contains("See '\(line.example) --help'"), "\(result.errors)")
        #expect(result.output.isEmpty)
    }

    @Test(arguments: [("Clock", "240x240"), ("FlipClock", "480x200"), ("Countdown", "300x360")])
    func helpShowsTheRealDefaults(_ example: String, _ size: String) throws {
        let result = try ExampleProcess.run(example, ["--help"])
        #expect(result.status == 0 && result.errors.isEmpty)
        let help = result.output
        #expect(help.contains("USAGE: \(example)"))
        #expect(help.contains("(default: \(size))"), "\(help)")
        #expect(help.contains("--fps <n>") && help.contains("(default: 30)") && help.contains("(default: 2)"))
        for option in ["--output", "--frames", "--video", "--terminal", "--duration", "--size", "--scale"] {
            #expect(help.contains(option), "\(example) --help lacks \(option)")
        }
        if example == "Countdown" {
            #expect(!help.contains("--time <") && help.contains("--until") && help.contains("--end-screen") && help.contains("(default: 10)"))
        } else {
            #expect(help.contains("--time <HH:MM:SS>") && help.contains("--timezone"))
        }
        if example == "FlipClock" { #expect(help.contains("--12h") && help.contains("--no-seconds")) }
        if example == "Clock" { #expect(help.contains("--style") && help.contains("--face") && help.contains("--date")) }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScripts(_ shell: String) throws {
        for example in ["Clock", "FlipClock", "Countdown"] {
            let result = try ExampleProcess.run(example, ["--generate-completion-script", shell])
            #expect(result.status == 0 && result.output.contains(example) && result.output.contains("fps"), "\(example) \(shell)")
        }
    }

    /// Runs a good command line and returns the PNG it wrote.
    func png(_ example: String, _ arguments: [String]) throws -> Bitmap {
        let path = Self.scratch.appendingPathComponent("\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try ExampleProcess.run(example, arguments + ["--output", path])
        #expect(result.status == 0, "\(example) \(arguments): \(result.errors)")
        #expect(result.output == "wrote \(path)\n")
        return try Bitmap(pngAt: path)
    }

    @Test func everyClockOptionWorks() throws {
        let frame = try png("Clock", ["--style", "shapes", "--date", "--time", "10:08:30", "--timezone", "UTC",
                                      "--size", "100x80", "--scale", "1.5", "--fps", "10"])
        #expect(frame.width == 150 && frame.height == 120)
        #expect(try png("Clock", ["--face", Self.fixturePNG, "--time", "03:00:00", "--scale", "1"]).width == 240)
        // The time decides the picture: the same time twice is the same frame, another differs.
        let a = try png("Clock", ["--time", "03:00:00", "--scale", "1"])
        #expect(a.hasSamePixels(as: try png("Clock", ["--time", "03:00:00", "--scale", "1"])))
        #expect(!a.hasSamePixels(as: try png("Clock", ["--time", "09:30:15", "--scale", "1"])))
        // --date adds the line.
        #expect(!a.hasSamePixels(as: try png("Clock", ["--time", "03:00:00", "--scale", "1", "--date"])))
    }

    @Test func everyFlipClockOptionWorks() throws {
        let frame = try png("FlipClock", ["--12h", "--no-seconds", "--time", "13:00:00", "--size", "240x100", "--scale", "1"])
        #expect(frame.width == 240 && frame.height == 100)
        // 24-hour and 12-hour at 13:00 differ (13 vs 01 PM).
        let twentyFour = try png("FlipClock", ["--no-seconds", "--time", "13:00:00", "--size", "240x100", "--scale", "1"])
        #expect(!frame.hasSamePixels(as: twentyFour))
    }

    @Test func countdownDurationsInEveryFormAreTheSame() throws {
        let forms = ["90", "1m30s", "1:30", "00:01:30"]
        let frames = try forms.map { try png("Countdown", [$0, "--scale", "1", "--size", "150x180"]) }
        for (form, frame) in zip(forms, frames).dropFirst() {
            #expect(frame.hasSamePixels(as: frames[0]), "\(form) differs from 90")
        }
        #expect(!frames[0].hasSamePixels(as: try png("Countdown", ["91", "--scale", "1", "--size", "150x180"])))
        // --until, with a zone, and a time of day; --end-screen and --hold are accepted.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let soon = formatter.string(from: Date().addingTimeInterval(7200))
        _ = try png("Countdown", ["--until", soon, "--timezone", "UTC", "--end-screen", "2", "--scale", "1"])
        _ = try png("Countdown", ["--until", "23:59", "--hold", "--scale", "1"])
    }

    @Test func framesAndVideoWrite() throws {
        let folder = Self.scratch.appendingPathComponent("frames-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try ExampleProcess.run("Clock", ["--frames", folder, "--duration", "0.5", "--fps", "4", "--scale", "1", "--size", "64x64"])
        #expect(result.status == 0 && result.output == "wrote 2 frames to \(folder)\n", "\(result.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["frame-0001.png", "frame-0002.png"])
        guard VideoPresenter.find("ffmpeg") != nil else { return }
        let video = Self.scratch.appendingPathComponent("\(UUID().uuidString).gif").path
        defer { try? FileManager.default.removeItem(atPath: video) }
        let encoded = try ExampleProcess.run("FlipClock", ["--video", video, "--size", "64x32", "--scale", "1", "--duration", "0.4", "--fps", "5"])
        #expect(encoded.status == 0 && encoded.output == "wrote \(video) (2 frames)\n", "\(encoded.errors)")
        #expect(FileManager.default.fileExists(atPath: video))
    }

    /// Whether a Countdown frame (150x180 points at scale 1) shows the face or "Time is over".
    func screen(_ frame: Bitmap) -> String {
        // The dial's paper, left of the centre (the sector is on the right with under a minute left).
        let dial = frame.pixel(x: 40, y: 100)
        let onDial = dial.blue > 0.95 && dial.red > 0.95
        var pureRed = 0
        for y in 0..<frame.height { for x in 0..<frame.width {
            let p = frame.pixel(x: x, y: y)
            if p.red > 0.9 && p.green < 0.15 && p.blue < 0.15 { pureRed += 1 }
        } }
        return onDial ? "face" : pureRed > 30 ? "over" : "other"
    }

    @Test func theCountdownsEndScreenStaysForTheStatedTime() throws {
        let folder = Self.scratch.appendingPathComponent("end-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Two seconds, then "Time is over" for three, at four frames a second; --duration allows more.
        let result = try ExampleProcess.run("Countdown", ["2", "--end-screen", "3", "--frames", folder, "--fps", "4",
                                                          "--duration", "20", "--size", "150x180", "--scale", "1"])
        #expect(result.status == 0, "\(result.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        // Frames at t = 0, 0.25, … 5.0: the last one is the first at three seconds past zero.
        #expect(files.count == 21, "\(files.count) frames")
        let screens = try files.map { try screen(Bitmap(pngAt: folder + "/" + $0)) }
        #expect(screens == Array(repeating: "face", count: 8) + Array(repeating: "over", count: 13), "\(screens)")
        // --hold: it stays until --duration ends the run.
        let held = Self.scratch.appendingPathComponent("held-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: held) }
        let holding = try ExampleProcess.run("Countdown", ["1", "--hold", "--frames", held, "--fps", "2", "--duration", "6",
                                                           "--size", "150x180", "--scale", "1"])
        #expect(holding.status == 0 && holding.output == "wrote 12 frames to \(held)\n", "\(holding.output)")
    }

    @Test func aStaleDisplayFallsBackToAPNGWithOneLineSayingWhy() throws {
        let folder = try ExampleProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let number = (120..<190).first { !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 189
        let result = try ExampleProcess.run("Clock", ["--time", "10:08:30"], environment: ["DISPLAY": ":\(number)"], in: folder)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.hasPrefix("wrote clock.png (no window: the X display :\(number) cannot be opened"), "\(result.output)")
        #expect(result.output.split(separator: "\n").count == 1)
        #expect(try Bitmap(pngAt: folder.appendingPathComponent("clock.png").path).width == 480)
    }
}
