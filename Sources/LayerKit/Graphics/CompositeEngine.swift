/// The instruction set LayerKit's sampling kernels run on.
///
/// Every variant draws the same pixels, bit for bit. A process uses the fastest its CPU has,
/// chosen once, or the one the `LAYERKIT_KERNELS` environment variable names (`scalar`, `sse2`,
/// `avx2` or `avx512`) when the CPU has it. Tests and benchmarks force one for a block of code
/// with `Bitmap.withCompositeEngine(_:_:)`.
@_spi(Kernels) public enum KernelVariant: String, Hashable, Sendable, CaseIterable {
    /// One pixel at a time in portable C: every CPU, and the only variant off x86-64.
    case scalar
    /// Four pixels a step with SSE2, which every x86-64 CPU has.
    case sse2
    /// Eight pixels a step with AVX2 and its gathers.
    case avx2
    /// AVX2's kernels, but coverage over a known base (text at rest over a painter's
    /// background) through a palette, 64 pixels a step with AVX-512 VBMI's byte permutes.
    case avx512

    /// Whether this CPU can run the variant.
    public var isAvailable: Bool { Kernels.isAvailable(self) }

    /// The variant composites use unless one is forced: chosen once per process.
    public static var processDefault: KernelVariant { Kernels.processDefault }

    /// The variants this CPU can run.
    public static var available: [KernelVariant] { allCases.filter(\.isAvailable) }
}

/// What draws a composite through a turned, scaled or perspective map.
@_spi(Kernels) public enum CompositeEngine: Hashable, Sendable {
    /// LayerKit's kernels where they beat pixman (turned, mirrored and sheared maps, and
    /// perspective), in the process's variant; pixman for the rest (see `CompositePath`).
    case automatic
    /// The kernels in the given variant for every map they draw, scales along the axes included
    /// (an unavailable variant falls back to the process's).
    case kernels(KernelVariant)
    /// pixman's own fetchers for every affine map, for comparison. Perspective maps still go
    /// through the kernels: pixman 0.42's projective fetcher returns garbage left of and above
    /// some turned sources.
    case pixman
}

extension Bitmap {
    /// The engine of composites on the current task or thread (painting threads use `.automatic`).
    @TaskLocal static var compositeEngine: CompositeEngine = .automatic

    /// Runs `body` with every composite it makes on this task or thread drawn by `engine`.
    @_spi(Kernels) public static func withCompositeEngine<R>(_ engine: CompositeEngine, _ body: () throws -> R) rethrows -> R {
        try $compositeEngine.withValue(engine, operation: body)
    }
}
