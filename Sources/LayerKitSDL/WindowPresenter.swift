import CSDL2
import Foundation
import LayerKit

/// Shows frames in a window through SDL2 (X11, Wayland or KMS/DRM, whichever SDL finds).
///
/// The window is resizable (frames are scaled to fit, letterboxed) and HiDPI-aware
/// (`drawableScale` says how many device pixels a window point has, so an app can render at
/// that scale). Only the damaged rectangles of each frame are uploaded. Presentation waits for
/// vertical sync where the renderer supports it. The close button, Escape and q set
/// `isCloseRequested`.
public final class WindowPresenter: Presenter {
    private let window: OpaquePointer
    private let renderer: OpaquePointer
    private var texture: OpaquePointer?
    private var textureSize = (width: 0, height: 0)

    /// Set once the user asked the window to close.
    public private(set) var isCloseRequested = false

    /// Opens a window of `width` x `height` points.
    ///
    /// - Throws: `WindowError.noDisplay` when no display can be opened (no X11 or Wayland
    ///   session and no KMS device), with SDL's reason.
    public init(title: String, width: Int, height: Int) throws(WindowError) {
        guard width > 0, height > 0, width <= 16384, height <= 16384 else { throw .invalidSize(width: width, height: height) }
        guard SDL_Init(UInt32(SDL_INIT_VIDEO)) == 0 else { throw .noDisplay(Self.lastError()) }
        let flags = SDL_WINDOW_RESIZABLE.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        guard let window = SDL_CreateWindow(title, lk_sdl_windowpos_centered, lk_sdl_windowpos_centered,
                                            Int32(width), Int32(height), flags) else {
            let reason = Self.lastError()
            SDL_Quit()
            throw .noDisplay(reason)
        }
        // Prefer a vsync'd accelerated renderer; fall back to SDL's software one (Xvfb, VNC).
        let accelerated = SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue
        guard let renderer = SDL_CreateRenderer(window, -1, accelerated)
            ?? SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) else {
            let reason = Self.lastError()
            SDL_DestroyWindow(window)
            SDL_Quit()
            throw .noDisplay(reason)
        }
        self.window = window
        self.renderer = renderer
    }

    deinit {
        if let texture { SDL_DestroyTexture(texture) }
        SDL_DestroyRenderer(renderer)
        SDL_DestroyWindow(window)
        SDL_Quit()
    }

    /// Device pixels per window point (2 on a HiDPI display).
    public var drawableScale: CGFloat {
        var pointsWidth: Int32 = 0, pointsHeight: Int32 = 0, pixelsWidth: Int32 = 0, pixelsHeight: Int32 = 0
        SDL_GetWindowSize(window, &pointsWidth, &pointsHeight)
        SDL_GetRendererOutputSize(renderer, &pixelsWidth, &pixelsHeight)
        return pointsWidth > 0 ? CGFloat(pixelsWidth) / CGFloat(pointsWidth) : 1
    }

    public func present(_ frame: Bitmap, damage: Region, at time: FrameTime) throws(DisplayError) {
        pollEvents()
        if texture == nil || textureSize != (frame.width, frame.height) {
            if let texture { SDL_DestroyTexture(texture) }
            texture = SDL_CreateTexture(renderer, lk_sdl_pixelformat_argb8888, Int32(SDL_TEXTUREACCESS_STREAMING.rawValue),
                                        Int32(frame.width), Int32(frame.height))
            guard let texture else { throw .toolFailed("SDL", status: -1, detail: Self.lastError()) }
            // Frames are premultiplied; drawn without blending they show as over black.
            SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_NONE)
            textureSize = (frame.width, frame.height)
            upload(frame, rects: [frame.bounds])
        } else {
            upload(frame, rects: damage.rects)
        }
        SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
        SDL_RenderClear(renderer)
        var destination = letterbox(frame)
        SDL_RenderCopy(renderer, texture, nil, &destination)
        SDL_RenderPresent(renderer)
    }

    public func finish() throws(DisplayError) {
        pollEvents()
    }

    /// Handles window events: close button, Escape and q request closing.
    public func pollEvents() {
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            switch SDL_EventType(event.type) {
            case SDL_QUIT:
                isCloseRequested = true
            case SDL_KEYDOWN:
                let key = event.key.keysym.sym
                if key == Int32(SDLK_ESCAPE.rawValue) || key == Int32(UInt8(ascii: "q")) { isCloseRequested = true }
            default:
                break
            }
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

    /// The largest rectangle of the frame's aspect ratio centred in the window's drawable area.
    private func letterbox(_ frame: Bitmap) -> SDL_Rect {
        var width: Int32 = 0, height: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &width, &height)
        let scale = min(Double(width) / Double(frame.width), Double(height) / Double(frame.height))
        let w = Int32(Double(frame.width) * scale), h = Int32(Double(frame.height) * scale)
        return SDL_Rect(x: (width - w) / 2, y: (height - h) / 2, w: w, h: h)
    }

    private static func lastError() -> String {
        guard let message = SDL_GetError() else { return "unknown SDL error" }
        let text = String(cString: message)
        return text.isEmpty ? "unknown SDL error" : text
    }
}

/// Why a window could not be shown.
public enum WindowError: Error, Equatable, CustomStringConvertible {
    /// No display could be opened; the reason is SDL's.
    case noDisplay(String)
    case invalidSize(width: Int, height: Int)

    public var description: String {
        switch self {
        case let .noDisplay(reason):
            "cannot open a window (\(reason)): no display is available; run in a terminal or write to a file instead"
        case let .invalidSize(w, h): "invalid window size \(w)x\(h)"
        }
    }
}
