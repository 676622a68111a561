/// How a composite through a homography reaches its pixels: chosen here, from the transform's
/// kind, the operator and the engine, and nowhere else.
///
/// pixman copies whole-pixel offsets (unfiltered, far cheaper than any sampling), scales along
/// the axes with its SSE2 scaled paths (about 2 ns a pixel) and does every operator; its general
/// affine fetcher costs about 13 ns a pixel, which LayerKit's kernels (`Kernels`) beat several
/// times over with the same pixels; and its projective fetcher is wrong for some maps, so
/// perspective always goes through the kernels.
enum CompositePath: Hashable {
    /// Nothing can be drawn: a singular or non-finite map.
    case none
    /// pixman copies whole pixels to this offset.
    case pixmanCopy(x: Int, y: Int)
    /// The kernels draw a bitmap, or a color through coverage, placed at this whole-pixel offset,
    /// over (pixman's over_8888_8888 and over_n_8_8888, with clear steps skipped eight pixels at
    /// a time).
    case kernelOffset(x: Int, y: Int, KernelVariant?)
    /// pixman samples through its fixed-point affine transform (operators the kernels lack, or
    /// pixman forced for comparison).
    case pixman
    /// The kernels sample and combine (over and source), in the given variant or the process's.
    case kernel(KernelVariant?)
    /// The kernels sample into scratch rows and pixman combines those with the operator:
    /// perspective with an operator the kernels lack.
    case kernelSamples(KernelVariant?)

    /// The path for a composite through `transform`, whose kind the caller has found, of a
    /// bitmap or (`coverage`) of a solid color through an 8-bit coverage mask. pixman's SSE2
    /// scaled paths are for bitmaps: a coverage mask under any map but a whole-pixel offset
    /// takes its general fetcher, so the kernels take every such map; and at whole-pixel
    /// offsets (text at rest) their AVX2 rows do twice pixman's SSE2 over_n_8_8888. Bitmaps at
    /// whole-pixel offsets go over through the kernels too (eight pixels a step where pixman's
    /// SSE2 over_8888_8888 takes four, a shape's store mostly); pixman copies them for `.source`
    /// and the other operators.
    init(_ transform: Homography, kind: TransformKind, operator op: CompositeOperator, engine: CompositeEngine,
         coverage: Bool = false) {
        let variant: KernelVariant?
        switch engine {
        case .automatic: variant = nil
        case let .kernels(v): variant = v
        case .pixman: variant = nil
        }
        let kernelsCombine = op == .over || op == .source
        switch kind {
        case .degenerate:
            self = .none
        case let .integerTranslation(x, y):
            self = op == .over && engine != .pixman ? .kernelOffset(x: x, y: y, variant) : .pixmanCopy(x: x, y: y)
        case .affine:
            // Forced kernels take scales too, so that they can be compared with pixman's paths.
            let pixmanIsFaster = engine == .automatic && !coverage && transform.isForwardAxisScale
            self = engine == .pixman || !kernelsCombine || pixmanIsFaster ? .pixman : .kernel(variant)
        case .projective:
            self = kernelsCombine ? .kernel(variant) : .kernelSamples(variant)
        }
    }
}
