import Foundation
import RunWayControl
import RunWayCore
import RunWayHardware

/// `runway checklist`: reads what the takeoff checklist judges — from runwayd when it runs (it
/// owns gpsd's stream, the I2C bus and the GPIO lines), else from the parts themselves — and
/// prints the lines (`Checklist`).
enum ChecklistCommand {
    struct Request: Sendable {
        var configuration = DaemonConfiguration()
        var socket = ControlCommands.defaultSocket
        /// How long to wait for a first fix from gpsd.
        var wait = 15.0
        var powerSupply: String?
        var logbook: String?
        var simulated = false
        var interactive = false
        var json = false
    }

    static func run(_ request: Request, console: Console) async throws(CLIError) -> Int32 {
        let config = request.configuration
        let logbook = request.logbook ?? config.logbook
        let battery = BatteryStatus.read(root: request.powerSupply ?? config.battery.powerSupply)
        let storage = freeSpace(near: logbook)
        var list: Checklist
        let source: String
        if request.simulated {
            source = "simulated board"
            list = Checklist(
                gps: .fix(accuracy: 4),
                barometer: readChip(SimulatedBMP280(pascals: 101_325, celsius: 21), 0x76),
                battery: battery, storage: storage)
            list.weatherMissing = "the simulated board keeps no barograph"
            list.sensors = .unknown("the simulated board has no Bluetooth sensors")
        } else if let status = try daemonStatus(request.socket) {
            source = "runwayd"
            list = fromDaemon(status, battery: battery, storage: storage)
            if list.sensors == nil {
                list.sensors =
                    config.bluetooth.enabled
                    ? .unknown("runwayd reports no sensors (a runwayd without a Bluetooth radio)") : .disabled
            }
            if request.interactive {
                console.err(
                    "runway: runwayd holds the buttons and the buzzer: stop it (systemctl stop runwayd) for --interactive"
                )
            }
        } else {
            source = "the board's parts; runwayd is not running"
            console.err("runway: waiting up to \(Int(request.wait)) s for a fix from gpsd at \(config.gpsd)…")
            let gps = await firstFix(config.gpsd, wait: request.wait)
            let barometer: Checklist.Barometer
            do throws(LinuxI2CBus.OpenError) {
                barometer = readChip(
                    try LinuxI2CBus(bus: config.i2cBus, address: config.i2cAddress), config.i2cAddress)
            } catch {
                barometer = .failed(error.description)
            }
            list = Checklist(gps: gps, barometer: barometer, battery: battery, storage: storage)
            list.weatherMissing = "runwayd keeps the barograph, and it is not running"
            list.sensors =
                config.bluetooth.enabled
                ? .unknown("runwayd owns the Bluetooth sensors, and it is not running") : .disabled
            if request.interactive {
                list.buttons = pressEach(config, console: console)
                list.buzzer = hearEach(config, console: console)
            }
        }
        list.voice = ChecklistVoice.check(
            config.voice, interactive: request.interactive && !request.json, console: console)
        console.out(request.json ? list.json(source: source).rendered() : list.text(source: source))
        return list.ready ? 0 : 1
    }

    /// runwayd's status, or nil when it does not answer. A socket this user may not use is
    /// refused with how to fix it: runwayd runs then, and the parts are its.
    static func daemonStatus(_ socket: String) throws(CLIError) -> ControlStatus? {
        guard FileManager.default.fileExists(atPath: socket) else { return nil }
        let client: ControlClient
        do {
            client = try ControlClient(path: socket, timeout: 2)
        } catch {
            if case .permissionDenied = error { throw CLIError("\(error)") }
            return nil
        }
        guard case .ok(let reply)? = try? client.request(.status) else { return nil }
        return reply.status
    }

