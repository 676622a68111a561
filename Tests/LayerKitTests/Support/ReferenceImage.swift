import Foundation
import Testing
@testable import LayerKit

/// Compares a rendered frame with a reference PNG kept beside the tests
/// (Tests/LayerKitTests/Render/References/NAME.png).
///
/// Two 8-bit channel values may differ by `tolerance`; more than that on any sample fails the
/// test, which then writes NAME-actual.png and NAME-diff.png (differences amplified, on black)
/// to a temporary folder and says where. With LAYERKIT_RECORD_REFERENCES=1 in the environment
/// the frame is written as the new reference instead (look at it before committing it).
func expectMatchesReference(_ frame: Bitmap, named name: String, tolerance: Int = 2,
                            sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Render/References")
    let reference = folder.appendingPathComponent(name + ".png")
    if ProcessInfo.processInfo.environment["LAYERKIT_RECORD_REFERENCES"] == "1" {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try frame.writePNG(to: reference.path)
        return
    }
    guard FileManager.default.fileExists(atPath: reference.path) else {
        Issue.record("no reference image \(reference.path); run with LAYERKIT_RECORD_REFERENCES=1 to record it",
                     sourceLocation: sourceLocation)
        return
    }
    let expected = try Bitmap(pngAt: reference.path)
    guard expected.width == frame.width, expected.height == frame.height else {
        Issue.record("\(name): frame is \(frame.width)x\(frame.height), reference \(expected.width)x\(expected.height)",
                     sourceLocation: sourceLocation)
        return
    }
    let diff = try Bitmap(width: frame.width, height: frame.height, color: .black)
    var worst = 0, failing = 0
    for y in 0..<frame.height {
        for x in 0..<frame.width {
            let a = frame.premultipliedPixel(x: x, y: y), b = expected.premultipliedPixel(x: x, y: y)
            var pixelWorst = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                pixelWorst = max(pixelWorst, abs(Int(a >> UInt32(shift) & 0xFF) - Int(b >> UInt32(shift) & 0xFF)))
            }
            worst = max(worst, pixelWorst)
            if pixelWorst > tolerance {
                failing += 1
                let v = UInt8(min(255, 64 + pixelWorst * 4))
                diff.setPixel(x: x, y: y, to: Color(red8: v, green8: 0, blue8: 0))
            }
        }
    }
    if failing > 0 {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-reference-failures")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try frame.writePNG(to: out.appendingPathComponent(name + "-actual.png").path)
        try diff.writePNG(to: out.appendingPathComponent(name + "-diff.png").path)
        Issue.record("\(name): \(failing) pixels differ by more than \(tolerance) (worst \(worst)); actual and diff in \(out.path)",
                     sourceLocation: sourceLocation)
    }
}
