import Testing

@testable import RunWayCore

/// Issue 26: a signal gap over a change of pace. The first reading back under `edgeShare` of
/// the pace before the gap is a getting-going one only when the readings after it rise as a
/// runner's getting going does; one that stays at a new, slower pace (an interval's recovery)
/// is the runner running on. With random short outages, a rep ending inside one was booked with
/// a stop at the gap's end: 16 s of a run without stops ("intervals 6 × 400 m").
@Suite("A signal gap over a change of pace")
struct PaceChangeInGapTests {
    /// 100 s of a rep at 5 m/s, then the signal goes.
    static func rep() -> PauseDetector { .runningThenSignalLost(speed: 5) }

    /// Back after 15 s, 45 m on (10 s of 5 m/s down to 2 m/s, then the recovery), reading 2 m/s
    /// and staying there: all of the gap was running.
    @Test func aRecoveryPaceAfterTheGapIsRunningOn() {
        var detector = Self.rep()
        for t in 115...118 {
            _ = detector.observeFix(
                time: Double(t), speed: t == 116 ? 1.9 : 2.05, moved: true, step: t == 115 ? 45 : 2,
                speedIsDoppler: true)
        }
        #expect(!detector.isPaused)
        #expect(detector.pauses.isEmpty)
        #expect(detector.movingTime(at: 118) == 118)
    }

    /// The same first reading back, then the runner's getting going (1.5 m/s² to the pace): a
    /// runner who stood at the gap's end, and the stop is kept there.
    @Test func aRisingReadingAfterTheGapIsGettingGoing() throws {
        var detector = Self.rep()
        let speeds = [2.0, 3.5, 5, 5]
        for (k, speed) in speeds.enumerated() {
            _ = detector.observeFix(
                time: Double(115 + k), speed: speed, moved: true, step: k == 0 ? 45 : speed,
                speedIsDoppler: true)
        }
        #expect(!detector.isPaused)
        let stop = try #require(detector.pauses.first)
        // It resumes half a fix interval before the first moving reading back.
        #expect(stop.reason == .signalLost && stop.end == 114.5, "\(detector.pauses)")
        // The gap's running at the pace before it (45 m at 5 m/s) and the braking: the rest stood.
        let running = 45.0 / 5 + detector.configuration.pullingUpCost(speed: 5)
        #expect(abs(stop.start - (100 + running)) < 1e-9)
    }
}
