import CSDL2
import Foundation
import LayerKit

/// Shows frames in a window through SDL2 (X11, Wayland or KMS/DRM, whichever SDL finds).
///
/// The window is resizable and HiDPI-aware: `drawableSize` and `drawableScale` say how many
/// device pixels it has, a resize arrives as `.resized` so that the app renders its next frame
/// at the new size (until then the last frame is scaled to fit, letterboxed). Only the damaged
/// rectangles of each frame are uploaded, and a frame without damage is not presented again.
/// The close button, Escape and q arrive as `.quit` (and set `isCloseRequested`); other keys as
/// `.key`.
///
/// Frames reach the screen through a hardware renderer (a streaming texture, drawn with vertical
/// sync where supported) when there is one. Where the only renderer rasterizes on the CPU (SDL's
/// software renderer, or OpenGL through Mesa's llvmpipe or softpipe, as under Xvfb, VNC or a
/// virtual machine), frames go to the window surface instead: only the damaged rectangles are
/// copied and pushed (shared memory on X11), which costs a fraction of drawing a texture on the
/// CPU each frame. `output` says which.
///
/// A window nobody can see is refused: when SDL can only offer its offscreen or dummy video
/// driver (no display, or a DISPLAY whose server is gone), `init` throws `WindowError.noDisplay`.
public final class WindowPresenter: InteractivePresenter {
    /// How frames reach the screen (tests choose; apps get `.automatic`).
    package enum Output: Sendable {
        /// A hardware renderer when there is one, else the window surface.
        case automatic
        /// The window surface: damaged rectangles copied and pushed as they are.
        case surface
        /// An SDL renderer and a streaming texture, whatever rasterizes it.
        case renderer
    }

    private let window: OpaquePointer
    /// nil when frames go to the window surface.
    private let renderer: OpaquePointer?
    private var texture: OpaquePointer?
    /// The window surface holds the last frame pixel for pixel (not letterboxed, not resized
    /// since): damage alone brings it up to date.
    private var surfaceHoldsFrame = false
    /// The last frame presented, for redrawing a resized window on the surface path.
    private var lastFrame: Bitmap?
    /// Damage of more rectangles than this is pushed to the window surface as its bounding box.
    static let maximumPushedRectangles = 32
    private var textureSize = (width: 0, height: 0)
    private var pending: [PresenterEvent] = []
    /// The window's content was lost (exposed, resized) and must be shown again.
    private var needsRedraw = false

    /// Set once the user asked the window to close.
    public private(set) var isCloseRequested = false

    /// The SDL video driver the window uses ("x11", "wayland", "KMSDRM").
    public let videoDriver: String

    /// How frames reach the screen, in words: "opengl renderer (…)" and the like for a hardware
    /// renderer, or "window surface" with the reason it was chosen.
    public let output: String

    /// SDL's video drivers that show nothing on a screen.
    static let invisibleDrivers: Set<String> = ["offscreen", "dummy", "evdev"]

    /// Opens a window of `width` x `height` points.
    ///
    /// - Throws: `WindowError.noDisplay` when no display can be opened — no X11 or Wayland
    ///   session and no KMS device, or a DISPLAY that cannot be reached, so that SDL would fall
    ///   back to a driver that shows nothing — with the reason.
    public convenience init(title: String, width: Int, height: Int) throws(WindowError) {
        try self.init(title: title, width: width, height: height, output: .automatic)
    }

