import Foundation
import Testing
@testable import LayerKit

@Suite struct ColorTests {
    @Test func parsesEveryHexForm() throws {
        #expect(try Color(hex: "#F80") == Color(red8: 0xFF, green8: 0x88, blue8: 0x00))
        #expect(try Color(hex: "#F808") == Color(red8: 0xFF, green8: 0x88, blue8: 0x00, alpha8: 0x88))
        #expect(try Color(hex: "#1e2230") == Color(red8: 0x1E, green8: 0x22, blue8: 0x30))
        #expect(try Color(hex: "#1E223080") == Color(red8: 0x1E, green8: 0x22, blue8: 0x30, alpha8: 0x80))
        #expect(try Color(hex: "  00ff00 ") == .green)
    }

    @Test func rejectsBadHexWithAReason() {
        #expect(throws: ColorError.invalidHexString("#12345", reason: "expected 3, 4, 6 or 8 hexadecimal digits, found 5")) {
            try Color(hex: "#12345")
        }
        #expect(throws: ColorError.invalidHexString("#GG0000", reason: "'G' is not a hexadecimal digit")) {
            try Color(hex: "#GG0000")
        }
        #expect(throws: ColorError.self) { try Color(hex: "") }
        #expect(throws: ColorError.self) { try Color(hex: "#") }
        do {
            _ = try Color(hex: "#12")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("\"#12\""))
            #expect(error.description.contains("#RRGGBB"))
        }
    }

    @Test func premultipliesIntoA8R8G8B8() {
        #expect(Color.red.premultipliedARGB32 == 0xFFFF_0000)
        #expect(Color.clear.premultipliedARGB32 == 0)
        // 50% white: alpha 128, each channel 0.5 · 255 = 127.5 → 128.
        #expect(Color(white: 1, alpha: 0.5).premultipliedARGB32 == 0x8080_8080)
        #expect(Color(red: 1, green: 0.5, blue: 0, alpha: 0.2).premultipliedARGB32 == 0x3333_1A00)
        // Out-of-range and NaN components are clamped, never wrapped.
        #expect(Color(red: 2, green: -1, blue: .nan, alpha: 7).premultipliedARGB32 == 0xFFFF_0000)
    }

    /// `premultipliedARGB32` rounds each channel as `rounded()` does: checked against that
    /// formula at every exact half (k + 0.5 of 255), next to each, and at random colors.
    @Test func premultipliedChannelsRoundAsRounded() {
        func reference(_ c: Color) -> UInt32 {
            let a = Color.unit(c.alpha)
            return [a, Color.unit(c.red) * a, Color.unit(c.green) * a, Color.unit(c.blue) * a]
                .reduce(0) { $0 << 8 | UInt32(($1 * 255).rounded()) }
        }
        var units: [Double] = [0, 1, .leastNonzeroMagnitude, 1.0.nextDown]
        for k in 0 ..< 256 {
            let half = (Double(k) + 0.5) / 255
            units += [Double(k) / 255, half, half.nextUp, half.nextDown]
        }
        for u in units {
            #expect(Color.byte(u) == UInt32((u * 255).rounded()), "\(u)")
        }
        // 0.5 · 255 = 127.5 exactly: half away from zero.
        #expect(Color.byte(0.5) == 128)
        var rng = SystemRandomNumberGenerator()
        for _ in 0 ..< 20_000 {
            let c = Color(red: .random(in: -0.1 ... 1.1, using: &rng), green: .random(in: 0 ... 1, using: &rng),
                          blue: units.randomElement(using: &rng)!, alpha: units.randomElement(using: &rng)!)
            #expect(c.premultipliedARGB32 == reference(c))
        }
    }

    @Test func unpremultipliesBack() {
        #expect(Color(premultipliedARGB32: 0x8080_0000) == Color(red8: 255, green8: 0, blue8: 0, alpha8: 128))
        #expect(Color(premultipliedARGB32: 0) == .clear)
        // Every 8-bit straight color survives premultiplying and back at full alpha.
        for v in stride(from: 0, through: 255, by: 15) {
            let c = Color(red8: UInt8(v), green8: UInt8(255 - v), blue8: 7)
            #expect(Color(premultipliedARGB32: c.premultipliedARGB32) == c)
        }
    }

    @Test func namedColorsHaveUIKitValues() {
        #expect(Color.gray == Color(white: 0.5))
        #expect(Color.orange == Color(red: 1, green: 0.5, blue: 0))
        #expect(Color.black.hexString == "#000000FF")
        #expect(Color.white.withAlphaComponent(0).alpha == 0)
    }
}
