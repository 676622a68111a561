import Foundation
import Testing
@testable import LayerKit

/// Replays the escape sequences a half-block frame writes into a grid of (foreground,
/// background) cells, as a terminal would.
struct CellScreen {
    var cells: [String: (fg: String, bg: String)] = [:]
    var writes = 0

    mutating func apply(_ text: String) {
        var row = 1, column = 1, fg = "", bg = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let c = scalars.popFirst() {
            if c == "\u{1B}", scalars.first == "[" {
                scalars.removeFirst()
                var body = ""
                while let n = scalars.popFirst() {
                    if n.properties.isAlphabetic { body.append(Character(n)); break }
                    body.append(Character(n))
                }
                let command = body.last!, parameters = body.dropLast().split(separator: ";").map(String.init)
                if command == "H", parameters.count == 2 { row = Int(parameters[0])!; column = Int(parameters[1])! }
                if command == "m", parameters.count == 5, parameters[0] == "38" { fg = parameters[2...].joined(separator: ",") }
                if command == "m", parameters.count == 5, parameters[0] == "48" { bg = parameters[2...].joined(separator: ",") }
            } else if c == "▀" {
                cells["\(row),\(column)"] = (fg, bg)
                writes += 1
                column += 1
            }
        }
    }
}

@Suite struct TerminalPresenterTests {
    func capture(_ body: (TerminalPresenter) throws -> Void) throws -> String {
        let pipe = Pipe()
        let presenter = try TerminalPresenter(mode: .halfBlock, output: pipe.fileHandleForWriting, size: (4, 3))
        try body(presenter)
        try pipe.fileHandleForWriting.close()
        return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    @Test func halfBlocksShowTheExpectedColorsInTheExpectedCells() throws {
        let frame = try Bitmap(width: 4, height: 4, color: .blue)
        frame.fill(PixelRect(x: 0, y: 0, width: 4, height: 2), with: .red)
        frame.setPixel(x: 3, y: 3, to: .green)
        let output = try capture { try $0.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0)) }
        var screen = CellScreen()
        screen.apply(output)
        #expect(screen.cells["1,1"]?.fg == "255,0,0" && screen.cells["1,1"]?.bg == "255,0,0")
        #expect(screen.cells["2,1"]?.fg == "0,0,255" && screen.cells["2,1"]?.bg == "0,0,255")
        #expect(screen.cells["2,4"]?.fg == "0,0,255" && screen.cells["2,4"]?.bg == "0,255,0")
        #expect(screen.writes == 8)
        #expect(output.hasPrefix("\u{1B}[?1049h\u{1B}[?25l"))
    }

    @Test func onlyChangedCellsAreRewrittenAndTheTerminalIsRestored() throws {
        let frame = try Bitmap(width: 4, height: 4, color: .white)
        var second = ""
        let output = try capture { presenter in
            try presenter.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
            frame.setPixel(x: 2, y: 1, to: .black)
            let pipeOutput = presenter.halfBlocks(frame)
            second = pipeOutput
            try presenter.finish()
        }
        var screen = CellScreen()
        screen.apply(second)
        #expect(screen.writes == 1 && screen.cells["1,3"]?.bg == "0,0,0")
        #expect(output.hasSuffix("\u{1B}[?25h\u{1B}[?1049l"))
    }

    @Test func modeDetectionAndOverride() {
        #expect(TerminalPresenter.detectMode(["TERM": "xterm-256color"]) == .halfBlock)
        #expect(TerminalPresenter.detectMode(["TERM": "xterm-kitty"]) == .kitty)
        #expect(TerminalPresenter.detectMode(["KITTY_WINDOW_ID": "1", "TERM": "xterm"]) == .kitty)
        #expect(TerminalPresenter.detectMode(["TERM": "foot"]) == .sixel)
        #expect(TerminalPresenter.detectMode(["TERM": "xterm-kitty", "LAYERKIT_TERMINAL": "halfblock"]) == .halfBlock)
    }

    @Test func kittyAndSixelOutputsAreWellFormed() throws {
        let frame = try Bitmap(width: 20, height: 12, color: .red)
        let kitty = try TerminalPresenter(mode: .kitty, output: Pipe().fileHandleForWriting, size: (20, 10)).kittyImage(frame)
        #expect(kitty.contains("\u{1B}_Ga=T,f=100,i=1") && kitty.hasSuffix("\u{1B}\\"))
        // The payload is the frame as PNG.
        let command = try #require(kitty.range(of: "\u{1B}_G"))
        let afterControl = try #require(kitty[command.upperBound...].firstIndex(of: ";"))
        let end = try #require(kitty.range(of: "\u{1B}\\", range: afterControl..<kitty.endIndex))
        let payload = String(kitty[kitty.index(after: afterControl)..<end.lowerBound])
        let png = try #require(Data(base64Encoded: payload))
        #expect(try Bitmap(pngData: png).pixel(x: 5, y: 5) == .red)
        let sixel = try TerminalPresenter(mode: .sixel, output: Pipe().fileHandleForWriting, size: (20, 10)).sixelImage(frame)
        #expect(sixel.contains("\u{1B}P0;1;0q") && sixel.hasSuffix("\u{1B}\\"))
        #expect(sixel.contains("#180;2;100;0;0"))   // pure red is register 5·36 = 180
    }

    @Test func closedOutputIsAnErrorNotACrash() throws {
        let pipe = Pipe()
        let presenter = try TerminalPresenter(mode: .halfBlock, output: pipe.fileHandleForWriting, size: (4, 3))
        try pipe.fileHandleForReading.close()
        let frame = try Bitmap(width: 4, height: 4, color: .red)
        do {
            try presenter.present(frame, damage: Region(), at: FrameTime(index: 0, time: 0))
            Issue.record("expected an error")
        } catch {
            guard case let .cannotWrite(_, reason) = error else { Issue.record("wrong error \(error)"); return }
            // Words, not "NSCocoaErrorDomain error 512".
            #expect(reason == "the terminal or pipe was closed (nobody reads it any more)")
            #expect(!error.description.contains("error 512") && !error.description.contains("NSCocoaErrorDomain"))
        }
    }
}

