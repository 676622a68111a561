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
        #expect(throws: DisplayError.self) { try presenter.present(frame, damage: Region(), at: FrameTime(index: 0, time: 0)) }
    }
}
