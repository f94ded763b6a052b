import Foundation
import RunWayCore

/// Forwards the session's callouts, and its state at most once a second, to subscribers.
struct Broadcaster: Service {
    let name = "broadcaster"
    let session: LiveFlightSession
    let server: ControlServer
    let control: SessionControl

    /// Ends when cancelled: the child tasks are cancelled with it, and their `for await` loops end.
    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await callout in session.callouts {
                    server.broadcast(ControlReply.event(callout: callout))
                }
            }
            group.addTask {
                let clock = ContinuousClock()
                var last = clock.now - .seconds(2)
                for await state in session.states where clock.now - last >= .seconds(1) {
                    last = clock.now
                    server.broadcast(ControlReply.event(state: state, board: await control.board()))
                }
            }
            await group.waitForAll()
        }
    }
}

/// READY=1 once the daemon serves; STATUS= as the flight goes; WATCHDOG=1 only when the flight
/// session's thread has answered since the last ping — a timer alone proves nothing, and a
/// session stuck in a write or a loop must get the daemon restarted. (The session's progress is
/// not counted in inputs: a board waiting for its first fix gets none and is not hung.)
struct Notifier: Service {
    let name = "systemd notifier"
    let session: LiveFlightSession
    let log: DaemonLog
    /// Returns when the daemon can serve: READY=1 means the control socket answers.
    let readyWhen: @Sendable () async -> Void
    /// Half of systemd's `WatchdogSec=` (nil: no watchdog; STATUS= is still sent every second).
    var watchdogInterval = Systemd.watchdogInterval
    var notify: @Sendable (String) -> Void = { _ = Systemd.notify($0) }

    func run() async throws {
        await readyWhen()
        try Task.checkCancellation()
        notify("READY=1")
        log.log(.notice, "ready")
        let interval = watchdogInterval ?? .seconds(1)
        let probe = SessionProbe(session: session)
        var lastStatus = ""
        while true {
            probe.send()
            try await Task.sleep(for: interval)
            if watchdogInterval != nil, probe.answered() { notify("WATCHDOG=1") }
            let pfd = await session.pfd
            let status =
                switch pfd.phase {
                case .preflight, .touchdown:
                    pfd.signal == .noSignal ? "waiting for GPS" : "ready: GPS \(pfd.signal.rawValue)"
                case .takeoff: "takeoff"
                case .cruise, .approach:
                    "\(pfd.phase.rawValue) \(String(format: "%.1f", pfd.distance / 1000)) km"
                }
            if status != lastStatus {
                notify("STATUS=\(status)")
                lastStatus = status
            }
        }
    }
}

/// A round trip through the session's thread, at most one outstanding: `send` queues a job on
/// the session unless the last one is still waiting there (a hung session gets no pile of
/// probes); `answered` says whether one came back since the last call.
final class SessionProbe: @unchecked Sendable {
    // @unchecked Sendable: `outstanding` and `came` are only touched while `lock` is held.
    private let lock = NSLock()
    private var outstanding = false
    private var came = false
    let session: LiveFlightSession

    init(session: LiveFlightSession) { self.session = session }

    func send() {
        let start: Bool = lock.withLock {
            if outstanding { return false }
            outstanding = true
            return true
        }
        guard start else { return }
        Task {
            _ = await session.handled
            lock.withLock {
                outstanding = false
                came = true
            }
        }
    }

    func answered() -> Bool {
        lock.withLock {
            defer { came = false }
            return came
        }
    }
}
