import Foundation
import Testing
@testable import LayerKit

/// The content-only refresh: a leaf whose own changes since the last frame were all to its
/// content keeps its node's geometry and is only described and emitted anew. Every frame here
/// is compared with a fresh renderer's, and the refreshes are counted, so that a refresh taken
/// where it must not be (geometry changed too, the layer now needs a group) or not taken where
/// it should be shows.
@Suite struct ContentRefreshTests {
    /// A board of text lines, one with a shadow cast by its text, one with a border, one inside
    /// a faded group (drawn offscreen), one turned.
    final class Board {
        let root = Layer()
        var labels: [TextLayer] = []
        let group = Layer()

        init() {
            root.bounds = CGRect(x: 0, y: 0, width: 320, height: 200)
            root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.18)
            for row in 0..<5 {
                let label = TextLayer()
                label.font = "DejaVu Sans"
                label.fontSize = 16
                label.foregroundColor = Color(red: 0.9, green: 0.92, blue: 0.85)
                label.frame = CGRect(x: 8.25, y: 6 + CGFloat(row) * 24, width: 200, height: 22)
                label.string = "LINE \(row)  \(row * 111).25"
                root.addSublayer(label)
                labels.append(label)
            }
            labels[1].shadowOpacity = 0.9
            labels[1].shadowRadius = 2
            labels[1].shadowOffset = CGSize(width: 2, height: 3)
            labels[2].borderWidth = 1
            labels[2].borderColor = .white
            labels[3].transform = Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
            group.frame = CGRect(x: 210, y: 120, width: 100, height: 70)
            group.opacity = 0.7
            group.backgroundColor = Color(red: 0.3, green: 0.1, blue: 0.1)
            root.addSublayer(group)
            let inner = TextLayer()
            inner.font = "DejaVu Sans"
            inner.fontSize = 14
            inner.frame = CGRect(x: 4, y: 4, width: 90, height: 20)
            inner.string = "IN 0"
            group.addSublayer(inner)
            let other = TextLayer()
            other.font = "DejaVu Sans"
            other.fontSize = 14
            other.frame = CGRect(x: 4, y: 30, width: 90, height: 20)
            other.string = "IN 1"
            group.addSublayer(other)
            labels.append(inner)
        }
    }

    /// Runs `body` with implicit animations off (as `Transaction.perform`, for a throwing body).
    private func withoutActions(_ body: () throws -> Void) rethrows {
        Transaction.begin()
        Transaction.setDisableActions(true)
        defer { Transaction.commit() }
        try body()
    }

    /// Renders `root` incrementally at `time` and checks the frame against a fresh one.
    private func expectFresh(_ renderer: Renderer, _ root: Layer, into target: Bitmap, at time: TimeInterval = 0,
                             _ what: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        renderer.render(root, at: time, into: target)
        let fresh = try Renderer(threadCount: 1).render(root, at: time)
        #expect(target.hasSamePixels(as: fresh), "\(what): the incremental frame differs from a fresh one",
                sourceLocation: sourceLocation)
    }

    @Test func contentGeometryAndBothChangesRenderAsFreshFrames() throws {
        let board = Board()
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 320, height: 200)
        try expectFresh(renderer, board.root, into: target, "first frame")
        try withoutActions {
            for (i, label) in board.labels.enumerated() { label.string = "CHANGED \(i)  \(i * 7).5%" }
            try expectFresh(renderer, board.root, into: target, "content only")
            #expect(renderer.contentRefreshCount == board.labels.count)

            for label in board.labels { label.position.x += 1.5 }
            try expectFresh(renderer, board.root, into: target, "geometry only")
            #expect(renderer.contentRefreshCount == board.labels.count)

            for (i, label) in board.labels.enumerated() {
                label.string = "BOTH \(i)"
                label.position.y += 0.75
            }
            try expectFresh(renderer, board.root, into: target, "content and geometry in one frame")
            #expect(renderer.contentRefreshCount == board.labels.count)

            // Content first and geometry after it, and the reverse, before one frame.
            board.labels[0].string = "FIRST CONTENT"
            board.labels[0].bounds.size.width = 150
            board.labels[1].position.x -= 2
            board.labels[1].string = "THEN CONTENT"
            board.labels[2].string = "ONLY CONTENT"
            try expectFresh(renderer, board.root, into: target, "mixed order")
            #expect(renderer.contentRefreshCount == board.labels.count + 1)

            // Colors, borders and shadows cast by the text are content too.
            board.labels[1].string = "SHADOW MOVES"
            board.labels[2].borderColor = .red
            board.labels[4].foregroundColor = .green
            try expectFresh(renderer, board.root, into: target, "shadow, border and color")
            #expect(renderer.contentRefreshCount == board.labels.count + 1 + 3)
        }
    }

    /// A change of content that decides how the layer is drawn — an image under rounded
    /// clipping bounds needs an offscreen group — rebuilds the layer instead.
    @Test func contentThatNeedsAGroupRebuildsTheLayer() throws {
        let root = rootLayer(120, 90)
        root.backgroundColor = .white
        let card = solidLayer(CGRect(x: 10, y: 10, width: 60, height: 50), .blue, in: root)
        card.masksToBounds = true
        card.cornerRadius = 14
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 120, height: 90)
        try expectFresh(renderer, root, into: target, "first frame")
        let refreshes = renderer.contentRefreshCount
        try withoutActions {
            card.contents = try Image(try Bitmap(width: 30, height: 25, color: .red))
            try expectFresh(renderer, root, into: target, "contents under rounded clipping")
            #expect(renderer.contentRefreshCount == refreshes)
            card.contents = nil
            try expectFresh(renderer, root, into: target, "contents gone")
            card.shouldRasterize = true
            try expectFresh(renderer, root, into: target, "rasterized")
            #expect(renderer.contentRefreshCount == refreshes)
            card.backgroundColor = .green
            try expectFresh(renderer, root, into: target, "rasterized, new color")
            #expect(renderer.contentRefreshCount == refreshes)
        }
    }

    /// A leaf that gains a sublayer in the frame its content changes is no longer a leaf.
    @Test func aLeafThatGainsASublayerIsRebuilt() throws {
        let board = Board()
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 320, height: 200)
        try expectFresh(renderer, board.root, into: target, "first frame")
        try withoutActions {
            board.labels[0].string = "WITH A CHILD"
            _ = solidLayer(CGRect(x: 150, y: 2, width: 20, height: 10), .red, in: board.labels[0])
            try expectFresh(renderer, board.root, into: target, "content and a new sublayer")
            #expect(renderer.contentRefreshCount == 0)
        }
    }

    /// A layer whose `display()` moves it while the frame presents it (after the walk looked at
    /// its stamps) is drawn where it moved to, not refreshed in place.
    @Test func aLayerMovedByItsOwnDisplayIsRebuilt() throws {
        final class Restless: Layer {
            override func display() {
                super.display()
                position.x += 5
                backgroundColor = position.x.truncatingRemainder(dividingBy: 10) == 0 ? .red : .blue
            }
        }
        let root = rootLayer(120, 90)
        let layer = Restless()
        layer.frame = CGRect(x: 10, y: 10, width: 30, height: 20)
        layer.backgroundColor = .blue
        root.addSublayer(layer)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 120, height: 90)
        try expectFresh(renderer, root, into: target, "first frame")
        try withoutActions {
            for step in 0..<3 {
                layer.setNeedsDisplay()
                layer.borderWidth = CGFloat(step + 1)
                renderer.render(root, at: 0, into: target)
                // What the frame showed: the layer as display() left it, as a fresh frame of the
                // same tree (whose display has run) shows it.
                let fresh = try Renderer(threadCount: 1).render(root, at: 0)
                #expect(target.hasSamePixels(as: fresh), "step \(step)")
            }
        }
        #expect(renderer.contentRefreshCount == 0)
    }

    /// Content-only frames keep their damage to the changed text, as full rebuilds did.
    @Test func aContentOnlyFrameDamagesOnlyTheChangedLine() throws {
        let board = Board()
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 320, height: 200)
        renderer.render(board.root, into: target)
        Transaction.perform(disableActions: true) { board.labels[0].string = "LINE 0  999.99" }
        let damage = renderer.render(board.root, into: target)
        #expect(renderer.contentRefreshCount == 1)
        #expect(!damage.isEmpty)
        #expect(damage.extents.maxY <= 6 + 22 + 1)
        #expect(target.hasSamePixels(as: try Renderer(threadCount: 1).render(board.root)))
    }

    /// A shape of one color is coverage, like text: a path that grows past the last frame's
    /// store moves and resizes the store, so its item is placed anew, not redrawn where it was
    /// (`ItemEmitter.redrawSoleCoverage`); one that keeps its extent is redrawn in place.
    @Test func aCoverageStoreThatGrowsOrMovesIsPlacedAnew() throws {
        let root = rootLayer(160, 120)
        root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.18)
        let shape = ShapeLayer()
        shape.frame = CGRect(x: 20.5, y: 15.25, width: 60, height: 50)
        shape.fillColor = Color(red: 0.9, green: 0.8, blue: 0.2)
        shape.path = Path(ellipseIn: CGRect(x: 10, y: 10, width: 30, height: 20))
        root.addSublayer(shape)
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 160, height: 120)
        try expectFresh(renderer, root, into: target, "first frame")
        try withoutActions {
            let paths = [CGRect(x: 12, y: 10, width: 26, height: 20),    // the same extent's store
                         CGRect(x: -15, y: 5, width: 90, height: 40),    // past the bounds: a larger store
                         CGRect(x: 30, y: 30, width: 50, height: 45),    // moved and resized
                         CGRect(x: 31, y: 30, width: 48, height: 45)]
            for (step, rect) in paths.enumerated() {
                shape.path = Path(ellipseIn: rect)
                try expectFresh(renderer, root, into: target, "path \(step)")
            }
            shape.fillColor = .red
            try expectFresh(renderer, root, into: target, "another color")
        }
    }

    /// A line redrawn in its own store as its ink shrinks — shorter, then lower, then one glyph
    /// at the other end — leaves nothing of the earlier text: a reused store is cleared where
    /// its last drawing inked, and that must cover every pixel it drew.
    @Test func aLineWhoseInkShrinksInItsReusedStoreLeavesNoneOfTheOldText() throws {
        let board = Board()
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 320, height: 200)
        try withoutActions {
            board.labels[0].string = "WWWWWWWWWWWWWWWWWWWWW"
            try expectFresh(renderer, board.root, into: target, "wide")
            let rasterized = renderer.rasterizationCount
            for (step, string) in ["WWW jgpq", "...,,,", "_", "                    ."].enumerated() {
                board.labels[0].string = string
                try expectFresh(renderer, board.root, into: target, "step \(step): \(string)")
            }
            // Each was drawn again, into a store of the line's size (so the same one, cleared).
            #expect(renderer.rasterizationCount == rasterized + 4)
        }
    }

    /// A line whose text goes (nothing drawn), comes back, and changes color: its item goes,
    /// comes back and is redrawn in another color, each frame as a fresh one.
    @Test func textThatGoesComesBackAndChangesColorRendersAsFreshFrames() throws {
        let board = Board()
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 320, height: 200)
        try expectFresh(renderer, board.root, into: target, "first frame")
        try withoutActions {
            board.labels[0].string = ""
            board.labels[2].string = nil
            try expectFresh(renderer, board.root, into: target, "gone")
            board.labels[0].string = "BACK 0"
            board.labels[2].string = "BACK 2"
            try expectFresh(renderer, board.root, into: target, "back")
            board.labels[0].foregroundColor = .red
            board.labels[3].string = "TURNED, RED"
            board.labels[3].foregroundColor = .red
            try expectFresh(renderer, board.root, into: target, "red")
            board.labels[0].string = "RED AND NEW"
            try expectFresh(renderer, board.root, into: target, "red, new text")
        }
    }

    /// Lines whose text changes every frame under superlayers that animate — one its color
    /// (the lines keep their places), one its position by fractions of a pixel, one its
    /// opacity — are rebuilt or refreshed each frame, and every frame is a fresh one's.
    @Test func textUnderAnimatingSuperlayersRendersAsFreshFrames() throws {
        let root = rootLayer(320, 160)
        root.backgroundColor = Color(red: 0.1, green: 0.12, blue: 0.18)
        var lines: [TextLayer] = []
        for (i, keyPath) in ["backgroundColor", "position.x", "opacity"].enumerated() {
            let panel = Layer()
            panel.frame = CGRect(x: 10, y: 10 + CGFloat(i) * 48, width: 220, height: 40)
            panel.backgroundColor = Color(red: 0.2, green: 0.2, blue: 0.3)
            root.addSublayer(panel)
            let line = TextLayer()
            line.font = "DejaVu Sans"
            line.fontSize = 16
            line.foregroundColor = Color(red: 0.9, green: 0.92, blue: 0.85)
            line.frame = CGRect(x: 6.5, y: 8, width: 200, height: 22)
            line.string = "LINE \(i)"
            panel.addSublayer(line)
            lines.append(line)
            let animation = BasicAnimation(keyPath: keyPath)
            switch keyPath {
            case "backgroundColor":
                animation.fromValue = Color(red: 0.2, green: 0.2, blue: 0.3)
                animation.toValue = Color(red: 0.5, green: 0.1, blue: 0.1)
            case "position.x":
                animation.fromValue = 120.0
                animation.toValue = 140.0
            default:
                animation.fromValue = 1.0
                animation.toValue = 0.4
            }
            animation.duration = 10
            panel.add(animation, forKey: "animation")
        }
        let renderer = Renderer(threadCount: 1)
        let target = try Bitmap(width: 320, height: 160)
        try withoutActions {
            for frame in 0..<5 {
                for (i, line) in lines.enumerated() { line.string = "LINE \(i)  \(frame * 137 + i).\(frame)" }
                try expectFresh(renderer, root, into: target, at: Double(frame) * 0.37, "frame \(frame)")
            }
        }
    }
}
