import Foundation
import Testing
@_spi(Kernels) @testable import LayerKit

/// Stores asked for again: the same fingerprint hands out the held store and queues nothing; a
/// new one redraws the store, in place when its size is the same, cleared before it is drawn.
@Suite struct BackingStoreCacheTests {
    private static func fingerprint(_ source: Int) -> BackingStoreCache.Fingerprint {
        .shadow(radius: 1, source: source, area: CGRect(x: 0, y: 0, width: 6, height: 5), scale: 1)
    }

    /// A drawing made for its surface (`job:`) is asked for only when the store must be
    /// drawn, and a store redrawn in place is cleared first: a drawing that draws nothing
    /// leaves no pixel of the last one.
    @Test func aStoreRedrawnInPlaceIsClearedBeforeItIsDrawn() throws {
        let cache = BackingStoreCache()
        let key = PaintItem.Key(layer: LayerID.next(), part: .content)
        var drawingsMade = 0
        let first = try #require(cache.store(for: key, fingerprint: Self.fingerprint(1), width: 6, height: 5, level: 0,
                                             as: Bitmap.self, job: { bitmap in
            drawingsMade += 1
            return .closure { bitmap.fill(PixelRect(x: 0, y: 0, width: 6, height: 5), premultiplied: 0xFF80_4020, operator: .source) }
        }))
        let firstJobs = cache.takeJobs()
        #expect(firstJobs.count == 1 && !firstJobs[0].clears)
        ContentPass.run(firstJobs)
        #expect(first.bitmap.withUnsafePixels { $0.allSatisfy { $0 == 0xFF80_4020 } })

        // The same fingerprint: the store as it is, nothing asked for or queued.
        let same = cache.store(for: key, fingerprint: Self.fingerprint(1), width: 6, height: 5, level: 0, as: Bitmap.self,
                               job: { _ in
            Issue.record("a store held with its fingerprint was drawn again")
            return .closure {}
        })
        #expect(same?.generation == first.generation)
        #expect(cache.takeJobs().isEmpty)

        // A new fingerprint, the same size: the same bitmap, new pixels, cleared first.
        let redrawn = try #require(cache.store(for: key, fingerprint: Self.fingerprint(2), width: 6, height: 5, level: 0,
                                               as: Bitmap.self, job: { _ in
            drawingsMade += 1
            return .closure {}
        }))
        #expect(redrawn.surface === first.surface)
        #expect(redrawn.generation != first.generation)
        let jobs = cache.takeJobs()
        #expect(jobs.count == 1 && jobs[0].clears)
        ContentPass.run(jobs)
        #expect(redrawn.bitmap.withUnsafePixels { $0.allSatisfy { $0 == 0 } })
        #expect(drawingsMade == 2)
        #expect(cache.rasterizations == 2)
    }

    /// A store of another size is a new surface: nothing to clear.
    @Test func aStoreOfAnotherSizeIsMadeAnew() throws {
        let cache = BackingStoreCache()
        let key = PaintItem.Key(layer: LayerID.next(), part: .content)
        let first = try #require(cache.store(for: key, fingerprint: Self.fingerprint(1), width: 6, height: 5, level: 0,
                                             as: AlphaMask.self, job: { _ in .closure {} }))
        ContentPass.run(cache.takeJobs())
        let resized = try #require(cache.store(for: key, fingerprint: Self.fingerprint(2), width: 7, height: 5, level: 0,
                                               as: AlphaMask.self, job: { _ in .closure {} }))
        #expect(resized.surface !== first.surface)
        let jobs = cache.takeJobs()
        #expect(jobs.count == 1 && !jobs[0].clears)
    }

    /// A coverage store queued as a value (`Job.Drawing.coverage`, a line of text) draws what
    /// `ContentRasterizer.drawCoverage` draws, and, redrawn in place under a new string, keeps
    /// nothing of the last one.
    @Test func aCoverageJobDrawsTheContentsCoverageAndIsClearedWhenRedrawn() throws {
        func line(_ string: String) -> ContentDescription {
            let text = TextDescription(text: .string(string), font: Font.defaultFamily, fontSize: 14, color: .white,
                                       alignment: .natural, wrapped: false, truncation: .none)
            return ContentDescription(bounds: CGRect(x: 0, y: 0, width: 80, height: 20), backgroundColor: nil, cornerRadius: 0,
                                      maskedCorners: [], contents: nil, drawn: nil, shape: nil, text: text, gradient: nil,
                                      version: 1)
        }
        let area = CGRect(x: 0, y: 0, width: 80, height: 20), scale: CGFloat = 1.5
        let (width, height) = ContentRasterizer.storeSize(area: area, scale: scale)
        let cache = BackingStoreCache()
        let key = PaintItem.Key(layer: LayerID.next(), part: .content)
        for (generation, string) in ["12:34:56", "7"].enumerated() {
            let content = line(string)
            let entry = try #require(cache.store(for: key, fingerprint: .content(content, area: area, scale: scale), width: width,
                                                 height: height, level: 0, as: AlphaMask.self,
                                                 job: { _ in .coverage(content, area: area, scale: scale) }))
            let jobs = cache.takeJobs()
            #expect(jobs.count == 1 && jobs[0].clears == (generation > 0))
            ContentPass.run(jobs)
            let expected = try AlphaMask(width: width, height: height)
            ContentRasterizer.drawCoverage(content, area: area, scale: scale, into: expected)
            let drawn = try #require(entry.surface as? AlphaMask)
            #expect(CoverageStoreTests.bytes(of: drawn) == CoverageStoreTests.bytes(of: expected))
            #expect(CoverageStoreTests.bytes(of: expected).contains { $0 != 0 })
        }
    }
}
