import Foundation
import LayerKit

/// The scenes of the scaling tables: what a frame costs as one thing grows (damaged area, layers
/// at rest), measured with LayerKit alone.
extension Scenes {
    static let scalingOnly = "a scaling scene: LayerKit's cost against itself"

    /// An opaque full-frame backdrop with one opaque rectangle covering `fraction` of the frame,
    /// moved a pixel every frame: the damage is that rectangle (and its 1 px trail).
    public static func damagedArea(_ fraction: Double, width: Int, height: Int) -> Scene {
        let root = backdrop(width: width, height: height)
        let picture = Layer()
        picture.frame = CGRect(x: 0, y: 0, width: width, height: height)
        picture.contents = backdropImage(width: width, height: height)
        root.addSublayer(picture)
        let side = fraction.squareRoot()
        let mover = Layer()
        mover.frame = CGRect(x: 0, y: 0, width: CGFloat(Double(width) * side).rounded(),
                             height: CGFloat(Double(height) * side).rounded())
        mover.backgroundColor = Color(red: 0.85, green: 0.26, blue: 0.18)
        root.addSublayer(mover)
        let origin = CGPoint(x: CGFloat(width) / 2 - mover.bounds.width / 2, y: CGFloat(height) / 2 - mover.bounds.height / 2)
        return Scene(
            name: String(format: "damage %g%%", fraction * 100), width: width, height: height, root: root,
            mode: .damage, times: [0, 0],
            prepare: { frame in
                Transaction.perform(disableActions: true) {
                    mover.frame.origin = CGPoint(x: origin.x + CGFloat(frame % 2), y: origin.y)
                }
            },
            cairo: .unsupported(scalingOnly))
    }

    /// `count` small layers at rest — half solid colours, half sprite images, 16 to 32 points,
    /// at random (fractional) places, not turned — in one container, and three 96-point rounded
    /// squares above them moving 3 points a frame. Rendered through damage, a frame should cost
    /// what the three moved through, whatever `count` is (the goal is flat in `count`). At
    /// 10,000 the layers at rest cover the frame about three deep.
    public static func staticLayers(_ count: Int, width: Int, height: Int) -> Scene {
        let root = backdrop(width: width, height: height)
        let still = Layer()
        still.frame = root.bounds
        root.addSublayer(still)
        let sprites = spriteImages()
        var random = SplitMix(seed: 0x5747_1C00 &+ UInt64(count))
        for i in 0..<count {
            let layer = Layer()
            let side = random.uniform(16...32)
            layer.frame = CGRect(x: random.uniform(0...CGFloat(width) - side), y: random.uniform(0...CGFloat(height) - side),
                                 width: side, height: side)
            if i % 2 == 0 {
                layer.backgroundColor = Color(red: Double(random.unit()), green: Double(random.unit()), blue: Double(random.unit()))
            } else {
                layer.contents = sprites[(i / 2) % sprites.count]
            }
            still.addSublayer(layer)
        }
        let colors = [Color(red: 0.85, green: 0.26, blue: 0.18), Color(red: 0.2, green: 0.6, blue: 0.95), Color(red: 0.95, green: 0.8, blue: 0.3)]
        let movers = colors.map { color in
            let mover = Layer()
            mover.bounds = CGRect(x: 0, y: 0, width: 96, height: 96)
            mover.cornerRadius = 16
            mover.backgroundColor = color
            root.addSublayer(mover)
            return mover
        }
        // Each on its own ellipse about the middle, 3 points of arc a frame.
        let middle = CGPoint(x: CGFloat(width) / 2, y: CGFloat(height) / 2)
        let reach = CGSize(width: CGFloat(width) * 0.35, height: CGFloat(height) * 0.3)
        let place = { (frame: Int) in
            Transaction.perform(disableActions: true) {
                for (k, mover) in movers.enumerated() {
                    let scale = CGFloat(k + 2) / 4
                    let angle = CGFloat(frame) * 3 / (reach.width * scale) + CGFloat(k) * 2.1
                    mover.position = CGPoint(x: middle.x + cos(angle) * reach.width * scale, y: middle.y + sin(angle) * reach.height * scale)
                }
            }
        }
        place(0)
        return Scene(name: "\(count) at rest + 3 moving", width: width, height: height, root: root, mode: .damage,
                     times: [0], prepare: place, cairo: .unsupported(scalingOnly))
    }
}
