import CompositorBench
import LayerKit
import Testing

/// A drawer's measurement from its rounds' frames per second (one second a round).
@MainActor private func measurement(_ rounds: [Double], drawer: String = "d") -> Measurement {
    let scene = Scene(name: "s", width: 4, height: 4, root: Layer(), cairo: .unsupported("test"))
    return Measurement(table: "main", scene: scene, drawer: drawer,
                       samples: rounds.map { Sample(frames: Int($0), seconds: 1) })
}

@MainActor struct PairedRatioTests {
    @Test func aRatioIsTheMedianOfTheRoundsRatiosNotTheRatioOfTheMedians() throws {
        // Round 2 is disturbed for both drawers, round 3 for the first only. The medians are 130
        // and 100 (1.3x); the rounds' own ratios are 4, 2 and 1.08 (median 2).
        let one = measurement([100, 50, 120]), other = measurement([400, 100, 130])
        #expect(other.framesPerSecond / one.framesPerSecond == 1.3)
        let r = try #require(PairedRatio(other, over: one))
        #expect(r.median == 2 && r.highest == 4 && r.rounds == 3)
        #expect(abs(r.lowest - 130.0 / 120) < 1e-12)
        // Drawers slowed together in every round keep their ratio exactly.
        let twice = try #require(PairedRatio(measurement([200, 100, 240]), over: one))
        #expect(twice.median == 2 && twice.lowest == 2 && twice.highest == 2)
    }

    @Test func anEvenCountTakesTheMeanOfTheMiddleTwo() throws {
        let r = try #require(PairedRatio(measurement([10, 30, 20, 40]), over: measurement([10, 10, 10, 10])))
        #expect(r.median == 2.5 && r.lowest == 1 && r.highest == 4 && r.rounds == 4)
    }

    @Test func unpairedRoundsFallBackToTheMediansAsOneRound() throws {
        let r = try #require(PairedRatio(measurement([90, 100, 110]), over: measurement([50, 50])))
        #expect(r.median == 2 && r.lowest == 2 && r.highest == 2 && r.rounds == 1)
        // A round that drew nothing cannot be divided by.
        let s = try #require(PairedRatio(measurement([90, 100, 110]), over: measurement([0, 50, 50])))
        #expect(s.rounds == 1 && s.median == 2)
    }

    @Test func aDrawerThatDrewNothingHasNoRatio() {
        let nothing = Measurement(table: "main", scene: Scene(name: "s", width: 4, height: 4, root: Layer(),
                                                              cairo: .unsupported("test")),
                                  drawer: "cairo", unsupported: "cannot")
        #expect(PairedRatio(nothing, over: measurement([1, 2, 3])) == nil)
        #expect(PairedRatio(measurement([1, 2, 3]), over: nothing) == nil)
    }
}
