import Foundation

extension Layer {
    /// Marks the layer's drawn content as stale: `display()` runs before the next frame that
    /// shows it.
    public func setNeedsDisplay() {
        needsDisplay = true
        changed(.content)
    }

    /// Runs `display()` now if the content is stale.
    public func displayIfNeeded() {
        guard needsDisplay else { return }
        needsDisplay = false
        display()
    }
}
