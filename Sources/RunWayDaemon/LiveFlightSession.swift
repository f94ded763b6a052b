import Foundation
import RunWayCore
import RunWaySystem
import RunWayStore

/// The live pipeline: a `FlightSession` inside an actor that runs on a thread of its own
/// (`ThreadExecutor`), so the recorder's durable writes never block Swift's cooperative pool.
/// The PFD and callouts also leave on streams, as from `FlightEngine` (newest PFD only; the
/// newest 256 callouts), for a display, the buzzer and control-socket subscribers.
public actor LiveFlightSession {
    private let executor: ThreadExecutor
    private let session: FlightSession
    public nonisolated let states: AsyncStream<PFD>
    public nonisolated let callouts: AsyncStream<TimedCallout>
    private let stateContinuation: AsyncStream<PFD>.Continuation
    private let calloutContinuation: AsyncStream<TimedCallout>.Continuation

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let heard: @Sendable ([EngineOutput]) -> Void

    /// - Parameters:
    ///   - report: told of stores and failures (on the session's thread).
    ///   - heard: every input's outputs, on the session's thread, as they happen (the buzzer's
    ///     annunciator); it must not wait.
    public init(
        logbook: Logbook?, source: String = "live", computer: FlightComputer = FlightComputer(),
        report: @escaping @Sendable (FlightSession.Report) -> Void = { _ in },
        heard: @escaping @Sendable ([EngineOutput]) -> Void = { _ in }
    ) {
        self.heard = heard
        executor = ThreadExecutor(name: "flight session")
        session = FlightSession(computer: computer, logbook: logbook, source: source, report: report)
        (states, stateContinuation) = AsyncStream.makeStream(
            of: PFD.self, bufferingPolicy: .bufferingNewest(1))
        (callouts, calloutContinuation) = AsyncStream.makeStream(
            of: TimedCallout.self, bufferingPolicy: .bufferingNewest(256))
    }

    /// Whether this runs on the session's own thread (it always should: tests check).
    public var runsOnItsOwnThread: Bool { executor.isCurrentThread }

    /// Inputs handled so far: the pipeline's progress, which the watchdog checks.
    public private(set) var handled = 0

    public var pfd: PFD { session.computer.pfd }
    public var phase: FlightPhase { session.computer.phase }
    public var isFlying: Bool { session.computer.isFlying }
    /// The flight being recorded, if any.
    public var flightID: Int64? { session.recorder?.flightID }

    /// Flies one input; returns what the engine said (and publishes it on the streams).
    @discardableResult
    public func handle(_ input: EngineInput) -> [EngineOutput] {
        let outputs = session.handle(input)
        handled += 1
        heard(outputs)
        for output in outputs {
            switch output {
            case .state(let state): stateContinuation.yield(state)
            case .callout(let callout): calloutContinuation.yield(callout)
            case .began, .ended: break
            }
        }
        return outputs
    }

    /// Blocks the session's thread for `seconds`: how tests stand in for a write that hangs.
    /// Returns when the stall began and ended (monotonic seconds).
    func stall(seconds: Double) -> (began: Double, ended: Double) {
        let began = MonotonicInstant.now.seconds
        Thread.sleep(forTimeInterval: seconds)
        return (began, MonotonicInstant.now.seconds)
    }

    /// See `FlightSession.startUp(now:)`: at the first fix.
    public func startUp(now: Double) throws(StoreError) -> [RecoveredFlight] {
        try session.startUp(now: now)
    }

    /// Commits a flight in the air (it stays open), ends the streams, then the session's thread
    /// (after the jobs already queued).
    public nonisolated func close() async {
        await finish()
        await executor.shutdown()
    }

    private func finish() {
        session.commitForShutdown()
        stateContinuation.finish()
        calloutContinuation.finish()
    }
}
