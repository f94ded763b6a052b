import RunWayCore
import RunWaySimulator
import RunWayStore

/// A 1 Hz endurance flight streamed from the simulator through the engine, nothing else held:
/// what landed.
func streamedEnduranceFlight(hours: Double) -> Flight? {
    streamedFlight(.endurance(hours: hours, rate: 1))
}

/// A scenario streamed through the engine: what landed.
func streamedFlight(_ scenario: Scenario) -> Flight? {
    var runner = ScenarioRunner(scenario)
    runner.recordsDistance = false
    runner.speedLogSeconds = 0
    let engine = FlightEngine.replaying(FlightComputer())
    return engine.assumeIsolated { engine in
        var flight: Flight?
        while let event = runner.next() {
            switch event {
            case .input(let input): engine.handle(input)
            case .end(let sentAt): flight = engine.end(sentAt: sentAt).result.flight
            }
        }
        return flight
    }
}
