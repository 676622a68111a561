import Foundation
@testable import LayerKit

/// Random trees of every layer kind whose numeric properties — every one the layer classes
/// declare, found through their declaration tables, so that a property added later is covered
/// too — and whose animations' timing and values are drawn from hostile numbers.
struct HostileScene {
    /// NaN, both infinities, the largest finite numbers, both zeros, a subnormal, a huge negative.
    static let doubles: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 0, -0.0, .leastNonzeroMagnitude, -1e300]
    static let ints: [Int] = [.max, .min, 0, -1, 1_000_000]

    var rng: SeededGenerator
    /// Every layer made, in order (their names are unique to the scene: "<prefix>-<index>").
    private(set) var layers: [Layer] = []
    let prefix: String

    init(seed: UInt64) {
        rng = SeededGenerator(seed: seed)
        prefix = "hostile-\(seed)-\(UUID().uuidString.prefix(6))"
    }

    mutating func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &rng)] }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func number() -> Double { chance(0.75) ? pick(Self.doubles) : Double.random(in: -50...150, using: &rng) }

    /// A tree of `count` layers under a 64x48 root, every kind represented.
    mutating func makeTree(count: Int) -> Layer {
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 48)
        root.name = "\(prefix)-root"
        layers = [root]
        Transaction.perform(disableActions: true) {
            for i in 0..<count {
                let layer = makeLayer(kind: i % 7)
                layer.name = "\(prefix)-\(layers.count)"
                layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 14)
                layer.position = CGPoint(x: Double.random(in: 0...64, using: &rng), y: Double.random(in: 0...48, using: &rng))
                layer.backgroundColor = .red
                let parent = pick(layers)
                if chance(0.15), parent !== root, parent.mask == nil { parent.mask = layer } else { parent.addSublayer(layer) }
                layers.append(layer)
            }
        }
        return root
    }

    private mutating func makeLayer(kind: Int) -> Layer {
        switch kind {
        case 1:
            let shape = ShapeLayer()
            var path = Path()
            path.move(to: .zero)
            path.addQuadCurve(to: CGPoint(x: 18, y: 12), control: CGPoint(x: 18, y: 0))
            path.closeSubpath()
            shape.path = path
            shape.strokeColor = .blue
            shape.lineDashPattern = [2, 1]
            return shape
        case 2:
            let text = TextLayer()
            text.string = "12:30"
            text.fontSize = 9
            return text
        case 3:
            let gradient = GradientLayer()
            gradient.colors = [.blue, .white, .black]
            gradient.locations = [0, 0.5, 1]
            gradient.type = pick([.axial, .radial, .conic])
            return gradient
        case 4:
            let replicator = ReplicatorLayer()
            replicator.instanceCount = 3
            replicator.instanceTransform = Transform3D(translationX: 3, y: 2)
            return replicator
        case 5:
            return TransformLayer()
        default:
            let layer = Layer()
            layer.contents = HostileScene.image
            layer.shadowOpacity = 0.5
            return layer
        }
    }

    static let image = Image(adopting: try! Bitmap(width: 5, height: 4, color: .green))

    /// Sets `count` random numeric properties of random layers to hostile values, through the
    /// declaration tables' key paths (each tried with the value types properties have).
    mutating func setHostileProperties(count: Int) {
        for _ in 0..<count {
            // Not the root: its bounds are the frame's size, whose bad values are a typed error.
            let layer = pick(Array(layers.dropFirst()))
            let entries = LayerPropertyTable.of(layer).entries.sorted { $0.key < $1.key }
            let (name, entry) = pick(entries)
            _ = name
            for candidate in candidates() where entry.set(layer, candidate) { break }
        }
    }

    /// One hostile value in each form a numeric property can take.
    private mutating func candidates() -> [Any] {
        let d = number(), e = number(), f = number(), g = number()
        var transform = Transform3D.identity
        for _ in 0..<3 {
            switch Int.random(in: 0..<16, using: &rng) {
            case 0: transform.m11 = number()
            case 1: transform.m12 = number()
            case 2: transform.m14 = number()
            case 3: transform.m22 = number()
            case 4: transform.m24 = number()
            case 5: transform.m34 = number()
            case 6: transform.m41 = number()
            case 7: transform.m42 = number()
            case 8: transform.m44 = number()
            default: transform.m33 = number()
            }
        }
        var path = Path()
        path.move(to: CGPoint(x: d, y: e))
        path.addCurve(to: CGPoint(x: f, y: g), control1: CGPoint(x: e, y: d), control2: CGPoint(x: g, y: 1))
        return [d, CGFloat(d), Float(d), pick(Self.ints), CGPoint(x: d, y: e), CGSize(width: d, height: e),
                CGRect(x: d, y: e, width: f, height: g), transform, [CGFloat(d), CGFloat(e)], [d, e, f],
                Optional(path) as Any, Optional([CGFloat(d), CGFloat(e)]) as Any, Optional([d, e, f]) as Any]
    }

    /// Adds `count` animations with hostile timing, values and spring constants (most are
    /// refused; the ones that run drive presentations through hostile arithmetic).
    mutating func addHostileAnimations(count: Int) {
        let keyPaths = ["opacity", "position", "position.x", "bounds", "transform", "transform.rotation.z", "transform.scale",
                        "cornerRadius", "shadowRadius", "shadowOffset", "contentsRect", "zPosition", "anchorPoint", "borderWidth"]
        for i in 0..<count {
            let layer = pick(layers)
            let keyPath = pick(keyPaths)
            let animation: Animation
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                let spring = SpringAnimation(keyPath: keyPath, mass: number(), stiffness: number(), damping: number(),
                                             initialVelocity: number())
                spring.fromValue = value(for: keyPath)
                spring.toValue = value(for: keyPath)
                animation = spring
            case 1:
                let keyframes = KeyframeAnimation(keyPath: keyPath)
                keyframes.values = [value(for: keyPath), value(for: keyPath), value(for: keyPath)]
                keyframes.calculationMode = pick([.linear, .cubic, .paced, .discrete, .cubicPaced])
                animation = keyframes
            default:
                let basic = BasicAnimation(keyPath: keyPath)
                basic.fromValue = value(for: keyPath)
                basic.toValue = value(for: keyPath)
                basic.isAdditive = chance(0.3)
                basic.isCumulative = chance(0.3)
                animation = basic
            }
            animation.duration = chance(0.5) ? number() : 1
            animation.speed = Float(chance(0.5) ? number() : 1)
            animation.beginTime = chance(0.3) ? number() : 0
            animation.timeOffset = chance(0.3) ? number() : 0
            animation.repeatCount = Float(chance(0.5) ? number() : 2)
            animation.autoreverses = chance(0.5)
            animation.fillMode = pick([.removed, .forwards, .backwards, .both])
            layer.add(animation, forKey: "hostile-\(i)")
        }
    }

    private mutating func value(for keyPath: String) -> Any {
        switch keyPath {
        case "position", "shadowOffset", "anchorPoint":
            return keyPath == "shadowOffset" ? CGSize(width: number(), height: number()) as Any : CGPoint(x: number(), y: number())
        case "bounds", "contentsRect": return CGRect(x: number(), y: number(), width: number(), height: number())
        case "transform": return Transform3D(scaleX: number(), y: number())
        default: return number()
        }
    }
}
