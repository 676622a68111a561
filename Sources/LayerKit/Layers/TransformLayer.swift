import Foundation

/// A layer that keeps its sublayers in 3D instead of flattening them into its plane, so that
/// cubes and page flips can be built from separate planes (Core Animation's CATransformLayer).
///
/// It draws nothing of its own — no background, contents, border, shadow, mask or clip — and
/// its opacity applies to each sublayer separately. Its sublayers are drawn back to front by
/// depth.
open class TransformLayer: Layer {}
