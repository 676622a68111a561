import Foundation

extension Layer {
    /// Marks the layer's drawn content as stale: `display()` runs before the next frame that
    /// shows it.
    public func setNeedsDisplay() {
        needsDisplay = true
        changed(.content)
    }

    /// Runs `display()` now if the content is stale.
    public func displayIfNeeded() {
        guard needsDisplay else { return }
        needsDisplay = false
        display()
    }

    /// What `draw(in:)` paints at `scale` device pixels per point, cached until the content
    /// changes or the scale does; nil when the layer does not draw (or has no area).
    func drawnContent(scale: CGFloat) -> Image? {
        guard drawsContent, bounds.width > 0, bounds.height > 0, RenderLimits.isSane(bounds) else { return nil }
        // The drawing covers the bounds; an oversized layer draws at a lower scale.
        let side = RenderLimits.maximumStoreSide
        let scale = min(scale, side / bounds.width, side / bounds.height)
        if let cache = drawnCache, cache.scale == scale, cache.version == contentVersion { return cache.image }
        let width = max(1, Int((bounds.width * scale).rounded(.up))), height = max(1, Int((bounds.height * scale).rounded(.up)))
        guard let bitmap = try? Bitmap(width: width, height: height) else { return nil }
        let context = GraphicsContext(bitmap: bitmap, scale: scale)
        context.translateBy(x: -bounds.minX, y: -bounds.minY)
        draw(in: context)
        let image = Image(adopting: bitmap)
        drawnCache = (image, scale, contentVersion)
        return image
    }
}
