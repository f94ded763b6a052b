import RunWayCore

/// One board's pipeline, as a type: every input goes to the engine, then what the engine said
/// goes on. A flight that began (`.began`) opens its row in the logbook at its ROTATE time; every
/// input of a flight is recorded (committed every 4 s); a landed flight (`.ended(.landed)`) is
/// stored, or removed when under 100 m. Demo, replay, bench and the daemon all fly through it, so
/// nobody wires engine to recorder by hand or polls the engine's state after each input.
///
/// Synchronous and single-threaded, like `FlightComputer`: the recorder's durable writes
/// (`fdatasync`) block, so a live caller runs it off Swift's cooperative pool
/// (`LiveFlightSession` gives it a thread of its own).
public final class FlightSession {
    /// What the session did beyond the engine's outputs.
    public enum Report: Sendable, Equatable {
        /// The landed flight is in the logbook, or was not recorded (under 100 m).
        case stored(FlightRecorder.Landing)
        /// Storing the landed flight failed: the raw log is kept up to `committedUntil`.
        case storeFailed(StoreError, flight: Flight, committedUntil: Double?)
        /// Recording paused (a full card, a failed device): said once until a write succeeds.
        case recordingFailed(StoreError)
    }

    public private(set) var computer: FlightComputer
    public let recorder: FlightRecorder?
    public let source: String
    private let report: (Report) -> Void

    /// - Parameters:
    ///   - recorder: where flights are recorded; nil flies without a logbook.
    ///   - source: what the logbook says the flights came from (`live`, `demo`, `fly FILE`).
    ///   - report: told of stores and failures, on the session's thread.
    public init(
        computer: FlightComputer = FlightComputer(), logbook: Logbook?, source: String = "live",
        report: @escaping (Report) -> Void = { _ in }
    ) {
        self.computer = computer
        self.source = source
        self.report = report
        recorder = logbook.map { logbook in FlightRecorder(logbook: logbook) { report(.recordingFailed($0)) }
        }
    }

    /// Continues a flight the logbook already holds (`Logbook.startUp`): its rebuilt engine,
    /// recording from `time` on.
    public func resume(flight id: Int64, computer: FlightComputer, at time: Double) {
        self.computer = computer
        recorder?.resume(flight: id, at: time)
    }

    /// The start-up decision at the first fix (`Logbook.startUp`): a flight a restart interrupted
    /// within the window is continued — its engine rebuilt from the raw log — and every older
    /// open flight is closed from its raw log. Returns what was closed.
    public func startUp(now: Double) throws(StoreError) -> [RecoveredFlight] {
        guard let recorder, !computer.isFlying else { return [] }
        let startUp = try recorder.logbook.startUp(now: now, configuration: computer.configuration)
        if let resumed = startUp.resumed { resume(flight: resumed.id, computer: resumed.computer, at: now) }
        return startUp.recovered
    }

    /// Shutdown with a flight in the air: its raw log is committed up to the last input and the
    /// flight stays open, so a restart within the window continues it.
    public func commitForShutdown() {
        guard computer.isFlying, let recorder else { return }
        recorder.commit(until: computer.now)  // a failure is reported through `.recordingFailed`
    }

    /// Flies one input; returns what the engine said.
    @discardableResult
    public func handle(_ input: EngineInput) -> [EngineOutput] {
        let outputs = computer.handle(input)
        for output in outputs {
            if case .began(let rotate, _, let mission) = output, let recorder {
                do {
                    try recorder.begin(at: rotate, mission: mission, source: source)
                } catch {
                    report(.recordingFailed(error))
                }
            }
        }
        if computer.isFlying { recorder?.record(input) }
        for case .ended(.landed(let flight)) in outputs { land(flight) }
        return outputs
    }

    private func land(_ flight: Flight) {
        guard let recorder else { return }
        do {
            if let landing = try recorder.land(flight) { report(.stored(landing)) }
        } catch {
            report(.storeFailed(error, flight: flight, committedUntil: recorder.committedUntil))
        }
    }
}
