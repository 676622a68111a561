import Foundation
import Testing
@testable import LayerKit

/// One reference image per layer property, rendered at scale 2 and compared with the PNG
/// recorded (and looked at) when the scene was written.
@Suite struct ReferenceSceneTests {
    /// A 16x16 test picture: four coloured quadrants with a one-pixel white frame, so placement,
    /// scaling and filtering all show.
    static func picture() throws -> Image {
        let b = try Bitmap(width: 16, height: 16)
        for y in 0..<16 {
            for x in 0..<16 {
                let edge = x == 0 || y == 0 || x == 15 || y == 15
                let color: Color = edge ? .white : (x < 8 ? (y < 8 ? .red : .blue) : (y < 8 ? .green : .yellow))
                b.setPixel(x: x, y: y, to: color)
            }
        }
        return try Image(b)
    }

    static func scene(_ build: (Layer) throws -> Void) rethrows -> Layer {
        let root = rootLayer(120, 90)
        root.backgroundColor = Color(white: 0.92)
        try build(root)
        return root
    }

    static let scenes: [String: @Sendable () throws -> Layer] = [
        "anchor-point-rotation": { scene { root in
            for (i, angle) in [0.0, 0.5, 1.0, 1.5].enumerated() {
                let hand = solidLayer(CGRect(x: 0, y: 0, width: 6, height: 36), [.black, .red, .blue, .green][i], in: root)
                hand.anchorPoint = CGPoint(x: 0.5, y: 1)
                hand.position = CGPoint(x: 60, y: 45)
                hand.transform = Transform3D(rotationAngle: angle * .pi, x: 0, y: 0, z: 1)
            }
        } },
        "perspective-and-sublayer-transform": { scene { root in
            root.sublayerTransform.m34 = -1.0 / 150
            let a = solidLayer(CGRect(x: 10, y: 20, width: 45, height: 50), .orange, in: root)
            a.transform = Transform3D(rotationAngle: 0.9, x: 0, y: 1, z: 0)
            let b = solidLayer(CGRect(x: 65, y: 20, width: 45, height: 50), .purple, in: root)
            b.transform = Transform3D(rotationAngle: -0.9, x: 1, y: 0, z: 0)
        } },
        "transform-layer-cube": { scene { root in
            let cube = TransformLayer()
            cube.frame = CGRect(x: 35, y: 20, width: 50, height: 50)
            var p = Transform3D.identity
            p.m34 = -1.0 / 200
            root.sublayerTransform = p
            cube.transform = Transform3D(rotationAngle: 0.6, x: 1, y: 1, z: 0)
            root.addSublayer(cube)
            let faces: [(Transform3D, Color)] = [
                (Transform3D(translationX: 0, y: 0, z: 25), .red),
                (Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0).concatenating(Transform3D(translationX: 0, y: 0, z: -25)), .green),
                (Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0).concatenating(Transform3D(translationX: 25, y: 0, z: 0)), .blue),
                (Transform3D(rotationAngle: -.pi / 2, x: 0, y: 1, z: 0).concatenating(Transform3D(translationX: -25, y: 0, z: 0)), .yellow),
                // Each face's front points outwards: +π/2 about x turns +z to −y (up, on a y-down screen).
                (Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0).concatenating(Transform3D(translationX: 0, y: -25, z: 0)), .cyan),
                (Transform3D(rotationAngle: -.pi / 2, x: 1, y: 0, z: 0).concatenating(Transform3D(translationX: 0, y: 25, z: 0)), .magenta),
            ]
            for (t, color) in faces {
                let face = solidLayer(CGRect(x: 0, y: 0, width: 50, height: 50), color, in: cube)
                face.transform = t
                face.isDoubleSided = false
            }
        } },
        "masks-to-bounds-rotated-rounded": { scene { root in
            let clip = Layer()
            clip.frame = CGRect(x: 30, y: 15, width: 60, height: 60)
            clip.masksToBounds = true
            clip.cornerRadius = 14
            clip.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1)
            root.addSublayer(clip)
            _ = solidLayer(CGRect(x: -10, y: -10, width: 50, height: 50), .red, in: clip)
            _ = solidLayer(CGRect(x: 30, y: 30, width: 50, height: 50), .blue, in: clip)
        } },
        "corner-radius-and-border": { scene { root in
            let box = solidLayer(CGRect(x: 10, y: 10, width: 60, height: 70), .white, in: root)
            box.cornerRadius = 16
            box.borderWidth = 5
            box.borderColor = try! Color(hex: "#3366CC")
            let pill = solidLayer(CGRect(x: 80, y: 10, width: 30, height: 70), .orange, in: root)
            pill.cornerRadius = 15
        } },
        "group-opacity": { scene { root in
            for (i, grouped) in [true, false].enumerated() {
                let group = Layer()
                group.frame = CGRect(x: 5 + CGFloat(i) * 60, y: 15, width: 50, height: 60)
                group.opacity = 0.5
                group.allowsGroupOpacity = grouped
                root.addSublayer(group)
                _ = solidLayer(CGRect(x: 0, y: 0, width: 35, height: 40), .red, in: group)
                _ = solidLayer(CGRect(x: 15, y: 20, width: 35, height: 40), .blue, in: group)
            }
        } },
        "mask-layer": { scene { root in
            let box = Layer()
            box.frame = CGRect(x: 20, y: 10, width: 80, height: 70)
            box.contents = try! picture()
            root.addSublayer(box)
            let mask = Layer()
            mask.frame = CGRect(x: 10, y: 10, width: 60, height: 50)
            mask.backgroundColor = .black
            mask.cornerRadius = 25
            box.mask = mask
        } },
        "shadows": { scene { root in
            let a = solidLayer(CGRect(x: 15, y: 15, width: 35, height: 35), .white, in: root)
            a.shadowOpacity = 0.8
            a.shadowRadius = 4
            a.shadowOffset = CGSize(width: 4, height: 6)
            let b = solidLayer(CGRect(x: 70, y: 15, width: 35, height: 35), .white, in: root)
            b.cornerRadius = 10
            b.shadowOpacity = 1
            b.shadowColor = .blue
            b.shadowRadius = 8
            b.shadowOffset = .zero
            let c = solidLayer(CGRect(x: 40, y: 60, width: 40, height: 6), .black, in: root)
            c.shadowOpacity = 1
            c.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1)
        } },
        "contents-gravity": { scene { root in
            let gravities: [ContentsGravity] = [.center, .topLeft, .bottomRight, .resize, .resizeAspect, .resizeAspectFill]
            for (i, gravity) in gravities.enumerated() {
                let cell = Layer()
                cell.frame = CGRect(x: 4 + CGFloat(i % 3) * 39, y: 6 + CGFloat(i / 3) * 42, width: 35, height: 36)
                cell.backgroundColor = Color(white: 0.75)
                cell.contents = try! picture()
                cell.contentsGravity = gravity
                cell.contentsScale = gravity == .resize || gravity.rawValue.hasPrefix("resizeAspect") ? 1 : 1.5
                cell.masksToBounds = gravity == .resizeAspectFill
                if gravity == .resizeAspect { cell.bounds.size = CGSize(width: 35, height: 22) }
                root.addSublayer(cell)
            }
        } },
        "contents-rect-center-filters": { scene { root in
            let part = Layer()
            part.frame = CGRect(x: 5, y: 10, width: 32, height: 32)
            part.contents = try! picture()
            part.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5)
            root.addSublayer(part)
            let nine = Layer()
            nine.frame = CGRect(x: 42, y: 10, width: 70, height: 30)
            nine.contents = try! picture()
            nine.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
            root.addSublayer(nine)
            let nearest = Layer()
            nearest.frame = CGRect(x: 5, y: 50, width: 32, height: 32)
            nearest.contents = try! picture()
            nearest.magnificationFilter = .nearest
            root.addSublayer(nearest)
            let small = Layer()
            small.frame = CGRect(x: 45, y: 55, width: 5, height: 5)
            small.contents = try! picture()
            small.minificationFilter = .trilinear
            root.addSublayer(small)
        } },
        "geometry-flipped-z-position-hidden": { scene { root in
            let flipped = Layer()
            flipped.frame = CGRect(x: 5, y: 5, width: 50, height: 80)
            flipped.isGeometryFlipped = true
            flipped.backgroundColor = Color(white: 0.8)
            root.addSublayer(flipped)
            _ = solidLayer(CGRect(x: 5, y: 5, width: 20, height: 20), .red, in: flipped)   // bottom-left
            let back = solidLayer(CGRect(x: 65, y: 10, width: 40, height: 40), .blue, in: root)
            back.zPosition = 1
            _ = solidLayer(CGRect(x: 75, y: 30, width: 40, height: 40), .green, in: root)
            let hidden = solidLayer(CGRect(x: 60, y: 60, width: 20, height: 20), .black, in: root)
            hidden.isHidden = true
        } },
        "should-rasterize": { scene { root in
            let group = Layer()
            group.frame = CGRect(x: 20, y: 10, width: 80, height: 70)
            group.shouldRasterize = true
            group.rasterizationScale = 0.5
            group.transform = Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
            root.addSublayer(group)
            _ = solidLayer(CGRect(x: 0, y: 0, width: 80, height: 30), .red, in: group)
            _ = solidLayer(CGRect(x: 20, y: 35, width: 40, height: 30), .blue, in: group)
        } },
    ]

    @Test(arguments: scenes.keys.sorted())
    func matchesReference(_ name: String) throws {
        let root = try Self.scenes[name]!()
        let frame = try Renderer(scale: 2, threadCount: 2).render(root)
        try expectMatchesReference(frame, named: name)
    }
}
