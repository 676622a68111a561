import Foundation

/// Edges in device pixels, gathered as they are added into y-monotone chains: runs of edges
/// that continue one another in the same vertical direction (an outline between two of its
/// turning points in y). A value type, so that adding a polygon's edges is one access to it.
struct EdgeChains {
    /// An edge in device pixels, top to bottom.
    struct Edge {
        var x0: Double, y0: Double, x1: Double, y1: Double
    }

    /// Edges `first..<end`, top to bottom, each starting where the one before it ends: a piece
    /// of an outline that runs down (+1) or up (−1) all along.
    struct Chain {
        var first: Int, end: Int
        var direction: Double
    }

    private(set) var edges: [Edge] = []
    private(set) var chains: [Chain] = []
    /// The chain being extended: where its edges start, its direction (0 when none is open),
    /// and the point its last edge ended at.
    private var openFirst = 0, openDirection = 0.0, openEnd = CGPoint.zero
    private var box = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)

    /// Forgets every edge, keeping the buffers.
    mutating func reset() {
        edges.removeAll(keepingCapacity: true)
        chains.removeAll(keepingCapacity: true)
        openDirection = 0
        box = (.infinity, .infinity, -.infinity, -.infinity)
    }

    /// The chains, the open one included.
    var chainCount: Int { chains.count + (openDirection != 0 ? 1 : 0) }

    /// The smallest rectangle holding every edge (nil when there are none).
    var boundingBox: CGRect? {
        guard box.minX <= box.maxX, box.minY <= box.maxY else { return nil }
        return CGRect(x: box.minX, y: box.minY, width: box.maxX - box.minX, height: box.maxY - box.minY)
    }

    var retainedBytes: Int {
        edges.capacity * MemoryLayout<Edge>.stride + chains.capacity * MemoryLayout<Chain>.stride
    }

    /// Adds a polygon (closed implicitly). Points must be finite.
    mutating func addPolygon(_ points: UnsafeBufferPointer<CGPoint>) {
        let n = points.count
        guard n >= 2 else { return }
        // Start at a vertex where the outline turns in y (or meets a horizontal edge), so that
        // the chain running through the polygon's first point is not cut there.
        var start = 0
        var incoming = Self.direction(from: points[n - 1], to: points[0])
        for i in 0..<n {
            let outgoing = Self.direction(from: points[i], to: points[i + 1 < n ? i + 1 : 0])
            if outgoing != incoming || outgoing == 0 {
                start = i
                break
            }
            incoming = outgoing
        }
        closeChain()
        var previous = points[start]
        for k in 1...n {
            var i = start + k
            if i >= n { i -= n }
            let p = points[i]
            addEdge(from: previous, to: p)
            previous = p
        }
        closeChain()
    }

    /// +1 down, −1 up, 0 level (or no move at all).
    private static func direction(from a: CGPoint, to b: CGPoint) -> Int {
        a.y < b.y ? 1 : a.y > b.y ? -1 : 0
    }

    /// Adds one edge. Points must be finite. An edge continuing the open chain in its
    /// direction joins it.
    @inline(__always) mutating func addEdge(from a: CGPoint, to b: CGPoint) {
        box.minX = min(box.minX, a.x, b.x); box.maxX = max(box.maxX, a.x, b.x)
        box.minY = min(box.minY, a.y, b.y); box.maxY = max(box.maxY, a.y, b.y)
        guard a.y != b.y else {
            // A level edge adds no area; a chain stops at it (its x would jump there).
            if a.x != b.x { closeChain() }
            return
        }
        let direction: Double = a.y < b.y ? 1 : -1
        if direction != openDirection || a != openEnd {
            closeChain()
            openFirst = edges.count
            openDirection = direction
        }
        edges.append(a.y < b.y ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y) : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y))
        openEnd = b
    }

    /// Ends the open chain, its edges put top to bottom.
    mutating func closeChain() {
        guard openDirection != 0 else { return }
        if openDirection < 0 {
            // In place: reversing `edges[openFirst...]`, an ArraySlice, copied the slice to a new
            // buffer (and freed it) most times.
            let first = openFirst
            edges.withUnsafeMutableBufferPointer { $0[first...].reverse() }
        }
        chains.append(Chain(first: openFirst, end: edges.count, direction: openDirection))
        openDirection = 0
    }
}
