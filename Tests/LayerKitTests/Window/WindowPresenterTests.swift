import Foundation
import LayerKitSDL
import Testing
@testable import LayerKit

/// The window presenter against a real X server (Xvfb), checked by a screenshot of its root
/// window. Serialized: the display is chosen through the process environment.
@Suite(.serialized) struct WindowPresenterTests {
    static let xvfb = VideoPresenter.find("Xvfb")
    static let xwd = VideoPresenter.find("xwd")

    @Test func missingDisplayIsAClearError() {
        setenv("SDL_VIDEODRIVER", "x11", 1)
        unsetenv("DISPLAY")
        unsetenv("WAYLAND_DISPLAY")
        do {
            _ = try WindowPresenter(title: "none", width: 10, height: 10)
            Issue.record("expected no display")
        } catch {
            #expect(error.description.contains("no display is available"))
        }
    }

    @Test(.enabled(if: xvfb != nil && xwd != nil))
    func windowShowsTheFrameUnderXvfb() throws {
        // A display number no other server holds (a lock file marks a live or stale one).
        let number = (90..<190).first { !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") &&
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 189
        let display = ":\(number)"
        let server = Process()
        server.executableURL = Self.xvfb
        server.arguments = [display, "-screen", "0", "320x240x24", "-nolisten", "tcp"]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            // Xvfb may outlive SIGTERM while clients hold connections; the test must not wait.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
            // A killed server leaves its lock and socket behind.
            try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
            try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
        }
        setenv("SDL_VIDEODRIVER", "x11", 1)
        setenv("DISPLAY", display, 1)
        defer { unsetenv("DISPLAY") }
        // The server takes a moment to accept connections: retry opening for up to 10 s.
        var opened: WindowPresenter?
        for _ in 0..<200 where opened == nil {
            opened = try? WindowPresenter(title: "LayerKit test", width: 160, height: 120)
            if opened == nil { usleep(50_000) }
        }
        let window = try #require(opened, "Xvfb on \(display) never accepted a window")

        let frame = try Bitmap(width: 160, height: 120, color: .red)
        frame.fill(PixelRect(x: 60, y: 40, width: 40, height: 40), with: .blue)
        for i in 0..<5 {
            try window.present(frame, damage: Region(frame.bounds), at: FrameTime(index: i, time: Double(i)))
            usleep(20_000)
        }
        let shot = try screenshot(display: display)
        // Find the red window and check the blue square in its middle.
        var red = 0, blue = 0
        var blueBox = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let p = shot.pixels[y * shot.width + x]
                if p == (255, 0, 0) { red += 1 }
                if p == (0, 0, 255) {
                    blue += 1
                    blueBox = (min(blueBox.minX, x), min(blueBox.minY, y), max(blueBox.maxX, x), max(blueBox.maxY, y))
                }
            }
        }
        #expect(blue == 40 * 40, "blue pixels: \(blue)")
        #expect(red == 160 * 120 - 40 * 40, "red pixels: \(red)")
        #expect(blueBox.maxX - blueBox.minX == 39 && blueBox.maxY - blueBox.minY == 39)
        try window.finish()
        #expect(!window.isCloseRequested)
    }

    /// The root window of `display` through xwd (ZPixmap, 24/32-bit TrueColor).
    func screenshot(display: String) throws -> (width: Int, height: Int, pixels: [(UInt8, UInt8, UInt8)]) {
        let process = Process()
        process.executableURL = Self.xwd
        process.arguments = ["-root", "-silent", "-display", display]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = [UInt8](out.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        func field(_ i: Int) -> Int {   // big-endian 32-bit header fields
            Int(data[4 * i]) << 24 | Int(data[4 * i + 1]) << 16 | Int(data[4 * i + 2]) << 8 | Int(data[4 * i + 3])
        }
        let headerSize = field(0), width = field(4), height = field(5), byteOrder = field(7)
        let bitsPerPixel = field(11), bytesPerLine = field(12), colors = field(19)
        let start = headerSize + colors * 12
        var pixels: [(UInt8, UInt8, UInt8)] = []
        pixels.reserveCapacity(width * height)
        let step = bitsPerPixel / 8
        for y in 0..<height {
            for x in 0..<width {
                let o = start + y * bytesPerLine + x * step
                var value = 0
                for b in 0..<step { value |= Int(data[o + b]) << (byteOrder == 0 ? 8 * b : 8 * (step - 1 - b)) }
                pixels.append((UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)))
            }
        }
        return (width, height, pixels)
    }
}
