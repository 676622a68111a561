import Foundation
import Testing
@testable import LayerKit

/// A reused store is cleared in place before it is drawn again.
@Suite struct StoreSurfaceTests {
    /// Bitmaps of random pixels, one pixel, wide, tall and odd-sized (the fill runs over all
    /// rows as one, so every size ends on another alignment): every pixel is cleared, and the
    /// size is kept.
    @Test(arguments: [(1, 1), (37, 9), (3, 200), (200, 3), (1, 77), (129, 65)])
    func bitmapsClearEveryPixel(width: Int, height: Int) throws {
        var g = SeededGenerator(seed: UInt64(width * 1000 + height))
        let bitmap = try KernelFixtures.bitmap(width: width, height: height, &g)
        bitmap.withUnsafeMutablePixels { pixels in pixels[pixels.count - 1] = 0xFFFF_FFFF }
        bitmap.clearPixels()
        #expect(bitmap.width == width && bitmap.height == height)
        bitmap.withUnsafePixels { pixels in
            #expect(pixels.count == width * height)
            #expect(pixels.allSatisfy { $0 == 0 })
        }
    }
}
