import Foundation
import LayerKit

/// One benchmark scene: a LayerKit layer tree, the frames to draw of it, and how a cairo
/// program draws the same picture from scratch.
///
/// Frame `i` is the tree at `times[i % times.count]` after `prepare(i)`. `cairo` draws frame `i`
/// the way a cairo programmer would write the scene: vectors, text, images and its own shadow
/// blurs, every frame, with no bitmaps from LayerKit.
public final class Scene {
    /// How LayerKit draws the scene's frames.
    public enum Mode: String, Sendable {
        /// Every pixel of every frame (the damage history is dropped before each frame).
        case fullFrame = "full frame"
        /// Only what changed since the previous frame, into the same bitmap.
        case damage
    }

    public let name: String
    public let width: Int, height: Int
    public let root: Layer
    public let mode: Mode
    public let times: [TimeInterval]
    /// Sets the model for frame `i` (nil when the tree is animated by its animations alone).
    public let prepare: ((Int) -> Void)?
    /// How cairo draws the scene from scratch.
    public let cairo: CairoDrawing

    public init(name: String, width: Int, height: Int, root: Layer, mode: Mode = .fullFrame,
                times: [TimeInterval] = [0], prepare: ((Int) -> Void)? = nil, cairo: CairoDrawing) {
        self.name = name
        self.width = width
        self.height = height
        self.root = root
        self.mode = mode
        self.times = times
        self.prepare = prepare
        self.cairo = cairo
    }

    /// Distinct frames before they repeat.
    public var cycle: Int { times.count }

    public func time(ofFrame i: Int) -> TimeInterval { times[i % times.count] }

    public var pixelCount: Int { width * height }

    public var resolutionName: String { Resolution.name(width: width, height: height) }
}

/// How cairo draws a scene's frames from scratch, or why it cannot.
public enum CairoDrawing {
    /// Draws frame `i` into a `cairo_t` whose target is the whole frame (its previous pixels
    /// are stale: the drawing paints every pixel).
    case draw((OpaquePointer, Int) -> Void)
    /// cairo cannot draw this scene, for the reason given.
    case unsupported(String)
}

/// The frame sizes the tables use.
public enum Resolution {
    public static let hd = (width: 1280, height: 720)
    public static let fullHD = (width: 1920, height: 1080)
    public static let qhd = (width: 2560, height: 1440)
    public static let uhd = (width: 3840, height: 2160)

    public static func name(width: Int, height: Int) -> String {
        switch (width, height) {
        case (1280, 720): "720p"
        case (1920, 1080): "1080p"
        case (2560, 1440): "1440p"
        case (3840, 2160): "2160p"
        default: "\(width)x\(height)"
        }
    }
}

/// A small deterministic generator, so every run and every renderer sees the same scene.
public struct SplitMix {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform in 0..<1.
    public mutating func unit() -> CGFloat { CGFloat(next() >> 11) / CGFloat(1 << 53) }
    public mutating func uniform(_ range: ClosedRange<CGFloat>) -> CGFloat {
        range.lowerBound + unit() * (range.upperBound - range.lowerBound)
    }
}
