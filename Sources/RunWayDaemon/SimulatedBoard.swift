import RunWayCore
import RunWaySimulator

/// The simulated board as a service: a built-in scenario's sensors (GPS, barometer, heart rate)
/// flown into the engine at `speed` simulated seconds per real second (nil: as fast as the
/// engine takes them). The buttons are the control socket's commands; the scenario's GPS lock
/// (its seconds before START) is flown at once, and the scenario then waits at its own START for
/// the runner's (the socket's) — so a late START flies the whole run, not what is left of it.
/// When the scenario's sensors end, the board keeps the engine's time going with a tick a
/// simulated second (at `speed`; in real time when there is none).
public struct SimulatedBoard: Service {
    public let name = "simulated board"
    public let scenario: Scenario
    public let speed: Double?
    let engine: FlightEngine
    let onSensorsEnded: @Sendable () -> Void

    public init(
        scenario: Scenario, speed: Double?, engine: FlightEngine,
        onSensorsEnded: @escaping @Sendable () -> Void = {}
    ) {
        self.scenario = scenario
        self.speed = speed
        self.engine = engine
        self.onSensorsEnded = onSensorsEnded
    }

    /// How often the board looks for the runner's START while it waits at the scenario's.
    static let startPoll = Duration.milliseconds(50)

    public func run() async throws {
        var runner = ScenarioRunner(scenario)
        // Ground truth is for scoring the engine; the board keeps none (it would grow all run).
        runner.recordsDistance = false
        runner.speedLogSeconds = 0
        let clock = ContinuousClock()
        var wallStart = clock.now
        var first: Double?
        var last = scenario.startPress
        func pace(_ time: Double) async throws {
            let t0 = first ?? time
            first = t0
            guard let speed else { return try Task.checkCancellation() }
            let due = wallStart + .milliseconds(Int((time - t0) / speed * 1000))
            if due > clock.now { try await clock.sleep(until: due) }
        }
        while let event = runner.next() {
            guard case .input(let input) = event else { continue }
            switch input {
            case .start:
                // The scenario's START press: its run begins once the runner has pressed START
                // (the engine has left preflight), however late; the pacing resumes from here.
                let waitFrom = clock.now
                while await engine.phase == .preflight {
                    try await clock.sleep(for: Self.startPoll)
                }
                wallStart += waitFrom.duration(to: clock.now)
            case .fix, .pressure, .body:
                try await pace(input.time)
                await engine.handle(input)
                last = input.time
            default:
                continue  // the scenario's own button presses: here the socket presses them
            }
        }
        onSensorsEnded()
        while true {
            last += 1
            if speed == nil {
                // After the run, real time: as fast as the engine takes ticks, the runner left
                // standing at the finish was landed by the 30-minute standstill rule within a
                // second or two of wall time, and a STOP sent after the end on a loaded machine
                // found "not flying" (a test that failed once in a few hundred runs).
                try await clock.sleep(for: .seconds(1))
            } else {
                try await pace(last)
            }
            await engine.handle(.tick(last))
        }
    }
}
