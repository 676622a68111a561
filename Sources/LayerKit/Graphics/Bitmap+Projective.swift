import CPixman
import Foundation

extension Bitmap {
    /// Rows sampled per pass of a sampled composite (the scratch buffer's height).
    private static let sampledChunkRows = 16

    /// Composites `source` with an operator the kernels do not combine: the kernels sample it
    /// (source, full opacity) into scratch rows, and pixman combines those rows with the
    /// operator and the opacity.
    ///
    /// Used under perspective, where pixman cannot sample: pixman 0.42's projective fetcher
    /// divides `(uint64_t)x << 16` by w, so a source coordinate left of or above the source
    /// turns into a huge unsigned number and the "pixel" it fetches is garbage that can land
    /// inside the source (stray streaks beside a turned card). The kernels map every pixel
    /// centre from its own destination coordinates (the scratch rows keep them), so pixels come
    /// out the same however the area is cut into damage and bands.
    func compositeSampled(_ source: Bitmap, _ op: CompositeOperator, map: Kernels.Map, filter: ImageFilter,
                          area: Region, opacity: Double, variant: KernelVariant?) {
        let mask = Self.opacityMask(opacity)
        defer { if let mask { pixman_image_unref(mask) } }
        let rects = area.rects
        guard let widest = rects.map(\.width).max(), widest > 0 else { return }
        let chunkRows = Self.sampledChunkRows
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: widest * chunkRows)
        defer { scratch.deallocate() }
        guard let scratchImage = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(widest), Int32(chunkRows),
                                                          scratch, Int32(widest * 4)) else { return }
        defer { pixman_image_unref(scratchImage) }
        for rect in rects {
            var y0 = rect.minY
            while y0 < rect.maxY {
                let rows = min(chunkRows, rect.maxY - y0)
                let chunk = PixelRect(x: rect.minX, y: y0, width: rect.width, height: rows)
                let target = Kernels.Target(pixels: scratch, originX: chunk.x, originY: chunk.y, width: chunk.width,
                                            height: chunk.height, bytesPerRow: widest * 4)
                withExtendedLifetime(source) {
                    Kernels.composite(Kernels.Source(source), into: target, map: map, filter: filter, operator: .source,
                                      opacity: 255, area: Region(chunk), variant: variant)
                }
                pixman_image_composite32(op.pixmanOperator, scratchImage, mask, image, 0, 0, 0, 0,
                                         Int32(chunk.minX), Int32(y0), Int32(chunk.width), Int32(rows))
                y0 += rows
            }
        }
    }
}
