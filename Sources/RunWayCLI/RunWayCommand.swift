import RunWayCore
import RunWayDaemon
import RunWayHardware
import RunWayStore

/// The `runway` command line.
public enum RunWayCommand {
    public static let usage = """
        usage: runway <command> [options]

        commands:
          demo [--speed N|max] [--logbook FILE] [--tz ZONE | --utc-offset ±H[:MM]]
                                    fly a simulated 5 km Mission Flight on the simulated board
                                    (N simulated seconds per real second; default 120),
                                    recording it into FILE as it flies
          fly --gps FILE [--pressure FILE] [--mission pace=5:30,deviation=15,distance=5000] [--json]
              [--save --logbook FILE] [--tz ZONE | --utc-offset ±H[:MM]]
                                    fly a recorded trace: FILE is gpsd JSON (gpspipe -w);
                                    the pressure CSV is time,pressure_pa with ISO-8601 UTC times
          logbook --logbook FILE [--tz ZONE | --utc-offset ±H[:MM]] [--all] [--json]
                                    the flights, most recent first, with date and time of day;
                                    --all also lists flights a reprocessed one supersedes
          logbook --logbook FILE --flight ID [--body-mass KG] [--tz ZONE | --utc-offset ±H[:MM]] [--json]
                                    one flight: summary, splits, alerts, calories; with --json
                                    also its FDR samples and simplified route
          export --to DIR [--since DATE] [--format fit,gpx,tcx] [--all] [--verify] [--json]
                 [--logbook FILE] [--config FILE] [--tz ZONE | --utc-offset ±H[:MM]]
                                    write the logbook's flights into DIR/RUNWAY/ (a USB stick's
                                    mount point) as FIT, GPX and TCX, named by local date and
                                    time; a repeat writes only new flights (--all: every flight
                                    again); --verify reads each file back
          drive --image FILE [--logbook FILE] [--config FILE]
                                    build the FAT image (label RUNWAY) the wearable shows a
                                    computer over USB: RUNWAY/ with every run as FIT, GPX, TCX
          calendar [YYYY-MM | YYYY-MM-DD] --logbook FILE [--json] [--tz ZONE | --utc-offset ±H[:MM]]
                                    the Flight Calendar: a month grid of km a day (• for each
                                    further run that day) with week totals; a day lists its runs
          week [YYYY-MM-DD] --logbook FILE [--json] [--tz ZONE | --utc-offset ±H[:MM]]
                                    the week's distance per day as bars, scaled to its largest day
          replay ID --logbook FILE [--at MM:SS] [--json]
                                    the Flight Data Recorder at a moment (default the end), and
                                    the PACE, BPM, SPM and ALT lanes with a cursor there
          delete ID --logbook FILE [--yes]
                                    delete a flight (asks first; never one still in the air)
          salvage DAMAGED --to NEW  copy every flight that can still be read from a damaged
                                    logbook into a new one (DAMAGED is only read)
          reprocess ID --logbook FILE [--replace]
                                    fly a stored flight again from its raw sensor log with this
                                    engine; stored as a new flight unless --replace
          gps [HOST:PORT] [--count N] [--timeout SECONDS] [--json]
                                    print fixes as the gpsd client delivers them to the engine;
                                    with --timeout, exit 1 when they do not come in time
          baro [--bus N] [--address 0x76] [--count N] [--json | --csv] [--simulated]
                                    print BMP280 readings (chip id, °C, Pa, relative altitude);
                                    --csv writes a pressure file for fly --pressure (UTC times)
          buttons [--chip gpiochip0] [--start 17] [--pause 27] [--end 22] [--active-high] [--buzzer 18]
                                    print presses as they are recognised (short / long, role);
                                    with --buzzer, a long press beeps when it is recognised
          buzz PATTERN [--chip gpiochip0] [--line 18] [--simulated]
                                    play one callout's pattern (countdown, rotate, split, sink-rate,
                                    overspeed, minimums, pause, resume, signal-lost, touchdown, error)
          simulate --scenario NAME [--format nmea|pressure] [--lead-in SECONDS]
                                    write a built-in scenario's sensor output (NMEA for gpsfake,
                                    or a pressure CSV); NAME: demo, flat5k, hilly10k, stops5k, walker
          status [--watch] [--json] [--socket PATH]
                                    the running runwayd's state (phase, distance, pace, altitude,
                                    GPWS, GPS, battery, storage); --watch follows it and the callouts
          start [--mission pace=5:30,deviation=15,distance=5000] [--socket PATH]
          pause | resume | stop [--socket PATH]
                                    the runner's buttons, through runwayd's control socket
          export-finished RESULT [--socket PATH]
                                    tell runwayd a USB export ended, so the buzzer says done
                                    (RESULT success or ok) or failed (anything else)
          help | --version          this text | the version

        Local times are shown in --tz ZONE (an IANA name: Asia/Seoul) or --utc-offset ±H[:MM], else
        the configuration's time_zone (--config FILE, default /etc/runway/runway.json), else the
        system's (TZ, /etc/localtime), each with its label; JSON stays in UTC with utc_offset_s.
        """

