import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kernel variants (scalar, SSE2, AVX2, AVX-512) are interchangeable, and none reads outside its source.
@Suite struct KernelVariantTests {
    /// Affine (including maps pixman refuses), perspective and A8 composites: every variant's
    /// pixels equal the scalar kernel's, bit for bit.
    @Test func variantsAgreeBitForBit() throws {
        var g = SeededGenerator(seed: 2024)
        for trial in 0..<400 {
            let sw = Int.random(in: 1...40, using: &g), sh = Int.random(in: 1...40, using: &g)
            let dw = Int.random(in: 1...64, using: &g), dh = Int.random(in: 1...64, using: &g)
            let source = try KernelFixtures.bitmap(width: sw, height: sh, &g)
            let mask = try KernelFixtures.mask(width: sw, height: sh, &g)
            let target = try KernelFixtures.bitmap(width: dw, height: dh, &g)
            let map = trial % 2 == 0 ? KernelFixtures.affineMap(source: sw, sh, target: dw, dh, &g)
                                     : KernelFixtures.cardMap(source: sw, sh, target: dw, dh, &g)
            let filter: ImageFilter = Bool.random(using: &g) ? .bilinear : .nearest
            let op: CompositeOperator = Bool.random(using: &g) ? .over : .source
            let clip = KernelFixtures.clip(width: dw, height: dh, &g), opacity = KernelFixtures.opacity(&g)
            let color = Color(premultipliedARGB32: KernelFixtures.pixel(&g))
            for useMask in [false, true] {
                let draw = { (b: Bitmap) throws(BitmapError) in
                    if useMask {
                        try b.composite(mask, color: color, transform: map, filter: filter, clip: clip, opacity: opacity)
                    } else {
                        try b.composite(source, operator: op, transform: map, filter: filter, clip: clip, opacity: opacity)
                    }
                }
                guard let drawn = try KernelFixtures.drawn(on: target, by: KernelFixtures.kernelEngines, draw) else { continue }
                for (variant, copy) in zip(KernelVariant.available, drawn) {
                    #expect(copy.hasSamePixels(as: drawn[0]), "\(variant) differs from scalar in trial \(trial) through \(map)")
                }
            }
        }
    }

    /// The variant a process runs: LAYERKIT_KERNELS when it names one this CPU has, else a SIMD
    /// one where there is one (the widest in optimized builds; SSE2 unoptimized, where it is faster).
    @Test func processDefaultFollowsTheEnvironment() {
        let named = ProcessInfo.processInfo.environment["LAYERKIT_KERNELS"].flatMap(KernelVariant.init(rawValue:))
        #expect(KernelVariant.scalar.isAvailable)
        #expect(KernelVariant.processDefault.isAvailable)
        if let named, named.isAvailable {
            #expect(KernelVariant.processDefault == named)
            return
        }
        #if arch(x86_64)
        #expect(KernelVariant.sse2.isAvailable)
        #expect(KernelVariant.processDefault == .sse2 || KernelVariant.processDefault == .avx2 && KernelVariant.avx2.isAvailable
                && !KernelVariant.avx512.isAvailable || KernelVariant.processDefault == .avx512 && KernelVariant.avx512.isAvailable)
        #else
        #expect(KernelVariant.processDefault == .scalar)
        #endif
    }

    /// The AVX-512 variant is available exactly where Linux lists AVX2 and the four AVX-512
    /// extensions it needs (F, BW, VL, VBMI; the kernel lists them only when it saves their
    /// registers). Where it is not, the variant tests compare the others only, as they do
    /// without AVX2.
    @Test func avx512IsAvailableWhereTheCPUHasItsExtensions() throws {
        #if os(Linux) && arch(x86_64)
        let info = try String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)
        guard let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return }
        let flags = Set(line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == ":" }).map(String.init))
        let needed = ["avx2", "avx512f", "avx512bw", "avx512vl", "avx512vbmi"]
        #expect(KernelVariant.avx512.isAvailable == needed.allSatisfy(flags.contains),
                "missing: \(needed.filter { !flags.contains($0) })")
        #endif
    }

    /// A source flush against inaccessible pages on either side, sampled hard at its edges by
    /// magnified, turned, mirrored and perspective maps: any read outside it would crash.
    /// (AVX2 gathers are invisible to AddressSanitizer; guard pages see every read.)
    @Test func noVariantReadsOutsideItsSource() throws {
        var g = SeededGenerator(seed: 11)
        for (width, height, coverage) in [(13, 7, false), (1, 1, false), (64, 3, false), (13, 7, true), (5, 9, true), (1, 1, true),
                                          (90, 3, true)] {
            let bytesPerRow = coverage ? width : width * 4
            let bytes = bytesPerRow * height
            try KernelFixtures.withGuardedBytes(bytes) { placement in
                for i in 0..<bytes { placement.storeBytes(of: UInt8.random(in: 0...255, using: &g), toByteOffset: i, as: UInt8.self) }
                let source = Kernels.Source(pixels: UnsafeRawPointer(placement), width: width, height: height,
                                            bytesPerRow: bytesPerRow, isCoverage: coverage)
                let target = try Bitmap(width: 96, height: 96)
                let maps = [
                    Homography(CGAffineTransform(a: 9, b: 2, c: -2, d: 9, tx: 20, ty: 10)),
                    Homography(CGAffineTransform(a: -7.3, b: 0, c: 0, d: 11, tx: 90, ty: 3.5)),
                    Homography(CGAffineTransform(a: 0.31, b: -5, c: 5, d: 0.31, tx: 40, ty: 60)),
                    KernelFixtures.cardMap(source: width, height, target: 96, 96, &g),
                    Homography(Transform3D(scaleX: 6, y: 6, z: 1)
                        .concatenating(Transform3D(rotationAngle: 1.2, x: 0, y: 1, z: 0))
                        .concatenating(Transform3D(perspectiveDistance: 120))
                        .concatenating(Transform3D(translationX: 48, y: 48))),
                ]
                for map in maps {
                    guard let inverse = map.inverted() else { continue }
                    let kernelMap = try Bitmap.kernelMap(inverse, map.kind, map)
                    for variant in KernelVariant.available {
                        for filter in [ImageFilter.bilinear, .nearest] {
                            for op in coverage ? [CompositeOperator.over] : [.over, .source] {
                                Kernels.composite(source, color: 0xFF80_4020, into: Kernels.Target(target), map: kernelMap,
                                                  filter: filter, operator: op, opacity: 200, area: Region(target.bounds),
                                                  variant: variant)
                            }
                        }
                    }
                }
                // Coverage over a base, whole rows (AVX-512: a step of 64 and a masked tail) and parts.
                if coverage {
                    for variant in KernelVariant.available {
                        for (x, y) in [(0, 0), (6, 50), (-3, 20), (96 - width / 2, 90)] {
                            Kernels.composite(source, color: 0xFF80_4020, opacity: 200, onBase: 0xFF10_2030, into: Kernels.Target(target),
                                              atX: x, y: y, area: Region(target.bounds), variant: variant)
                        }
                    }
                }
                #expect(target.withUnsafePixels { $0.contains { $0 != 0 } }, "something was drawn")
            }
        }
    }
}
