import Foundation
import Testing
@testable import LayerKit

/// What decoding a hostile PNG may cost: bounded by `PNGDecodingOptions`, never by what the
/// file claims or carries beyond its pixels.
@Suite struct PNGLimitsTests {
    /// A chunk with its length and CRC (`crcOK: false` damages the CRC).
    static func chunk(_ type: String, _ body: [UInt8], crcOK: Bool = true) -> Data {
        var data = Data()
        let n = UInt32(body.count)
        data.append(contentsOf: [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)])
        let typed = Array(type.utf8) + body
        data.append(contentsOf: typed)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typed {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        crc = ~crc ^ (crcOK ? 0 : 1)
        data.append(contentsOf: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        return data
    }

    /// IHDR of a 1x1 8-bit RGBA image.
    static let header = chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0])

    @Test func textChunkClaimingTwoGigabytesIsRefusedWithoutAllocatingThem() throws {
        // 41 bytes: a valid header, then a tEXt chunk that claims 0x7fffffff bytes and has none.
        var png = Data(PNGCodec.signature) + Self.header
        png.append(contentsOf: [0x7F, 0xFF, 0xFF, 0xFF] + Array("tEXt".utf8))
        let before = peakResidentBytes()
        #expect(throws: PNGError.self) { try Bitmap(pngData: png) }
        // Before: libpng allocated the claimed 2 GiB (2.1 GB resident) before failing.
        #expect(peakResidentBytes() - before < 512 << 20)
    }

    @Test func oversizedAncillaryChunkIsRefusedByTheChunkLimit() throws {
        // A 2 KiB sPLT (a suggested palette, which carries no pixels) is skipped unread; the
        // palette is kept, and one larger than the chunk limit makes the file an error.
        var png = Data(PNGCodec.signature) + Self.chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 3, 0, 0, 0])
        png.append(Self.chunk("sPLT", [UInt8](repeating: 7, count: 2048)))
        png.append(Self.chunk("PLTE", [255, 0, 0, 0, 0, 255]))
        png.append(Self.chunk("IDAT", Self.zlibStored([0, 1])))
        png.append(Self.chunk("IEND", []))
        let bitmap = try Bitmap(pngData: png)
        #expect(bitmap.pixel(x: 0, y: 0) == .blue)
        #expect(throws: PNGError.self) {
            try Bitmap(pngData: png, options: PNGDecodingOptions(maximumPixelCount: 10, maximumAncillaryChunkBytes: 4))
        }
    }

    @Test func callersCanLowerThePixelCap() throws {
        let data = try Data(contentsOf: PNGTests.fixtures.appendingPathComponent("rgb8.png"))
        #expect(try Bitmap(pngData: data, options: PNGDecodingOptions(maximumPixelCount: 143)).width == 13)
        #expect(throws: PNGError.overDecodingLimit(source: "PNG data", width: 13, height: 11,
                                                   maximumPixelCount: 142, maximumDimension: Bitmap.maximumDimension)) {
            try Bitmap(pngData: data, options: PNGDecodingOptions(maximumPixelCount: 142))
        }
        #expect(throws: PNGError.self) {
            try Image(pngData: data, options: PNGDecodingOptions(maximumPixelCount: 1_000, maximumDimension: 12))
        }
        // Asking for more than a bitmap holds gives a bitmap's limits.
        #expect(PNGDecodingOptions(maximumPixelCount: .max) == PNGDecodingOptions())
    }

    @Test func compressedDataTrailingTheImageIsNeverInflated() throws {
        // One pixel in a stored deflate block, then 64 MiB of zeros as back-references in a
        // second IDAT chunk whose CRC is wrong, then IEND. Before, png_read_end inflated all of
        // it (4 GiB took 30 s) and then failed on the CRC; decoding now stops at the pixel.
        let (first, rest) = Self.zlibWithTrailingZeros(pixel: [0, 0x11, 0x22, 0x33, 0xFF], zeros: 64 << 20)
        var png = Data(PNGCodec.signature) + Self.header
        png.append(Self.chunk("IDAT", first))
        png.append(Self.chunk("IDAT", rest, crcOK: false))
        png.append(Self.chunk("IEND", []))
        let bitmap = try Bitmap(pngData: png)
        #expect(bitmap.width == 1 && bitmap.pixel(x: 0, y: 0) == Color(red8: 0x11, green8: 0x22, blue8: 0x33))
        // Cut short after the pixel, the file is still refused: chunks are checked up to IEND.
        #expect(throws: PNGError.self) { try Bitmap(pngData: png.prefix(png.count - 6)) }
    }

    @Test(arguments: [(1, 1), (2, 1), (5, 1), (9, 1), (1, 2), (1, 5), (2, 2), (3, 3), (9, 9), (17, 2), (4, 7)])
    func compressedDataTrailingAnInterlacedImageIsNeverInflated(size: (Int, Int)) throws {
        // The same trap behind an Adam7 image. The last pass with pixels differs with the size:
        // the seventh (whole odd rows) from two rows up, the sixth (odd columns of the only row)
        // for a one-row image, the first for 1x1. One-row images used to read the trailing data.
        let (width, height) = size
        func pixel(_ x: Int, _ y: Int) -> [UInt8] { [UInt8(x * 29 % 256), UInt8(y * 53 % 256), UInt8((x + y) * 11 % 256), 0xFF] }
        // Adam7 passes: first column, first row, column step, row step.
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var raw: [UInt8] = []
        for (x0, y0, dx, dy) in passes where x0 < width && y0 < height {
            for y in stride(from: y0, to: height, by: dy) {
                raw.append(0)   // filter: none
                for x in stride(from: x0, to: width, by: dx) { raw += pixel(x, y) }
            }
        }
        let be = { (v: Int) in [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let header = Self.chunk("IHDR", be(width) + be(height) + [8, 6, 0, 0, 1])
        let (first, rest) = Self.zlibWithTrailingZeros(pixel: raw, zeros: 8 << 20)
        var png = Data(PNGCodec.signature) + header
        png.append(Self.chunk("IDAT", first))
        png.append(Self.chunk("IDAT", rest, crcOK: false))
        png.append(Self.chunk("IEND", []))
        let bitmap = try Bitmap(pngData: png)
        #expect(bitmap.width == width && bitmap.height == height)
        for y in 0..<height {
            for x in 0..<width {
                let p = pixel(x, y)
                #expect(bitmap.pixel(x: x, y: y) == Color(red8: p[0], green8: p[1], blue8: p[2]), "pixel (\(x), \(y))")
            }
        }
    }

    // MARK: Deflate by hand

    /// A zlib stream of `bytes` in one stored block (Adler-32 included).
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        let n = UInt16(bytes.count)
        return [0x78, 0x01, 1, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + bytes + adler32(bytes)
    }

    static func adler32(_ bytes: [UInt8]) -> [UInt8] {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        let v = b << 16 | a
        return [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    /// A zlib stream split in two: a stored block with the pixel's row, then a fixed-Huffman
    /// block of `zeros` zero bytes (runs of 258 at distance 1, after a literal 0).
    static func zlibWithTrailingZeros(pixel: [UInt8], zeros: Int) -> (first: [UInt8], rest: [UInt8]) {
        let n = UInt16(pixel.count)
        let first: [UInt8] = [0x78, 0x01, 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + pixel
        var bits = BitWriter()
        bits.write(1, count: 1)            // BFINAL
        bits.write(1, count: 2)            // fixed Huffman codes
        bits.writeCode(0x30, count: 8)     // literal 0 (codes 0-143: 0x30 + value, 8 bits)
        var left = zeros - 1
        while left >= 258 {
            bits.writeCode(0xC5, count: 8) // length 258 (code 285)
            bits.writeCode(0, count: 5)    // distance 1
            left -= 258
        }
        for _ in 0..<left { bits.writeCode(0x30, count: 8) }
        bits.writeCode(0, count: 7)        // end of block (256)
        var rest = bits.bytes
        // The Adler-32 of everything; the decoder never gets this far.
        rest += [0, 0, 0, 0]
        return (first, rest)
    }

    struct BitWriter {
        var bytes: [UInt8] = []
        var used = 8
        /// Writes `count` bits of `value`, least significant first (header fields).
        mutating func write(_ value: UInt32, count: Int) {
            for i in 0..<count { push(value >> UInt32(i) & 1) }
        }
        /// Writes a Huffman code, most significant bit first.
        mutating func writeCode(_ code: UInt32, count: Int) {
            for i in stride(from: count - 1, through: 0, by: -1) { push(code >> UInt32(i) & 1) }
        }
        private mutating func push(_ bit: UInt32) {
            if used == 8 { bytes.append(0); used = 0 }
            bytes[bytes.count - 1] |= UInt8(bit) << UInt8(used)
            used += 1
        }
    }
}