    public static func main(_ arguments: [String], console: Console = .standard) async -> Int32 {
        do {
            return try await dispatch(arguments, console: console)
        } catch {
            console.err("runway: \(error.message)")
            if error.exitCode == 2 { console.err("Try 'runway help'.") }
            return error.exitCode
        }
    }

    static func dispatch(_ arguments: [String], console: Console) async throws(CLIError) -> Int32 {
        guard let command = arguments.first else {
            console.err(usage)
            return 2
        }
        var options = Options(Array(arguments.dropFirst()))
        switch command {
        case "help", "--help", "-h":
            console.out(usage)
            return 0
        case "--version", "version":
            try options.finish()
            console.out(RunWayVersion.description)
            return 0
        case "demo":
            let speedText = try options.value("--speed")
            let logbook = try options.value("--logbook")
            let zone = try options.zone()
            let progress = options.flag("--progress")
            try options.finish()
            var speed: Double? = 120
            if let speedText {
                if speedText == "max" {
                    speed = nil
                } else if let value = DecimalText.number(speedText), value > 0, value <= 100_000 {
                    speed = value
                } else {
                    throw .usage(
                        "--speed takes a number above 0 up to 100000, or 'max', not \"\(speedText)\"")
                }
            }
            return await DemoCommand.run(
                speed: speed, logbook: logbook, progress: progress, zone: zone, console: console)
        case "fly":
            guard let gps = try options.value("--gps") else { throw .usage("fly needs --gps FILE") }
            let zone = try options.zone()
            let pressure = try options.value("--pressure")
            let mission = try options.value("--mission").map { text throws(CLIError) in
                try MissionOption.parse(text)
            }
            let json = options.flag("--json")
            let save = options.flag("--save")
            let logbookPath = try options.value("--logbook")
            try options.finish()
            if save && logbookPath == nil { throw .usage("--save needs --logbook FILE") }
            if !save && logbookPath != nil {
                throw .usage(
                    "--logbook goes with --save (runway fly … --save --logbook FILE); nothing would be saved")
            }
            if gps == "-" && pressure == "-" {
                throw .usage("--gps and --pressure cannot both read standard input")
            }
            return try FlyCommand.run(
                gps: gps, pressure: pressure, mission: mission, json: json, saveTo: save ? logbookPath : nil,
                zone: zone, console: console)
        case "export-finished":
            let socket = try options.value("--socket") ?? ControlCommands.defaultSocket
            guard let result = options.positional() else {
                throw .usage(
                    "export-finished needs a result: success (or ok), or anything else for a failure")
            }
            try options.finish()
            return try ControlCommands.exportFinished(result: result, socket: socket, console: console)
        case "status":
            let socket = try options.value("--socket") ?? ControlCommands.defaultSocket
            let watch = options.flag("--watch")
            let json = options.flag("--json")
            try options.finish()
            return try ControlCommands.status(socket: socket, watch: watch, json: json, console: console)
        case "start", "pause", "resume", "stop":
            let socket = try options.value("--socket") ?? ControlCommands.defaultSocket
            let mission = try (command == "start" ? options.value("--mission") : nil).map {
                text throws(CLIError) in try MissionOption.parse(text)
            }
            try options.finish()
            return try ControlCommands.command(command, mission: mission, socket: socket, console: console)
        case "gps":
            let count = try options.count()
            let timeout = try options.number("--timeout", in: 0.1...86_400, unit: "seconds")
            let json = options.flag("--json")
            let rest = options.positional()
            try options.finish()
            guard let endpoint = GPSDEndpoint(parsing: rest ?? "127.0.0.1:2947") else {
                throw .usage("\"\(rest ?? "")\" is not HOST:PORT")
            }
            return await GPSCommand.run(
                endpoint: endpoint, count: count, timeout: timeout, json: json, console: console)
        case "baro":
            let bus = try options.whole("--bus", in: 0...255, unit: "an I2C bus number") ?? 1
            let addressText = try options.value("--address") ?? "0x76"
            let count = try options.count()
            let json = options.flag("--json")
            let csv = options.flag("--csv")
            let simulated = options.flag("--simulated")
            try options.finish()
            if json && csv { throw .usage("baro prints --json or --csv, not both") }
            let hex =
                addressText.lowercased().hasPrefix("0x") ? String(addressText.dropFirst(2)) : addressText
            guard let address = UInt8(hex, radix: 16), address == 0x76 || address == 0x77 else {
                throw .usage("--address is 0x76 or 0x77 for a BMP280, not \(addressText)")
            }
            return try BaroCommand.run(
                bus: bus, address: address, count: count, json: json, csv: csv, simulated: simulated,
                console: console)
        case "buzz":
            let chip = try options.value("--chip") ?? "gpiochip0"
            let line = try options.gpioLine("--line") ?? 18
            let simulated = options.flag("--simulated")
            guard let name = options.positional() else {
                throw .usage("buzz needs a PATTERN, e.g. runway buzz split")
            }
            try options.finish()
            return try GPIOCommands.buzz(
                name: name, chip: chip, line: line, simulated: simulated, console: console)
        case "buttons":
            let chip = try options.value("--chip") ?? "gpiochip0"
            let activeLow = !options.flag("--active-high")
            var buttons: [ButtonConfiguration] = []
            for board in ButtonConfiguration.defaultBoard {
                let line = try options.gpioLine("--\(board.role.rawValue)") ?? board.line
                buttons.append(ButtonConfiguration(role: board.role, line: line, activeLow: activeLow))
            }
            let buzzer = try options.gpioLine("--buzzer")
            try options.finish()
            return try GPIOCommands.buttons(chip: chip, buttons: buttons, buzzer: buzzer, console: console)
        case "logbook":
            guard let path = try options.value("--logbook") else {
                throw .usage("logbook needs --logbook FILE")
            }
            let zone = try options.zone()
            let flightText = try options.value("--flight")
            let bodyMass = try options.number("--body-mass", in: 20...300, unit: "kilograms")
            let json = options.flag("--json")
            let all = options.flag("--all")
            try options.finish()
            if let flightText {
                guard let id = Int64(flightText) else {
                    throw .usage("--flight takes a flight number from runway logbook, not \"\(flightText)\"")
                }
                return try LogbookCommands.show(
                    path: path, id: id, zone: zone, bodyMass: bodyMass, json: json,
                    console: console)
            }
            if bodyMass != nil { throw .usage("--body-mass goes with --flight ID") }
            return try LogbookCommands.list(
                path: path, zone: zone, all: all, json: json, console: console)
        case "export":
            guard let destination = try options.value("--to") else {
                throw .usage("export needs --to DIR, e.g. runway export --to /media/RUNWAY")
            }
            var request = ExportCommand.Request(destination: destination)
            request.logbook = try options.value("--logbook")
            request.configuration = try options.value("--config") ?? request.configuration
            request.zone = try LocalZone.resolve(
                tz: try options.value("--tz"), utcOffset: try options.value("--utc-offset"),
                configuration: request.configuration)
            request.since = try options.value("--since")
            request.formats = try options.value("--format")
            request.all = options.flag("--all")
            request.verify = options.flag("--verify")
            request.json = options.flag("--json")
            try options.finish()
            return try ExportCommand.run(request, console: console)
        case "drive":
            guard let image = try options.value("--image") else {
                throw .usage(
                    "drive needs --image FILE, e.g. runway drive --image /var/lib/runway/usb-drive.img")
            }
            let logbook = try options.value("--logbook")
            let configuration = try options.value("--config") ?? DaemonConfiguration.defaultPath
            try options.finish()
            return try ExportCommand.drive(
                image: image, logbook: logbook, configurationPath: configuration, console: console)
        case "calendar", "week":
            guard let path = try options.value("--logbook") else {
                throw .usage("\(command) needs --logbook FILE")
            }
            let zone = try options.zone()
            let json = options.flag("--json")
            let date = options.positional()
            try options.finish()
            return command == "calendar"
                ? try CalendarCommands.calendar(
                    path: path, date: date, zone: zone, json: json, console: console)
                : try CalendarCommands.week(path: path, date: date, zone: zone, json: json, console: console)
        case "replay":
            guard let path = try options.value("--logbook") else {
                throw .usage("replay needs --logbook FILE")
            }
            let at = try options.value("--at")
            let json = options.flag("--json")
            guard let idText = options.positional(), let id = Int64(idText) else {
                throw .usage("replay needs a flight number, e.g. runway replay 3 --at 12:30 --logbook FILE")
            }
            try options.finish()
            return try ReplayCommand.run(path: path, id: id, at: at, json: json, console: console)
        case "delete":
            guard let path = try options.value("--logbook") else {
                throw .usage("delete needs --logbook FILE")
            }
            let yes = options.flag("--yes")
            guard let idText = options.positional(), let id = Int64(idText) else {
                throw .usage("delete needs a flight number, e.g. runway delete 3 --logbook FILE")
            }
            try options.finish()
            return try CalendarCommands.delete(
                path: path, id: id, yes: yes, answer: { readLine() }, console: console)
        case "salvage":
            guard let target = try options.value("--to") else {
                throw .usage("salvage needs --to NEW, the new logbook to write")
            }
            guard let damaged = options.positional() else {
                throw .usage(
                    "salvage needs the damaged logbook, e.g. runway salvage old.sqlite --to new.sqlite")
            }
            try options.finish()
            return try LogbookCommands.salvage(from: damaged, to: target, console: console)
        case "reprocess":
            guard let path = try options.value("--logbook") else {
                throw .usage("reprocess needs --logbook FILE")
            }
            let replace = options.flag("--replace")
            guard let idText = options.positional(), let id = Int64(idText) else {
                throw .usage("reprocess needs a flight number, e.g. runway reprocess 3 --logbook FILE")
            }
            try options.finish()
            return try LogbookCommands.reprocess(path: path, id: id, replace: replace, console: console)
        case "simulate":
            guard let name = try options.value("--scenario") else {
                throw .usage("simulate needs --scenario NAME")
            }
            let formatText = try options.value("--format") ?? "nmea"
            let leadIn = try options.whole("--lead-in", in: 0...3600, unit: "whole seconds") ?? 0
            guard let format = SimulateCommand.Format(rawValue: formatText) else {
                throw .usage("--format is nmea or pressure, not \"\(formatText)\"")
            }
            try options.finish()
            console.out(
                try SimulateCommand.lines(scenario: name, format: format, leadIn: leadIn).joined(
                    separator: "\n"))
            return 0
        default:
            throw .usage("unknown command \"\(command)\"")
        }
    }
}

