import Foundation

/// A Gaussian blur approximated by three successive box blurs (each a running sum), so that its
/// cost per pixel does not depend on the radius.
struct BoxBlur {
    /// The radii of the three boxes for a Gaussian of standard deviation `sigma`.
    let radii: [Int]

    /// The widest blur drawn, in pixels: a shadow's store grows by three times the blur on
    /// every side, so a larger radius (up to 10³⁰⁸) is drawn with this one.
    static let maximumSigma: Double = 256

    init(sigma: Double) {
        guard sigma > 0.2, !sigma.isNaN else { radii = []; return }
        let sigma = min(sigma, Self.maximumSigma)
        // Box widths whose successive application has variance 3·(w² − 1)/12 ≈ σ² (after Kovesi,
        // "Fast almost-Gaussian filtering"): n boxes of width wl or wl + 2.
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var lower = Int(ideal.rounded(.down))
        if lower % 2 == 0 { lower -= 1 }
        let l = Double(lower)
        let m = ((12 * sigma * sigma - n * l * l - 4 * n * l - 3 * n) / (-4 * l - 4)).rounded()
        radii = (0..<3).map { i in (Double(i) < m ? lower : lower + 2) / 2 }
    }

    /// How far the blur spreads beyond the source, in pixels.
    var spread: Int { radii.reduce(0, +) }

    /// Blurs a plane of 8-bit values in place (values beyond the edges count as 0).
    func apply(to plane: inout [UInt8], width: Int, height: Int) {
        guard !radii.isEmpty, width > 0, height > 0 else { return }
        var line = [UInt32](repeating: 0, count: max(width, height))
        var out = [UInt32](repeating: 0, count: max(width, height))
        for r in radii where r > 0 {
            for y in 0..<height {
                for x in 0..<width { line[x] = UInt32(plane[y * width + x]) }
                Self.box(line, count: width, radius: r, into: &out)
                for x in 0..<width { plane[y * width + x] = UInt8(out[x]) }
            }
            for x in 0..<width {
                for y in 0..<height { line[y] = UInt32(plane[y * width + x]) }
                Self.box(line, count: height, radius: r, into: &out)
                for y in 0..<height { plane[y * width + x] = UInt8(out[y]) }
            }
        }
    }

    /// One running-sum box pass over `count` values, rounded to nearest.
    private static func box(_ input: [UInt32], count: Int, radius r: Int, into out: inout [UInt32]) {
        let width = UInt32(2 * r + 1)
        var sum: UInt32 = 0
        for i in 0..<min(r, count) { sum += input[i] }
        for i in 0..<count {
            let entering = i + r, leaving = i - r - 1
            if entering < count { sum += input[entering] }
            if leaving >= 0 { sum -= input[leaving] }
            out[i] = (sum + width / 2) / width
        }
    }
}
