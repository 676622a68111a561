import Foundation

// Second names for the properties whose type the compatibility module (LayerKitQuartzCore)
// spells differently. That module declares `path` and `shadowPath` as `CGPath?`, which hides
// these `Path?` properties from files that import it, its own files included; it reaches
// LayerKit's through these names.

extension Layer {
    /// `shadowPath`, under a name the compatibility module does not hide.
    package var shadowPathValue: Path? {
        get { shadowPath }
        set { shadowPath = newValue }
    }
}

extension ShapeLayer {
    /// `path`, under a name the compatibility module does not hide.
    package var pathValue: Path? {
        get { path }
        set { path = newValue }
    }
}

extension KeyframeAnimation {
    /// `path`, under a name the compatibility module does not hide.
    package var pathValue: Path? {
        get { path }
        set { path = newValue }
    }
}
