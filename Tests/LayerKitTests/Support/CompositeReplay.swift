import LayerKit

extension Bitmap {
    /// A clear `width`×`height` bitmap with `composites` painted over it in order, each through
    /// the public compositing calls (a color's, a shadow's or text's, through the source's
    /// alpha): the frame a renderer's composite list (`Renderer.composites(for:at:width:height:)`)
    /// says it paints.
    static func replaying(_ composites: [Renderer.Composite], width: Int, height: Int) throws -> Bitmap {
        let replay = try Bitmap(width: width, height: height)
        for composite in composites {
            if let color = composite.color {
                try replay.composite(alphaOf: composite.source, color: color, transform: composite.transform,
                                     filter: composite.filter, clip: Region(composite.extent), opacity: composite.opacity)
            } else {
                try replay.composite(composite.source, transform: composite.transform, filter: composite.filter,
                                     clip: Region(composite.extent), opacity: composite.opacity)
            }
        }
        return replay
    }
}
