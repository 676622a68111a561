import Foundation
import LayerKit

/// Where a clock tick's time goes, as far as LayerKit's public API can tell, with every part timed
/// side by side in the same rounds.
///
/// - the whole tick: `render(_:at:into:)` of the next second into the same bitmap (one core);
/// - snapshot, content pass and paint list: `composites(for:at:width:height:)`, which does those
///   and paints nothing;
/// - damage and painting: the rest of the tick (the public API cannot split them);
/// - pixman alone clearing and compositing the tick's composites within its damage region, all of
///   them and each category of composite separately (whole-pixel copies, fractional offsets and
///   scales, turned): what painting the damage costs in pixman with no framework around it.
public struct TickBreakdown: Codable, Sendable {
    /// One category of composite under the damage, painted by pixman alone.
    public struct Part: Codable, Sendable {
        public var category: String
        public var composites: Int
        public var milliseconds: Double
    }

    public var resolution: String
    /// `render(_:at:into:)` of one tick, one core.
    public var tickMilliseconds: Double
    /// `composites(for:at:width:height:)`: snapshot, content pass and paint list, no painting.
    public var snapshotMilliseconds: Double
    /// The tick's damage region: its pixels, the frame's, and its rectangles.
    public var damagedPixels: Int
    public var framePixels: Int
    public var damageRects: Int
    /// pixman alone painting the whole damage (every category at once).
    public var pixmanUnderDamageMilliseconds: Double
    public var compositesUnderDamage: Int
    /// The largest channel difference between pixman's and LayerKit's pixels within the damage
    /// (0: pixman alone paints exactly the tick's pixels, so its time is for the same work).
    public var floorDifferenceUnderDamage: Int
    public var parts: [Part]
    /// What the public API would have to offer to split the tick further.
    public var missing: String

    /// The tick minus its snapshot, content pass and paint list.
    public var damageAndPaintMilliseconds: Double { max(0, tickMilliseconds - snapshotMilliseconds) }
}

/// Lists a frame's composites (snapshot, content pass, paint list) without painting.
final class CompositeListing: Drawer {
    let scene: Scene
    let renderer = Renderer(threadCount: 1)
    private(set) var count = 0

    init(_ scene: Scene) { self.scene = scene }

    func draw(frame i: Int) {
        scene.prepare?(i)
        count = renderer.composites(for: scene.root, at: scene.time(ofFrame: i), width: scene.width, height: scene.height).count
    }

    func pixels() -> [UInt32]? { nil }
}

/// Draws one fixed frame of another drawer, whatever frame is asked for.
final class FixedFrame: Drawer {
    let drawer: Drawer, frame: Int
    init(_ drawer: Drawer, frame: Int) { self.drawer = drawer; self.frame = frame }
    func draw(frame _: Int) { drawer.draw(frame: frame) }
    func pixels() -> [UInt32]? { drawer.pixels() }
}

/// Measures where the clock tick's time goes at `width`×`height` on one core.
public func measureTickBreakdown(width: Int, height: Int, seconds: Double, rounds: Int) throws -> TickBreakdown {
    let scene = Scenes.clockTick(width: width, height: height)
    let tick = try LayerKitDrawer(scene, threads: 1)
    // The damage of the tick to frame 1 (from frame 0): the hands' old and new places.
    tick.draw(frame: 0)
    tick.draw(frame: 1)
    guard let damage = tick.lastDamage else { throw Unsupported("the tick returned no damage") }
    let listing = CompositeListing(scene)
    let all = try PixmanFloor(scene, under: damage)
    all.draw(frame: 1)
    let expected = tick.pixels()!, painted = all.pixels()!
    var largest = 0
    for rect in damage.rects {
        for y in rect.minY..<rect.maxY {
            for x in rect.minX..<rect.maxX {
                largest = max(largest, difference([expected[y * width + x]], [painted[y * width + x]]).largest)
            }
        }
    }
    let parts = try CompositeCategory.allCases.map { ($0, try PixmanFloor(scene, under: damage, only: $0)) }
        .filter { $0.1.compositeCounts[1] > 0 }
    let drawers: [Drawer] = [tick, listing, FixedFrame(all, frame: 1)] + parts.map { FixedFrame($0.1, frame: 1) }
    var samples = Array(repeating: [Double](), count: drawers.count)
    for _ in 0..<rounds {
        for (k, drawer) in drawers.enumerated() {
            samples[k].append(measure(drawer, seconds: seconds).millisecondsPerFrame)
        }
    }
    let median = { (k: Int) -> Double in let s = samples[k].sorted(); return s[s.count / 2] }
    return TickBreakdown(
        resolution: Resolution.name(width: width, height: height),
        tickMilliseconds: median(0), snapshotMilliseconds: median(1),
        damagedPixels: damage.area, framePixels: width * height, damageRects: damage.rects.count,
        pixmanUnderDamageMilliseconds: median(2), compositesUnderDamage: all.compositeCounts[1],
        floorDifferenceUnderDamage: largest,
        parts: parts.enumerated().map { k, part in
            TickBreakdown.Part(category: part.0.rawValue, composites: part.1.compositeCounts[1], milliseconds: median(3 + k))
        },
        missing: "per-frame timings from the renderer (snapshot, content pass, damage, painting; layers visited, "
            + "composites issued), e.g. an @_spi(Benchmarks) statistics value returned with each frame, and "
            + "the damage of a frame without painting it")
}
