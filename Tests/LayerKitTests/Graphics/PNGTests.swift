import Foundation
import Testing
@testable import LayerKit

@Suite struct PNGTests {
    static let fixtures: URL = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/png")

    static let fixtureNames: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return files.filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) }.sorted()
    }()

    @Test func everyColorTypeDepthAndInterlaceIsCovered() {
        // gray 1/2/4/8/16 (+tRNS), gray+alpha 8/16, RGB 8/16 (+tRNS), RGBA 8/16, palette 1/2/4/8,
        // each plain and Adam7-interlaced.
        #expect(Self.fixtureNames.count == 34)
        #expect(Self.fixtureNames.filter { $0.hasSuffix("-interlaced") }.count == 17)
    }

    /// Fixtures written by Python's zlib (make_png_fixtures.py), with the pixels the PNG
    /// specification assigns them beside each in NAME.rgba.
    @Test(arguments: fixtureNames)
    func decodesForeignEncoderFixture(_ name: String) throws {
        let bitmap = try Bitmap(pngAt: Self.fixtures.appendingPathComponent(name + ".png").path)
        let expected = try Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".rgba"))
        #expect(bitmap.width == 13 && bitmap.height == 11)
        var mismatches = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let i = (y * bitmap.width + x) * 4
                let want = Color(red8: expected[i], green8: expected[i + 1], blue8: expected[i + 2], alpha8: expected[i + 3])
                // Compare as premultiplied pixels: the color of a transparent pixel does not exist.
                if bitmap.premultipliedPixel(x: x, y: y) != want.premultipliedARGB32 {
                    if mismatches < 3 {
                        Issue.record("\(name) pixel \(x),\(y): got \(bitmap.pixel(x: x, y: y)), want \(want)")
                    }
                    mismatches += 1
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func writtenPNGReadsBackIdentically() throws {
        // Every alpha level with channels up to it, so premultiplication round-trips are tested.
        let b = try Bitmap(width: 256, height: 4)
        b.withUnsafeMutablePixels { pixels in
            for a in 0..<256 {
                for row in 0..<4 {
                    let c = UInt32(a * (row + 1) / 5)
                    pixels[row * 256 + a] = UInt32(a) << 24 | c << 16 | UInt32(a) << 8 | UInt32(a / 3)
                }
            }
        }
        let back = try Bitmap(pngData: try b.pngData())
        #expect(back.hasSamePixels(as: b))
    }

    /// A folder of its own for a test's files, removed by `body`'s end.
    private static func inTemporaryFolder(_ body: (String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("png-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    /// Written to a symbolic link, the picture goes to the file it names, and the link stays.
    /// (Written atomically, a temporary file was renamed over the link: the link was gone and its
    /// file kept the old picture.)
    @Test func aPNGWrittenThroughASymbolicLinkReachesItsFile() throws {
        try Self.inTemporaryFolder { folder in
            let target = folder + "/target.png", link = folder + "/link.png"
            try Bitmap(width: 3, height: 2, color: .blue).writePNG(to: target)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            let picture = try Bitmap(width: 5, height: 4, color: .red)
            try picture.writePNG(to: link)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
            #expect(try Bitmap(pngData: Data(contentsOf: URL(fileURLWithPath: target))).hasSamePixels(as: picture))
        }
    }

    /// Written to what is not a file (a pipe here; `/dev/stdout` in a shell), the picture goes
    /// through it and the pipe stays: renamed over it, a temporary file replaced it.
    @Test func aPNGWrittenToAPipeGoesThroughIt() throws {
        try Self.inTemporaryFolder { folder in
            let fifo = folder + "/pipe"
            #expect(mkfifo(fifo, 0o600) == 0)
            let picture = try Bitmap(width: 6, height: 5, color: .green)
            // Read on another thread: opening a pipe to write waits for a reader.
            let received = Locked(Data())
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                var data = Data(), chunk = [UInt8](repeating: 0, count: 4096)
                let fd = open(fifo, O_RDONLY)
                while fd >= 0, case let n = read(fd, &chunk, chunk.count), n > 0 { data.append(contentsOf: chunk[..<n]) }
                if fd >= 0 { close(fd) }
                received.withLock { $0 = data }
                done.signal()
            }
            try picture.writePNG(to: fifo)
            // (Bounded: had the pipe been replaced, the reader would wait on it for ever.)
            #expect(done.wait(timeout: .now() + 30) == .success, "the reader got no end of file")
            var status = stat()
            #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
            #expect(try Bitmap(pngData: received.withLock { $0 }).hasSamePixels(as: picture))
        }
    }

    @Test func opaqueBitmapIsWrittenWithoutAlphaAndReadsBack() throws {
        let b = try Bitmap(width: 9, height: 7, color: try Color(hex: "#336699"))
        b.setPixel(x: 4, y: 3, to: .yellow)
        let data = try b.pngData()
        // IHDR colour type byte (offset 25): 2 = truecolour without alpha.
        #expect(data[25] == 2)
        #expect(try Bitmap(pngData: data).hasSamePixels(as: b))
    }

    @Test func writesAndReadsFiles() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let b = try Bitmap(width: 3, height: 3, color: Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8))
        try b.writePNG(to: path)
        #expect(try Bitmap(pngAt: path).hasSamePixels(as: b))
    }

    @Test func missingFileAndUnwritablePathAreNamed() throws {
        do {
            _ = try Bitmap(pngAt: "/nonexistent/face.png")
            Issue.record("expected an error")
        } catch {
            guard case let .cannotRead(path, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(path == "/nonexistent/face.png")
            #expect(error.description.contains("/nonexistent/face.png"))
        }
        let b = try Bitmap(width: 1, height: 1)
        #expect(throws: PNGError.self) { try b.writePNG(to: "/nonexistent/dir/out.png") }
    }

    @Test func nonPNGDataIsRecognized() {
        #expect(throws: PNGError.notPNG(source: "PNG data")) { try Bitmap(pngData: Data("GIF89a and more".utf8)) }
        #expect(throws: PNGError.notPNG(source: "PNG data")) { try Bitmap(pngData: Data()) }
    }

    @Test func everyTruncationThrowsAndNothingCrashes() throws {
        let data = try Data(contentsOf: Self.fixtures.appendingPathComponent("rgba8-interlaced.png"))
        for length in stride(from: 0, to: data.count - 12, by: 7) {   // the last 12 bytes are IEND
            #expect(throws: PNGError.self, "truncated at \(length) of \(data.count)") {
                try Bitmap(pngData: data.prefix(length))
            }
        }
    }

    @Test func corruptDataSaysWhatIsWrong() throws {
        var data = try Data(contentsOf: Self.fixtures.appendingPathComponent("rgb8.png"))
        data[data.count - 20] ^= 0x55   // inside the last IDAT: its CRC no longer matches
        do {
            _ = try Bitmap(pngData: data)
            Issue.record("expected an error")
        } catch {
            guard case let .corrupt(_, detail) = error else { Issue.record("wrong error \(error)"); return }
            #expect(!detail.isEmpty)
            #expect(error.description.contains("damaged or truncated"))
        }
    }

    /// Every damaged file either decodes to the fixture's size (a flip in an ancillary spot or
    /// in pixel data whose CRC still holds is possible only by chance) or throws a `PNGError`
    /// that names the data and says what is wrong; nothing else happens (no crash, no other
    /// error, no other size).
    @Test func randomByteFlipsDecodeToTheRightSizeOrThrowATypedError() throws {
        var outcomes = (decoded: 0, refused: 0)
        for name in ["palette4", "rgba8-interlaced", "gray16"] {
            let original = try Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".png"))
            var generator = SplitMix64(seed: 42)
            for _ in 0..<300 {
                var data = original
                for _ in 0..<3 {
                    let i = 8 + Int(generator.next() % UInt64(data.count - 8))
                    data[i] = UInt8(truncatingIfNeeded: generator.next())
                }
                do {
                    let bitmap = try Bitmap(pngData: data)
                    #expect(bitmap.width == 13 && bitmap.height == 11, "\(name): decoded to \(bitmap.width)x\(bitmap.height)")
                    outcomes.decoded += 1
                } catch {
                    switch error {
                    case let .corrupt(source, detail):
                        #expect(source == "PNG data" && !detail.isEmpty)
                    case .tooLarge, .overDecodingLimit:
                        break   // a flipped IHDR size: refused before allocating
                    default:
                        Issue.record("\(name): unexpected error \(error)")
                    }
                    #expect(error.description.contains("PNG data"))
                    outcomes.refused += 1
                }
            }
        }
        #expect(outcomes.refused > 800, "most flips break a CRC: \(outcomes)")
    }

    @Test func hugeDeclaredSizeIsRefusedBeforeAllocating() throws {
        // A valid header claiming 100000 x 100000 pixels, with almost no data behind it.
        var png = Data(PNGCodec.signature)
        png.append(chunk("IHDR", [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0, 8, 6, 0, 0, 0]))
        png.append(chunk("IDAT", [0x78, 0x9C, 0x63, 0, 0, 0, 1, 0, 1]))
        png.append(chunk("IEND", []))
        #expect(throws: PNGError.tooLarge(source: "PNG data", width: 100_000, height: 100_000)) {
            try Bitmap(pngData: png)
        }
    }

    private func chunk(_ type: String, _ body: [UInt8]) -> Data {
        var data = Data()
        let length = UInt32(body.count)
        data.append(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
        let typed = Array(type.utf8) + body
        data.append(contentsOf: typed)
        let crc = crc32(typed)
        data.append(contentsOf: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
        return data
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// A small deterministic generator for fuzz-style tests.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