/// A pseudo-terminal for the presenter to own: the test types into `master` and reads what the
/// presenter wrote from it.
final class PseudoTerminal: @unchecked Sendable {
    // @unchecked: `received` is guarded by `lock`; the descriptors never change after init.
    let master: Int32, slave: Int32
    private let lock = NSLock()
    private var received: [UInt8] = []
    private let reader = DispatchGroup()

    init(columns: Int, rows: Int) throws {
        // posix_openpt and friends are not imported into Swift: Linux's ioctls instead
        // (TIOCSPTLCK unlocks the pair, TIOCGPTN names the slave; generic ioctl numbers).
        master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        var unlock: Int32 = 0, number: UInt32 = 0
        guard master >= 0, ioctl(master, 0x4004_5431, &unlock) == 0, ioctl(master, 0x8004_5430, &number) == 0 else {
            throw POSIXError(.ENODEV)
        }
        slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY)
        guard slave >= 0 else { throw POSIXError(.ENODEV) }
        resize(columns: columns, rows: rows)
        // Drain the output as it comes, so that the presenter's writes never block.
        let master = master
        DispatchQueue.global().async(group: reader) { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
                guard n > 0 else { return }
                lock.withLock { received += buffer[..<n] }
            }
        }
    }

    func resize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
    }

    func type(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
    }

    /// Everything written so far, and forgets it.
    func take() -> String {
        lock.withLock {
            defer { received = [] }
            return String(decoding: received, as: UTF8.self)
        }
    }

    /// Waits until what was written ends with `suffix` (at most 10 s).
    func waitFor(suffix: String) -> String {
        var text = ""
        for _ in 0..<1000 {
            text += take()
            if text.hasSuffix(suffix) { break }
            usleep(10_000)
        }
        return text
    }

    var localModes: tcflag_t {
        var settings = termios()
        tcgetattr(slave, &settings)
        return settings.c_lflag
    }

    func close() {
        Glibc.close(slave)
        Glibc.close(master)
        reader.wait()
    }
}

