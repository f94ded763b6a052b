import Foundation
import RunWayControl
import RunWayCore
import RunWaySystem
import Synchronization

/// Forwards the engine's callouts, and its state at most once a second, to subscribers.
struct Broadcaster: Service {
    let name = "broadcaster"
    let streams: FlightStreams
    let server: ControlServer
    let control: SessionControl

    /// Ends when cancelled: the child tasks are cancelled with it, and their `for await` loops end.
    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await callout in streams.callouts {
                    server.broadcast(ControlEvent(callout: callout).line)
                }
            }
            group.addTask {
                let clock = ContinuousClock()
                var last = clock.now - .seconds(2)
                for await state in streams.states where clock.now - last >= .seconds(1) {
                    last = clock.now
                    server.broadcast(ControlEvent(state: state, board: await control.board()).line)
                }
            }
            await group.waitForAll()
        }
    }
}

/// READY=1 once the daemon serves; WATCHDOG=1 only when the flight engine's thread has
/// answered since the last ping — a timer alone proves nothing, and an engine stuck in a write
/// or a loop must get the daemon restarted. (The engine's progress is not counted in inputs: a
/// board waiting for its first fix gets none and is not hung.) Without a watchdog it sleeps until
/// shutdown; meanwhile it sends the STATUS= lines `StatusReporter` gathers as the flight changes.
struct Notifier: Service {
    let name = "systemd notifier"
    let engine: FlightEngine
    let log: DaemonLog
    /// Returns when the daemon can serve (true) or cannot (false: the control socket could not
    /// be made): READY=1 means the control socket answers.
    let readyWhen: @Sendable () async -> Bool
    /// Half of systemd's `WatchdogSec=` (nil: no watchdog).
    var watchdogInterval = Systemd.watchdogInterval
    var notify: @Sendable (String) -> Void = { _ = Systemd.notify($0) }

    /// Where STATUS= lines come from.
    var status = StatusReporter()

    func run() async throws {
        guard await readyWhen() else {
            // The socket's service failed, which ends the daemon: systemd must not hear READY=1
            // for a daemon that serves nothing. Wait to be cancelled with the rest.
            await Trigger().wait()
            throw CancellationError()
        }
        try Task.checkCancellation()
        notify("READY=1")
        log.log(.notice, "ready")
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                // A send that blocks (systemd slow to read) holds up this task, never the flight.
                for await words in status.updates { notify("STATUS=\(words)") }
            }
            if let interval = watchdogInterval {
                group.addTask { await feedTheWatchdog(every: interval) }
            }
            await group.waitForAll()
        }
    }

    private func feedTheWatchdog(every interval: Duration) async {
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let probe = EngineProbe(engine: engine)
        while !Task.isCancelled {
            probe.send()
            guard (try? await Sleeper.shared.sleep(for: seconds)) != nil else { return }
            if probe.answered() { notify("WATCHDOG=1") }
        }
    }
}

/// STATUS= for `systemctl status`, sent when its words change ("waiting for GPS", "ready: GPS
/// STRONG", "cruise 3.2 km"), from the engine's outputs as it hears them: no timer wakes an idle
/// board for it.
final class StatusReporter: FlightObserver, Sendable {
    private let last = Mutex("")
    /// The newest words not yet sent (the notifier sends them; a send never runs on the
    /// engine's thread).
    let updates: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (updates, continuation) = AsyncStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingNewest(1))
    }

    static func words(for pfd: PFD) -> String {
        switch pfd.phase {
        case .preflight, .touchdown:
            pfd.signal == .noSignal ? "waiting for GPS" : "ready: GPS \(pfd.signal.rawValue)"
        case .takeoff: "takeoff"
        case .cruise, .approach:
            "\(pfd.phase.rawValue) \(String(format: "%.1f", pfd.distance / 1000)) km"
        }
    }

    func engine(_ engine: isolated FlightEngine, told event: FlightEvent) {
        guard case .flew(_, let outputs) = event else { return }
        for case .state(let pfd) in outputs.suffix(1) { report(Self.words(for: pfd)) }
    }

    func report(_ words: String) {
        let changed: Bool = last.withLock { last in
            defer { last = words }
            return last != words
        }
        if changed { continuation.yield(words) }
    }

    func finish() { continuation.finish() }
}

/// A round trip through the engine's thread, at most one outstanding: `send` queues a job on
/// the engine unless the last one is still waiting there (a hung engine gets no pile of
/// probes); `answered` says whether one came back since the last call.
final class EngineProbe: Sendable {
    private struct State {
        var outstanding = false
        var came = false
    }
    private let state = Mutex(State())
    let engine: FlightEngine

    init(engine: FlightEngine) { self.engine = engine }

    func send() {
        let start: Bool = state.withLock { state in
            if state.outstanding { return false }
            state.outstanding = true
            return true
        }
        guard start else { return }
        Task {
            _ = await engine.handled
            state.withLock { state in
                state.outstanding = false
                state.came = true
            }
        }
    }

    func answered() -> Bool {
        state.withLock { state in
            defer { state.came = false }
            return state.came
        }
    }
}
