import RunWayCore
import Testing

@Suite("Phases: preflight → takeoff (3-2-1) → ROTATE → cruise → approach → touchdown")
struct PhaseTests {
    @Test func countdownThenRotateThreeSecondsAfterStart() {
        var computer = FlightComputer()
        var heard = callouts(computer.handle(.start(at: Track.t0, mission: nil, countdown: true)))
        #expect(computer.phase == .takeoff)
        for t in 1...4 { heard += callouts(computer.handle(.tick(Track.t0 + Double(t)))) }
        #expect(heard == [.countdown(3), .countdown(2), .countdown(1), .rotate])
        #expect(computer.phase == .cruise)
    }

    @Test func endDuringTheCountdownAbandonsTheTakeoff() {
        var computer = FlightComputer()
        _ = computer.handle(.start(at: Track.t0, mission: nil, countdown: true))
        _ = computer.handle(.tick(Track.t0 + 1))
        #expect(computer.end(sentAt: Track.t0 + 1).result == .abandonedTakeoff)
        #expect(computer.phase == .preflight)
        // The countdown does not carry on into a flight.
        #expect(callouts(computer.handle(.tick(Track.t0 + 10))).isEmpty)
        #expect(!computer.isFlying)
    }

    @Test func pauseDuringTheCountdownAbandonsTheTakeoff() {
        var computer = FlightComputer()
        _ = computer.handle(.start(at: Track.t0, mission: nil, countdown: true))
        _ = computer.handle(.togglePause(at: Track.t0 + 2))
        #expect(computer.phase == .preflight)
    }

    @Test func touchdownStopsTheRunAtOnce() {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 0, to: 300)
        let flight = computer.land()
        #expect(computer.phase == .touchdown)
        // Fixes after touchdown add no distance and sound no splits (seed 002).
        let heard = computer.run(speed: 3, from: 301, to: 800, startEast: 903)
        #expect(heard.isEmpty)
        #expect(computer.pfd.distance == 0)
        #expect(flight.map { $0.distance < 910 } == true)
    }

    @Test func signalQualityGrades() {
        #expect(SignalQuality(accuracy: nil) == .noSignal)
        #expect(SignalQuality(accuracy: 0) == .noSignal)
        #expect(SignalQuality(accuracy: 9.9) == .strong)
        #expect(SignalQuality(accuracy: 29) == .good)
        #expect(SignalQuality(accuracy: 30) == .weak)
        #expect(SignalQuality.good.passesChecklist && !SignalQuality.weak.passesChecklist)
    }
}
