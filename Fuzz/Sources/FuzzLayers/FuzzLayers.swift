import Foundation
import LayerKit

/// One libFuzzer input: a program of byte pairs that builds a small tree of every layer kind,
/// sets numeric properties (through string key paths) and animations to hostile numbers, and
/// renders frames. Refusals are expected and reported to a handler that counts them; a crash,
/// a hang or an allocation over libFuzzer's -rss_limit_mb is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayers(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var program = Program(bytes: UnsafeBufferPointer(start: bytes, count: min(count, 512)))
    program.run()
    return 0
}

struct Program {
    static let numbers: [Double] = [.nan, .infinity, -.infinity, 1e308, -1e308, 0, -0.0, .leastNonzeroMagnitude, -1e300,
                                    1, 0.5, 2, 10, 100, -7, 1e6]
    static let keyPaths = ["position", "position.x", "bounds", "bounds.size.width", "anchorPoint", "anchorPointZ", "zPosition",
                           "transform", "transform.rotation.z", "transform.scale", "transform.translation.x",
                           "sublayerTransform", "opacity", "cornerRadius", "borderWidth", "contentsRect", "contentsCenter",
                           "contentsScale", "shadowOpacity", "shadowOffset", "shadowRadius", "rasterizationScale",
                           "beginTime", "speed", "timeOffset", "lineWidth", "miterLimit", "strokeStart", "strokeEnd",
                           "lineDashPhase", "fontSize", "startPoint", "endPoint", "locations", "instanceCount",
                           "instanceDelay", "instanceTransform", "instanceRedOffset", "instanceAlphaOffset"]

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var layers: [Layer] = []

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    mutating func byte() -> Int {
        defer { index += 1 }
        return index < bytes.count ? Int(bytes[index]) : 0
    }

    mutating func number() -> Double { Self.numbers[byte() % Self.numbers.count] }

    mutating func value(for keyPath: String) -> Any {
        switch keyPath {
        case "position", "anchorPoint", "startPoint", "endPoint": return CGPoint(x: number(), y: number())
        case "shadowOffset": return CGSize(width: number(), height: number())
        case "bounds", "contentsRect", "contentsCenter": return CGRect(x: number(), y: number(), width: number(), height: number())
        case "transform", "sublayerTransform", "instanceTransform":
            var t = Transform3D(scaleX: number(), y: number())
            t.m34 = number(); t.m41 = number()
            return t
        case "locations": return [number(), number()]
        case "instanceCount": return [Int.max, Int.min, 0, -1, 3, 1_000_000][byte() % 6]
        default: return number()
        }
    }

    mutating func run() {
        LayerValueDiagnostics.handler = { _ in }
        LayerTreeDiagnostics.handler = { _ in }
        AnimationDiagnostics.handler = { _ in }
        let root = Layer()
        root.bounds = CGRect(x: 0, y: 0, width: 48, height: 32)
        layers = [root]
        let renderer = Renderer(scale: 1, threadCount: 1)
        // A tenth of the default bounds: a frame of 10,000 replicated instances (masked groups,
        // say) is a legitimate frame that takes seconds under AddressSanitizer, and several of
        // them would pass libFuzzer's timeout without being a finding. The bounds themselves
        // are what is tested here, at any value.
        renderer.limits = RenderLimits(maximumReplicatedInstances: 1_000, maximumPathSegments: 10_000)
        while index < bytes.count {
            let op = byte() % 8
            let target = layers[byte() % layers.count]
            switch op {
            case 0, 1:
                let layer: Layer
                switch byte() % 6 {
                case 0: let s = ShapeLayer(); s.path = Path(ellipseIn: CGRect(x: 0, y: 0, width: 9, height: 7)); s.strokeColor = .blue; layer = s
                case 1: let t = TextLayer(); t.string = "Ab"; t.fontSize = 8; layer = t
                case 2: let g = GradientLayer(); g.colors = [.red, .blue]; g.type = [.axial, .radial, .conic][byte() % 3]; layer = g
                case 3: let r = ReplicatorLayer(); r.instanceCount = 3; layer = r
                case 4: layer = TransformLayer()
                default: layer = Layer(); layer.shadowOpacity = 1
                }
                layer.bounds = CGRect(x: 0, y: 0, width: 12, height: 9)
                layer.position = CGPoint(x: byte() % 48, y: byte() % 32)
                layer.backgroundColor = .green
                if op == 1, target !== root { target.mask = layer } else { target.addSublayer(layer) }
                layers.append(layer)
            case 2, 3, 4:
                guard target !== root else { continue }
                let keyPath = Self.keyPaths[byte() % Self.keyPaths.count]
                target.setValue(value(for: keyPath), forKeyPath: keyPath)
            case 5:
                let keyPath = Self.keyPaths[byte() % 22]
                let animation = byte() % 2 == 0 ? BasicAnimation(keyPath: keyPath)
                    : SpringAnimation(keyPath: keyPath, mass: number(), stiffness: number(), damping: number())
                animation.fromValue = value(for: keyPath)
                animation.toValue = value(for: keyPath)
                animation.duration = number(); animation.speed = Float(number())
                animation.timeOffset = number(); animation.beginTime = number()
                animation.repeatCount = Float(number())
                target.add(animation, forKey: "k\(byte())")
            case 6:
                layers[byte() % layers.count].mask = layers[byte() % layers.count]
            default:
                _ = try? renderer.render(root, at: number())
            }
        }
        _ = try? renderer.render(root, at: 1)
    }
}
