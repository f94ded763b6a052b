import RunWayCore
import RunWaySimulator
import RunWaySystem
import Testing

/// The engine's replay on `computer` (as recovery and `fly` do it), on this thread.
func replay(_ inputs: [EngineInput], into computer: inout FlightComputer) {
    let engine = FlightEngine(computer: computer, on: CallerThreadExecutor())
    computer = engine.assumeIsolated { engine in
        engine.replay(inputs)
        return engine.computer
    }
}

/// Hears every event, in order; one that `posts` posts news of its own at takeoff.
final class EventLog: FlightObserver, @unchecked Sendable {
    // @unchecked Sendable: `events` is only touched on the engine's executor (where observers
    // are called) and read by the test after the engine has closed and its thread ended.
    struct Takeoff: FlightNews {}
    private(set) var events: [String] = []
    let name: String
    let posts: Bool
    init(_ name: String, posts: Bool = false) { (self.name, self.posts) = (name, posts) }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        switch event {
        case .flew(let input, let outputs):
            events.append("\(name) flew \(input.time)")
            if posts, outputs.contains(where: { if case .began = $0 { true } else { false } }) {
                engine.post(Takeoff())
            }
        case .news(let news): events.append("\(name) news \(news is Takeoff ? "takeoff" : "?")")
        case .closing: events.append("\(name) closing")
        }
    }
}

@Suite("FlightEngine actor: observers hear everything in order, the whole flight back at END")
struct FlightEngineTests {
    @Test func calloutsAndStatesAreStreamedAndTheFlightComesBackWhole() async {
        let executor = ThreadExecutor(name: "test engine")
        let streams = FlightStreams()
        let engine = FlightEngine(on: executor, observers: [streams])
        let (events, _) = ScenarioRunner.events(for: .flat5k)
        let collector = Task {
            var heard: [Callout] = []
            for await callout in streams.callouts { heard.append(callout.callout) }
            return heard
        }
        var result: EndResult = .notFlying
        for event in events {
            switch event {
            case .input(let input): await engine.handle(input)
            case .end(let sentAt): result = await engine.end(sentAt: sentAt).result
            }
        }
        await engine.close()
        await executor.shutdown()
        let heard = await collector.value
        #expect(heard.prefix(4) == [.countdown(3), .countdown(2), .countdown(1), .rotate])
        #expect(heard.last == .touchdown)
        #expect(heard.filter { if case .split = $0 { true } else { false } }.count == 4)
        let flight = result.flight
        #expect(flight?.splits.count == 5)
        #expect(flight.map { abs($0.distance - 5000) < 75 } == true)
        var latest: PFD?
        for await state in streams.states { latest = state }
        #expect(latest?.phase == .touchdown)
    }

    @Test func aConsumerThatStopsListeningDoesNotEndTheFlight() async {
        let executor = ThreadExecutor(name: "test engine")
        let streams = FlightStreams()
        let engine = FlightEngine(on: executor, observers: [streams])
        let listener = Task { for await _ in streams.states {} }
        await engine.handle(.start(at: Track.t0, mission: nil, countdown: false))
        listener.cancel()
        for t in 0...60 {
            await engine.handle(.fix(Track.fix(Double(t), east: 3 * Double(t), speed: 3)))
        }
        #expect(await engine.phase == .cruise)
        #expect(await engine.pfd.distance > 150)
        await executor.shutdown()
    }

    /// Each event goes to every observer in their order; news an observer posts is told to all
    /// as soon as it returns (so `b`, after the poster, hears the news before the next input),
    /// never inside the poster's own call; `.closing` comes last.
    @Test func observersHearEachEventInOrderAndPostedNewsAfterIt() async {
        let executor = ThreadExecutor(name: "test engine")
        let (a, b, c) = (EventLog("a"), EventLog("b", posts: true), EventLog("c"))
        let engine = FlightEngine(on: executor, observers: [a, b, c])
        await engine.handle(.start(at: 100, mission: nil, countdown: false))
        await engine.handle(.tick(101))
        await engine.close()
        await executor.shutdown()
        #expect(
            a.events == ["a flew 100.0", "a news takeoff", "a flew 101.0", "a closing"])
        #expect(
            b.events == ["b flew 100.0", "b news takeoff", "b flew 101.0", "b closing"])
        // c hears the news before the takeoff it is about: told right after its poster returned.
        #expect(
            c.events == ["c news takeoff", "c flew 100.0", "c flew 101.0", "c closing"])
    }

    /// A replay drives the same actor synchronously on its caller's thread.
    @Test func aReplayFliesTheSameEngineOnTheCallersThread() {
        let log = EventLog("r")
        let engine = FlightEngine(on: CallerThreadExecutor(), observers: [log])
        let landed = engine.assumeIsolated { engine in
            engine.handle(.start(at: 100, mission: nil, countdown: false))
            engine.replay((1...30).map { .fix(Track.fix(Double($0), east: 3 * Double($0), speed: 3)) })
            return engine.end(sentAt: nil).result
        }
        #expect(landed != .notFlying)
        #expect(log.events.first == "r flew 100.0")
        #expect(log.events.count > 30)
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
