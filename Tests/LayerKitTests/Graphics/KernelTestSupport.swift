import CPixman
import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

enum KernelFixtures {
    /// Calls `body` with `bytes` bytes placed flush against an inaccessible page: first against
    /// the page before them, then against the page after them. A kernel that reads or writes
    /// outside them crashes the test (guard pages see every variant's vector loads and stores,
    /// gathers too, whatever the build; AddressSanitizer sees neither gathers nor unsanitized C).
    static func withGuardedBytes(_ bytes: Int, _ body: (UnsafeMutableRawPointer) throws -> Void) rethrows {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dataPages = max(1, (bytes + page - 1) / page)
        let total = (dataPages + 2) * page
        guard let raw = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), raw != MAP_FAILED else {
            Issue.record("mmap of \(total) bytes failed")
            return
        }
        defer { munmap(raw, total) }
        let data = raw + page
        #expect(mprotect(raw, page, PROT_NONE) == 0)
        #expect(mprotect(data + dataPages * page, page, PROT_NONE) == 0)
        for placement in [data, data + dataPages * page - bytes] { try body(placement) }
    }

    /// A valid premultiplied pixel: often clear or opaque, otherwise any alpha and channels ≤ it.
    static func pixel(_ g: inout SeededGenerator) -> UInt32 {
        switch Int.random(in: 0..<8, using: &g) {
        case 0: return 0
        case 1: return 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &g)
        default:
            let a = UInt32.random(in: 0...255, using: &g)
            func channel() -> UInt32 { UInt32.random(in: 0...a, using: &g) }
            return a << 24 | channel() << 16 | channel() << 8 | channel()
        }
    }

    static func bitmap(width: Int, height: Int, _ g: inout SeededGenerator) throws -> Bitmap {
        let b = try Bitmap(width: width, height: height)
        b.withUnsafeMutablePixels { pixels in
            for i in pixels.indices { pixels[i] = pixel(&g) }
        }
        return b
    }

    /// Rows 0 and `height` and `cuts` random rows between (fewer when some coincide), sorted: the
    /// edges of bands a frame of `height` rows is painted in.
    static func bandEdges(height: Int, cuts: ClosedRange<Int>, _ g: inout SeededGenerator) -> [Int] {
        var edges = [0, height]
        for _ in 0..<Int.random(in: cuts, using: &g) { edges.append(Int.random(in: 1..<height, using: &g)) }
        return Set(edges).sorted()
    }

    static func mask(width: Int, height: Int, _ g: inout SeededGenerator) throws -> AlphaMask {
        let m = try AlphaMask(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                // Runs of full and zero coverage, as a blurred shape has, between random values.
                let k = Int.random(in: 0..<4, using: &g)
                m[x, y] = k == 0 ? 0 : k == 1 ? 255 : UInt8.random(in: 0...255, using: &g)
            }
        }
        return m
    }

    /// The damage of a `width`×`height` frame: `count` random rectangles, some reaching past its
    /// top-left edges.
    static func damage(width: Int, height: Int, count: ClosedRange<Int>, _ g: inout SeededGenerator) -> Region {
        Region((0..<Int.random(in: count, using: &g)).map { _ in
            PixelRect(x: Int.random(in: -5..<width, using: &g), y: Int.random(in: -5..<height, using: &g),
                      width: Int.random(in: 1...90, using: &g), height: Int.random(in: 1...70, using: &g))
        })
    }

    /// Up to three random rectangles of a `width`×`height` target, or nil (no clip).
    static func clip(width: Int, height: Int, _ g: inout SeededGenerator) -> Region? {
        guard Bool.random(using: &g) else { return nil }
        let rects = (0..<Int.random(in: 1...3, using: &g)).map { _ in
            let x = Int.random(in: -2..<width, using: &g), y = Int.random(in: -2..<height, using: &g)
            return PixelRect(x: x, y: y, width: Int.random(in: 1...width + 2, using: &g),
                             height: Int.random(in: 1...height + 2, using: &g))
        }
        return Region(rects)
    }

    static func opacity(_ g: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<4, using: &g) {
        case 0, 1: return 1
        case 2: return Double(Int.random(in: 0...255, using: &g)) / 255
        default: return Double.random(in: 0...1, using: &g)
        }
    }

    /// A random map of a `sw`×`sh` source into a `dw`×`dh` target: turned (sometimes by quarter
    /// turns or barely), scaled from tiny to huge, sometimes mirrored, sheared or squashed almost
    /// flat, placed anywhere on or around the target with sub-pixel offsets.
    static func affineMap(source sw: Int, _ sh: Int, target dw: Int, _ dh: Int, _ g: inout SeededGenerator) -> Homography {
        var angle: CGFloat
        switch Int.random(in: 0..<6, using: &g) {
        case 0: angle = CGFloat(Int.random(in: 0..<4, using: &g)) * .pi / 2
        case 1: angle = CGFloat.random(in: -1e-4...1e-4, using: &g)
        default: angle = CGFloat.random(in: 0..<(2 * .pi), using: &g)
        }
        let range: ClosedRange<CGFloat> = Int.random(in: 0..<5, using: &g) == 0 ? -5...5 : -1.2...1.2
        var sx = exp(CGFloat.random(in: range, using: &g)), sy = Bool.random(using: &g) ? sx : exp(CGFloat.random(in: range, using: &g))
        if Int.random(in: 0..<5, using: &g) == 0 { sx = -sx }
        if Int.random(in: 0..<8, using: &g) == 0 { sy = -sy }
        if Int.random(in: 0..<10, using: &g) == 0 { sy *= 1e-3 }          // nearly a line
        let shear = Int.random(in: 0..<5, using: &g) == 0 ? CGFloat.random(in: -1...1, using: &g) : 0
        if Int.random(in: 0..<7, using: &g) == 0 { angle = 0 }
        let cx = CGFloat.random(in: -0.3...1.3, using: &g) * CGFloat(dw), cy = CGFloat.random(in: -0.3...1.3, using: &g) * CGFloat(dh)
        let subpixels: [CGFloat] = [0, 1.0 / 65536, 0.5, 1.0 / 3, CGFloat.random(in: 0..<1, using: &g)]
        let subpixel = subpixels[Int.random(in: 0..<5, using: &g)]
        let t = CGAffineTransform(translationX: -CGFloat(sw) / 2, y: -CGFloat(sh) / 2)
            .concatenating(CGAffineTransform(a: sx, b: 0, c: shear * sx, d: sy, tx: 0, ty: 0))
            .concatenating(CGAffineTransform(rotationAngle: angle))
            .concatenating(CGAffineTransform(translationX: (cx * 2).rounded() / 2 + subpixel, y: (cy * 2).rounded() / 2 + subpixel))
        return Homography(t)
    }

    /// A card of `sw`×`sh` turned up to 89° about x or y (and about z at random), seen under
    /// m34 = −1/d with d from 100 to 10000, centred near a random point of the target.
    static func cardMap(source sw: Int, _ sh: Int, target dw: Int, _ dh: Int, _ g: inout SeededGenerator) -> Homography {
        let angle = CGFloat.random(in: -89...89, using: &g) * .pi / 180
        let aboutY = Bool.random(using: &g)
        let distance = exp(CGFloat.random(in: log(100)...log(10000), using: &g))
        let t = Transform3D(translationX: -CGFloat(sw) / 2, y: -CGFloat(sh) / 2)
            .concatenating(Transform3D(rotationAngle: CGFloat.random(in: 0..<(2 * .pi), using: &g), x: 0, y: 0, z: 1))
            .concatenating(Transform3D(rotationAngle: angle, x: aboutY ? 0 : 1, y: aboutY ? 1 : 0, z: 0))
            .concatenating(Transform3D(perspectiveDistance: distance))
            .concatenating(Transform3D(translationX: CGFloat.random(in: 0...1, using: &g) * CGFloat(dw),
                                       y: CGFloat.random(in: 0...1, using: &g) * CGFloat(dh)))
        return Homography(t)
    }

    /// Whether pixman 0.42 draws an affine composite at all: it refuses one whose target area,
    /// grown by a pixel, maps to source coordinates outside its 16.16 range (analyze_extent),
    /// and then leaves the target untouched. The kernels draw those too.
    static func pixmanDraws(_ transform: Homography, area: Region) -> Bool {
        guard let inverse = transform.inverted() else { return false }
        var fixed = pixman_transform()
        guard Bitmap.pixmanTransform(inverse, into: &fixed) else { return false }
        let e = area.extents
        let m = fixed.matrix
        for x in [e.minX - 1, e.maxX + 1] {
            for y in [e.minY - 1, e.maxY + 1] {
                let sx = (Double(m.0.0) * Double(x) + Double(m.0.1) * Double(y) + Double(m.0.2)) / 65536
                let sy = (Double(m.1.0) * Double(x) + Double(m.1.1) * Double(y) + Double(m.1.2)) / 65536
                if abs(sx) > 32000 || abs(sy) > 32000 { return false }
            }
        }
        return true
    }

    /// The exact bilinear sample (double precision, channels rounded) of `source` at target pixel
    /// (x, y) through `inverse` (target → source): what a perspective kernel approximates.
    static func exactSample(_ inverse: Homography, x: Int, y: Int, width: Int, height: Int,
                            texel: (Int, Int) -> UInt32) -> UInt32 {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        let w = px * inverse.m13 + py * inverse.m23 + inverse.m33
        guard w > Homography.defaultEpsilon else { return 0 }
        let u = (px * inverse.m11 + py * inverse.m21 + inverse.m31) / w - 0.5
        let v = (px * inverse.m12 + py * inverse.m22 + inverse.m32) / w - 0.5
        guard u > -2, v > -2, u < Double(width) + 1, v < Double(height) + 1 else { return 0 }
        let x0 = Int(u.rounded(.down)), y0 = Int(v.rounded(.down))
        let fx = u - Double(x0), fy = v - Double(y0)
        var channels = [Double](repeating: 0, count: 4)
        for (dx, dy, weight) in [(0, 0, (1 - fx) * (1 - fy)), (1, 0, fx * (1 - fy)), (0, 1, (1 - fx) * fy), (1, 1, fx * fy)] {
            let tx = x0 + dx, ty = y0 + dy
            guard tx >= 0, ty >= 0, tx < width, ty < height else { continue }
            let p = texel(tx, ty)
            for c in 0..<4 { channels[c] += Double(p >> UInt32(8 * c) & 0xFF) * weight }
        }
        return (0..<4).reduce(0) { $0 | UInt32(channels[$1].rounded()) << UInt32(8 * $1) }
    }

    /// The largest difference of one channel between two pixels.
    static func channelDistance(_ a: UInt32, _ b: UInt32) -> Int {
        (0..<4).map { abs(Int(a >> UInt32(8 * $0) & 0xFF) - Int(b >> UInt32(8 * $0) & 0xFF)) }.max()!
    }

    /// Runs `draw` into a copy of `target` once per engine and returns the copies; nil when
    /// every engine throws the same error (a map pixman's fixed point cannot hold).
    static func drawn(on target: Bitmap, by engines: [CompositeEngine],
                      _ draw: (Bitmap) throws(BitmapError) -> Void) throws -> [Bitmap]? {
        let results = try engines.map { engine in
            let copy = try target.copy()
            let failure: BitmapError? = Bitmap.withCompositeEngine(engine) {
                do throws(BitmapError) {
                    try draw(copy)
                    return nil
                } catch { return error }
            }
            return (copy, failure)
        }
        let failures = results.map(\.1)
        if let first = failures[0] {
            #expect(failures.allSatisfy { $0 == first }, "only some engines throw: \(failures)")
            return nil
        }
        #expect(failures.allSatisfy { $0 == nil }, "only some engines throw: \(failures)")
        return results.map(\.0)
    }

    /// Every kernel variant this CPU runs, as engines.
    static var kernelEngines: [CompositeEngine] { KernelVariant.available.map { .kernels($0) } }
}
