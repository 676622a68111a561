import Foundation
import Testing
@testable import LayerKit

/// Random trees of every layer kind with every numeric property of layers and animations drawn
/// from {NaN, ±∞, ±10³⁰⁸, ±0, a subnormal, −10³⁰⁰} (HostileScene), rendered at several times:
/// nothing crashes, memory stays under a stated bound, and refusals are reported.
@Suite struct HostileTreeTests {
    /// The bound on the test process's peak resident memory growth over all the frames. Each
    /// store is capped at 4096 pixels a side (64 MiB) and a frame here is 64x48 points at scale 2;
    /// measured peak growth: see the commit that added this test.
    static let memoryBound = 768 << 20

    @Test func hostileTreesRenderWithinBoundedMemoryAndReportWhatTheyRefuse() throws {
        DiagnosticLog.start()
        let previousAnimationHandler = AnimationDiagnostics.handler
        AnimationDiagnostics.handler = { _ in }
        defer { AnimationDiagnostics.handler = previousAnimationHandler }
        let before = peakResidentBytes()
        var reported = 0
        for seed in 1...10 as ClosedRange<UInt64> {
            var scene = HostileScene(seed: seed)
            let root = scene.makeTree(count: 10)
            let renderer = Renderer(scale: 2, threadCount: 2)
            for (step, time) in [0.0, 0.5, -3, 1e9, 2.25].enumerated() {
                if step > 0 {
                    Transaction.perform(disableActions: step % 2 == 0) { scene.setHostileProperties(count: 12) }
                }
                if step == 1 || step == 3 { scene.addHostileAnimations(count: 6) }
                let frame = try renderer.render(root, at: time)
                #expect(frame.width == 128 && frame.height == 96)
            }
            reported += scene.layers.reduce(0) { $0 + DiagnosticLog.messages(mentioning: $1.name ?? "").count }
        }
        let growth = peakResidentBytes() - before
        #expect(growth < Self.memoryBound, "peak resident memory grew by \(growth >> 20) MiB")
        #expect(reported > 10, "refused values are reported (\(reported))")
        print("HostileTreeTests: peak resident growth \(growth >> 20) MiB, \(reported) diagnostics")
    }
}
