import Foundation
import Testing
@testable import LayerKit

/// The examples live in a terminal, as a person sees them: each runs in a tmux pane (a real
/// pseudo-terminal that tmux renders), is resized, typed at and signalled, and the pane's screen,
/// modes and the terminal's settings are read back.
@Suite(.enabled(if: VideoPresenter.find("tmux") != nil)) struct LiveTerminalTests {
    /// One tmux server with one pane running `command` in a shell, then a report of how it ended
    /// (exit status, the terminal's settings) and a long sleep to keep the pane.
    final class Pane {
        let socket = "layerkit-\(UUID().uuidString.prefix(8))"
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-tty-\(UUID().uuidString)").path

        init(columns: Int, rows: Int, _ command: String) throws {
            // The pane stays after the example ends (cat waits for input until tmux ends), so that
            // its screen and modes can be read.
            let script = "env LAYERKIT_TERMINAL=halfblock \(command); echo \"status=$?\" > \(report).status; "
                + "stty -a > \(report).stty; echo ended; exec cat > /dev/null"
            try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(columns)", "-y", "\(rows)", "-s", "t", script], output: false)
        }

        deinit {
            _ = try? tmux(["kill-server"])
            for suffix in [".status", ".stty"] { try? FileManager.default.removeItem(atPath: report + suffix) }
        }

        @discardableResult
        func tmux(_ arguments: [String], output: Bool = true) throws -> String {
            try LiveTerminalTests.spawn(try #require(VideoPresenter.find("tmux")).path, ["-L", socket] + arguments, output: output)
        }

        /// The pane's visible text, one string per row.
        func screen() throws -> [String] {
            try tmux(["capture-pane", "-p", "-t", "t"]).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }

        /// A pane variable such as alternate_on or cursor_flag.
        func variable(_ name: String) throws -> String {
            try tmux(["display", "-p", "-t", "t", "#{\(name)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// The settings of the pane's terminal, as stty prints them.
        func terminalSettings() throws -> String {
            try LiveTerminalTests.spawn("/bin/stty", ["-a", "-F", try variable("pane_tty")], output: true)
        }

        /// Waits (up to 20 s) until `condition` holds.
        func waitUntil(_ what: String, _ condition: () throws -> Bool) throws {
            for _ in 0..<400 {
                if try condition() { return }
                usleep(50_000)
            }
            Issue.record("timed out waiting until \(what); screen:\n\(try screen().joined(separator: "\n"))")
        }

        /// Whether the top `rows` rows are full of half blocks, `columns` of them each.
        func showsPicture(columns: Int, rows: Int) throws -> Bool {
            let lines = try screen()
            return lines.count >= rows && lines.prefix(rows).allSatisfy { $0.count == columns && $0.allSatisfy { $0 == "▀" } }
        }

        /// The example's own process: the child of the pane's shell.
        func examplePID() throws -> pid_t? {
            guard let shell = Int32(try variable("pane_pid")) else { return nil }
            for entry in try FileManager.default.contentsOfDirectory(atPath: "/proc") {
                guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 2, Int32(fields[1]) == shell { return pid }
            }
            return nil
        }

        func ended() -> (status: String, settings: String)? {
            guard let status = try? String(contentsOfFile: report + ".status", encoding: .utf8),
                  let settings = try? String(contentsOfFile: report + ".stty", encoding: .utf8), settings.contains("echo") else { return nil }
            return (status.trimmingCharacters(in: .whitespacesAndNewlines), settings)
        }
    }

    /// Runs `path` with posix_spawn and returns its standard output. Not Foundation's Process:
    /// it learns that a child ended when a descriptor the child inherits closes, and the server
    /// that `tmux new-session` forks keeps it open, so waiting would never end. The child starts
    /// with no signal blocked and default handlers (the test runner's thread blocks most).
    static func spawn(_ path: String, _ arguments: [String], output: Bool) throws -> String {
        var pipe: [Int32] = [-1, -1]
        guard Glibc.pipe(&pipe) == 0 else { throw POSIXError(.EMFILE) }
        for end in pipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { if pipe[0] >= 0 { close(pipe[0]) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if output {
            posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var environment = ProcessInfo.processInfo.environment
        environment["TMUX"] = nil
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        close(pipe[1])
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL) }
        var data = [UInt8](), buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(pipe[0], $0.baseAddress, $0.count) }
            if n > 0 { data += buffer[..<n] } else if n < 0 && errno == EINTR { continue } else { break }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: data, as: UTF8.self)
    }

    static func command(_ example: String, _ arguments: String) -> String {
        "\(ExampleProcess.executable(example).path) \(arguments)"
    }

    /// Raw while running; given back as it was (line editing and echo on) when it ended.
    func expectTakenOver(_ pane: Pane) throws {
        #expect(try pane.variable("alternate_on") == "1" && pane.variable("cursor_flag") == "0")
        let settings = try pane.terminalSettings()
        #expect(settings.contains("-icanon") && settings.contains("-echo "), "\(settings)")
    }

    func expectGivenBack(_ pane: Pane, status: String) throws {
        try pane.waitUntil("the example ended") { pane.ended() != nil }
        let (ended, settings) = try #require(pane.ended())
        #expect(ended == "status=\(status)")
        #expect(try pane.variable("alternate_on") == "0", "the alternate screen is still on")
        #expect(try pane.variable("cursor_flag") == "1", "the cursor is still hidden")
        #expect(!settings.contains("-icanon") && !settings.contains("-echo ") && settings.contains(" icanon") && settings.contains(" echo "),
                "\(settings)")
    }

    @Test func aResizeRepaintsEveryCellAtTheNewSizeAndQRestoresTheTerminal() throws {
        let pane = try Pane(columns: 60, rows: 20, Self.command("Clock", "--terminal --time 10:08:30 --fps 10"))
        // The picture fills the grid less its last row.
        try pane.waitUntil("the picture fills 60x19") { try pane.showsPicture(columns: 60, rows: 19) }
        try expectTakenOver(pane)
        try pane.tmux(["resize-window", "-t", "t", "-x", "90", "-y", "30"])
        try pane.waitUntil("the picture fills 90x29") { try pane.showsPicture(columns: 90, rows: 29) }
        // Typed keys are not echoed into the picture.
        try pane.tmux(["send-keys", "-t", "t", "x"])
        usleep(200_000)
        #expect(try pane.showsPicture(columns: 90, rows: 29))
        try pane.tmux(["send-keys", "-t", "t", "q"])
        try expectGivenBack(pane, status: "0")
    }

    @Test(arguments: [("TERM", 143), ("HUP", 129), ("INT", 130)])
    func aSignalRestoresTheTerminal(_ signal: String, _ status: Int) throws {
        let pane = try Pane(columns: 40, rows: 12, Self.command("FlipClock", "--terminal --fps 10"))
        try pane.waitUntil("the picture fills 40x11") { try pane.showsPicture(columns: 40, rows: 11) }
        try expectTakenOver(pane)
        let pid = try #require(try pane.examplePID())
        kill(pid, ["TERM": SIGTERM, "HUP": SIGHUP, "INT": SIGINT][signal]!)
        // Ended by the signal (the shell reports 128 + its number), the terminal given back.
        try expectGivenBack(pane, status: "\(status)")
    }

    @Test func theCountdownRingsAtZeroShowsTheResultPageAndEndsByItself() throws {
        let pane = try Pane(columns: 40, rows: 16, Self.command("Countdown", "1 --end-screen 2 --terminal"))
        try pane.waitUntil("the picture") { try pane.showsPicture(columns: 40, rows: 15) }
        try pane.waitUntil("the bell") { try pane.variable("window_bell_flag") == "1" }
        #expect(pane.ended() == nil, "still on the result page after the bell")
        try expectGivenBack(pane, status: "0")
    }

    @Test func aKeyLeavesTheCountdownsResultPage() throws {
        let pane = try Pane(columns: 40, rows: 16, Self.command("Countdown", "1 --hold --terminal"))
        try pane.waitUntil("the bell") { try pane.variable("window_bell_flag") == "1" }
        usleep(500_000)
        #expect(pane.ended() == nil, "--hold keeps the result page")
        try pane.tmux(["send-keys", "-t", "t", "x"])
        try expectGivenBack(pane, status: "0")
    }
}
