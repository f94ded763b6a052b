import Foundation
import RunWayBluetooth
import RunWayControl
import RunWayCore
import RunWayHardware
import RunWaySimulator
import RunWayStore
import RunWaySystem
import RunWayVoice

/// `runwayd`: the firmware process. It opens the logbook (closing flights a power cut left open),
/// builds the pipeline, serves the control socket, tells systemd it is ready, and flies until
/// SIGTERM — then shuts down in reverse order: a flight in the air keeps its raw log committed
/// and stays open, so a restart within the recovery window continues it.
public enum Daemon {
    public struct Options: Sendable, Equatable {
        public enum Board: String, Sendable { case real, simulated }
        public enum SimulatedPart: String, Sendable, CaseIterable { case barometer }
        public var configPath = DaemonConfiguration.defaultPath
        /// `--config` was given: its file must exist (the default's may not: the defaults apply).
        public var configGiven = false
        public var board = Board.real
        public var speed: Double? = 1
        /// The simulated board's scenario (`Scenario.named`).
        public var scenario = "demo"
        public var socketPath = "/run/runway/control.sock"
        public var logbookPath: String?
        public var checkConfig = false
        /// `--version`: say the release and exit.
        public var showVersion = false
        /// Parts of the real board replaced by their register-level simulation.
        public var simulate: Set<SimulatedPart> = []

        public init() {}
    }

    public static let usage = """
        usage: runwayd [--config FILE] [--board real|simulated] [--scenario NAME] [--speed N|max] [--socket PATH]
                       [--logbook FILE] [--simulate barometer] [--check-config] [--version]
          --config FILE     the configuration, which must exist (default /etc/runway/runway.json; none there: the defaults)
          --board simulated the built-in simulated board: a scenario's sensors (--scenario), buttons
                            through the control socket (runway start / pause / resume / stop)
          --scenario NAME   the simulated board's scenario: \(Scenario.named.map(\.name).joined(separator: ", "))
                            (default demo)
          --speed N|max     simulated seconds per real second on the simulated board (default 1)
          --socket PATH     the control socket (default /run/runway/control.sock)
          --logbook FILE    overrides the configuration's logbook
          --simulate barometer
                            on the real board, a BMP280 simulated at register level whose
                            pressure climbs a 12 m hill every 40 s (a machine without the chip)
          --check-config    validate the configuration and exit
          --version         the release (the Debian package's version too) and exit
        """

    /// Why the command line is refused (empty: help was asked for).
    public struct UsageError: Error, Sendable, Equatable {
        public var message: String
    }

