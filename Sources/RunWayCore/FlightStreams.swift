/// The engine's outputs as streams, for whoever reads them at their own pace (the control
/// socket's subscribers, a display): the newest PFD only (a display wants the present, not a
/// backlog) and the newest 256 callouts (far more than a run can queue between two reads). An
/// observer like the others; a reader that stops reading holds up nothing.
public final class FlightStreams: FlightObserver, Sendable {
    public let states: AsyncStream<PFD>
    public let callouts: AsyncStream<TimedCallout>
    private let stateContinuation: AsyncStream<PFD>.Continuation
    private let calloutContinuation: AsyncStream<TimedCallout>.Continuation

    public init() {
        (states, stateContinuation) = AsyncStream.makeStream(
            of: PFD.self, bufferingPolicy: .bufferingNewest(1))
        (callouts, calloutContinuation) = AsyncStream.makeStream(
            of: TimedCallout.self, bufferingPolicy: .bufferingNewest(256))
    }

    deinit { finish() }

    public func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        switch event {
        case .flew(_, let outputs):
            for output in outputs {
                switch output {
                case .state(let state): stateContinuation.yield(state)
                case .callout(let callout): calloutContinuation.yield(callout)
                case .began, .ended: break
                }
            }
        case .news: break
        case .closing: finish()
        }
    }

    /// Ends both streams.
    public func finish() {
        stateContinuation.finish()
        calloutContinuation.finish()
    }
}
