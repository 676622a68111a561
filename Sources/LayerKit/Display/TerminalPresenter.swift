import Foundation

/// Shows frames in a terminal: with the kitty graphics protocol or sixel where the terminal
/// supports them, and everywhere else as truecolor half-block characters (each cell two pixels
/// tall: the upper one as the foreground of "▀", the lower one as its background).
///
/// The first frame switches to the alternate screen and hides the cursor; `finish()` restores
/// both. While it shows frames on a terminal the presenter also owns it: keys are read raw
/// (nothing is echoed into the picture), q, Escape and Ctrl-C ask to quit, a resize (SIGWINCH)
/// is reported as `.resized` with the new `drawableSize` and the next frame repaints every cell,
/// and SIGINT, SIGTERM and SIGHUP arrive as `.quit(signal:)` so the program can restore the
/// terminal (input settings included) before it ends; should it not manage to before a second
/// such signal, the signal handler restores it. In half-block mode only the cells that changed
/// since the previous frame are rewritten, and a frame with no damage writes nothing.
public final class TerminalPresenter: InteractivePresenter {
    /// How pixels reach the terminal.
    public enum Mode: String, Sendable, CaseIterable {
        /// The kitty graphics protocol: whole images at the terminal's pixel resolution.
        case kitty
        /// Sixel graphics, with a palette per frame.
        case sixel
        /// Two pixels per character cell, as truecolor upper-half blocks: any terminal with
        /// 24-bit color.
        case halfBlock = "halfblock"
    }

    /// How this presenter draws.
    public let mode: Mode
    /// The character grid frames are fitted into (the terminal's, less its last row).
    public private(set) var columns: Int, rows: Int
    /// The size in pixels of one character cell, for sixel and kitty images.
    public private(set) var cellSize: (width: Int, height: Int)
    private let output: Int32
    private let input: Int32?
    private let measuresTerminal: Bool
    /// What transparent pixels show (the terminal has no alpha).
    public var background: Color = .black
    private var previousCells: [UInt64] = []
    private var started = false
    private var needsFullRepaint = true
    private var session: TerminalSession?
    private var pending: [PresenterEvent] = []

    /// Switches to the main screen, shows the cursor and resets colors.
    static let restoreSequence = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"

    /// - Parameters:
    ///   - mode: nil detects it from the environment (`LAYERKIT_TERMINAL` overrides:
    ///     kitty, sixel or halfblock).
    ///   - output: where escape sequences go (standard output by default).
    ///   - input: where keys are read from; nil reads standard input when `output` is standard
    ///     output and both are terminals (and reads no keys otherwise).
    ///   - size: columns and rows to use; nil asks the terminal (80x24 when it cannot say) and
    ///     follows its resizes.
    /// - Throws: `DisplayError.notATerminal` when output is standard output but not a terminal
    ///   and no size was given.
    public init(mode: Mode? = nil, output: FileHandle = .standardOutput, input: FileHandle? = nil,
                size: (columns: Int, rows: Int)? = nil) throws(DisplayError) {
        if size == nil, output === FileHandle.standardOutput, isatty(STDOUT_FILENO) == 0 {
            throw .notATerminal
        }
        // A closed terminal or pipe must give an error, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        self.output = output.fileDescriptor
        if let input {
            self.input = input.fileDescriptor
        } else {
            self.input = output === FileHandle.standardOutput && isatty(STDIN_FILENO) != 0 ? STDIN_FILENO : nil
        }
        self.mode = mode ?? Self.detectMode(ProcessInfo.processInfo.environment)
        measuresTerminal = size == nil
        (columns, rows, cellSize) = (1, 1, (10, 20))
        measure(fixed: size)
    }

    deinit { session?.close() }

    /// Takes the terminal's size (or `fixed`), keeping the last line free for the prompt.
    private func measure(fixed: (columns: Int, rows: Int)? = nil) {
        let measured = fixed ?? Self.terminalSize(of: output) ?? (80, 24)
        columns = max(1, min(measured.columns, 1000))
        rows = max(1, min(measured.rows - 1, 1000))
        cellSize = Self.cellSize(of: output) ?? (10, 20)
    }

