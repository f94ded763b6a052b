/// The flight engine: one actor that owns the flight.
///
/// Sensors and controls call `handle(_:)` with timestamped inputs; the live readout and the
/// callouts leave on two streams. The PFD stream keeps only the newest state (a display wants the
/// present, not a backlog); the callout stream keeps the newest 256, far more than a run can
/// queue between two reads. `end(sentAt:)` returns the whole `Flight` from the actor, so no
/// consumer has to rebuild a flight from a stream (the seed lost its last split that way). The
/// flight's lifecycle belongs here: a consumer that stops listening never ends, resets or pauses
/// a flight.
public actor FlightEngine {
    private var computer: FlightComputer
    public nonisolated let states: AsyncStream<PFD>
    public nonisolated let callouts: AsyncStream<TimedCallout>
    private let stateContinuation: AsyncStream<PFD>.Continuation
    private let calloutContinuation: AsyncStream<TimedCallout>.Continuation

    public init(configuration: EngineConfiguration = EngineConfiguration()) {
        computer = FlightComputer(configuration: configuration)
        (states, stateContinuation) = AsyncStream.makeStream(
            of: PFD.self, bufferingPolicy: .bufferingNewest(1))
        (callouts, calloutContinuation) = AsyncStream.makeStream(
            of: TimedCallout.self, bufferingPolicy: .bufferingNewest(256))
    }

    deinit {
        stateContinuation.finish()
        calloutContinuation.finish()
    }

    public var pfd: PFD { computer.pfd }
    public var phase: FlightPhase { computer.phase }
    public var isFlying: Bool { computer.isFlying }
    /// The current flight's ROTATE time, and its mission (see `FlightComputer`).
    public var rotateTime: Double? { computer.rotateTime }
    public var mission: Mission? { computer.mission }

    /// Handles one input; returns what it caused (the streams carry the callouts and states too).
    @discardableResult
    public func handle(_ input: EngineInput) -> [EngineOutput] {
        let outputs = computer.handle(input)
        publish(outputs)
        return outputs
    }

    public func handle(contentsOf inputs: [EngineInput]) {
        for input in inputs { publish(computer.handle(input)) }
    }

    /// END, obeying the stale-stop rule. A landed flight comes back whole.
    public func end(sentAt: Double?) -> EndResult {
        let (result, outputs) = computer.end(sentAt: sentAt)
        publish(outputs)
        return result
    }

    /// Ends both streams (shutdown).
    public func close() {
        stateContinuation.finish()
        calloutContinuation.finish()
    }

    private func publish(_ outputs: [EngineOutput]) {
        for output in outputs {
            switch output {
            case .state(let state): stateContinuation.yield(state)
            case .callout(let callout): calloutContinuation.yield(callout)
            case .began, .ended: break
            }
        }
    }
}
