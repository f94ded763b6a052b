import Testing

@testable import RunWayCore

/// Issue 26: flown again at touchdown, the pause rule splits a stop inside an outage at the
/// smoothed track's step across it, not at one fix each side.
@Suite("The saved flight's stop inside an outage")
struct SavedFlightPauseTests {
    /// East at 3 m/s, a fix a second, for 100 s; no fix for 75 s, in which the runner ran 45 m,
    /// stood 45 s and ran 45 m; then 100 s more. The first fix back is `exitError` metres
    /// ahead of where the runner was (one fix's error); the rest are on the line.
    static func inputs(exitError: Double) -> [EngineInput] {
        func fix(_ seconds: Double, east: Double) -> EngineInput {
            .fix(
                Fix(
                    time: Track.t0 + seconds, coordinate: Track.coordinate(east: east),
                    horizontalAccuracy: 20,
                    speed: 3, track: 90, mode: 3))
        }
        var inputs = (1...100).map { fix(Double($0), east: 3 * Double($0)) }
        inputs.append(fix(175, east: 390 + exitError))
        inputs += (176...275).map { fix(Double($0), east: 390 + 3 * Double($0 - 175)) }
        inputs.append(.end(at: Track.t0 + 280, sentAt: nil))
        return inputs
    }

    /// Flies `inputs` live (ticks between them, as the engine hears the clock) and returns the
    /// landed flight.
    static func fly(_ inputs: [EngineInput]) throws -> Flight {
        var computer = FlightComputer(configuration: EngineConfiguration())
        computer.rotate()
        var ticker = ReplayTicker()
        _ = ticker.ticks(before: Track.t0)
        for input in inputs {
            if case .end = input { break }
            for tick in ticker.ticks(before: input, in: computer) { _ = computer.handle(.tick(tick)) }
            _ = computer.handle(input)
        }
        _ = computer.handle(.tick(Track.t0 + 280))
        return try #require(computer.end(sentAt: nil).result.flight)
    }

    /// The first fix back is 8 m ahead (eph 20, a healthy receiver's reading): the live step
    /// is 8 m long, 2.7 s of the stop counted as running. The smoothed track places the exit
    /// by the fixes after it too (2 m ahead) and, with the receiver's wander it models, the entry
    /// 3 m behind its fix, so the saved flight's split is nearer the truth but not on it.
    @Test func aStopInAnOutageIsSplitAtTheSmoothedStepNotAtOneFix() throws {
        let inputs = Self.inputs(exitError: 8)
        let live = try Self.fly(inputs)
        let saved = FlightSmoothing.smoothed(live, inputs: inputs, configuration: EngineConfiguration())
        #expect(saved.distanceMethod == .smoothed)
        // The same run with the exit's fix where the runner was: its moving time is the truth
        // as the rules count it (the run's start and end, the stop's braking and getting going).
        let truth = try Self.fly(Self.inputs(exitError: 0)).movingTime
        #expect(live.movingTime - truth > 2.5, "live \(live.movingTime), truth \(truth)")
        // On the live step the saved flight's moving time would be the live one to the digit.
        #expect(
            saved.movingTime < live.movingTime - 0.5, "saved \(saved.movingTime), live \(live.movingTime)")
        #expect(saved.movingTime - truth < 2, "saved \(saved.movingTime), truth \(truth)")
        #expect(saved.movingTime > truth, "saved \(saved.movingTime), truth \(truth)")
    }
}
