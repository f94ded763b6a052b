import RunWayCore
import RunWaySimulator
import Testing

@Suite("FlightEngine actor: streams out, the whole flight back at END")
struct FlightEngineTests {
    @Test func calloutsAndStatesAreStreamedAndTheFlightComesBackWhole() async {
        let engine = FlightEngine()
        let (events, _) = ScenarioRunner.events(for: .flat5k)
        let collector = Task {
            var heard: [Callout] = []
            for await callout in engine.callouts { heard.append(callout.callout) }
            return heard
        }
        var result: EndResult = .notFlying
        for event in events {
            switch event {
            case .input(let input): await engine.handle(input)
            case .end(let sentAt): result = await engine.end(sentAt: sentAt)
            }
        }
        await engine.close()
        let heard = await collector.value
        #expect(heard.prefix(4) == [.countdown(3), .countdown(2), .countdown(1), .rotate])
        #expect(heard.last == .touchdown)
        #expect(heard.filter { if case .split = $0 { true } else { false } }.count == 4)
        let flight = result.flight
        #expect(flight?.splits.count == 5)
        #expect(flight.map { abs($0.distance - 5000) < 75 } == true)
        var latest: PFD?
        for await state in engine.states { latest = state }
        #expect(latest?.phase == .touchdown)
    }

    @Test func aConsumerThatStopsListeningDoesNotEndTheFlight() async {
        let engine = FlightEngine()
        let listener = Task { for await _ in engine.states {} }
        await engine.handle(.start(at: Track.t0, mission: nil, countdown: false))
        listener.cancel()
        for t in 0...60 {
            await engine.handle(.fix(Track.fix(Double(t), east: 3 * Double(t), speed: 3)))
        }
        #expect(await engine.phase == .cruise)
        #expect(await engine.pfd.distance > 150)
    }

    @Test func theEngineNeverReadsAClockSoReplaysAreIdentical() {
        let a = SimulatedFlight.fly(.demoMission)
        let b = SimulatedFlight.fly(.demoMission)
        #expect(a.flight == b.flight)
        #expect(a.callouts == b.callouts)
    }
}

@Suite("Simulated board: the demo mission sounds every callout it should")
struct SimulatedBoardTests {
    @Test func theDemoMissionFliesEveryRule() {
        let run = SimulatedFlight.fly(.demoMission)
        let heard = run.callouts.map(\.callout)
        #expect(heard.contains(.sinkRate))
        #expect(heard.contains(.overspeed))
        #expect(heard.filter { $0 == .minimums }.count == 1)
        #expect(heard.contains(.pause(.stopped)))
        #expect(heard.contains(.resume))
        #expect(heard.last == .touchdown)
        let flight = run.flight
        #expect(flight?.splits.count == 6)
        #expect(flight?.splits.last.map { $0.distance > 100 && $0.distance < 1000 } == true)
        #expect(flight.map { abs($0.elevationGain - 20) < 1 } == true)
        #expect((flight?.paceAlertCount ?? 0) >= 2)
    }

    @Test func groundTruthIsKept() {
        let run = SimulatedFlight.fly(.stops5k)
        #expect(run.truth.stopCount == 4)
        #expect(run.truth.kilometreTimes.count == 5)
        #expect(abs(run.truth.distance - 5000) < 0.01)
    }

    @Test func signalGapsPauseAndResumeWithoutLosingTheRun() {
        var scenario = Scenario.flat5k.ending(at: 2000)
        scenario.signalGaps = [Scenario.SignalGap(start: 300, seconds: 20)]
        let run = SimulatedFlight.fly(scenario)
        let heard = run.callouts.map(\.callout)
        #expect(heard.contains(.signalLost))
        #expect(heard.contains(.resume))
        // The runner kept running through the gap: distance and moving time keep it.
        let score = AccuracyScore(run)
        #expect(abs(score.distanceErrorPercent) < 1.5)
        #expect(abs(score.movingTimeError) < 3)
    }
}