/// Prints the first `limit` diagnostics and counts the rest, so a broken file says what is wrong
/// without burying the result.
func report(_ diagnostics: DiagnosticLog, console: Console, limit: Int = 20) {
    for diagnostic in diagnostics.kept.prefix(limit) { console.err("runway: \(diagnostic)") }
    if diagnostics.total > limit {
        console.err("runway: … and \(diagnostics.total - limit) more problems")
    }
}

/// A tiny option reader: `--name value`, `--name=value` and `--flag`; anything left over is an
/// error, so a mistyped option never goes unnoticed.
struct Options {
    private var remaining: [String]

    init(_ arguments: [String]) {
        remaining = arguments
    }

    mutating func value(_ name: String) throws(CLIError) -> String? {
        if let i = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(remaining[i].dropFirst(name.count + 1))
            remaining.remove(at: i)
            return value
        }
        guard let i = remaining.firstIndex(of: name) else { return nil }
        guard i + 1 < remaining.count else { throw .usage("\(name) needs a value") }
        let value = remaining[i + 1]
        // `fly --gps --json` means a forgotten file name, not a file called --json (a value that
        // really starts with -- can be given as --gps=--name).
        if value.hasPrefix("--") { throw .usage("\(name) needs a value, not the option \(value)") }
        remaining.removeSubrange(i...(i + 1))
        return value
    }

    /// A GPIO line number given as `name`, or nil when absent.
    mutating func gpioLine(_ name: String) throws(CLIError) -> Int? {
        try whole(name, in: 0...1023, unit: "a GPIO line number")
    }

    /// `--count N`, a whole number above 0, or nil when absent.
    mutating func count() throws(CLIError) -> Int? {
        try whole("--count", in: 1...10_000_000, unit: "a count")
    }

    /// A decimal number (no hex, exponent, inf or nan) within `range`, or nil when absent.
    mutating func number(_ name: String, in range: ClosedRange<Double>, unit: String) throws(CLIError)
        -> Double?
    {
        try value(name).map { text throws(CLIError) -> Double in
            guard let n = DecimalText.number(text), range.contains(n) else {
                throw .usage(
                    "\(name) takes \(unit) from \(DecimalText.format(range.lowerBound)) to \(DecimalText.format(range.upperBound)), not \"\(text)\""
                )
            }
            return n
        }
    }

    /// A whole decimal number within `range`, or nil when absent.
    mutating func whole(_ name: String, in range: ClosedRange<Int>, unit: String) throws(CLIError) -> Int? {
        try value(name).map { text throws(CLIError) -> Int in
            guard let n = DecimalText.whole(text), range.contains(n) else {
                throw .usage(
                    "\(name) takes \(unit) from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
            }
            return n
        }
    }

    /// `--tz ZONE` or `--utc-offset ±H[:MM]`, else the configuration's (`--config FILE`) or the
    /// system's time zone: where local times are shown.
    mutating func zone() throws(CLIError) -> LocalZone {
        let tz = try value("--tz")
        let offset = try value("--utc-offset")
        let configuration = try value("--config") ?? DaemonConfiguration.defaultPath
        return try LocalZone.resolve(tz: tz, utcOffset: offset, configuration: configuration)
    }

    mutating func flag(_ name: String) -> Bool {
        guard let i = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: i)
        return true
    }

    /// The first argument that is not an option, taken.
    mutating func positional() -> String? {
        guard let i = remaining.firstIndex(where: { !$0.hasPrefix("--") }) else { return nil }
        return remaining.remove(at: i)
    }

    func finish() throws(CLIError) {
        if let extra = remaining.first { throw .usage("unexpected argument \"\(extra)\"") }
    }
}
