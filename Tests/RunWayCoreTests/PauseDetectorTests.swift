import RunWayCore
import RunWaySimulator
import Testing

@Suite("Auto-pause after 8 s without movement, signal loss, manual pause, backdated moving time")
struct PauseDetectorTests {
    @Test func eightSecondsWithoutMovementPauses() {
        var detector = PauseDetector(startedAt: 0)
        _ = detector.observeFix(time: 1, speed: 3, moved: true, step: 3)
        for t in 2...8 { _ = detector.observeFix(time: Double(t), speed: 0, moved: false, step: 0) }
        #expect(detector.advance(to: 8.9).isEmpty)
        // Effective half a fix interval after the last movement: it ended between two fixes.
        #expect(detector.advance(to: 9) == [.paused(.stopped, effective: 1.5)])
        #expect(detector.pauseReason == .stopped)
    }

    @Test func movementResumesAndMovingTimeIsBackdatedBothWays() {
        var detector = PauseDetector(startedAt: 0)
        for t in 1...10 { _ = detector.observeFix(time: Double(t), speed: 3, moved: true, step: 3) }
        // Stands from t=10 to t=40; detected at 18 but effective at 10.5 (half a fix interval).
        for t in 11...40 { _ = detector.observeFix(time: Double(t), speed: 0, moved: false, step: 0) }
        #expect(detector.movingTime(at: 40) == 10.5)
        // Sets off just before 41 (speed says so), the 5 m step counts at 43: moving since 40.5.
        _ = detector.observeFix(time: 41, speed: 1.5, moved: false, step: 0)
        _ = detector.observeFix(time: 42, speed: 3, moved: false, step: 0)
        let transitions = detector.observeFix(time: 43, speed: 3, moved: true, step: 5)
        #expect(transitions == [.resumed(effective: 40.5)])
        #expect(detector.movingTime(at: 43) == 13)
    }

    @Test func signalLossPausesAfterEightSeconds() {
        var detector = PauseDetector(startedAt: 0)
        _ = detector.observeFix(time: 2, speed: 3, moved: true, step: 6)
        #expect(detector.advance(to: 10) == [.paused(.signalLost, effective: 2)])
    }

    @Test func runningThroughATunnelKeepsTheGapAsMovingTime() {
        var detector = PauseDetector(startedAt: 0)
        _ = detector.observeFix(time: 2, speed: 3, moved: true, step: 6)
        _ = detector.advance(to: 10)
        // Back after 20 s, 60 m further on: the runner never stopped.
        let transitions = detector.observeFix(time: 22, speed: 3, moved: true, step: 60)
        #expect(transitions == [.resumed(effective: 2)])
        #expect(detector.movingTime(at: 22) == 22)
    }

    @Test func manualPauseHoldsUntilManualResume() {
        var detector = PauseDetector(startedAt: 0)
        #expect(detector.manualPause(at: 5) == .paused(.manual, effective: 5))
        #expect(detector.observeFix(time: 6, speed: 3, moved: true, step: 5).isEmpty)
        #expect(detector.pauseReason == .manual)
        #expect(detector.manualResume(at: 20) == .resumed(effective: 20))
        #expect(detector.movingTime(at: 25) == 10)
    }

    @Test func pausesAreKeptWithTheReasonTheyBeganWithAndATakenBackOneIsNone() {
        var detector = PauseDetector(startedAt: 0)
        _ = detector.observeFix(time: 2, speed: 3, moved: true, step: 6)
        _ = detector.advance(to: 10)  // signal lost from 2 ...
        _ = detector.observeFix(time: 22, speed: 3, moved: true, step: 60)  // ... taken back
        #expect(detector.pauses.isEmpty)
        _ = detector.manualPause(at: 30)
        _ = detector.manualResume(at: 45)
        for t in 46...60 { _ = detector.observeFix(time: Double(t), speed: 0, moved: false, step: 0) }
        _ = detector.manualPause(at: 61)  // a stop becomes a manual pause: still the one pause
        detector.finish(at: 70)
        #expect(
            detector.pauses == [
                PauseInterval(start: 30, end: 45, reason: .manual),
                PauseInterval(start: 45.5, end: 70, reason: .stopped),
            ])
        // Together they are exactly what the moving time leaves out.
        #expect(detector.movingTime(at: 70) == 70 - detector.pauses.reduce(0) { $0 + $1.duration })
    }

    @Test func aLandedFlightCarriesItsPausesInElapsedSeconds() throws {
        let flight = try #require(SimulatedFlight.fly(Scenario.stops5k).flight)
        #expect(flight.pauses.count == 4)
        // What the pauses leave is the moving time, but for a stand before END shorter than an
        // auto-pause (the moving time ends at the last movement; no pause began).
        let paused = flight.pauses.reduce(0) { $0 + $1.duration }
        #expect(flight.elapsed - paused - flight.movingTime >= 0)
        #expect(flight.elapsed - paused - flight.movingTime < PauseDetector.Configuration().autoPauseAfter)
        #expect(flight.pauses.allSatisfy { $0.start >= 0 && $0.end <= flight.elapsed && $0.end > $0.start })
    }

    @Test func aWalkerAtOnePointThreeMetresPerSecondIsNeverAutoPaused() {
        // Exact positions, no reported speed: 5 m steps every ~4 s.
        var computer = FlightComputer()
        computer.rotate()
        let heard = computer.run(speed: 1.3, from: 0, to: 600, reportSpeed: false)
        #expect(!heard.contains(.pause(.stopped)))
        // With GPS noise and wander of a couple of metres (the simulated walker).
        let run = SimulatedFlight.fly(.walker)
        #expect(!run.callouts.map(\.callout).contains(.pause(.stopped)))
        #expect(run.flight?.status == .recorded)
    }

    @Test func touchdownWhileStandingEndsMovingTimeWhenTheRunnerStopped() {
        var detector = PauseDetector(startedAt: 0)
        for t in 1...100 { _ = detector.observeFix(time: Double(t), speed: 3, moved: true, step: 3) }
        for t in 101...105 { _ = detector.observeFix(time: Double(t), speed: 0, moved: false, step: 0) }
        detector.finish(at: 105)
        #expect(detector.movingTime(at: 105) == 100.5)
    }
}
