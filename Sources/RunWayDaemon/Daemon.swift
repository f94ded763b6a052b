import Foundation
import RunWayCore
import RunWayHardware
import RunWaySimulator
import RunWayStore

/// `runwayd`: the firmware process. It opens the logbook (closing flights a power cut left open),
/// builds the pipeline, serves the control socket, tells systemd it is ready, and flies until
/// SIGTERM — then shuts down in reverse order: a flight in the air keeps its raw log committed
/// and stays open, so a restart within the recovery window continues it.
public enum Daemon {
    public struct Options: Sendable, Equatable {
        public enum Board: String, Sendable { case real, simulated }
        public var configPath = DaemonConfiguration.defaultPath
        public var board = Board.real
        public var speed: Double? = 1
        public var socketPath = "/run/runway/control.sock"
        public var logbookPath: String?
        public var checkConfig = false

        public init() {}
    }

    public static let usage = """
        usage: runwayd [--config FILE] [--board real|simulated] [--speed N|max] [--socket PATH]
                       [--logbook FILE] [--check-config]
          --config FILE     the configuration (default /etc/runway/runway.json; none: the defaults)
          --board simulated the built-in simulated board: the demo scenario's sensors, buttons
                            through the control socket (runway start / pause / resume / stop)
          --speed N|max     simulated seconds per real second on the simulated board (default 1)
          --socket PATH     the control socket (default /run/runway/control.sock)
          --logbook FILE    overrides the configuration's logbook
          --check-config    validate the configuration and exit
        """

    /// Why the command line is refused (empty: help was asked for).
    public struct UsageError: Error, Sendable, Equatable {
        public var message: String
    }

