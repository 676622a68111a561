import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Comparing a frame's items with the last frame's.
@Suite struct PaintItemTests {
    /// Two items paint the same only when every field that reaches the pixels is the same:
    /// changing any one of them (the source's pixels, its color, the map, opacity, filter,
    /// clip, key) makes them differ; equal items also hash equally into a group's fingerprint.
    @Test func itemsPaintTheSameOnlyWhenEveryFieldIs() throws {
        let mask = try AlphaMask(width: 20, height: 10), bitmap = try Bitmap(width: 20, height: 10)
        let key = PaintItem.Key(layer: LayerID.next(), part: .content)
        let area = PixelRect(x: 0, y: 0, width: 200, height: 100)
        func item(key: PaintItem.Key = key, source: PaintItem.Source? = nil, identity: Int = 1,
                  transform: Homography = Homography(translationX: 10, y: 20), opacity: Double = 1,
                  filter: ImageFilter = .bilinear, clip: PixelRect? = nil) throws -> PaintItem {
            return try #require(PaintItem(key: key, source: source ?? .coverage(mask, .white), sourceIdentity: identity, transform: transform,
                                   opacity: opacity, filter: filter, clip: clip, targetArea: area))
        }
        let base = try item()
        #expect(base.paintsSame(as: try item()))
        func signature(_ item: PaintItem) -> Int {
            var hasher = Hasher()
            item.combineSignature(into: &hasher)
            return hasher.finalize()
        }
        #expect(signature(base) == signature(try item()))
        let others = [try item(key: PaintItem.Key(layer: key.layer, part: .border)), try item(source: .coverage(mask, .black)),
                      try item(source: .bitmap(bitmap)), try item(identity: 2), try item(transform: Homography(translationX: 11, y: 20)),
                      try item(opacity: 0.5), try item(filter: .nearest), try item(clip: PixelRect(x: 0, y: 0, width: 25, height: 25))]
        for other in others {
            #expect(!base.paintsSame(as: other) && !other.paintsSame(as: base), "\(other)")
        }
    }
}