    /// The mode an environment asks for or supports.
    public static func detectMode(_ environment: [String: String]) -> Mode {
        if let forced = environment["LAYERKIT_TERMINAL"].flatMap({ Mode(rawValue: $0.lowercased()) }) { return forced }
        let term = environment["TERM"] ?? "", program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term.contains("kitty") || ["WezTerm", "ghostty"].contains(program) {
            return .kitty
        }
        if term.contains("sixel") || ["mlterm", "foot"].contains(where: term.hasPrefix) || program == "mintty" {
            return .sixel
        }
        return .halfBlock
    }

    /// The size of the terminal on `fd`, if it is one.
    static func terminalSize(of fd: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// The pixel size of one cell of the terminal on `fd`, when the terminal tells.
    static func cellSize(of fd: Int32) -> (width: Int, height: Int)? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
              size.ws_xpixel >= size.ws_col, size.ws_ypixel >= size.ws_row else { return nil }
        return (Int(size.ws_xpixel) / Int(size.ws_col), Int(size.ws_ypixel) / Int(size.ws_row))
    }

    /// The pixels the grid shows: one per column and two per row in half-block mode, the cells'
    /// pixels with images.
    public var drawableSize: (width: Int, height: Int) {
        switch mode {
        case .halfBlock: (columns, rows * 2)
        case .kitty, .sixel: (columns * cellSize.width, rows * cellSize.height)
        }
    }

    /// 1: a terminal's pixels are its drawable's.
    public var drawableScale: CGFloat { 1 }

