import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension Bitmap {
    /// Decodes a PNG of any color type, bit depth or interlace.
    ///
    /// - Parameters:
    ///   - data: the PNG file's bytes.
    ///   - options: bounds on the decoding's cost (lower them for untrusted data).
    /// - Throws: `PNGError` saying what is wrong: not a PNG, damaged or truncated (with
    ///   libpng's reason), too large for a bitmap or for `options`.
    public convenience init(pngData data: Data, options: PNGDecodingOptions = PNGDecodingOptions()) throws(PNGError) {
        let decoded = try PNGCodec.decode(data, source: "PNG data", options: options)
        self.init(adopting: decoded.pixels, width: decoded.width, height: decoded.height)
    }

    /// Reads and decodes a PNG file.
    ///
    /// - Parameters:
    ///   - path: the file to read.
    ///   - options: bounds on the decoding's cost (lower them for untrusted files).
    /// - Throws: `PNGError.cannotRead` when the file cannot be read, otherwise as `init(pngData:)`,
    ///   naming the file.
    public convenience init(pngAt path: String, options: PNGDecodingOptions = PNGDecodingOptions()) throws(PNGError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)  // mapped: a huge file costs no memory
        } catch {
            throw .cannotRead(path: path, reason: Self.reason(error))
        }
        let decoded = try PNGCodec.decode(data, source: path, options: options)
        self.init(adopting: decoded.pixels, width: decoded.width, height: decoded.height)
    }

    /// The bitmap encoded as PNG (8-bit RGBA, or RGB when every pixel is opaque).
    public func pngData() throws(PNGError) -> Data {
        checkNotBeingPainted()
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else {
            throw .encodingFailed(detail: "no memory for the output stream")
        }
        do {
            try PNGCodec.encode(self, to: stream)
        } catch {
            fclose(stream)
            free(buffer)
            throw error
        }
        fclose(stream)
        defer { free(buffer) }
        guard let buffer else { return Data() }
        return Data(bytes: buffer, count: size)
    }

    /// Encodes the bitmap as PNG and writes it to `path`, replacing any file there: whole or not
    /// at all (through a temporary file renamed over it) when `path` is a file or new; through a
    /// symbolic link, a pipe or a device (`/dev/stdout`), to what it names.
    ///
    /// - Throws: `PNGError.cannotWrite` naming the path and the system's reason.
    public func writePNG(to path: String) throws(PNGError) {
        let data = try pngData()
        do {
            // Renamed over a link or a device, the temporary file replaced it (and, as root,
            // `/dev/stdout` became a file), and nothing reached what it named.
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            try data.write(to: URL(fileURLWithPath: path), options: type == nil || type == .typeRegular ? .atomic : [])
        } catch {
            throw .cannotWrite(path: path, reason: Self.reason(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain, let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return (error as NSError).localizedDescription
    }
}
