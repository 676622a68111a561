import Foundation
import LayerKitSDL
import Testing
@testable import LayerKit

/// The window presenter against a real X server (Xvfb), checked by a screenshot of its root
/// window. Serialized: the display is chosen through the process environment.
@Suite(.serialized) struct WindowPresenterTests {
    static let xvfb = VideoPresenter.find("Xvfb")
    static let xwd = VideoPresenter.find("xwd")

    /// A display number no server holds (a lock file marks a live or stale one).
    static func freeDisplayNumber() -> Int {
        (90..<190).first { !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock") &&
            !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)") } ?? 189
    }

    /// Sets the display variables for one test (nil unsets).
    func environment(display: String?, wayland: String? = nil, driver: String? = nil) {
        for (name, value) in [("DISPLAY", display), ("WAYLAND_DISPLAY", wayland), ("SDL_VIDEODRIVER", driver)] {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
    }

    @Test func noDisplayAtAllIsRefusedNotAnInvisibleWindow() throws {
        // Without a display SDL settles on its offscreen driver; the presenter must not.
        environment(display: nil)
        let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"]
        defer { if let runtime { setenv("XDG_RUNTIME_DIR", runtime, 1) } else { unsetenv("XDG_RUNTIME_DIR") } }
        // With a runtime directory (where Wayland's socket would be) SDL probes every driver.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-runtime-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        setenv("XDG_RUNTIME_DIR", directory.path, 1)
        #expect(throws: WindowError.noDisplay("neither DISPLAY nor WAYLAND_DISPLAY is set; SDL found only its offscreen video driver")) {
            try WindowPresenter(title: "none", width: 10, height: 10)
        }
        // Without one, only KMS/DRM could show a window (and Wayland is not probed, so
        // libwayland prints nothing of its own); there is no KMS device here either.
        unsetenv("XDG_RUNTIME_DIR")
        do {
            _ = try WindowPresenter(title: "none", width: 10, height: 10)
            Issue.record("a window opened with no display")
        } catch {
            #expect(error.reason.hasPrefix("neither DISPLAY nor WAYLAND_DISPLAY is set; "), "\(error)")
        }
    }

    @Test func aDeadDisplayIsRefusedWithItsName() {
        let display = ":\(Self.freeDisplayNumber())"
        environment(display: display)
        do {
            _ = try WindowPresenter(title: "stale", width: 10, height: 10)
            Issue.record("a window opened on \(display), where no server runs")
        } catch {
            #expect(error.reason.hasPrefix("the X display \(display) cannot be opened"), "\(error)")
        }
        // With a Wayland display named too (also dead), SDL tries both and falls back to its
        // offscreen driver: refused as well.
        environment(display: display, wayland: "wayland-dead-\(UUID().uuidString)")
        do {
            _ = try WindowPresenter(title: "stale", width: 10, height: 10)
            Issue.record("a window opened without a display")
        } catch {
            #expect(error.reason.hasPrefix("the X display \(display) cannot be opened") && error.reason.contains("offscreen"), "\(error)")
        }
        environment(display: nil)
    }

