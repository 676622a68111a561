import CKernels
import Foundation

/// A growable buffer of plain values, reused between fills and reached through a pointer in
/// the scan's loops (arrays there would pay for exclusivity and bounds checks per access).
final class ScratchBuffer<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var capacity: Int

    init() {
        capacity = 16
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    /// Room for `count` elements; the contents are lost when it grows.
    @discardableResult
    func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
        if count > capacity {
            base.deallocate()
            capacity = max(count, capacity * 2)
            base = .allocate(capacity: capacity)
        }
        return base
    }

    var bytes: Int { capacity * MemoryLayout<Element>.stride }
}

/// An edge cut to the rows of the area being scanned, in the area's coordinates: from `yTop`
/// to `yBottom`, x at `yTop` and its change per unit of y. The C struct, so that the cells'
/// kernel (`CellRow`) reads the edges where they are.
typealias ScanEdge = lk_scan_edge

extension ScanEdge {
    @inline(__always) func x(at y: Double) -> Double { xTop + (y - yTop) * slope }
}

/// A monotone chain cut to the rows of the area being scanned: edges `first..<end`, top to
/// bottom, each starting where the one before ends; `cursor` is the first edge that does not end
/// above the row being scanned; `direction` +1 when the outline runs down the chain, −1 when it
/// runs up. The C struct, so that the sweep's kernel (`lk_sweep_rows`) reads the chains where
/// they are.
typealias ScanChain = lk_scan_chain

/// The scan's buffers, and the preparation of a fill's chains for the sweep.
final class ScanScratch {
    let edges = ScratchBuffer<ScanEdge>()
    let chains = ScratchBuffer<ScanChain>()
    /// Chains in the order of the row where they start.
    let order = ScratchBuffer<Int32>()
    let rowStarts = ScratchBuffer<Int32>()
    /// The chains crossing the current row, kept in x order from row to row.
    let active = ScratchBuffer<Int32>()
    /// The chains spanning one band of a row that chains begin or end in.
    let band = ScratchBuffer<Int32>()
    /// Per chain of a band: x at its middle (the sort key), and its least and greatest x in it.
    let keys = ScratchBuffer<Double>()
    let lows = ScratchBuffer<Double>()
    let highs = ScratchBuffer<Double>()
    let cuts = ScratchBuffer<Double>()
    let accumulation = ScratchBuffer<Double>()
    /// One bit per cell of `accumulation`: whether it received area in the row being swept.
    let touched = ScratchBuffer<UInt64>()
    /// A row's coverage, one byte per pixel.
    let levels = ScratchBuffer<UInt8>()
    /// The chains a band adds.
    let pieces = ScratchBuffer<lk_chain_piece>()
    private(set) var chainCount = 0
    private(set) var edgeCount = 0

    var retainedBytes: Int {
        edges.bytes + chains.bytes + order.bytes + rowStarts.bytes + active.bytes + band.bytes + keys.bytes + lows.bytes
            + highs.bytes + cuts.bytes + accumulation.bytes + touched.bytes + levels.bytes + pieces.bytes
    }

    /// Keeps the parts of the chains that cross the area's rows, in the area's coordinates,
    /// ordered by the row where they start; sizes every buffer for the sweep.
    func prepare(edges input: UnsafeBufferPointer<EdgeChains.Edge>, chains inputChains: UnsafeBufferPointer<EdgeChains.Chain>,
                 area: PixelRect) {
        let width = area.width, height = area.height
        let ox = Double(area.x), oy = Double(area.y), h = Double(height)
        let kept = edges.reserve(input.count)
        let keptChains = chains.reserve(inputChains.count)
        var edgeCount = 0, count = 0
        for chain in inputChains {
            let first = edgeCount
            // A chain's edges run down, so those it keeps are consecutive.
            for i in chain.first..<chain.end {
                let e = input[i]
                let y0 = e.y0 - oy, y1 = e.y1 - oy
                guard y1 > 0, y0 < h else { continue }
                let top = max(y0, 0), bottom = min(y1, h)
                guard bottom > top else { continue }
                let x0 = e.x0 - ox, x1 = e.x1 - ox
                let slope = (x1 - x0) / (y1 - y0)
                // x at the cut from the nearer end, so that huge coordinates keep their precision.
                let xTop = top - y0 < y1 - top ? x0 + (top - y0) * slope : x1 - (y1 - top) * slope
                // Coordinates so far apart that their differences overflow (beyond ±8·10³⁰⁷)
                // have no slope: the chain ends before such an edge (no pixel can be right
                // there anyway), so that nothing downstream computes with infinities.
                guard slope.isFinite, xTop.isFinite else { break }
                kept[edgeCount] = ScanEdge(yTop: top, yBottom: bottom, xTop: xTop, slope: slope)
                edgeCount += 1
            }
            guard edgeCount > first else { continue }
            keptChains[count] = ScanChain(first: Int64(first), end: Int64(edgeCount), cursor: Int64(first), yTop: kept[first].yTop,
                                          yBottom: kept[edgeCount - 1].yBottom, direction: chain.direction)
            count += 1
        }
        chainCount = count
        self.edgeCount = edgeCount
        // Counting sort by first row.
        let starts = rowStarts.reserve(height + 1)
        starts.initialize(repeating: 0, count: height + 1)
        for i in 0..<count { starts[min(Int(keptChains[i].yTop), height - 1) + 1] += 1 }
        for r in 0..<height { starts[r + 1] += starts[r] }
        let sorted = order.reserve(count)
        for i in 0..<count {
            let r = min(Int(keptChains[i].yTop), height - 1)
            sorted[Int(starts[r])] = Int32(i)
            starts[r] += 1
        }
        active.reserve(count)
        band.reserve(count)
        keys.reserve(count)
        lows.reserve(count)
        highs.reserve(count)
        cuts.reserve(2 * count + 2)
        accumulation.reserve(width + 2).initialize(repeating: 0, count: width + 2)
        let words = (width + 2 + 63) / 64
        touched.reserve(words).initialize(repeating: 0, count: words)
        levels.reserve(width)
        pieces.reserve(count)
    }
}
