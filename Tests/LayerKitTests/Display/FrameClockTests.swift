import Foundation
import Testing
@testable import LayerKit

/// A clock that never sleeps: time moves only when the test (or a "slow" callback) says so.
final class ManualClock: MonotonicClock {
    var current: TimeInterval
    private(set) var sleeps: [TimeInterval] = []
    init(start: TimeInterval = 1000) { current = start }
    func now() -> TimeInterval { current }
    func sleep(until deadline: TimeInterval) {
        sleeps.append(deadline)
        current = max(current, deadline)
    }
}

@Suite struct FrameClockTests {
    @Test func offlineFrameKIsAtExactlyStartPlusKOverFPS() throws {
        let clock = try OfflineClock(start: 100, fps: 30, frameCount: 1000)
        for frame in clock {
            #expect(frame.time == 100 + Double(frame.index) / 30)
        }
        #expect(Array(clock).count == 1000)
        #expect(try OfflineClock(fps: 24, duration: 2).frameCount == 48)
        #expect(try OfflineClock(fps: 30, duration: 0.01).frameCount == 1)
    }

    @Test func offlineTimelineDoesNotDriftOverHours() throws {
        let clock = try OfflineClock(fps: 60, frameCount: 60 * 3600 * 5)
        #expect(clock.time(ofFrame: 60 * 3600 * 5 - 1) == Double(60 * 3600 * 5 - 1) / 60)
    }

    @Test func badRatesAndDurationsAreTypedErrors() {
        #expect(throws: DisplayError.invalidRate(0)) { try OfflineClock(fps: 0, frameCount: 1) }
        #expect(throws: DisplayError.invalidRate(.infinity)) { try DisplayLink(fps: .infinity) }
        #expect(throws: DisplayError.self) { try OfflineClock(fps: 30, duration: -1) }
        #expect(throws: DisplayError.self) { try OfflineClock(fps: 30, duration: .nan) }
    }

    @Test func displayLinkSleepsUntilAbsoluteDeadlines() throws {
        let clock = ManualClock(start: 50)
        let link = try DisplayLink(fps: 10, clock: clock)
        var times: [TimeInterval] = []
        link.run(duration: 1) { frame in
            times.append(frame.time)
            clock.current += 0.03   // each frame takes 30 ms of its 100 ms
            return true
        }
        #expect(times.count == 10)
        #expect(times == (0..<10).map { Double($0) / 10 })
        // Deadlines are t0 + k/fps, not "now + 1/fps": the 30 ms of work does not add up.
        #expect(clock.sleeps.enumerated().allSatisfy { abs($1 - (50 + Double($0 + 1) / 10)) < 1e-9 })
        #expect(link.totalDroppedFrames == 0)
    }

    @Test func lateFramesAreSkippedAndReported() throws {
        let clock = ManualClock()
        let link = try DisplayLink(fps: 10, clock: clock)
        var frames: [FrameTime] = []
        link.run(duration: 1) { frame in
            frames.append(frame)
            clock.current += frame.index == 2 ? 0.35 : 0.01   // frame 2 overruns by 2.5 frames
            return true
        }
        #expect(frames.map(\.index) == [0, 1, 2, 6, 7, 8, 9])
        #expect(frames.first { $0.index == 6 }?.droppedFrames == 3)
        #expect(link.totalDroppedFrames == 3)
    }

    @Test func callbackOrStopEndsTheRun() throws {
        let link = try DisplayLink(fps: 100, clock: ManualClock())
        var count = 0
        link.run { _ in count += 1; return count < 5 }
        #expect(count == 5)
        count = 0
        link.run { _ in
            count += 1
            if count == 3 { link.stop() }
            return true
        }
        #expect(count == 3)
    }
}
