// Renders a sample frame with LayerKit: an analog clock face built from layers the Core
// Animation way (hands with anchorPoint (0.5, 1), shadows, 60 tick layers, a centre cap),
// its second hand turned by an explicit animation, rendered at an exact time.
// Usage: Sample [--output FILE.png] [--time HH:MM:SS] [--scale N]
import Foundation
import LayerKit

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("Sample: \(message)\nusage: Sample [--output FILE.png] [--time HH:MM:SS] [--scale N]\n".utf8))
    exit(2)
}

var output = "sample.png"
var seconds = 10 * 3600 + 8 * 60 + 30
var scale: CGFloat = 2
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--output", "-o":
        guard let path = arguments.popFirst() else { fail("--output needs a file name") }
        output = path
    case "--time":
        let parts = arguments.popFirst()?.split(separator: ":").compactMap { Int($0) } ?? []
        guard parts.count == 3, (0..<24).contains(parts[0]), (0..<60).contains(parts[1]), (0..<60).contains(parts[2]) else {
            fail("--time needs HH:MM:SS")
        }
        seconds = parts[0] * 3600 + parts[1] * 60 + parts[2]
    case "--scale":
        guard let value = arguments.popFirst().flatMap(Double.init), value > 0, value <= 8 else { fail("--scale needs a number in (0, 8]") }
        scale = CGFloat(value)
    case "--help", "-h":
        print("Sample renders a 240x240-point clock face built from layers to a PNG (default sample.png).")
        exit(0)
    default:
        fail("unknown argument '\(argument)'")
    }
}

/// A hand: a thin layer turning about the middle of its bottom edge, placed at the centre.
func hand(width: CGFloat, length: CGFloat, color: Color, in face: Layer) -> Layer {
    let layer = Layer()
    layer.bounds = CGRect(x: 0, y: 0, width: width, height: length)
    layer.anchorPoint = CGPoint(x: 0.5, y: 0.85)
    layer.position = CGPoint(x: 120, y: 120)
    layer.backgroundColor = color
    layer.cornerRadius = width / 2
    layer.shadowOpacity = 0.35
    layer.shadowOffset = CGSize(width: 1.5, height: 2.5)
    layer.shadowRadius = 2
    face.addSublayer(layer)
    return layer
}

do {
    let root = Layer()
    root.bounds = CGRect(x: 0, y: 0, width: 240, height: 240)
    root.backgroundColor = try Color(hex: "#1E2230")

    // The face is laid out on a 240-point grid and scaled to fit inside a 10-point margin.
    let face = Layer()
    face.bounds = CGRect(x: 0, y: 0, width: 240, height: 240)
    face.position = CGPoint(x: 120, y: 120)
    face.transform = Transform3D(scaleX: 220.0 / 240.0, y: 220.0 / 240.0)
    face.backgroundColor = try Color(hex: "#F7F4EC")
    face.cornerRadius = 120
    face.borderWidth = 4
    face.borderColor = try Color(hex: "#3A3F4B")
    root.addSublayer(face)

    for tick in 0..<60 {
        let major = tick % 5 == 0
        let mark = Layer()
        mark.bounds = CGRect(x: 0, y: 0, width: major ? 4 : 1.5, height: major ? 16 : 8)
        mark.anchorPoint = CGPoint(x: 0.5, y: 0)
        mark.position = CGPoint(x: 120, y: 120)
        mark.backgroundColor = try Color(hex: major ? "#2B2F3A" : "#8A8F99")
        // Each tick hangs from the rim: up 108 points, then turned into place.
        mark.transform = Transform3D(translationX: 0, y: -108)
            .concatenating(Transform3D(rotationAngle: CGFloat(tick) * .pi / 30, x: 0, y: 0, z: 1))
        face.addSublayer(mark)
    }

    let h = Double(seconds) / 3600, m = Double(seconds % 3600) / 60, s = Double(seconds % 60)
    let hourHand = hand(width: 7, length: 70, color: try Color(hex: "#2B2F3A"), in: face)
    hourHand.transform = Transform3D(rotationAngle: CGFloat(h / 12 * 2 * .pi), x: 0, y: 0, z: 1)
    let minuteHand = hand(width: 5, length: 100, color: try Color(hex: "#2B2F3A"), in: face)
    minuteHand.transform = Transform3D(rotationAngle: CGFloat(m / 60 * 2 * .pi), x: 0, y: 0, z: 1)
    let secondHand = hand(width: 2, length: 112, color: try Color(hex: "#D9432F"), in: face)
    // The second hand sweeps by an infinite 60 s animation, started so that at t = 0 it shows s.
    let sweep = BasicAnimation(keyPath: "transform.rotation.z")
    sweep.fromValue = 0.0
    sweep.toValue = 2 * Double.pi
    sweep.duration = 60
    sweep.repeatCount = .infinity
    sweep.beginTime = -s - 1e-9
    secondHand.add(sweep, forKey: "sweep")

    let cap = Layer()
    cap.bounds = CGRect(x: 0, y: 0, width: 12, height: 12)
    cap.position = CGPoint(x: 120, y: 120)
    cap.cornerRadius = 6
    cap.backgroundColor = try Color(hex: "#D9432F")
    face.addSublayer(cap)

    let frame = try Renderer(scale: scale).render(root, at: 0)
    try frame.writePNG(to: output)
    print("wrote \(output) (\(frame.width)x\(frame.height))")
} catch {
    FileHandle.standardError.write(Data("Sample: \(error)\n".utf8))
    exit(1)
}