    public static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            func value() -> String? { rest.popFirst() }
            switch argument {
            case "--config":
                guard let v = value() else { return .failure(UsageError(message: "--config needs a file")) }
                options.configPath = v
            case "--board":
                guard let v = value(), let board = Options.Board(rawValue: v) else {
                    return .failure(UsageError(message: "--board is real or simulated"))
                }
                options.board = board
            case "--speed":
                guard let v = value() else {
                    return .failure(UsageError(message: "--speed needs a number or max"))
                }
                if v == "max" {
                    options.speed = nil
                } else if let n = Double(v), n.isFinite, n > 0, n <= 100_000, !v.contains("x"),
                    !v.contains("e")
                {
                    options.speed = n
                } else {
                    return .failure(
                        UsageError(
                            message: "--speed takes a number above 0 up to 100000, or max, not \"\(v)\""))
                }
            case "--socket":
                guard let v = value() else { return .failure(UsageError(message: "--socket needs a path")) }
                options.socketPath = v
            case "--logbook":
                guard let v = value() else { return .failure(UsageError(message: "--logbook needs a file")) }
                options.logbookPath = v
            case "--check-config": options.checkConfig = true
            case "--help", "-h": return .failure(UsageError(message: ""))
            default: return .failure(UsageError(message: "unexpected argument \"\(argument)\""))
            }
        }
        return .success(options)
    }

    public static func main(_ arguments: [String]) async -> Int32 {
        let log = DaemonLog()
        let options: Options
        switch parse(arguments) {
        case .success(let parsed): options = parsed
        case .failure(let error):
            let message = error.message
            if !message.isEmpty { log.log(.error, message) }
            FileHandle.standardError.write(Data((usage + "\n").utf8))
            return message.isEmpty ? 0 : 2
        }
        let config: DaemonConfiguration
        do {
            config = try DaemonConfiguration.load(path: options.configPath)
        } catch {
            log.log(.error, "configuration \(options.configPath): \(error)")
            return 1
        }
        if options.checkConfig {
            let exists = FileManager.default.fileExists(atPath: options.configPath)
            print("\(options.configPath): \(exists ? "valid" : "absent: the defaults apply")")
            return 0
        }
        return await run(options: options, config: config, log: log)
    }

    static func run(options: Options, config: DaemonConfiguration, log: DaemonLog) async -> Int32 {
        let logbookPath = options.logbookPath ?? config.logbook
        let logbook: Logbook
        do {
            logbook = try Logbook(path: logbookPath)
            // On the real board the decision waits for the first fix (a flight a restart
            // interrupted may be continued); the simulated board replays its scenario from the
            // start, so nothing can be continued there: close open flights now.
            for recovered in options.board == .simulated ? try logbook.recoverInterruptedFlights() : [] {
                log.log(
                    .notice,
                    recovered.kept
                        ? "flight \(recovered.id), left open by a power cut, recovered (\(Int(recovered.distance)) m)"
                        : "flight \(recovered.id), left open by a power cut, flew under 100 m: removed",
                    fields: ["flight_id": "\(recovered.id)"])
            }
            if let failure = logbook.prepareJournal() {
                log.log(.warning, "no raw-log journal (\(failure)); recording straight into the logbook")
            }
        } catch {
            log.log(.error, "logbook: \(error)")
            return 1
        }
        let session = LiveFlightSession(logbook: logbook, source: "live") { report in
            switch report {
            case .stored(.saved(let id)):
                log.log(.notice, "flight \(id) saved", fields: ["flight_id": "\(id)"])
            case .stored(.notRecorded): log.log(.notice, "flight under 100 m: not recorded")
            case .recordingFailed(let error): log.log(.error, "recording paused: \(error)")
            case .storeFailed(let error, _, let until):
                log.log(
                    .error,
                    "the flight could not be stored (\(error)); raw log committed up to \(until.map(UTCTime.format) ?? "its start")"
                )
            }
        }
        let boardClock = BoardClock()
        let simulated = options.board == .simulated
        // The simulated board's sensors carry GPS time themselves; the real board's time is the
        // time base's, and commands before the first fix are held.
        let control = SessionControl(
            session: session, defaultMission: config.mission,
            logbookDirectory: (logbookPath as NSString).deletingLastPathComponent,
            now: {
                guard simulated else { return await boardClock.gpsNow() }
                let pfd = await session.pfd
                return pfd.time > 0 ? pfd.time : nil
            },
            battery: { BatteryStatus.read().capacity.map(Double.init) }, clock: simulated ? nil : boardClock)
        let inherited = Systemd.inheritedSockets().first
        let server = ControlServer(path: options.socketPath, inherited: inherited) { request in
            await control.answer(request)
        }
        var board: [any Service]
        switch options.board {
        case .simulated:
            board = [
                SimulatedBoard(scenario: .demoMission, speed: options.speed, session: session) {
                    log.log(.notice, "simulated board: the scenario's sensors have ended")
                }
            ]
        case .real:
            board = [
                BarometerService(
                    bus: config.i2cBus, address: config.i2cAddress, session: session, clock: boardClock,
                    log: log),
                GPSService(endpoint: config.gpsd, session: session, clock: boardClock, log: log),
            ]
            log.log(
                .warning,
                "buttons and buzzer are not joined to runwayd yet: use runway start / pause / resume / stop")
        }
        let services: [any Service] =
            board + [
                server, Broadcaster(session: session, server: server, control: control),
                Notifier(session: session, log: log, readyWhen: { await server.ready() }),
            ]
        log.log(.info, "logbook \(logbookPath), control socket \(options.socketPath)")
        let ending = await ServiceGroup(services: services) { log.log(.info, $0) }.run()
        Systemd.notify("STOPPING=1")
        await session.close()
        log.log(.notice, "stopped (\(ending))")
        if case .serviceFailed = ending { return 1 }
        return 0
    }
}

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

/// READY=1 once the pipeline runs; STATUS= as the flight goes; WATCHDOG=1 only when the pipeline
/// made progress since the last ping (a hung pipeline gets restarted; a timer alone proves
/// nothing).
struct Notifier: Service {
    let name = "systemd notifier"
    let session: LiveFlightSession
    let log: DaemonLog
    /// Returns when the daemon can serve: READY=1 means the control socket answers.
    let readyWhen: @Sendable () async -> Void

    func run() async throws {
        await readyWhen()
        try Task.checkCancellation()
        Systemd.notify("READY=1")
        log.log(.notice, "ready")
        let interval = Systemd.watchdogInterval ?? .seconds(1)
        var lastHandled = -1
        var lastStatus = ""
        while true {
            try await Task.sleep(for: interval)
            let handled = await session.handled
            if Systemd.watchdogInterval != nil, handled != lastHandled { Systemd.notify("WATCHDOG=1") }
            lastHandled = handled
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
                Systemd.notify("STATUS=\(status)")
                lastStatus = status
            }
        }
    }
}
