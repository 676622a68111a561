import Foundation
import Testing
@testable import LayerKit

@Suite struct GradientLayerTests {
    func render(_ configure: (GradientLayer) -> Void) throws -> Bitmap {
        let layer = GradientLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        layer.colors = [.black, .white]
        configure(layer)
        return try Renderer(threadCount: 1).render(layer)
    }

    func gray(_ b: Bitmap, _ x: Int, _ y: Int) -> Double { b.pixel(x: x, y: y).red }

    @Test func axialRunsFromStartToEndPoint() throws {
        let f = try render { _ in }   // default: top centre to bottom centre
        #expect(gray(f, 50, 0) < 0.02 && gray(f, 50, 99) > 0.98)
        #expect(abs(gray(f, 50, 50) - 0.5) < 0.02 && abs(gray(f, 10, 25) - 0.25) < 0.02)
        let sideways = try render { $0.startPoint = CGPoint(x: 0, y: 0.5); $0.endPoint = CGPoint(x: 1, y: 0.5) }
        #expect(abs(gray(sideways, 25, 80) - 0.25) < 0.02)
    }

    @Test func locationsPlaceTheColors() throws {
        let f = try render { $0.colors = [.black, .black, .white]; $0.locations = [0, 0.5, 1] }
        #expect(gray(f, 50, 40) < 0.02 && abs(gray(f, 50, 75) - 0.5) < 0.03)
    }

    @Test func radialIsAnEllipseAroundTheStartPoint() throws {
        let f = try render { $0.type = .radial; $0.startPoint = CGPoint(x: 0.5, y: 0.5); $0.endPoint = CGPoint(x: 1, y: 0.75) }
        // Radii 50 across and 25 down: the same gray at 25 right and 12.5 down.
        #expect(gray(f, 50, 50) < 0.03)
        #expect(abs(gray(f, 75, 50) - gray(f, 50, 62)) < 0.04 && abs(gray(f, 75, 50) - 0.5) < 0.03)
    }

    @Test func conicTurnsClockwiseFromTheEndPointsDirection() throws {
        let f = try render { $0.type = .conic; $0.startPoint = CGPoint(x: 0.5, y: 0.5); $0.endPoint = CGPoint(x: 1, y: 0.5) }
        // Starting at +x (3 o'clock), a quarter turn clockwise on screen is 6 o'clock.
        #expect(abs(gray(f, 50, 90) - 0.25) < 0.05)
        #expect(abs(gray(f, 10, 50) - 0.5) < 0.05)
        // Starting at 6 o'clock instead: 9 o'clock is a quarter of the way round.
        let g = try render { $0.type = .conic; $0.startPoint = CGPoint(x: 0.5, y: 0.5); $0.endPoint = CGPoint(x: 0.5, y: 1) }
        #expect(abs(gray(g, 10, 50) - 0.25) < 0.05 && abs(gray(g, 50, 10) - 0.5) < 0.05)
    }

    @Test func colorsAnimate() {
        let layer = GradientLayer()
        layer.colors = [.black, .black]
        let fade = BasicAnimation(keyPath: "colors")
        fade.fromValue = [Color.black, .black]
        fade.toValue = [Color.white, .red]
        fade.duration = 1
        layer.add(fade, forKey: "fade")
        let mid = layer.presentation(at: 0.5).colors
        #expect(mid == [Color(white: 0.5), Color(red: 0.5, green: 0, blue: 0)])
    }
}
