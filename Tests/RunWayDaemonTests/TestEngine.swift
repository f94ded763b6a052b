import Foundation
import RunWayCore
import RunWayStore
import RunWaySystem

/// runwayd's engine as a test makes it: on a thread of its own, as the daemon's is.
struct TestEngine: Sendable {
    let engine: FlightEngine
    let executor: ThreadExecutor

    init(
        logbook: sending Logbook? = nil, source: String = "live", observers: sending [any FlightObserver] = []
    ) {
        executor = ThreadExecutor(name: "test engine")
        var all = observers
        if let logbook { all.insert(FlightRecorder(logbook: logbook, source: source), at: 0) }
        engine = FlightEngine(on: executor, observers: all)
    }

    /// Closes the engine (a flight in the air is committed) and joins its thread.
    func close() async {
        await engine.close()
        await executor.shutdown()
    }
}

extension FlightEngine {
    /// Blocks the engine's thread for `seconds`: how tests stand in for a write that hangs.
    /// Returns when the stall began and ended (monotonic seconds).
    func stall(seconds: Double) -> (began: Double, ended: Double) {
        let began = MonotonicInstant.now.seconds
        Thread.sleep(forTimeInterval: seconds)
        return (began, MonotonicInstant.now.seconds)
    }
}

/// Forwards every input's outputs to `heard`, as they happen on the engine's thread.
final class OutputTap: FlightObserver, Sendable {
    let heard: @Sendable ([EngineOutput]) -> Void
    init(_ heard: @escaping @Sendable ([EngineOutput]) -> Void) { self.heard = heard }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        if case .flew(_, let outputs) = event { heard(outputs) }
    }
}

/// Tells `observer` what one input caused, as an engine would (on this thread).
func tell(_ observer: any FlightObserver & Sendable, _ outputs: [EngineOutput]) {
    let engine = FlightEngine(on: CallerThreadExecutor())
    engine.assumeIsolated { engine in observer.engine(engine, told: .flew(.tick(0), outputs)) }
}
