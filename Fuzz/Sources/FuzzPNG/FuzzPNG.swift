import Foundation
import LayerKit

/// One libFuzzer input: decoded as a PNG. Either it decodes to a bitmap within the options'
/// limits or it throws a PNGError that names the data; anything else (a crash, a leak, an
/// allocation over libFuzzer's -rss_limit_mb) is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNG(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    let options = PNGDecodingOptions(maximumPixelCount: 1 << 22, maximumDimension: 8192)
    do {
        let bitmap = try Bitmap(pngData: data, options: options)
        precondition(bitmap.width >= 1 && bitmap.height >= 1 && bitmap.width * bitmap.height <= 1 << 22)
    } catch {
        precondition(error.description.contains("PNG data"))
    }
    return 0
}
