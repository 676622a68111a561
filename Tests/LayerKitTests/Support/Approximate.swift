import Foundation
@testable import LayerKit

/// Whether two numbers agree to within `tolerance`.
func close(_ a: CGFloat, _ b: CGFloat, _ tolerance: CGFloat = 1e-9) -> Bool { abs(a - b) <= tolerance }

/// Whether two transforms agree field by field to within `tolerance`.
func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: CGFloat = 1e-9) -> Bool {
    zip(a.rows.joined(), b.rows.joined()).allSatisfy { close($0, $1, tolerance) }
}

/// Whether two points agree to within `tolerance`.
func close(_ a: CGPoint?, _ b: CGPoint, _ tolerance: CGFloat = 1e-9) -> Bool {
    guard let a else { return false }
    return close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance)
}

/// Whether two rectangles agree in origin and size to within `tolerance`.
func close(_ a: CGRect, _ b: CGRect, _ tolerance: CGFloat = 1e-9) -> Bool {
    close(a.minX, b.minX, tolerance) && close(a.minY, b.minY, tolerance)
        && close(a.width, b.width, tolerance) && close(a.height, b.height, tolerance)
}

/// A transform from sixteen values in DOMMatrix / `matrix3d()` order, which is the same
/// layout as Core Animation's m11, m12, … m44.
func matrix3d(_ v: [CGFloat]) -> Transform3D {
    precondition(v.count == 16)
    return Transform3D(rows: [Array(v[0..<4]), Array(v[4..<8]), Array(v[8..<12]), Array(v[12..<16])])
}
