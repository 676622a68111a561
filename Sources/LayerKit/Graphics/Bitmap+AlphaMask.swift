import CKernels
import CPixman
import Foundation

extension Bitmap {
    /// Composites a solid color through a mask's coverage (over): each pixel gets `color`
    /// multiplied by the coverage there and by `opacity`, the mask's pixel coordinates mapped to
    /// this bitmap's by `transform`.
    ///
    /// The path is chosen as for bitmaps (`CompositePath`): whole-pixel offsets go to pixman's
    /// solid-through-A8 path, other maps to the kernels, which draw exactly what pixman draws
    /// with the mask as a transformed A8 mask. The opacity is folded into the color first (8
    /// bits, rounded as pixman multiplies), whichever path runs.
    ///
    /// - Throws: as `composite(_:operator:transform:filter:clip:opacity:)`.
    @_spi(Kernels) public func composite(_ mask: AlphaMask, color: Color, transform: Homography = .identity, filter: ImageFilter = .bilinear,
                   clip: Region? = nil, opacity: Double = 1) throws(BitmapError) {
        try composite(mask, color: color, transform: transform, filter: filter, clip: clip, opacity: opacity, pairs: true)
    }

    /// `composite(_:color:transform:filter:clip:opacity:)`; `pairs`: turned and scaled
    /// bilinear composites may sample the mask's vertical pairs (`AlphaMask.verticalPairs()`),
    /// which the painter declines for frames of more coverage than the cache holds. The pixels
    /// are the same either way. `window`: only its pixels change too, as if the clip were cut
    /// to it; the kernels take it as the part of the bitmap they write, which cuts the clip's
    /// boxes for free, where a region intersection per composite costs more than a small
    /// composite's set-up (other paths intersect).
    func composite(_ mask: AlphaMask, color: Color, transform: Homography, filter: ImageFilter, clip: Region?,
                   opacity: Double, pairs allowed: Bool, window: PixelRect? = nil) throws(BitmapError) {
        let kind = transform.kind
        let opacity8 = Self.opacity8(opacity), premultiplied = color.premultipliedARGB32
        let solid = Kernels.color(premultiplied, timesOpacity: opacity8)
        let path = CompositePath(transform, kind: kind, operator: .over, engine: Self.compositeEngine, coverage: true)
        // The kernels' own maps write only the window's pixels (their target is cut to it), which
        // cuts the clip's boxes as they are walked; every other path takes the clip cut to it.
        if let window, let clip {
            switch path {
            case let .kernel(variant):
                guard solid != 0, let (inverse, extent) = try transformedExtent(mask.bounds, transform, filter) else { return }
                let part = extent.intersection(window).intersection(clip.extents).intersection(bounds)
                guard !part.isEmpty else { return }
                try kernelComposite(mask, premultiplied, inverse: inverse, kind, transform, filter, opacity8, pairs: allowed,
                                    into: Kernels.Target(self, within: part), area: clip, variant: variant)
                return
            case let .kernelOffset(x, y, variant):
                let placed = PixelRect(x: x, y: y, width: mask.width, height: mask.height)
                let part = placed.intersection(window).intersection(clip.extents).intersection(bounds)
                guard solid != 0, !part.isEmpty else { return }
                withExtendedLifetime(mask) {
                    Kernels.composite(Kernels.Source(mask), color: premultiplied, into: Kernels.Target(self, within: part),
                                      map: .offset(x: x, y: y), filter: filter, opacity: opacity8, area: clip, variant: variant)
                }
                return
            default:
                break
            }
        }
        let clip = window.map { w in clip.map { $0.intersection(Region(w)) } ?? Region(w) } ?? clip
        switch path {
        case .none:
            throw .transformNotInvertible(transform)
        case let .pixmanCopy(x, y):
            let placed = PixelRect(x: x, y: y, width: mask.width, height: mask.height)
            guard solid != 0, let area = compositeArea(.over, sourceExtent: placed, clip: clip, opacity: 1) else { return }
            try compositeWithPixman(solid, mask, area: area, maskOffset: (-x, -y), mapped: nil)
        case let .kernelOffset(x, y, variant):
            let placed = PixelRect(x: x, y: y, width: mask.width, height: mask.height)
            guard solid != 0, let area = compositeArea(.over, sourceExtent: placed, clip: clip, opacity: 1) else { return }
            withExtendedLifetime(mask) {
                Kernels.composite(Kernels.Source(mask), color: premultiplied, into: Kernels.Target(self), map: .offset(x: x, y: y),
                                  filter: filter, opacity: opacity8, area: area, variant: variant)
            }
        case .pixman:
            guard solid != 0, let (inverse, area) = try transformedArea(mask.bounds, kind, transform, filter, .over, clip, 1)
            else { return }
            try compositeWithPixman(solid, mask, area: area, maskOffset: (0, 0), mapped: (inverse, filter, transform))
        case let .kernel(variant), let .kernelSamples(variant):
            guard solid != 0, let (inverse, area) = try transformedArea(mask.bounds, kind, transform, filter, .over, clip, 1)
            else { return }
            try kernelComposite(mask, premultiplied, inverse: inverse, kind, transform, filter, opacity8, pairs: allowed,
                          into: Kernels.Target(self), area: area, variant: variant)
        }
    }

