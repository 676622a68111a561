import Foundation

extension Homography {
    /// The on-screen outline of a rectangle of the plane, clipped to the part in front of the
    /// eye (w > `epsilon`).
    ///
    /// An affine map gives the four projected corners. Under perspective a rectangle that
    /// crosses the eye plane is cut along w = `epsilon` first (a quad cut by one plane keeps at
    /// most five corners); dividing by w before clipping would fold the part behind the eye onto
    /// the screen mirrored. Returns an empty array when nothing is in front, or when the input is
    /// not finite. Corners keep the rectangle's winding (min-x/min-y corner first, then
    /// clockwise on a y-down screen) unless the map mirrors it.
    public func projectedPolygon(of rect: CGRect, epsilon: CGFloat = Homography.defaultEpsilon) -> [CGPoint] {
        guard isFinite, rect.origin.x.isFinite, rect.origin.y.isFinite,
              rect.width.isFinite, rect.height.isFinite, !rect.isNull else { return [] }
        let r = rect.standardized
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
        let clipped = Self.clipInFront(corners.map(homogeneous), epsilon: epsilon)
        return clipped.map { CGPoint(x: $0.x / $0.w, y: $0.y / $0.w) }
    }

    /// The smallest rectangle holding the visible part of `rect`'s image, or nil when no part
    /// of it is in front of the eye.
    public func projectedBounds(of rect: CGRect, epsilon: CGFloat = Homography.defaultEpsilon) -> CGRect? {
        CGRect(boundingPoints: projectedPolygon(of: rect, epsilon: epsilon))
    }

    /// Sutherland–Hodgman against the single plane w = epsilon, in homogeneous coordinates,
    /// where the cut is linear.
    private static func clipInFront(_ polygon: [(x: CGFloat, y: CGFloat, w: CGFloat)],
                                    epsilon: CGFloat) -> [(x: CGFloat, y: CGFloat, w: CGFloat)] {
        var output: [(x: CGFloat, y: CGFloat, w: CGFloat)] = []
        output.reserveCapacity(polygon.count + 1)
        for (index, p) in polygon.enumerated() {
            let q = polygon[(index + 1) % polygon.count]
            let pIn = p.w > epsilon, qIn = q.w > epsilon
            if pIn { output.append(p) }
            if pIn != qIn {
                let t = (epsilon - p.w) / (q.w - p.w)
                output.append((p.x + t * (q.x - p.x), p.y + t * (q.y - p.y), epsilon))
            }
        }
        return output
    }
}

/// Bounding boxes of points.
extension CGRect {
    /// The smallest rectangle holding every point, or nil for no points or a non-finite one.
    public init?(boundingPoints points: [CGPoint]) {
        guard let first = points.first else { return nil }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points {
            guard p.x.isFinite, p.y.isFinite else { return nil }
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// The signed area of a polygon on a y-down screen: positive when its corners run clockwise
/// as seen on screen, negative when a transform has turned the plane's back to the viewer.
func signedArea(of polygon: [CGPoint]) -> CGFloat {
    guard polygon.count >= 3 else { return 0 }
    var twice: CGFloat = 0
    for (index, p) in polygon.enumerated() {
        let q = polygon[(index + 1) % polygon.count]
        twice += p.x * q.y - q.x * p.y
    }
    return twice / 2
}
