import Foundation

extension Layer {
    /// What a change to a layer makes stale: the set each property declares, and what
    /// `changed(_:)` receives.
    ///
    /// The renderer's caches follow it: a change that names only `compositing` needs no store
    /// rasterized again, one that names only `geometry` moves what is already rasterized.
    public struct Invalidation: OptionSet, Hashable, Sendable, CustomStringConvertible {
        /// The members as bits.
        public let rawValue: UInt8
        /// The set with the members whose bits are set in `rawValue`.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// The layer's backing store is rasterized again (background, border, contents, drawing,
        /// path, text, gradient), and with it a shadow cast from the layer's own pixels.
        public static let content = Invalidation(rawValue: 1 << 0)
        /// Where the layer and its subtree land: their transforms to the screen, bounds, clips and
        /// drawing order.
        public static let geometry = Invalidation(rawValue: 1 << 1)
        /// Only how the layer's output is blended: opacity, visibility, group opacity, replicator
        /// tints. Nothing moves and nothing is rasterized again.
        public static let compositing = Invalidation(rawValue: 1 << 2)
        /// The layer's shadow store (its color, opacity, offset, radius or path).
        public static let shadow = Invalidation(rawValue: 1 << 3)
        /// The layer's time space or animations: every animation in its subtree is evaluated
        /// anew.
        public static let timing = Invalidation(rawValue: 1 << 4)
        /// The structure below the layer: its sublayers, its mask, a replicator's instances.
        public static let sublayers = Invalidation(rawValue: 1 << 5)

        /// The names of the members, for messages.
        public var description: String {
            let names: [(Invalidation, String)] = [(.content, "content"), (.geometry, "geometry"),
                                                   (.compositing, "compositing"), (.shadow, "shadow"),
                                                   (.timing, "timing"), (.sublayers, "sublayers")]
            return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
        }
    }
}