    @Test func automaticChoiceFallsBackToAPNGAndSaysWhy() {
        let display = ":\(Self.freeDisplayNumber())"
        environment(display: display)
        defer { environment(display: nil) }
        let choice = AutomaticPresenter.choose(title: "stale", width: 10, height: 10, fallbackPath: "out.png",
                                               environment: ["DISPLAY": display], standardOutputIsTerminal: false)
        #expect(choice.presenter is PNGPresenter && choice.description == "out.png")
        #expect(choice.fallbackReason?.hasPrefix("no window: the X display \(display) cannot be opened") == true,
                "\(choice.fallbackReason ?? "nil")")
        #expect(!(choice.fallbackReason ?? "").contains("\n"))
    }

    /// Runs `body` with an Xvfb server of 320x240 as DISPLAY.
    func withXvfb(_ body: (String) throws -> Void) throws {
        let number = Self.freeDisplayNumber()
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
        environment(display: display)
        defer { environment(display: nil) }
        try body(display)
    }

    /// Opens a window, retrying while the new server starts (up to 10 s).
    func openWindow(width: Int, height: Int, on display: String, output: WindowPresenter.Output = .automatic) throws -> WindowPresenter {
        var opened: WindowPresenter?
        for _ in 0..<200 where opened == nil {
            opened = try? WindowPresenter(title: "LayerKit test", width: width, height: height, output: output)
            if opened == nil { usleep(50_000) }
        }
        return try #require(opened, "Xvfb on \(display) never accepted a window")
    }

    /// The blue pixels of a screenshot: how many, and their bounding box.
    func blueSquare(in shot: (width: Int, height: Int, pixels: [(UInt8, UInt8, UInt8)])) -> (count: Int, width: Int, height: Int, red: Int) {
        var red = 0, blue = 0
        var box = (minX: Int.max, minY: Int.max, maxX: Int.min, maxY: Int.min)
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let p = shot.pixels[y * shot.width + x]
                if p == (255, 0, 0) { red += 1 }
                if p == (0, 0, 255) {
                    blue += 1
                    box = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                }
            }
        }
        return (blue, box.maxX - box.minX + 1, box.maxY - box.minY + 1, red)
    }

    @Test(.enabled(if: xvfb != nil && xwd != nil), arguments: [WindowPresenter.Output.surface, .renderer])
    func windowShowsTheFrameUnderXvfb(output: WindowPresenter.Output) throws {
        try withXvfb { display in
            let window = try openWindow(width: 160, height: 120, on: display, output: output)
            #expect(window.videoDriver == "x11")
            #expect(window.drawableSize == (160, 120) && window.drawableScale == 1)
            let frame = try Bitmap(width: 160, height: 120, color: .red)
            frame.fill(PixelRect(x: 60, y: 40, width: 40, height: 40), with: .blue)
            for i in 0..<5 {
                try window.present(frame, damage: Region(frame.bounds), at: FrameTime(index: i, time: Double(i)))
                usleep(20_000)
            }
            let square = blueSquare(in: try screenshot(display: display))
            #expect(square.count == 40 * 40, "blue pixels: \(square.count)")
            #expect(square.red == 160 * 120 - 40 * 40, "red pixels: \(square.red)")
            #expect(square.width == 40 && square.height == 40)
            try window.finish()
            #expect(!window.isCloseRequested)
        }
    }

    @Test(.enabled(if: xvfb != nil && xwd != nil), arguments: [WindowPresenter.Output.surface, .renderer])
    func aResizedWindowWakesTheWaitAndShowsTheNewFramePixelForPixel(output: WindowPresenter.Output) throws {
        try withXvfb { display in
            let window = try openWindow(width: 160, height: 120, on: display, output: output)
            let small = try Bitmap(width: 160, height: 120, color: .red)
            try window.present(small, damage: Region(small.bounds), at: FrameTime(index: 0, time: 0))
            window.resize(width: 240, height: 180)
            let clock = SystemClock()
            let deadline = clock.now() + 30
            var events: [PresenterEvent] = []
            while events.isEmpty && clock.now() < deadline {
                window.wait(until: deadline, on: clock)
                events += window.takeEvents()
            }
            #expect(clock.now() < deadline, "the resize must end the wait early")
            #expect(events.last == .resized(width: 240, height: 180))
            #expect(window.drawableSize == (240, 180))
            // The app renders at the new size: shown as it is, not scaled.
            let large = try Bitmap(width: 240, height: 180, color: .red)
            large.fill(PixelRect(x: 100, y: 70, width: 30, height: 30), with: .blue)
            for i in 1..<4 {
                try window.present(large, damage: Region(large.bounds), at: FrameTime(index: i, time: Double(i)))
                usleep(20_000)
            }
            let square = blueSquare(in: try screenshot(display: display))
            #expect(square.count == 30 * 30 && square.width == 30 && square.height == 30, "\(square)")
            #expect(square.red == 240 * 180 - 30 * 30, "red pixels: \(square.red)")
        }
    }

    @Test(.enabled(if: xvfb != nil && xwd != nil))
    func underXvfbFramesGoToTheWindowSurfaceAndSayWhy() throws {
        try withXvfb { display in
            // Xvfb has no GPU: SDL's OpenGL renderer there is Mesa's llvmpipe (or there is none).
            let window = try openWindow(width: 40, height: 30, on: display)
            #expect(window.output.hasPrefix("window surface ("), "\(window.output)")
            #expect(WindowPresenter.rasterizesOnTheCPU("llvmpipe (LLVM 15.0.6, 256 bits)"))
            #expect(WindowPresenter.rasterizesOnTheCPU("Software Rasterizer"))
            #expect(!WindowPresenter.rasterizesOnTheCPU("NVIDIA GeForce RTX 3070/PCIe/SSE2"))
            #expect(!WindowPresenter.rasterizesOnTheCPU("AMD Radeon RX 6600 (radeonsi, navi23, LLVM 15.0.6, DRM 3.49)"))
        }
    }

    @Test(.enabled(if: xvfb != nil && xwd != nil), arguments: [WindowPresenter.Output.surface, .renderer])
    func damageAloneBringsTheWindowUpToDate(output: WindowPresenter.Output) throws {
        try withXvfb { display in
            let window = try openWindow(width: 160, height: 120, on: display, output: output)
            let frame = try Bitmap(width: 160, height: 120, color: .red)
            try window.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
            // Two squares drawn, one after the other, each presented with its own damage only.
            frame.fill(PixelRect(x: 10, y: 10, width: 20, height: 20), with: .blue)
            try window.present(frame, damage: Region(PixelRect(x: 10, y: 10, width: 20, height: 20)), at: FrameTime(index: 1, time: 1))
            frame.fill(PixelRect(x: 100, y: 60, width: 20, height: 10), with: .blue)
            try window.present(frame, damage: Region(PixelRect(x: 100, y: 60, width: 20, height: 10)), at: FrameTime(index: 2, time: 2))
            // Many small rectangles (over the limit pushed one by one): pushed as their bounding box.
            var many = Region()
            for i in 0..<40 {
                let r = PixelRect(x: 2 * i, y: 100, width: 1, height: 5)
                frame.fill(r, with: .blue)
                many.formUnion(Region(r))
            }
            try window.present(frame, damage: many, at: FrameTime(index: 3, time: 3))
            usleep(50_000)
            let square = blueSquare(in: try screenshot(display: display))
            #expect(square.count == 20 * 20 + 20 * 10 + 40 * 5, "blue pixels: \(square.count)")
            #expect(square.red == 160 * 120 - square.count, "red pixels: \(square.red)")
        }
    }

    @Test(.enabled(if: xvfb != nil && xwd != nil), arguments: [WindowPresenter.Output.surface, .renderer])
    func aFrameOfTheOldSizeIsLetterboxedAfterAResize(output: WindowPresenter.Output) throws {
        try withXvfb { display in
            let window = try openWindow(width: 100, height: 100, on: display, output: output)
            let frame = try Bitmap(width: 100, height: 100, color: .blue)
            try window.present(frame, damage: Region(frame.bounds), at: FrameTime(index: 0, time: 0))
            window.resize(width: 200, height: 100)
            let clock = SystemClock()
            let deadline = clock.now() + 30
            while window.drawableSize != (200, 100) && clock.now() < deadline { window.wait(until: clock.now() + 0.05, on: clock) }
            // The app has not rendered at the new size yet: its frame, scaled to fit, centred.
            frame.fill(PixelRect(x: 0, y: 0, width: 100, height: 1), with: .blue)
            try window.present(frame, damage: Region(PixelRect(x: 0, y: 0, width: 100, height: 1)), at: FrameTime(index: 1, time: 1))
            usleep(50_000)
            let square = blueSquare(in: try screenshot(display: display))
            #expect(square.count == 100 * 100 && square.width == 100 && square.height == 100, "\(square)")
        }
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
