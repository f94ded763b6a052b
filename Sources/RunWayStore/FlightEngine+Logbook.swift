import RunWayCore
import RunWaySystem

/// The logbook's side of the flight engine: what an engine with a `FlightRecorder` among its
/// observers can do that one without cannot.
extension FlightEngine {
    /// The engine's recorder, if it records.
    public var recorder: FlightRecorder? { observer(FlightRecorder.self) }

    /// The flight being recorded, if any.
    public var flightID: Int64? { recorder?.flightID }

    /// The start-up decision at the first fix (`Logbook.startUp`): a flight a restart
    /// interrupted within the window is continued — its computer rebuilt from the raw log and
    /// adopted, its recording resumed from `now` — and every older open flight is closed from
    /// its raw log. Returns what was closed.
    public func startUp(now: Double) throws(StoreError) -> [RecoveredFlight] {
        guard let recorder, !computer.isFlying else { return [] }
        let startUp = try recorder.logbook.startUp(now: now, configuration: computer.configuration)
        if let resumed = startUp.resumed {
            adopt(resumed.computer)
            recorder.resume(flight: resumed.id, at: now)
        }
        return startUp.recovered
    }

    /// A replay's engine: driven on the caller's thread with `assumeIsolated`, with `observers`.
    /// Never `await` it, nor hand it to a task: its executor runs no job (it traps, so the
    /// mistake shows at once instead of hanging).
    public static func replaying(
        _ computer: FlightComputer, observers: sending [any FlightObserver] = []
    ) -> FlightEngine {
        FlightEngine(computer: computer, on: CallerThreadExecutor(), observers: observers)
    }
}