/// The presenter owning a real (pseudo) terminal: raw keys, resizes, waiting. Serialized: one
/// terminal session may exist in a process at a time.
@Suite(.serialized) struct TerminalSessionTests {
    @Test func keysArriveRawAndQuitKeysAskToQuit() throws {
        let tty = try PseudoTerminal(columns: 20, rows: 10)
        defer { tty.close() }
        let handle = FileHandle(fileDescriptor: tty.slave)
        let presenter = try TerminalPresenter(mode: .halfBlock, output: handle, input: handle)
        let before = tty.localModes
        #expect(before & tcflag_t(ECHO) != 0 && before & tcflag_t(ICANON) != 0)
        let frame = try Bitmap(width: 20, height: 18, color: .blue)
        try presenter.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
        // Raw: nothing echoed into the picture, keys one by one.
        #expect(tty.localModes & tcflag_t(ECHO | ICANON | ISIG) == 0)
        tty.type("x r\u{1B}[A")   // x, space, r, then an arrow key (ignored)
        let clock = SystemClock()
        let deadline = clock.now() + 30
        presenter.wait(until: deadline, on: clock)
        #expect(clock.now() < deadline, "a key must end the wait early")
        var events: [PresenterEvent] = []
        for _ in 0..<100 where events.count < 3 {
            events += presenter.takeEvents()
            usleep(10_000)
        }
        #expect(events == [.key("x"), .key(" "), .key("r")])
        for quit in ["q", "\u{1B}", "\u{03}"] {
            tty.type(quit)
            presenter.wait(until: clock.now() + 30, on: clock)
            #expect(presenter.takeEvents() == [.quit(signal: nil)], "\(quit.unicodeScalars.first!.value)")
        }
        _ = tty.take()
        try presenter.finish()
        // Given back: the main screen, the cursor, and the input settings as they were.
        #expect(tty.waitFor(suffix: "\u{1B}[?25h\u{1B}[?1049l").hasSuffix("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"))
        #expect(tty.localModes == before)
    }

    @Test func aResizeIsReportedAndTheNextFrameRepaintsEveryCellAtTheNewSize() throws {
        let tty = try PseudoTerminal(columns: 20, rows: 10)
        defer { tty.close() }
        let handle = FileHandle(fileDescriptor: tty.slave)
        let presenter = try TerminalPresenter(mode: .halfBlock, output: handle, input: handle)
        #expect(presenter.drawableSize == (20, 18))
        var frame = try Bitmap(width: 20, height: 18, color: .blue)
        try presenter.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
        // Nothing changed: nothing written.
        _ = tty.waitFor(suffix: "\u{1B}[0m")
        try presenter.present(frame, damage: Region(), at: FrameTime(index: 1, time: 0.1))
        usleep(50_000)
        #expect(tty.take().isEmpty)

        tty.resize(columns: 30, rows: 12)
        kill(getpid(), SIGWINCH)   // the kernel sends it to the terminal's own session only
        let clock = SystemClock()
        let deadline = clock.now() + 30
        presenter.wait(until: deadline, on: clock)
        #expect(clock.now() < deadline, "a resize must end the wait early")
        #expect(presenter.takeEvents() == [.resized(width: 30, height: 22)])
        #expect(presenter.columns == 30 && presenter.rows == 11 && presenter.drawableSize == (30, 22))
        // The next frame, even without damage, clears the screen and writes every cell.
        frame = try Bitmap(width: 30, height: 22, color: .green)
        try presenter.present(frame, damage: Region(), at: FrameTime(index: 2, time: 0.2))
        let output = tty.waitFor(suffix: "\u{1B}[0m")
        #expect(output.hasPrefix("\u{1B}[0m\u{1B}[2J"))
        var screen = CellScreen()
        screen.apply(output)
        #expect(screen.writes == 30 * 11)
        #expect(screen.cells["11,30"]?.bg == "0,255,0")
        try presenter.finish()
    }

    @Test func keyParsing() {
        #expect(TerminalKey.parse(Array("ab".utf8)) == [.character("a"), .character("b")])
        #expect(TerminalKey.parse([0x1B]) == [.escape])
        #expect(TerminalKey.parse([0x1B, 0x1B]) == [.escape, .escape])
        #expect(TerminalKey.parse(Array("\u{1B}[A\u{1B}[1;5Cq".utf8)) == [.other, .other, .character("q")])
        #expect(TerminalKey.parse(Array("\u{1B}OPx".utf8)) == [.other, .character("x")])
        #expect(TerminalKey.parse([0x03, 0x1A]) == [.interrupt, .other])
        #expect(TerminalKey.parse(Array("é".utf8)) == [.character("é")])
    }
}