    /// Opens a window whose frames reach the screen as `output` says.
    package init(title: String, width: Int, height: Int, output: Output) throws(WindowError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { throw .invalidSize(width: width, height: height) }
        let environment = ProcessInfo.processInfo.environment
        // With only DISPLAY set, X11 only: SDL would otherwise also probe Wayland, which prints a
        // warning about XDG_RUNTIME_DIR when there is none. (Set every time: hints outlive a
        // failed SDL_Init.)
        // With neither, and no XDG_RUNTIME_DIR (where Wayland's default socket would be), only
        // KMS/DRM can show anything: probing Wayland there only prints libwayland's complaint
        // about XDG_RUNTIME_DIR above our own message.
        let chosen = environment["SDL_VIDEODRIVER"] == nil && environment["WAYLAND_DISPLAY"] == nil
        let onlyX11 = chosen && environment["DISPLAY"] != nil
        let onlyKMS = chosen && environment["DISPLAY"] == nil && environment["XDG_RUNTIME_DIR"] == nil
        SDL_SetHint(SDL_HINT_VIDEODRIVER, onlyX11 ? "x11" : onlyKMS ? "KMSDRM" : nil)
        guard SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 else {
            let reason = Self.lastError()
            SDL_Quit()
            throw .noDisplay(Self.displayProblem(environment, sdl: reason))
        }
        let driver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? ""
        guard !Self.invisibleDrivers.contains(driver) else {
            SDL_Quit()
            throw .noDisplay(Self.displayProblem(environment, sdl: "SDL found only its \(driver) video driver"))
        }
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard let window = SDL_CreateWindow(title, lk_sdl_windowpos_centered, lk_sdl_windowpos_centered,
                                            Int32(width), Int32(height), flags) else {
            let reason = Self.lastError()
            SDL_Quit()
            throw .noDisplay(reason)
        }
        // A vsync'd hardware renderer if there is one; else the window surface (Xvfb, VNC).
        var renderer: OpaquePointer?
        var described = "window surface"
        if output != .surface {
            let accelerated = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
            if let made = SDL_CreateRenderer(window, -1, accelerated) {
                let gl = lk_sdl_gl_renderer_name(made).map { String(cString: $0) }
                if output == .automatic, let gl, Self.rasterizesOnTheCPU(gl) {
                    SDL_DestroyRenderer(made)
                    described = "window surface (the OpenGL renderer, \(gl), rasterizes on the CPU)"
                } else {
                    renderer = made
                    described = Self.name(of: made) + " renderer" + (gl.map { " (\($0))" } ?? "")
                }
            } else if output == .renderer, let made = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) {
                renderer = made
                described = "software renderer"
            } else {
                described = "window surface (no hardware renderer)"
            }
        }
        if renderer == nil {
            // Not through a texture framebuffer, which would be the CPU-rasterized renderer again.
            SDL_SetHint(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0")
            guard SDL_GetWindowSurface(window) != nil else {
                let reason = Self.lastError()
                SDL_DestroyWindow(window)
                SDL_Quit()
                throw .noDisplay(reason)
            }
        }
        self.window = window
        self.renderer = renderer
        self.output = described
        videoDriver = driver
    }

    /// Whether an OpenGL renderer string names a rasterizer that runs on the CPU (Mesa's
    /// llvmpipe, softpipe and swrast).
    package static func rasterizesOnTheCPU(_ glRenderer: String) -> Bool {
        let name = glRenderer.lowercased()
        return ["llvmpipe", "softpipe", "swrast", "software rasterizer"].contains { name.contains($0) }
    }

    private static func name(of renderer: OpaquePointer) -> String {
        var info = SDL_RendererInfo()
        guard SDL_GetRendererInfo(renderer, &info) == 0, let name = info.name else { return "SDL" }
        return String(cString: name)
    }

    /// Why no window can be shown, in words, from the environment and SDL's own reason.
    static func displayProblem(_ environment: [String: String], sdl reason: String) -> String {
        if let display = environment["DISPLAY"], !display.isEmpty {
            return "the X display \(display) cannot be opened (its server is gone, or refuses us); \(reason)"
        }
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            return "the Wayland display \(wayland) cannot be opened; \(reason)"
        }
        return "neither DISPLAY nor WAYLAND_DISPLAY is set; \(reason)"
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        if let renderer { SDL_DestroyRenderer(renderer) }
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    /// Device pixels per window point (2 on a HiDPI display).
    public var drawableScale: CGFloat {
        var pointsWidth: Int32 = 0, pointsHeight: Int32 = 0
        SDL_GetWindowSize(window, &pointsWidth, &pointsHeight)
        return pointsWidth > 0 ? CGFloat(drawableSize.width) / CGFloat(pointsWidth) : 1
    }

    /// The window's drawable area in device pixels.
    public var drawableSize: (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        if let renderer {
            SDL_GetRendererOutputSize(renderer, &width, &height)
        } else {
            SDL_GetWindowSizeInPixels(window, &width, &height)
        }
        return (Int(width), Int(height))
    }

