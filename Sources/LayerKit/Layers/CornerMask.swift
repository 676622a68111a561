import Foundation

/// Which corners `cornerRadius` rounds (Core Animation's CACornerMask). In LayerKit's y-down
/// space MinY is the top: `layerMinXMinYCorner` is the top-left corner.
public struct CornerMask: OptionSet, Hashable, Sendable {
    /// The corners as bits.
    public let rawValue: UInt
    /// The corners whose bits are set in `rawValue`.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Top-left.
    public static let layerMinXMinYCorner = CornerMask(rawValue: 1 << 0)
    /// Top-right.
    public static let layerMaxXMinYCorner = CornerMask(rawValue: 1 << 1)
    /// Bottom-left.
    public static let layerMinXMaxYCorner = CornerMask(rawValue: 1 << 2)
    /// Bottom-right.
    public static let layerMaxXMaxYCorner = CornerMask(rawValue: 1 << 3)
    /// All four (the default).
    public static let all: CornerMask = [.layerMinXMinYCorner, .layerMaxXMinYCorner, .layerMinXMaxYCorner, .layerMaxXMaxYCorner]
}
