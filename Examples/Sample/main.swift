// Renders a sample frame with LayerKit's foundation: bitmaps composited through integer,
// affine and perspective transforms. Usage: Sample [--output FILE.png]
import Foundation
import LayerKit

func usage() -> Never {
    FileHandle.standardError.write(Data("usage: Sample [--output FILE.png]\n".utf8))
    exit(2)
}

var output = "sample.png"
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--output", "-o":
        guard let path = arguments.popFirst() else { usage() }
        output = path
    case "--help", "-h":
        print("Sample renders a 640x360 test frame to a PNG (default sample.png).")
        exit(0)
    default:
        FileHandle.standardError.write(Data("Sample: unknown argument '\(argument)'\n".utf8))
        usage()
    }
}

/// A card: a colored square with a lighter border, as a layer's backing store would hold it.
func card(_ color: Color, size: Int) throws -> Bitmap {
    let bitmap = try Bitmap(width: size, height: size, color: color.withAlphaComponent(0.9))
    let inset = size / 8
    bitmap.fill(PixelRect(x: inset, y: inset, width: size - 2 * inset, height: size - 2 * inset),
                with: Color(white: 1, alpha: 0.35))
    return bitmap
}

do {
    let frame = try Bitmap(width: 640, height: 360, color: try Color(hex: "#1E2230"))
    let size = 120
    let colors = [try Color(hex: "#E4572E"), try Color(hex: "#29335C"), try Color(hex: "#F3A712"),
                  try Color(hex: "#669BBC")]
    let center = Transform3D(translationX: -CGFloat(size) / 2, y: -CGFloat(size) / 2)

    // Whole-pixel placement: copied without filtering.
    frame.composite(try card(colors[0], size: size), atX: 40, y: 120)

    // Affine: turned 30° clockwise about its centre.
    let turned = center.rotated(by: 0, x: 0, y: 0, z: 1)
        .concatenating(Transform3D(rotationAngle: .pi / 6, x: 0, y: 0, z: 1))
        .concatenating(Transform3D(translationX: 250, y: 180))
    try frame.composite(try card(colors[1], size: size), transform: Homography(turned))

    // Perspective: tilted 50° back about its horizontal axis, seen from 400 points away.
    var perspective = Transform3D.identity
    perspective.m34 = -1 / 400
    let tilted = center
        .concatenating(Transform3D(rotationAngle: 50 * .pi / 180, x: 1, y: 0, z: 0))
        .concatenating(perspective)
        .concatenating(Transform3D(translationX: 420, y: 180))
    try frame.composite(try card(colors[2], size: size), transform: Homography(tilted))

    // Half opacity, scaled up 1.3x, overlapping the perspective card.
    let scaled = center.concatenating(Transform3D(scaleX: 1.3, y: 1.3))
        .concatenating(Transform3D(translationX: 560, y: 180))
    try frame.composite(try card(colors[3], size: size), transform: Homography(scaled), opacity: 0.5)

    try frame.writePNG(to: output)
    print("wrote \(output) (\(frame.width)x\(frame.height))")
} catch {
    FileHandle.standardError.write(Data("Sample: \(error)\n".utf8))
    exit(1)
}