    public func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        pollEvents()
        guard let renderer else {
            presentToSurface(frame, damage: damage)
            return
        }
        if texture == nil || textureSize != (frame.width, frame.height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, lk_sdl_pixelformat_argb8888, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(frame.width), Int32(frame.height))
            guard let texture else { throw .toolFailed("SDL", status: -1, detail: Self.lastError()) }
            // Frames are premultiplied; drawn without blending they show as over black.
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
            textureSize = (frame.width, frame.height)
            upload(frame, rects: [frame.bounds])
        } else if !damage.isEmpty {
            upload(frame, rects: damage.rects)
        } else if !needsRedraw {
            return   // nothing changed on screen
        }
        redraw()
    }

    /// Shows the last frame again (letterboxed when the window's size differs).
    private func redraw() {
        guard let renderer else {
            needsRedraw = false
            if surfaceHoldsFrame {
                SDL_UpdateWindowSurface(window)
            } else if let lastFrame {
                presentToSurface(lastFrame, damage: Region(lastFrame.bounds))
            }
            return
        }
        guard let texture else { return }
        needsRedraw = false
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        var destination = letterbox(textureSize)
        SDL_RenderCopy(renderer, texture, nil, &destination)
        SDL_RenderPresent(renderer)
    }

    public func finish() throws(DisplayError) {
        pollEvents()
    }

    public func takeEvents() -> [PresenterEvent] {
        pollEvents()
        defer { pending = [] }
        return pending
    }

    /// Sleeps in `SDL_WaitEventTimeout`: returns at `deadline`, or as soon as a key, a resize or
    /// a close request arrives (kept for `takeEvents()`). A window uncovered meanwhile is
    /// redrawn from the last frame without waking the caller.
    public func wait(until deadline: TimeInterval, on clock: any MonotonicClock) {
        pollEvents()
        while pending.isEmpty {
            let remaining = deadline - clock.now()
            guard remaining > 0 else { return }
            var event = SDL_Event()
            // Whole milliseconds, rounded up so that the wait never ends early and spins.
            let milliseconds = Int32(min((remaining * 1000).rounded(.up), Double(Int32.max)))
            if SDL_WaitEventTimeout(&event, milliseconds) != 0 {
                handle(event)
                pollEvents()
            }
            if needsRedraw && pending.isEmpty { redraw() }
        }
    }

    /// Resizes the window to `width` x `height` points, as a person dragging its edge would
    /// (for tests; the resize arrives as an event).
    package func resize(width: Int, height: Int) {
        SDL_SetWindowSize(window, Int32(width), Int32(height))
    }

    /// Handles waiting window events: close button, Escape and q ask to quit; resizes are
    /// reported with the new drawable size.
    public func pollEvents() {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 { handle(event) }
    }

    private func handle(_ event: SDL_Event) {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            isCloseRequested = true
            pending.append(.quit(signal: nil))
        case SDL_KEYDOWN:
            let key = event.key.keysym.sym
            if key == Int32(SDLK_ESCAPE.rawValue) || key == Int32(UInt8(ascii: "q")) {
                isCloseRequested = true
                pending.append(.quit(signal: nil))
            } else if (0x20..<0x7F).contains(key) {
                pending.append(.key(Character(UnicodeScalar(UInt8(key)))))
            }
        case SDL_WINDOWEVENT:
            switch SDL_WindowEventID(UInt32(event.window.event)) {
            case SDL_WINDOWEVENT_SIZE_CHANGED:
                needsRedraw = true
                surfaceHoldsFrame = false
                let size = drawableSize
                // Only the latest size matters.
                pending.removeAll { if case .resized = $0 { true } else { false } }
                pending.append(.resized(width: size.width, height: size.height))
            case SDL_WINDOWEVENT_EXPOSED:
                needsRedraw = true
            default:
                break
            }
        default:
            break
        }
    }

    private func upload(_ frame: Bitmap, rects: [PixelRect]) {
        guard let texture else { return }
        frame.withUnsafePixels { pixels in
            guard let base = pixels.baseAddress else { return }
            for r in rects where !r.isEmpty {
                var area = SDL_Rect(x: Int32(r.x), y: Int32(r.y), w: Int32(r.width), h: Int32(r.height))
                SDL_UpdateTexture(texture, &area, base + r.y * frame.width + r.x, Int32(frame.bytesPerRow))
            }
        }
    }

    /// Brings the window surface up to date with `frame`: the damaged rectangles copied and
    /// pushed when the surface holds the previous frame at this size, else the whole frame
    /// (letterboxed, through SDL's scaling blit, when the sizes differ).
    private func presentToSurface(_ frame: Bitmap, damage: Region) {
        guard let surface = SDL_GetWindowSurface(window) else { return }
        lastFrame = frame
        let s = surface.pointee
        let format = s.format.pointee.format
        guard Int(s.w) == frame.width, Int(s.h) == frame.height,
              format == lk_sdl_pixelformat_argb8888 || format == lk_sdl_pixelformat_rgb888 else {
            letterbox(frame, into: surface)
            return
        }
        let whole = !surfaceHoldsFrame || needsRedraw
        if !whole, damage.isEmpty { return }   // nothing changed on screen
        var rects = whole ? [frame.bounds] : damage.rects.filter { !$0.isEmpty }
        if rects.count > Self.maximumPushedRectangles { rects = [damage.extents] }
        guard SDL_LockSurface(surface) == 0, let target = s.pixels else { return }
        let pitch = Int(s.pitch), stride = frame.bytesPerRow / 4
        frame.withUnsafePixels { pixels in
            guard let base = pixels.baseAddress else { return }
            for r in rects {
                for y in r.y..<r.y + r.height {
                    memcpy(target + y * pitch + r.x * 4, base + y * stride + r.x, r.width * 4)
                }
            }
        }
        SDL_UnlockSurface(surface)
        surfaceHoldsFrame = true
        needsRedraw = false
        if whole {
            SDL_UpdateWindowSurface(window)
        } else {
            var areas = rects.map { SDL_Rect(x: Int32($0.x), y: Int32($0.y), w: Int32($0.width), h: Int32($0.height)) }
            SDL_UpdateWindowSurfaceRects(window, &areas, Int32(areas.count))
        }
    }

    /// Draws `frame` scaled to fit the window surface, centred on black, and pushes it all.
    private func letterbox(_ frame: Bitmap, into surface: UnsafeMutablePointer<SDL_Surface>) {
        SDL_FillRect(surface, nil, SDL_MapRGB(surface.pointee.format, 0, 0, 0))
        frame.withUnsafePixels { pixels in
            guard let base = pixels.baseAddress,
                  let source = SDL_CreateRGBSurfaceWithFormatFrom(UnsafeMutableRawPointer(mutating: base), Int32(frame.width),
                                                                  Int32(frame.height), 32, Int32(frame.bytesPerRow),
                                                                  lk_sdl_pixelformat_argb8888) else { return }
            // Premultiplied pixels copied as they are show as over black, as on the texture path.
            SDL_SetSurfaceBlendMode(source, SDL_BLENDMODE_NONE)
            var destination = letterbox((frame.width, frame.height))
            SDL_UpperBlitScaled(source, nil, surface, &destination)
            SDL_FreeSurface(source)
        }
        SDL_UpdateWindowSurface(window)
        surfaceHoldsFrame = false
        needsRedraw = false
    }

    /// The largest rectangle of the frame's aspect ratio centred in the window's drawable area:
    /// the frame itself, pixel for pixel, once the app renders at the window's size.
    private func letterbox(_ frame: (width: Int, height: Int)) -> SDL_Rect {
        let (width, height) = drawableSize
        let scale = min(Double(width) / Double(frame.width), Double(height) / Double(frame.height))
        let w = Int(Double(frame.width) * scale), h = Int(Double(frame.height) * scale)
        return SDL_Rect(x: Int32((width - w) / 2), y: Int32((height - h) / 2), w: Int32(w), h: Int32(h))
    }

    private static func lastError() -> String {
        guard let message = SDL_GetError() else { return "unknown SDL error" }
        let text = String(cString: message)
        return text.isEmpty ? "unknown SDL error" : text
    }
}

/// Why a window could not be shown.
public enum WindowError: Error, Equatable, CustomStringConvertible {
    /// No display could be opened, or only one that shows nothing; the reason in words.
    case noDisplay(String)
    /// The size asked for is not 1…16384 points on each side.
    case invalidSize(width: Int, height: Int)

    /// The cause alone, for a one-line message that goes on to say what happens instead.
    public var reason: String {
        switch self {
        case let .noDisplay(reason): reason
        case .invalidSize: description
        }
    }

    public var description: String {
        switch self {
        case let .noDisplay(reason):
            "cannot open a window (\(reason)): no display is available; run in a terminal or write to a file instead"
        case let .invalidSize(w, h): "invalid window size \(w)x\(h)"
        }
    }
}
