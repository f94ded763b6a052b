import Testing

@testable import RunWayCore

/// Issue 26: the signal comes back on a runner who stands (its own reading says so), at the
/// step back or a few seconds after it. The gap is judged then, not at the resume a minute
/// later: random short outages over "stops in urban wander" booked 28–90 s of standing at a
/// light as moving time in 7 runs of 20.
@Suite("A signal gap that ends on a standing runner")
struct GapToStandingTests {
    /// 100 s of running at 3 m/s before the gap.
    static func running() -> PauseDetector { .runningThenSignalLost(speed: 3) }

    /// Runs on from `from` at 3 m/s until `to`.
    static func runOn(_ detector: inout PauseDetector, from: Int, to: Int) {
        for t in from...to {
            _ = detector.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
    }

    /// Back after 16 s, 30 m on, reading 0: ran 10 s into the gap (and braked), then stood
    /// until it set off at 176. Before: the whole gap and the minute stood after it were moving.
    @Test func aRunnerStandingAsTheSignalCameBackStoodSinceItsRunningEnded() {
        var detector = Self.running()
        _ = detector.observeFix(time: 116, speed: 0, moved: true, step: 30, speedIsDoppler: true)
        // One reading may be the receiver's glitch as it reacquires; the second settles it.
        #expect(detector.pauseReason == .signalLost)
        let settled = detector.observeFix(time: 117, speed: 0, moved: false, step: 0, speedIsDoppler: true)
        #expect(detector.pauseReason == .stopped)
        let gap = 10 + 2.5 * 2.5 / 6 / 2  // 30 m at 3 m/s, and braking from it at 2 m/s²
        // Said as it happens: the pause goes on as a stop, from where the gap's running ended.
        guard case .paused(.stopped, let from)? = settled.first, settled.count == 1 else {
            Issue.record("settling the gap said \(settled)")
            return
        }
        #expect(abs(from - (100 + gap)) < 1e-9)
        for t in 118...175 {
            _ = detector.observeFix(time: Double(t), speed: 0, moved: false, step: 0, speedIsDoppler: true)
        }
        #expect(abs(detector.movingTime(at: 175) - (100 + gap)) < 1e-9)
        Self.runOn(&detector, from: 176, to: 180)
        // The streak that began at 176 resumes half a fix interval before it.
        #expect(abs(detector.movingTime(at: 180) - (100 + gap + 4.5)) < 1e-9)
        #expect(detector.pauses.map(\.reason) == [.stopped])
    }

    /// Back after 12 s, 36 m on, running; a second more at 3 m/s, then braking and standing for
    /// a minute: the gap was run through, and so was the second after it. Before: the minute
    /// stood was moving time too.
    @Test func aRunnerWhoRanOutOfTheGapToAStopStoodSinceItsLastRunningReading() {
        var detector = Self.running()
        _ = detector.observeFix(time: 112, speed: 3, moved: true, step: 36, speedIsDoppler: true)
        _ = detector.observeFix(time: 113, speed: 3, moved: false, step: 0, speedIsDoppler: true)
        #expect(detector.pauseReason == .signalLost)
        for t in 114...170 {
            let speed = t == 114 ? 0.3 : 0
            _ = detector.observeFix(
                time: Double(t), speed: speed, moved: false, step: 0, speedIsDoppler: true)
        }
        #expect(detector.pauseReason == .stopped)
        #expect(abs(detector.movingTime(at: 170) - 113.5) < 1e-9)
        Self.runOn(&detector, from: 171, to: 180)
        #expect(abs(detector.movingTime(at: 180) - (113.5 + 9.5)) < 1e-9)
        #expect(detector.pauses == [PauseInterval(start: 113.5, end: 170.5, reason: .stopped)])
    }

    /// Back after 60 s, 90 m on, running (30 s of it at 3 m/s: a stop inside the gap), then
    /// standing: the stop inside the gap is a pause of its own beside the stand after it, so
    /// the pauses and the moving time agree. It was left out of the pauses.
    @Test func aStopInsideTheGapKeepsItsPauseWhenTheGapIsSettled() throws {
        var detector = Self.running()
        _ = detector.observeFix(time: 160, speed: 3, moved: true, step: 90, speedIsDoppler: true)
        _ = detector.observeFix(time: 161, speed: 0.3, moved: false, step: 0, speedIsDoppler: true)
        _ = detector.observeFix(time: 162, speed: 0, moved: false, step: 0, speedIsDoppler: true)
        #expect(detector.pauseReason == .stopped)
        let inside = try #require(detector.pauses.first)
        #expect(detector.pauses.count == 1 && inside.reason == .signalLost)
        // The moving time is the flight less its pauses: 100 s before, the gap's running round
        // the stop inside it, and the half second after the step back.
        #expect(abs(detector.movingTime(at: 162) - (162 - (inside.end - inside.start) - 1.5)) < 1e-9)
        #expect(abs(inside.end - inside.start - (60 - 30 - 1.215)) < 0.01)
    }

    /// A standing reading as the signal comes back, then running ones: that reading was the
    /// glitch, and the gap is judged as any other (48 m in 16 s at 3 m/s: run through).
    @Test func oneStandingReadingBackThenRunningIsAGlitch() {
        var detector = Self.running()
        _ = detector.observeFix(time: 116, speed: 0, moved: true, step: 48, speedIsDoppler: true)
        Self.runOn(&detector, from: 117, to: 120)
        #expect(detector.pauseReason == nil)
        #expect(detector.movingTime(at: 120) == 120)
        #expect(detector.pauses.isEmpty)
    }

    /// One fix 9 s into the gap (27 m on, running), then 84 s more of silence holding a 45 s
    /// stop, and the runner comes back running 117 m further: the gap runs from the pause to
    /// the second step back, and the stop is in it. Judged on the first step alone (27 m in
    /// 9 s: run through), the whole silence after it was moving time.
    @Test func aFixBetweenTwoSilencesDoesNotEndTheGap() throws {
        var detector = Self.running()
        _ = detector.observeFix(time: 109, speed: 3, moved: true, step: 27, speedIsDoppler: true)
        #expect(detector.pauseReason == .signalLost)
        _ = detector.observeFix(time: 193, speed: 3, moved: true, step: 117, speedIsDoppler: true)
        Self.runOn(&detector, from: 194, to: 196)
        #expect(detector.pauseReason == nil)
        let stop = try #require(detector.pauses.first)
        #expect(detector.pauses.count == 1 && stop.reason == .signalLost)
        // 144 m at 3 m/s, and a stop's braking and getting going: the rest of the 93 s stood.
        let stood = 93 - 48 - detector.configuration.stopCost(speed: 3)
        #expect(abs(stop.end - stop.start - stood) < 1e-9, "\(detector.pauses)")
    }

    /// A receiver without Doppler says nothing of standing: its step back is the evidence, and
    /// the gap is judged as it resumes (the staircase: 30 m in 16 s was running).
    @Test func withoutDopplerTheStepBackResumes() {
        var detector = Self.running()
        let transitions = detector.observeFix(time: 116, speed: 0, moved: true, step: 30)
        #expect(transitions == [.resumed(effective: 100)])
    }
}
