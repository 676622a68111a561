/// How many times faster one drawer drew than another, from rounds in which both were timed side
/// by side: the median of the rounds' own ratios, with the lowest and the highest.
///
/// A shared machine drifts between rounds (another guest takes a core for a second, the clock
/// steps down), and it moves both drawers of a round together. The ratio of the two drawers'
/// median rounds can take its numerator from a quiet round and its denominator from a disturbed
/// one; the ratio within each round cannot, so its median holds still where the medians' ratio
/// swings. Two cores against one are hit hardest: a disturbance costs the two-core drawer its
/// second core.
public struct PairedRatio: Sendable, Equatable {
    public var median: Double
    public var lowest: Double
    public var highest: Double
    /// Rounds the ratio was taken over (1 when only the medians were there to divide).
    public var rounds: Int

    /// `a` over `b` round by round, or — when the two were not timed in the same rounds (their
    /// round counts differ, or a round drew nothing) — the ratio of their medians, as one round.
    /// nil when either drew nothing at all.
    public init?(_ a: Measurement, over b: Measurement) {
        guard a.framesPerSecond > 0, b.framesPerSecond > 0 else { return nil }
        let pairs = zip(a.roundsFramesPerSecond, b.roundsFramesPerSecond)
        guard a.roundsFramesPerSecond.count == b.roundsFramesPerSecond.count, !a.roundsFramesPerSecond.isEmpty,
              pairs.allSatisfy({ $0 > 0 && $1 > 0 }) else {
            let r = a.framesPerSecond / b.framesPerSecond
            self.init(median: r, lowest: r, highest: r, rounds: 1)
            return
        }
        let ratios = pairs.map { $0 / $1 }.sorted()
        let n = ratios.count
        self.init(median: n % 2 == 1 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2,
                  lowest: ratios[0], highest: ratios[n - 1], rounds: n)
    }

    public init(median: Double, lowest: Double, highest: Double, rounds: Int) {
        self.median = median
        self.lowest = lowest
        self.highest = highest
        self.rounds = rounds
    }
}
