import Foundation
@testable import LayerKit

extension ScanConverter {
    /// The 8-bit coverage of `polygons` under `rule` over a `width` x `height` area, row after
    /// row without padding. The converter's buffer starts filled with 0xA5, so a pixel it fails
    /// to write shows.
    static func coverage(of polygons: [[CGPoint]], rule: FillRule, width: Int, height: Int) -> [UInt8] {
        withConverter { converter in
            for polygon in polygons { polygon.withUnsafeBufferPointer { converter.addPolygon($0) } }
            let stride = rowBytes(width)
            var output = [UInt8](repeating: 0xA5, count: stride * height)
            output.withUnsafeMutableBufferPointer {
                converter.render(rule: rule, area: PixelRect(x: 0, y: 0, width: width, height: height), into: $0.baseAddress!, stride: stride)
            }
            return (0..<height).flatMap { y in output[(y * stride)..<(y * stride + width)] }
        }
    }
}