    /// `composite(_:color:transform:filter:clip:opacity:)` of `mask` placed with its pixel (0, 0)
    /// at (`x`, `y`), within `window` and `clip`, where every pixel there that the mask covers
    /// holds `base`: the same pixels, each written (as `base` where the coverage is 0) and none
    /// read, so that a painter need not fill them with the base first. Drawn by the kernels in
    /// `variant` (nil: the process's).
    @_spi(Kernels) public func composite(_ mask: AlphaMask, color: Color, atX x: Int, y: Int, opacity: Double, onBase base: UInt32,
                                         clip: Region, window: PixelRect, variant: KernelVariant?) {
        let placed = PixelRect(x: x, y: y, width: mask.width, height: mask.height)
        let part = placed.intersection(window).intersection(clip.extents).intersection(bounds)
        guard !part.isEmpty else { return }
        withExtendedLifetime(mask) {
            Kernels.composite(Kernels.Source(mask), color: color.premultipliedARGB32, opacity: Self.opacity8(opacity), onBase: base,
                              into: Kernels.Target(self, within: part), atX: x, y: y, area: clip, variant: variant)
        }
    }

    /// The kernels' composite of `premultiplied` through `mask` mapped by `transform` (whose
    /// inverse is `inverse`) into `target`, over `area`. Affine bilinear rows read each pixel's
    /// 2x2 texels from the mask's vertical pairs in one load, when `allowed`.
    private func kernelComposite(_ mask: AlphaMask, _ premultiplied: UInt32, inverse: Homography, _ kind: TransformKind,
                           _ transform: Homography, _ filter: ImageFilter, _ opacity8: UInt8, pairs allowed: Bool,
                           into target: Kernels.Target, area: Region, variant: KernelVariant?) throws(BitmapError) {
        let map = try Self.kernelMap(inverse, kind, transform)
        var pairs = false
        if allowed, case .affine = map, filter == .bilinear { pairs = true }
        var source = Kernels.Source(mask, pairs: pairs)
        // A turned mask's border is peeled once per change of its pixels, at the level this
        // color draws as nothing.
        if case .affine = map {
            let faint = lk_faint_coverage(Kernels.color(premultiplied, timesOpacity: opacity8))
            source.notClear = (mask.notClearBox(faint: faint), faint)
        }
        withExtendedLifetime(mask) {
            Kernels.composite(source, color: premultiplied, into: target, map: map, filter: filter,
                              opacity: opacity8, area: area, variant: variant)
        }
    }

    /// Composites a solid color through `source`'s alpha channel (over): each pixel gets `color`
    /// times the alpha sampled there and times `opacity` — the way a shadow is drawn from its
    /// blurred coverage (see `Renderer.Composite.color`). Exactly what drawing the same alpha as
    /// an 8-bit coverage mask gives, whichever path the transform takes.
    ///
    /// - Throws: as `composite(_:operator:transform:filter:clip:opacity:)`.
    public func composite(alphaOf source: Bitmap, color: Color, transform: Homography = .identity,
                          filter: ImageFilter = .bilinear, clip: Region? = nil, opacity: Double = 1) throws(BitmapError) {
        checkNotBeingPainted()
        let mask = try AlphaMask(width: source.width, height: source.height)
        source.withUnsafePixels { pixels in
            mask.withUnsafeMutableBytes { bytes in
                for y in 0..<source.height {
                    for x in 0..<source.width { bytes[y * mask.bytesPerRow + x] = UInt8(pixels[y * source.width + x] >> 24) }
                }
            }
        }
        try composite(mask, color: color, transform: transform, filter: filter, clip: clip, opacity: opacity)
    }

    /// pixman's composite of a solid color through an A8 mask image, placed by an offset or
    /// `mapped` by an affine map.
    private func compositeWithPixman(_ solid: UInt32, _ mask: AlphaMask, area: Region, maskOffset: (x: Int, y: Int),
                                     mapped: (inverse: Homography, filter: ImageFilter, transform: Homography)?)
        throws(BitmapError) {
        var pixmanColor = Self.pixmanColor(premultiplied: solid)
        guard let source = pixman_image_create_solid_fill(&pixmanColor) else { return }
        defer { pixman_image_unref(source) }
        let maskImage = mask.makeMaskImage()
        defer { pixman_image_unref(maskImage) }
        if let mapped { try Self.setTransform(mapped.inverse, mapped.filter, of: maskImage, for: mapped.transform) }
        withExtendedLifetime(mask) {
            compositeOnce(PIXMAN_OP_OVER, source, maskImage, over: area, sourceOffset: (0, 0), maskOffset: maskOffset)
        }
    }
}
