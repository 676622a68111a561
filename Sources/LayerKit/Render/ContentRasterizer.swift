import Foundation

/// Draws a layer's content — background, contents image, its own drawing — and its border into
/// backing stores. A store covers `area` of the bounds space at `scale` pixels per point.
enum ContentRasterizer {
    /// The map from bounds space to the pixels of a store covering `area` at `scale`.
    static func boundsToStore(area: CGRect, scale: CGFloat) -> CGAffineTransform {
        CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: -area.minX * scale, ty: -area.minY * scale)
    }

    /// The store's size in pixels for `area` at `scale`.
    static func storeSize(area: CGRect, scale: CGFloat) -> (width: Int, height: Int) {
        (max(1, Int((area.width * scale).rounded(.up))), max(1, Int((area.height * scale).rounded(.up))))
    }

    /// Draws background (rounded), contents image and what the layer drew into a cleared store
    /// of `storeSize(area:scale:)`.
    static func drawContent(_ c: ContentDescription, area: CGRect, scale: CGFloat, into store: Bitmap) {
        let toStore = boundsToStore(area: area, scale: scale)
        if let background = c.backgroundColor, c.bounds.width > 0, c.bounds.height > 0 {
            store.fill(outline(c.bounds, radius: c.cornerRadius, corners: c.maskedCorners, within: area, scale: scale),
                       with: background, transform: toStore)
        }
        if let gradient = c.gradient {
            store.fill(outline(c.bounds, radius: c.cornerRadius, corners: c.maskedCorners, within: area, scale: scale),
                       with: gradient, transform: toStore)
        }
        if let contents = c.contents {
            drawContents(contents, in: c.bounds, into: store, toStore: toStore)
        }
        if let shape = c.shape {
            if let fill = shape.paintedFill { store.fill(shape.path, with: fill, rule: shape.fillRule, transform: toStore) }
            if let strokeColor = shape.strokeColor {
                store.stroke(shape.strokedPath, with: strokeColor, style: shape.stroke, transform: toStore)
            }
        }
        if let text = c.text {
            var laidOut = layout(text, in: c.bounds)
            laidOut.draw(into: store, at: c.bounds.origin, transform: toStore)
            laidOut.recycle()
        }
        if let drawn = c.drawn {
            // Drawn over the whole bounds, usually at exactly the store's scale.
            let sx = c.bounds.width / CGFloat(drawn.width), sy = c.bounds.height / CGFloat(drawn.height)
            let imageToBounds = CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: c.bounds.minX, ty: c.bounds.minY)
            try? store.composite(drawn.bitmap, transform: Homography(imageToBounds.concatenating(toStore)))
        }
    }

    /// Draws the coverage of content whose `coverageColor` is set (text, or a shape, of one
    /// color) into a cleared mask of `storeSize(area:scale:)`: what `drawContent` draws, without
    /// the color.
    static func drawCoverage(_ c: ContentDescription, area: CGRect, scale: CGFloat, into store: AlphaMask) {
        let toStore = boundsToStore(area: area, scale: scale)
        if let shape = c.shape {
            if shape.paintedFill != nil { store.fill(shape.path, rule: shape.fillRule, transform: toStore) }
            if shape.strokeColor != nil { store.stroke(shape.strokedPath, style: shape.stroke, transform: toStore) }
        }
        if let text = c.text {
            var laidOut = layout(text, in: c.bounds)
            laidOut.drawCoverage(into: store, at: c.bounds.origin, transform: toStore)
            // Drawn once and dropped: its arrays serve the thread's next line.
            laidOut.recycle()
        }
    }

    /// A text layer's text laid out in its bounds.
    private static func layout(_ text: TextDescription, in bounds: CGRect) -> TextLayout {
        // The runs are handed over as a buffer, read in place: a collection of them was copied
        // whole into each step that walked it.
        func layOut(_ runs: UnsafeBufferPointer<TextRun>) -> TextLayout {
            // The font read without retaining it (`ResolvedFont`): `text` holds it while the
            // layout lives.
            TextLayout(runs: runs, font: text.font, fontSize: text.fontSize, color: text.color, width: bounds.width,
                       wrapped: text.wrapped, truncation: text.truncation, alignment: text.alignment,
                       explicitFont: text.resolvedFont?.reference)
        }
        switch text.text {
        case let .string(string): return withUnsafePointer(to: TextRun(string)) { layOut(UnsafeBufferPointer(start: $0, count: 1)) }
        case let .runs(runs): return runs.withUnsafeBufferPointer(layOut)
        }
    }

    /// Draws the border — the ring between the outline and the outline inset by the width — into
    /// a cleared store of `storeSize(area:scale:)`.
    static func drawBorder(_ b: BorderDescription, area: CGRect, scale: CGFloat, into store: Bitmap) {
        var ring = outline(b.bounds, radius: b.cornerRadius, corners: b.maskedCorners, within: area, scale: scale)
        let inner = b.bounds.insetBy(dx: b.width, dy: b.width)
        if inner.width > 0, inner.height > 0 {
            ring.addPath(outline(inner, radius: max(b.cornerRadius - b.width, 0), corners: b.maskedCorners, within: area, scale: scale))
        }
        store.fill(ring, with: b.color, rule: .evenOdd, transform: boundsToStore(area: area, scale: scale))
    }

    /// The radius the corners of `bounds` are drawn with: at most half of either side.
    static func cornerRadius(_ radius: CGFloat, of bounds: CGRect) -> CGFloat {
        min(radius, bounds.width / 2, bounds.height / 2)
    }

    /// The layer's outline: its bounds with the masked corners rounded (the radius is limited to
    /// half the shorter side, as Core Animation does).
    ///
    /// When only `area` of the bounds is drawn (a huge layer), the outline is cut to a margin of
    /// one radius around it: the cut sides' corners then lie outside what is drawn, and the
    /// rasterizer never sees coordinates far beyond the store.
    static func outline(_ bounds: CGRect, radius: CGFloat, corners: CornerMask, within area: CGRect? = nil,
                        scale: CGFloat) -> Path {
        let r = cornerRadius(radius, of: bounds)
        var shape = bounds
        if let area {
            let margin = max(r, 0) + 2 / scale
            shape = bounds.intersection(area.insetBy(dx: -margin, dy: -margin))
            if shape.isNull { return Path() }
        }
        // The radius is limited by the real bounds, not by the cut shape.
        return Path(roundedRect: shape, cornerRadius: r, corners: corners)
    }

    // MARK: Contents

    /// The rectangle of bounds space that the contents image occupies.
    static func contentsFrame(_ c: ContentsDescription, in bounds: CGRect) -> CGRect {
        let shown = CGSize(width: CGFloat(c.image.width) * c.rect.width / c.scale,
                           height: CGFloat(c.image.height) * c.rect.height / c.scale)
        return c.gravity.rect(forContentOfSize: shown, in: bounds)
    }

    /// The map from image pixels to bounds space: `contentsRect` of the image onto `frame`.
    static func imageToBounds(_ c: ContentsDescription, frame: CGRect) -> CGAffineTransform? {
        let w = CGFloat(c.image.width), h = CGFloat(c.image.height)
        let sourceWidth = c.rect.width * w, sourceHeight = c.rect.height * h
        guard sourceWidth != 0, sourceHeight != 0, frame.width.isFinite, frame.height.isFinite else { return nil }
        let sx = frame.width / sourceWidth, sy = frame.height / sourceHeight
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy,
                                 tx: frame.minX - c.rect.minX * w * sx, ty: frame.minY - c.rect.minY * h * sy)
    }

    /// The filter for drawing at `pixelsPerImagePixel` on screen.
    static func filter(_ c: ContentsDescription, magnification: CGFloat) -> ContentsFilter {
        magnification > 1 + 1e-9 ? c.magnificationFilter : c.minificationFilter
    }

    private static func drawContents(_ c: ContentsDescription, in bounds: CGRect, into store: Bitmap,
                                     toStore: CGAffineTransform) {
        let frame = contentsFrame(c, in: bounds)
        let patches = ninePatches(c, frame: frame)
        for patch in patches {
            guard let map = patch.imageToBounds else { continue }
            let imageToStore = map.concatenating(toStore)
            let magnification = max(abs(imageToStore.a), abs(imageToStore.d))
            let (source, sourceToImage) = prefiltered(c.image, magnification: magnification,
                                                      filter: filter(c, magnification: magnification))
            // A whole image needs no clip (its edges fade out with the filter). Parts of an
            // image are cut at their destination, rounded to the nearest pixel edge so that
            // neighbouring patches share no pixel.
            let whole = patches.count == 1 && c.rect == CGRect(x: 0, y: 0, width: 1, height: 1)
            let clip = whole ? nil : Region(nearestPixels(patch.destination.applying(toStore)))
            try? store.composite(source, transform: Homography(sourceToImage.concatenating(imageToStore)),
                                 filter: filter(c, magnification: magnification) == .nearest ? .nearest : .bilinear,
                                 clip: clip)
        }
    }

    private static func nearestPixels(_ r: CGRect) -> PixelRect {
        let x0 = Int(r.minX.rounded()), y0 = Int(r.minY.rounded())
        return PixelRect(x: x0, y: y0, width: Int(r.maxX.rounded()) - x0, height: Int(r.maxY.rounded()) - y0)
    }

    /// The image, or for trilinear minification a copy halved until the reduction is at most
    /// 2×, with the map from its pixels to the original image's.
    static func prefiltered(_ image: Image, magnification: CGFloat, filter: ContentsFilter) -> (Bitmap, CGAffineTransform) {
        guard filter == .trilinear, magnification < 0.5, magnification > 0 else { return (image.bitmap, .identity) }
        var bitmap = image.bitmap
        var factor: CGFloat = 1
        while magnification * factor < 0.5, bitmap.width > 1 || bitmap.height > 1 {
            guard let half = try? Bitmap(width: max(1, (bitmap.width + 1) / 2), height: max(1, (bitmap.height + 1) / 2)) else { break }
            // Bilinear sampling at exactly half scale averages each 2×2 block.
            try? half.composite(bitmap, operator: .source, transform: Homography(scaleX: 0.5, y: 0.5))
            bitmap = half
            factor *= 2
        }
        let sx = CGFloat(image.width) / CGFloat(bitmap.width), sy = CGFloat(image.height) / CGFloat(bitmap.height)
        return (bitmap, CGAffineTransform(scaleX: sx, y: sy))
    }

    struct Patch {
        let destination: CGRect
        let imageToBounds: CGAffineTransform?
    }

    /// The nine parts of `contentsCenter` stretching: corners keep their size (shrunk together
    /// when the frame is too small for them), edges stretch along one axis, the centre along both.
    /// With the default centre (the whole image) this is one patch: the plain stretch.
    static func ninePatches(_ c: ContentsDescription, frame: CGRect) -> [Patch] {
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        let center = c.center.standardized.intersection(unit)
        guard c.center != unit, !center.isNull else {
            return [Patch(destination: frame, imageToBounds: imageToBounds(c, frame: frame))]
        }
        let w = CGFloat(c.image.width) * c.rect.width, h = CGFloat(c.image.height) * c.rect.height
        let x0 = c.rect.minX * CGFloat(c.image.width), y0 = c.rect.minY * CGFloat(c.image.height)
        // Source splits in image pixels and destination splits in bounds space.
        let srcX = [x0, x0 + center.minX * w, x0 + center.maxX * w, x0 + w]
        let srcY = [y0, y0 + center.minY * h, y0 + center.maxY * h, y0 + h]
        var left = (srcX[1] - srcX[0]) / c.scale, right = (srcX[3] - srcX[2]) / c.scale
        var top = (srcY[1] - srcY[0]) / c.scale, bottom = (srcY[3] - srcY[2]) / c.scale
        if left + right > frame.width, left + right > 0 {
            let k = frame.width / (left + right); left *= k; right *= k
        }
        if top + bottom > frame.height, top + bottom > 0 {
            let k = frame.height / (top + bottom); top *= k; bottom *= k
        }
        let dstX = [frame.minX, frame.minX + left, frame.maxX - right, frame.maxX]
        let dstY = [frame.minY, frame.minY + top, frame.maxY - bottom, frame.maxY]
        var patches: [Patch] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let sw = srcX[i + 1] - srcX[i], sh = srcY[j + 1] - srcY[j]
                let dw = dstX[i + 1] - dstX[i], dh = dstY[j + 1] - dstY[j]
                guard sw > 0, sh > 0, dw > 0, dh > 0 else { continue }
                let sx = dw / sw, sy = dh / sh
                let map = CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: dstX[i] - srcX[i] * sx, ty: dstY[j] - srcY[j] * sy)
                patches.append(Patch(destination: CGRect(x: dstX[i], y: dstY[j], width: dw, height: dh), imageToBounds: map))
            }
        }
        return patches
    }
}