    public func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        var text = ""
        if !started {
            try start()
        } else if damage.isEmpty && !needsFullRepaint {
            return   // nothing changed: nothing to write
        }
        if needsFullRepaint {
            text += "\u{1B}[0m\u{1B}[2J"
            previousCells = []
            needsFullRepaint = false
        }
        switch mode {
        case .halfBlock: text += halfBlocks(frame)
        case .kitty: text += kittyImage(frame)
        case .sixel: text += sixelImage(frame)
        }
        try write(text)
    }

    /// Takes over the terminal: alternate screen, hidden cursor; raw keys and signal handlers
    /// when the output is a terminal.
    private func start() throws(DisplayError) {
        started = true
        needsFullRepaint = true
        if isatty(output) != 0 {
            session = try TerminalSession(input: input, output: output, restore: Self.restoreSequence)
        }
        try write("\u{1B}[?1049h\u{1B}[?25l")
    }

    public func finish() throws(DisplayError) {
        guard started else { return }
        started = false
        // Input settings and handlers first: the write below may fail on a closed terminal.
        session?.close()
        session = nil
        try write(Self.restoreSequence)
    }

    /// Rings the terminal's bell (BEL).
    public func bell() throws(DisplayError) {
        try write("\u{07}")
    }

    public func takeEvents() -> [PresenterEvent] {
        collect()
        defer { pending = [] }
        return pending
    }

    /// Sleeps in `poll` on the keyboard and the signal pipe: returns at `deadline`, or as soon as
    /// a key, a resize or a request to quit arrives (kept for `takeEvents()`).
    public func wait(until deadline: TimeInterval, on clock: any MonotonicClock) {
        guard let session else { return clock.sleep(until: deadline) }
        while pending.isEmpty {
            let remaining = deadline - clock.now()
            guard remaining > 0 else { return }
            if session.wait(seconds: remaining) { collect() }
        }
    }

    /// Reads keys and signals into `pending`: quit keys become `.quit`, a resize re-measures the
    /// grid and asks for a full repaint.
    private func collect() {
        guard let session else { return }
        let heard = session.read()
        for key in heard.keys {
            switch key {
            case let .character(c) where c == "q" || c == "Q": pending.append(.quit(signal: nil))
            case .escape, .interrupt: pending.append(.quit(signal: nil))
            case let .character(c): pending.append(.key(c))
            case .other: break
            }
        }
        if heard.resized, measuresTerminal {
            measure()
            needsFullRepaint = true
            let size = drawableSize
            pending.append(.resized(width: size.width, height: size.height))
        }
        if let signal = heard.termination { pending.append(.quit(signal: signal)) }
    }

    /// Writes all of `text`, waiting out interruptions and a full terminal.
    private func write(_ text: String) throws(DisplayError) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(output, $0.baseAddress, $0.count) }
            if n > 0 { bytes = bytes.dropFirst(n); continue }
            let code = errno
            if n < 0 && code == EINTR { continue }
            if n < 0 && code == EAGAIN {
                var descriptor = pollfd(fd: output, events: Int16(POLLOUT), revents: 0)
                _ = poll(&descriptor, 1, 100)
                continue
            }
            throw .cannotWrite(path: outputName, reason: Self.writeProblem(code))
        }
    }

    /// The output's name for messages: its terminal device, or "standard output".
    private var outputName: String {
        if let name = ttyname(output) { return String(cString: name) }
        return output == STDOUT_FILENO ? "standard output" : "the terminal output"
    }

    /// Words for a failed write to the terminal.
    static func writeProblem(_ code: Int32) -> String {
        switch code {
        case EPIPE: "the terminal or pipe was closed (nobody reads it any more)"
        case EIO: "the terminal is gone (it hung up)"
        case ENOSPC: "no space left on the device"
        default: String(cString: strerror(code))
        }
    }

    // MARK: Half blocks

    /// The frame fitted into columns × 2·rows pixels (aspect kept), as a grid of opaque colors.
    func cellColors(_ frame: Bitmap) -> (width: Int, height: Int, pixels: [UInt32]) {
        let scale = min(Double(columns) / Double(frame.width), Double(rows * 2) / Double(frame.height))
        let width = max(1, Int(Double(frame.width) * scale)), height = max(2, Int(Double(frame.height) * scale) / 2 * 2)
        guard let small = try? Bitmap(width: width, height: height, color: background) else { return (0, 0, []) }
        let sx = CGFloat(width) / CGFloat(frame.width), sy = CGFloat(height) / CGFloat(frame.height)
        if let source = try? PrefilterForTerminal.reduced(frame, toward: min(sx, sy)) {
            let k = CGFloat(frame.width) / CGFloat(source.width)
            try? small.composite(source, transform: Homography(scaleX: sx * k, y: sy * k))
        }
        return (width, height, small.withUnsafePixels { Array($0) })
    }

    func halfBlocks(_ frame: Bitmap) -> String {
        let (width, height, pixels) = cellColors(frame)
        let cellRows = height / 2
        var cells = [UInt64](repeating: 0, count: width * cellRows)
        for row in 0..<cellRows {
            for column in 0..<width {
                let top = pixels[(2 * row) * width + column] & 0xFF_FFFF
                let bottom = pixels[(2 * row + 1) * width + column] & 0xFF_FFFF
                cells[row * width + column] = UInt64(top) << 32 | UInt64(bottom) | 1 << 63
            }
        }
        let full = previousCells.count != cells.count
        var text = ""
        var cursor: (row: Int, column: Int)? = nil
        var lastColors: UInt64? = nil
        for row in 0..<cellRows {
            for column in 0..<width {
                let cell = cells[row * width + column]
                guard full || previousCells[row * width + column] != cell else { continue }
                if cursor == nil || cursor! != (row, column) {
                    text += "\u{1B}[\(row + 1);\(column + 1)H"
                }
                if lastColors != cell {
                    let top = UInt32(cell >> 32 & 0xFF_FFFF), bottom = UInt32(cell & 0xFF_FFFF)
                    text += "\u{1B}[38;2;\(top >> 16 & 0xFF);\(top >> 8 & 0xFF);\(top & 0xFF)m"
                    text += "\u{1B}[48;2;\(bottom >> 16 & 0xFF);\(bottom >> 8 & 0xFF);\(bottom & 0xFF)m"
                    lastColors = cell
                }
                text += "▀"
                cursor = (row, column + 1)
            }
        }
        previousCells = cells
        return text.isEmpty ? "" : text + "\u{1B}[0m"
    }

    // MARK: Kitty graphics protocol

    /// The frame as a kitty image (PNG payload, base64 in 4096-byte chunks), replacing the
    /// previous one (same image id) at the top-left, scaled into the character grid.
    func kittyImage(_ frame: Bitmap) -> String {
        guard let png = try? frame.pngData() else { return "" }
        let payload = png.base64EncodedString()
        var text = "\u{1B}[1;1H"
        var offset = payload.startIndex
        var first = true
        while offset < payload.endIndex {
            let end = payload.index(offset, offsetBy: 4096, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control = first ? "a=T,f=100,i=1,q=2,C=1,c=\(columns),m=\(more)" : "m=\(more)"
            text += "\u{1B}_G\(control);\(payload[offset..<end])\u{1B}\\"
            offset = end
            first = false
        }
        return text
    }

    // MARK: Sixel

    /// The frame as sixels over a 6×6×6 color cube (216 registers), fitted to the grid's pixels
    /// (at 10×20-pixel cells when the terminal does not say).
    func sixelImage(_ frame: Bitmap) -> String {
        let size = drawableSize
        let scale = min(Double(size.width) / Double(frame.width), Double(size.height) / Double(frame.height), 1)
        let width = max(1, Int(Double(frame.width) * scale)), height = max(1, Int(Double(frame.height) * scale))
        guard let small = try? Bitmap(width: width, height: height, color: background) else { return "" }
        try? small.composite(frame, transform: Homography(scaleX: CGFloat(scale), y: CGFloat(scale)))
        let pixels = small.withUnsafePixels { Array($0) }
        func level(_ v: UInt32) -> Int { Int((v * 5 + 127) / 255) }
        let indices = pixels.map { p in level(p >> 16 & 0xFF) * 36 + level(p >> 8 & 0xFF) * 6 + level(p & 0xFF) }
        var text = "\u{1B}[1;1H\u{1B}P0;1;0q\"1;1;\(width);\(height)"
        for i in 0..<216 {
            text += "#\(i);2;\(i / 36 * 20);\(i / 6 % 6 * 20);\(i % 6 * 20)"
        }
        for band in stride(from: 0, to: height, by: 6) {
            var colorsInBand = Set<Int>()
            for y in band..<min(band + 6, height) { for x in 0..<width { colorsInBand.insert(indices[y * width + x]) } }
            for color in colorsInBand.sorted() {
                text += "#\(color)"
                var run: (char: Character, count: Int)? = nil
                func flush() {
                    guard let r = run else { return }
                    text += r.count > 3 ? "!\(r.count)\(r.char)" : String(repeating: r.char, count: r.count)
                }
                for x in 0..<width {
                    var bits = 0
                    for dy in 0..<6 where band + dy < height && indices[(band + dy) * width + x] == color { bits |= 1 << dy }
                    let char = Character(UnicodeScalar(UInt8(63 + bits)))
                    if run?.char == char { run!.count += 1 } else { flush(); run = (char, 1) }
                }
                flush()
                text += "$"
            }
            text += "-"
        }
        return text + "\u{1B}\\"
    }
}

/// Reduces a frame by halves before a strong downscale, so that the bilinear step that follows
/// averages rather than skips pixels.
enum PrefilterForTerminal {
    static func reduced(_ frame: Bitmap, toward scale: CGFloat) throws(BitmapError) -> Bitmap {
        var bitmap = frame
        var factor: CGFloat = 1
        while scale * factor < 0.5, bitmap.width > 1, bitmap.height > 1 {
            let half = try Bitmap(width: max(1, bitmap.width / 2), height: max(1, bitmap.height / 2))
            try half.composite(bitmap, operator: .source, transform: Homography(scaleX: 0.5, y: 0.5))
            bitmap = half
            factor *= 2
        }
        return bitmap
    }
}