    static func fromDaemon(_ s: ControlStatus, battery: BatteryStatus, storage: Result<Double, CLIError>)
        -> Checklist
    {
        let signal = s.text(.gpsSignal).flatMap(SignalQuality.init(rawValue:)) ?? .noSignal
        let barometer: Checklist.Barometer
        switch s.text(.barometer) {
        case "ok": barometer = .daemon(answering: true, pascals: s.number(.pressure))
        case "missing": barometer = .daemon(answering: false, pascals: nil)
        default:
            barometer = .failed(
                "runwayd has read no barometer (none yet: it reads one within 10 s; or its board is simulated)"
            )
        }
        var weather: Barograph.Reading?
        if let word = s.text(.pressureTendency), let tendency = Barograph.Tendency(rawValue: word),
            let change = s.number(.pressureChangePer3h), let span = s.number(.barographSpan)
        {
            weather = Barograph.Reading(tendency: tendency, changePer3h: change, span: span)
        }
        var list = Checklist(
            gps: .daemon(signal), barometer: barometer, weather: weather,
            battery: s.number(.batteryPercent).map { BatteryStatus(capacity: Int($0), state: battery.state) }
                ?? battery,
            storage: s.number(.storageFreeBytes).map { .success($0) } ?? storage)
        list.weatherMissing = "runwayd's barograph needs an hour of readings between runs"
        if let sensors = s.sensors {
            list.sensors = .daemon(sensors, bluetooth: s.bluetooth)
        } else if let why = s.bluetooth {
            // No sensor service: runwayd says why (an older one does not: the caller guesses).
            list.sensors = why.state == .disabled ? .disabled : .unknown(why.message ?? why.state.rawValue)
        }
        return list
    }

    /// Free space on the logbook's filesystem.
    static func freeSpace(near logbook: String) -> Result<Double, CLIError> {
        let directory = (logbook as NSString).deletingLastPathComponent
        guard let free = BoardStatus.freeBytes(in: directory) else {
            return .failure(
                CLIError("\(directory) cannot be read: is runway installed here? (or give --logbook FILE)"))
        }
        return .success(free)
    }

    /// The chip's id and one pressure reading through the BMP280 driver.
    static func readChip(_ bus: any I2CBus, _ address: UInt8) -> Checklist.Barometer {
        let bmp = BMP280(bus: bus, sleep: { Thread.sleep(forTimeInterval: $0) })
        do {
            try bmp.start()
            let reading = try bmp.read()
            return .chip(id: bmp.chipID ?? 0, pascals: reading.pascals)
        } catch {
            return .failed("no BMP280 at 0x\(String(address, radix: 16)): \(error)")
        }
    }

    /// The first fix from gpsd within `wait` seconds, or what stood in the way.
    static func firstFix(_ endpoint: GPSDEndpoint, wait: Double) async -> Checklist.GPS {
        let client = GPSDClient(endpoint: endpoint).start()
        let timer = Task {
            try await Task.sleep(for: .milliseconds(Int(wait * 1000)))
            client.stop()
        }
        defer { timer.cancel() }
        var problem: GPSDError?
        var connected = false
        for await event in client.events {
            switch event {
            case .fix(let fix, _):
                client.stop()
                return .fix(accuracy: fix.horizontalAccuracy)
            case .connected: connected = true
            case .disconnected(let why, _):
                problem = why
                // Nothing to wait for: nothing listens there, or the name does not resolve.
                if !connected, why.isRefusal {
                    client.stop()
                    return .unreachable("gpsd at \(endpoint): \(why)")
                }
            case .noFix: break
            }
        }
        if !connected, let problem { return .unreachable("gpsd at \(endpoint): \(problem)") }
        return .noFix(waited: wait)
    }

    /// Asks for each button in turn; true for each pressed within 10 s.
    static func pressEach(_ config: DaemonConfiguration, console: Console) -> [(role: String, pressed: Bool)]
    {
        var result: [(role: String, pressed: Bool)] = []
        for button in config.buttons {
            let role = button.role.rawValue
            let lines: GpiodButtonLines
            do {
                lines = try GpiodButtonLines(chip: try GpiodChip(config.gpioChip), buttons: [button])
            } catch {
                console.err("runway: \(role) button: \(error)")
                result.append((role, false))
                continue
            }
            console.out("Press \(role.uppercased()) (line \(button.line)) within 10 s…")
            let stopper = Thread {
                Thread.sleep(forTimeInterval: 10)
                lines.stop()
            }
            stopper.start()
            var decoder = ButtonDecoder(roles: [button.role])
            var pressed = false
            ButtonReader.run(lines: lines, decoder: &decoder) { _ in
                pressed = true
                lines.stop()
            }
            stopper.cancel()
            result.append((role, pressed))
        }
        return result
    }

    /// Plays every callout's pattern, then asks whether they were heard.
    static func hearEach(_ config: DaemonConfiguration, console: Console) -> Bool {
        for (name, _, _) in GPIOCommands.patterns {
            console.out("  buzzer: \(name)")
            _ = try? GPIOCommands.buzz(
                name: name, chip: config.gpioChip, line: config.buzzerLine, simulated: false,
                console: Console(out: { _ in }, err: console.err, isTerminal: false))
            Thread.sleep(forTimeInterval: 0.6)
        }
        console.out("Did you hear \(GPIOCommands.patterns.count) distinct patterns? [y/N]")
        return ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
    }
}
