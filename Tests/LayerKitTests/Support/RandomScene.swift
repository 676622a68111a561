import Foundation
@testable import LayerKit

/// A small deterministic random generator (SplitMix64), so that a failing sequence can be
/// replayed from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Identical twin layer trees built and changed by the same random sequence: one twin can be
/// rendered from scratch every frame while the others are rendered incrementally, and every
/// frame compared bit for bit.
///
/// Each twin keeps its layers in creation order, so a change picks "layer i" in every twin.
/// Every layer kind appears (plain, shape, text, gradient, replicator, transform layer, masks,
/// contents images), and changes cover geometry, appearance, structure and animations.
final class RandomScene {
    let width: CGFloat, height: CGFloat
    private(set) var twins: [[Layer]]
    private var rng: SeededGenerator
    private let image: Image

    var roots: [Layer] { twins.map { $0[0] } }

    init(seed: UInt64, twins count: Int, width: CGFloat = 120, height: CGFloat = 90, layers: Int = 14) throws {
        self.width = width
        self.height = height
        rng = SeededGenerator(seed: seed)
        let pattern = try Bitmap(width: 9, height: 7)
        for y in 0..<7 { for x in 0..<9 { pattern.setPixel(x: x, y: y, to: Color(red8: UInt8(x * 28), green8: UInt8(y * 36), blue8: 200, alpha8: 230)) } }
        image = Image(adopting: pattern)
        twins = (0..<count).map { _ in
            let root = Layer()
            root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.16)
            return [root]
        }
        Transaction.perform(disableActions: true) {
            for _ in 0..<layers { addLayer() }
        }
    }

    // MARK: Random values

    private func unit() -> CGFloat { CGFloat.random(in: 0...1, using: &rng) }
    private func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &rng) }
    private func chance(_ p: CGFloat) -> Bool { unit() < p }
    private func color() -> Color {
        Color(red: Double(unit()), green: Double(unit()), blue: Double(unit()), alpha: chance(0.7) ? 1 : Double(0.3 + unit() * 0.7))
    }
    private func point() -> CGPoint { CGPoint(x: (unit() * 1.2 - 0.1) * width, y: (unit() * 1.2 - 0.1) * height) }
    private func size() -> CGSize { CGSize(width: 4 + unit() * 50, height: 4 + unit() * 40) }
    private func path(in size: CGSize) -> Path {
        var path = Path()
        path.move(to: CGPoint(x: unit() * size.width, y: unit() * size.height))
        for _ in 0..<int(1..<4) {
            if chance(0.5) {
                path.addLine(to: CGPoint(x: unit() * size.width, y: unit() * size.height))
            } else {
                path.addQuadCurve(to: CGPoint(x: unit() * size.width, y: unit() * size.height),
                                  control: CGPoint(x: unit() * size.width, y: unit() * size.height))
            }
        }
        if chance(0.5) { path.closeSubpath() }
        return path
    }

    /// Applies the same change to layer `index` of every twin.
    private func each(_ index: Int, _ change: (Layer) -> Void) {
        for twin in twins { change(twin[index]) }
    }

    // MARK: Building

    /// Adds a layer of a random kind under a random existing layer.
    func addLayer() {
        let kind = int(0..<7)
        let parent = int(0..<twins[0].count)
        let s = size(), p = point()
        let fill = color(), stroke = color(), path = self.path(in: s)
        let text = ["12", "7:30", "AB", "x"][int(0..<4)]
        let flag = chance(0.5)
        let instances = int(1..<4)
        let angle = unit() * .pi / 2
        for i in twins.indices {
            let layer: Layer
            switch kind {
            case 1:
                let shape = ShapeLayer()
                shape.path = path
                shape.fillColor = flag ? fill : nil
                shape.strokeColor = stroke
                shape.lineWidth = 2
                layer = shape
            case 2:
                let label = TextLayer()
                label.string = text
                label.fontSize = 11
                label.foregroundColor = fill
                layer = label
            case 3:
                let gradient = GradientLayer()
                gradient.colors = [fill, stroke]
                gradient.type = flag ? .axial : .radial
                layer = gradient
            case 4:
                let replicator = ReplicatorLayer()
                replicator.instanceCount = instances
                replicator.instanceTransform = Transform3D(translationX: 6, y: 3)
                replicator.instanceColor = flag ? Color(red: 1, green: 0.8, blue: 0.8) : .white
                layer = replicator
            case 5:
                layer = TransformLayer()
                var perspective = Transform3D.identity
                perspective.m34 = -1 / 200
                layer.sublayerTransform = perspective
                layer.transform = Transform3D(rotationAngle: angle / 2, x: 0, y: 1, z: 0)
            case 6:
                layer = Layer()
                layer.contents = image
                layer.contentsGravity = flag ? .resize : .center
            default:
                layer = Layer()
                layer.backgroundColor = fill
                layer.cornerRadius = flag ? 5 : 0
            }
            layer.bounds = CGRect(origin: .zero, size: s)
            layer.position = p
            twins[i][parent].addSublayer(layer)
            twins[i].append(layer)
        }
    }

    /// One random change: geometry, appearance, structure or an animation, inside a transaction
    /// that sometimes lets implicit animations run.
    func change() {
        let index = int(1..<twins[0].count)
        let layer = twins[0][index]
        let actions = chance(0.3)
        Transaction.perform(disableActions: !actions) {
            switch int(0..<22) {
            case 0: let p = point(); each(index) { $0.position = p }
            case 1: let d = CGFloat(int(-3..<4)); each(index) { $0.position.x += d }
            case 2: let s = size(); each(index) { $0.bounds.size = s }
            case 3: let a = unit() * 2 * .pi; each(index) { $0.transform = Transform3D(rotationAngle: a, x: 0, y: 0, z: 1) }
            case 4:
                let a = unit() * 1.2
                each(index) {
                    var t = Transform3D(rotationAngle: a, x: 0, y: 1, z: 0)
                    t.m34 = -1 / 150
                    $0.transform = t
                }
            case 5: let o = Float(unit()); each(index) { $0.opacity = o }
            case 6: each(index) { $0.isHidden.toggle() }
            case 7: let c = color(); each(index) { $0.backgroundColor = c }
            case 8: let w = CGFloat(int(0..<4)), c = color(); each(index) { $0.borderWidth = w; $0.borderColor = c }
            case 9: each(index) { $0.masksToBounds.toggle() }
            case 10:
                let o = Float(unit()), r = unit() * 4, off = CGSize(width: unit() * 4, height: unit() * 4)
                each(index) { $0.shadowOpacity = o; $0.shadowRadius = r; $0.shadowOffset = off }
            case 11: let z = CGFloat(int(-2..<3)); each(index) { $0.zPosition = z }
            case 12: each(index) { $0.shouldRasterize.toggle() }
            case 13: let r = unit() * 10; each(index) { $0.cornerRadius = r; $0.isDoubleSided.toggle() }
            case 14:
                if layer is ShapeLayer {
                    let path = path(in: layer.bounds.size), end = unit()
                    each(index) { ($0 as? ShapeLayer)?.path = path; ($0 as? ShapeLayer)?.strokeEnd = end }
                } else if layer is TextLayer {
                    let text = String(int(0..<10_000))
                    each(index) { ($0 as? TextLayer)?.string = text }
                } else if layer is ReplicatorLayer {
                    let n = int(0..<4)
                    each(index) { ($0 as? ReplicatorLayer)?.instanceCount = n }
                } else {
                    let a = unit()
                    each(index) { $0.anchorPoint = CGPoint(x: a, y: 1 - a) }
                }
            case 15: addLayer()
            case 16: each(index) { $0.removeFromSuperlayer() }
            case 17:
                // Move under another layer that is not in its own subtree.
                let target = int(0..<twins[0].count)
                guard !layer.isAncestor(of: twins[0][target]) else { return }
                each(index) { moved in
                    let twin = twins.first { $0[index] === moved }!
                    twin[target].addSublayer(moved)
                }
            case 18:
                if layer.mask == nil {
                    let s = size(), p = point()
                    each(index) {
                        let mask = ShapeLayer()
                        mask.bounds = CGRect(origin: .zero, size: s)
                        mask.position = p
                        mask.path = Path(ellipseIn: CGRect(origin: .zero, size: s))
                        $0.mask = mask
                    }
                } else {
                    each(index) { $0.mask = nil }
                }
            case 19, 20:
                let keyPath = ["position.x", "opacity", "transform.rotation.z", "backgroundColor", "bounds.size.width",
                               "transform.rotation.y"][int(0..<6)]
                let duration = [0.2, 0.5, 1.5][int(0..<3)]
                let repeats = chance(0.5) ? Float.infinity : Float(int(1..<3))
                let forwards = chance(0.3), removed = chance(0.7), reverses = chance(0.3)
                let from: Any, to: Any
                switch keyPath {
                case "opacity": from = chance(0.4) ? 0.0 : Double(unit()); to = Double(unit())
                case "transform.rotation.y": from = 0.0; to = Double.pi
                case "backgroundColor": from = color(); to = color()
                case "transform.rotation.z": from = 0.0; to = Double(unit() * 6)
                default: from = Double(unit() * 40); to = Double(unit() * 80)
                }
                each(index) {
                    let animation = BasicAnimation(keyPath: keyPath)
                    animation.fromValue = from
                    animation.toValue = to
                    animation.duration = duration
                    animation.repeatCount = repeats
                    animation.autoreverses = reverses
                    animation.fillMode = forwards ? .forwards : .removed
                    animation.isRemovedOnCompletion = removed
                    $0.add(animation, forKey: keyPath)
                }
            default: each(index) { $0.removeAllAnimations() }
            }
        }
    }
}