    public static func parse(_ arguments: [String]) -> Result<Options, UsageError> {
        var options = Options()
        var rest = arguments[...]
        /// The option's value as `read` takes it, else `refusal` (missing or not taken).
        func value<T>(_ refusal: String, _ read: (String) -> T?) throws(UsageError) -> T {
            guard let v = rest.popFirst(), let value = read(v) else { throw UsageError(message: refusal) }
            return value
        }
        func value(_ refusal: String) throws(UsageError) -> String { try value(refusal) { $0 } }
        do throws(UsageError) {
            while let argument = rest.popFirst() {
                switch argument {
                case "--config":
                    options.configPath = try value("--config needs a file")
                    options.configGiven = true
                case "--board": options.board = try value("--board is real or simulated", Options.Board.init)
                case "--speed":
                    let v = try value("--speed needs a number or max")
                    if v == "max" {
                        options.speed = nil
                    } else if let n = Double(v), n.isFinite, (0.01...100_000).contains(n), !v.contains("x"),
                        !v.contains("e")
                    {
                        // At least 0.01: the next tick's delay is divided by it.
                        options.speed = n
                    } else {
                        throw UsageError(
                            message: "--speed takes a number from 0.01 to 100000, or max, not \"\(v)\"")
                    }
                case "--scenario":
                    let names = Scenario.named.map(\.name)
                    options.scenario = try value("--scenario takes one of \(names.joined(separator: ", "))") {
                        names.contains($0) ? $0 : nil
                    }
                case "--socket": options.socketPath = try value("--socket needs a path")
                case "--logbook": options.logbookPath = try value("--logbook needs a file")
                case "--simulate":
                    options.simulate.insert(
                        try value("--simulate takes barometer", Options.SimulatedPart.init))
                case "--check-config": options.checkConfig = true
                case "--version": options.showVersion = true
                case "--help", "-h": throw UsageError(message: "")
                default: throw UsageError(message: "unexpected argument \"\(argument)\"")
                }
            }
        } catch {
            return .failure(error)
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
        if options.showVersion {
            print("runwayd \(RunWayRelease.version)")
            return 0
        }
        let config: DaemonConfiguration
        do {
            config = try DaemonConfiguration.load(path: options.configPath, mustExist: options.configGiven)
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

    /// The radio the sensor service drives, made on the sensor thread that then owns it: BlueZ
    /// on the system bus (sd-bus honours `DBUS_SYSTEM_BUS_ADDRESS`, which is how a test puts a
    /// private bus with a mock BlueZ in its place). A bus that cannot be reached throws, and the
    /// service tries again every 10 s; bluetoothd not running is a state, not an error.
    static let sensorRadio: (@Sendable () throws -> any SensorRadio)? = { try BlueZRadio() }

    static func run(
        options: Options, config: DaemonConfiguration, log: DaemonLog,
        sensorRadio: (@Sendable () throws -> any SensorRadio)? = Daemon.sensorRadio
    ) async -> Int32 {
        let logbookPath = options.logbookPath ?? config.logbook
        // One runwayd per logbook and per socket, refused before anything is opened: a second
        // one would close the first's flight in the air, take its socket and remove it at exit.
        let daemonLock: DaemonLock
        do throws(DaemonLock.Refusal) {
            daemonLock = try DaemonLock(logbook: logbookPath)
        } catch {
            log.log(.error, "\(error)")
            return 1
        }
        defer { withExtendedLifetime(daemonLock) {} }
        // systemd's socket, when it holds one for runwayd (read once: the call clears it).
        let inherited = Systemd.inheritedSockets().first
        if inherited == nil {
            do throws(ControlSocketError) {
                try ControlServer.refuseIfServed(options.socketPath)
            } catch {
                log.log(.error, "\(error)")
                return 1
            }
        }
        let logbook: Logbook
        // Held for the process's life: `runway` commands then leave a flight in the air alone.
        let recorderLock = RecorderLock(logbook: logbookPath)
        defer { withExtendedLifetime(recorderLock) {} }
        do {
            logbook = try Logbook(path: logbookPath)
            for damage in logbook.journalDamage { log.log(.warning, "\(damage)") }
            // On the real board the decision waits for the first fix (a flight a restart
            // interrupted may be continued); the simulated board replays its scenario from the
            // start, so nothing can be continued there: close open flights now.
            for recovered in options.board == .simulated
                ? try logbook.recoverInterruptedFlights(configuration: config.engine) : []
            {
                log.log(
                    .notice,
                    recovered.kept
                        ? "flight \(recovered.id), left open by a power cut, recovered (\(Int(recovered.distance)) m)"
                        : "flight \(recovered.id), left open by a power cut, flew under 100 m: removed",
                    fields: ["flight_id": "\(recovered.id)"])
            }
            if let failure = logbook.prepareJournal() {
                log.log(
                    .warning,
                    "no raw-log journal (\(failure.logDescription)); recording straight into the logbook")
            }
        } catch {
            log.log(.error, "logbook: \(error.logDescription)")
            return 1
        }
        let buzzer = BuzzerDriver()
        let voice = Voice(buzzer: buzzer, log: log)
        let annunciator = Annunciator(driver: buzzer, voice: voice, log: log)
        let voiceService = VoiceService(
            voice: voice, parts: .configured(config.voice, units: config.run.units))
        let barometerPace = BarometerPace()
        let barograph = BarographKeeper()
        let inFlight = InFlightWatch()
        let statusReporter = StatusReporter()
        statusReporter.report(StatusReporter.words(for: .idle(at: 0)))  // "waiting for GPS"
        let streams = FlightStreams()
        // The engine and every observer run on the engine's own thread (see `FlightEngine`).
        let executor = ThreadExecutor(name: "flight engine")
        let engine = FlightEngine(
            computer: FlightComputer(configuration: config.engine), on: executor,
            observers: [
                FlightRecorder(logbook: logbook, source: "live"),
                LandingLog(log: log, logbookPath: logbookPath),
                annunciator, barometerPace, statusReporter, streams, inFlight,
            ])
        let boardClock = BoardClock()
        let simulated = options.board == .simulated
        // The simulated board's sensors carry GPS time themselves; the real board's time is the
        // time base's, and commands before the first fix are held.
        let gpsNow: @Sendable () async -> Double? = {
            guard simulated else { return await boardClock.gpsNow() }
            let pfd = await engine.pfd
            return pfd.time > 0 ? pfd.time : nil
        }
        let powerSupply = config.battery.powerSupply
        var control = SessionControl(
            engine: engine, defaultMission: config.mission,
            logbookDirectory: (logbookPath as NSString).deletingLastPathComponent, now: gpsNow,
            battery: { BatteryStatus.read(root: powerSupply).capacity.map(Double.init) },
            clock: simulated ? nil : boardClock, exportFinished: { annunciator.exportFinished(ok: $0) })
        control.barograph = options.board == .real ? barograph : nil
        // The run START flies, chosen in preflight at the buttons (issue 27).
        let chooser = RunChooser(RunChoice(mission: config.mission, runs: config.runs))
        control.chooser = chooser
        control.zones = config.heartRateZones
        // The Bluetooth sensors: on the real board, when the configuration leaves them on and
        // this build has a radio. Their readings go onto the GPS axis as every other input's.
        var sensorService: SensorService?
        if options.board == .simulated {
            control.sensorsAbsent = .notOnThisBoard
        } else if !config.bluetooth.enabled {
            control.sensorsAbsent = .bluetoothDisabled
        } else if let sensorRadio {
            sensorService = SensorService(
                radio: sensorRadio,
                store: SensorStore(logbookDirectory: (logbookPath as NSString).deletingLastPathComponent),
                engine: engine, gps: { await boardClock.mapped($0) }, annunciator: annunciator,
                flying: inFlight,
                log: log)
            control.sensors = sensorService
        } else {
            control.sensorsAbsent = .noRadio
        }
        let answering = control
        let server = ControlServer(
            path: options.socketPath, inherited: inherited, zones: config.heartRateZones,
            log: { log.log(.warning, $0) },
            handler: { request in await answering.answer(request) })
        // The buzzer starts first and stops last: it sounds whatever the others say until the end;
        // the voice, which drives it, next.
        var services: [any Service] = []
        switch options.board {
        case .simulated:
            services = [
                BuzzerService(driver: buzzer, open: { SilentBuzzerLine() }, log: log), voiceService,
                SimulatedBoard(
                    scenario: Scenario.named.first { $0.name == options.scenario }?.scenario ?? .demoMission,
                    speed: options.speed, engine: engine
                ) {
                    log.log(.notice, "simulated board: the scenario's sensors have ended")
                },
            ]
        case .real:
            let (chip, buzzerLine, buttons) = (config.gpioChip, config.buzzerLine, config.buttons)
            services = [
                BuzzerService(
                    driver: buzzer,
                    open: { try GpiodOutputLine(chip: try GpiodChip(chip), line: buzzerLine) },
                    log: log),
                voiceService,
                BarometerService(
                    bus: config.i2cBus, address: config.i2cAddress,
                    simulated: options.simulate.contains(.barometer), pace: barometerPace,
                    barograph: barograph,
                    engine: engine, clock: boardClock, annunciator: annunciator, log: log),
                GPSService(
                    endpoint: config.gpsd, engine: engine, clock: boardClock, annunciator: annunciator,
                    log: log),
                ButtonService(
                    roles: buttons.map(\.role),
                    open: { try GpiodButtonLines(chip: try GpiodChip(chip), buttons: buttons) },
                    engine: engine, clock: boardClock, defaultMission: config.mission,
                    annunciator: annunciator, log: log, chooser: chooser, manualLap: config.run.manualLap),
            ]
            if let sensorService { services.append(sensorService) }
        }
        services += [
            BatteryService(
                powerSupply: powerSupply, interval: config.battery.pollSeconds,
                monitor: BatteryMonitor(
                    lowPercent: config.battery.lowPercent, criticalPercent: config.battery.criticalPercent),
                engine: engine, now: gpsNow, annunciator: annunciator, log: log),
            server, Broadcaster(streams: streams, server: server, control: control),
            Notifier(engine: engine, log: log, readyWhen: { await server.ready() }, status: statusReporter),
        ]
        log.log(.info, "logbook \(logbookPath), control socket \(options.socketPath)")
        let ending = await ServiceGroup(services: services) { log.log(.info, $0) }.run()
        Systemd.notify("STOPPING=1")
        await engine.close()
        await executor.shutdown()
        log.log(.notice, "stopped (\(ending))")
        if case .serviceFailed(let name, let words) = ending {
            log.log(.error, "\(name): \(words)")  // the cause, in its own words
            return 1
        }
        return 0
    }
}
