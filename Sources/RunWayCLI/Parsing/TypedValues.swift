import RunWayControl
import RunWayCore

/// Option values read as what they mean, each refusal naming the option.
extension ParsedArguments {
    /// A decimal number (no hex, exponent, inf or nan) within `range`, or nil when absent.
    func number(_ name: String, in range: ClosedRange<Double>, unit: String) throws(CLIError) -> Double? {
        guard let text = value(name) else { return nil }
        guard let n = DecimalText.number(text), range.contains(n) else {
            throw .usage(
                "\(name) takes \(unit) from \(DecimalText.format(range.lowerBound)) to \(DecimalText.format(range.upperBound)), not \"\(text)\""
            )
        }
        return n
    }

    /// A whole decimal number within `range`, or nil when absent.
    func whole(_ name: String, in range: ClosedRange<Int>, unit: String) throws(CLIError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let n = DecimalText.whole(text), range.contains(n) else {
            throw .usage(
                "\(name) takes \(unit) from \(range.lowerBound) to \(range.upperBound), not \"\(text)\"")
        }
        return n
    }

    /// A GPIO line number, or nil when absent.
    func gpioLine(_ name: String) throws(CLIError) -> Int? {
        try whole(name, in: 0...1023, unit: "a GPIO line number")
    }

    /// `--count N`, a whole number above 0, or nil when absent.
    func count() throws(CLIError) -> Int? {
        try whole("--count", in: 1...10_000_000, unit: "a count")
    }

    /// `--tz ZONE` or `--utc-offset ±H[:MM]`, else the configuration's (`--config FILE`) or the
    /// system's time zone: where local times are shown.
    func zone() throws(CLIError) -> LocalZone {
        if value("--tz") != nil && value("--utc-offset") != nil {
            throw .usage("--tz and --utc-offset both say where local times are: give one")
        }
        return try LocalZone.resolve(
            tz: value("--tz"), utcOffset: value("--utc-offset"), configuration: configurationPath)
    }

    /// `--socket PATH`, else runwayd's control socket.
    var socketPath: String { value("--socket") ?? ControlCommands.defaultSocket }

    /// `--mission SPEC` as a Mission Flight, or nil when absent; `zone=N` is taken from the
    /// configuration's heart-rate zones (`--config`, else the installed one; none: the defaults).
    func mission() throws(CLIError) -> Mission? {
        try value("--mission").map { text throws(CLIError) in
            try MissionOption.parse(text) { () throws(CLIError) in try configuration().heartRateZones }
        }
    }

    /// `--workout SPEC`: a workout's text, read here so a mistake is a usage error naming its
    /// step; never with `--mission`.
    func workout() throws(CLIError) -> Workout? {
        guard let text = value("--workout") else { return nil }
        if value("--mission") != nil { throw .usage("--workout and --mission: a run flies one or the other") }
        let zones = try configuration().heartRateZones
        do throws(Workout.Invalid) {
            return try Workout(parsing: text, zones: zones)
        } catch {
            throw .usage("--workout: \(error)")
        }
    }

    /// `--chip NAME`, else the board's first GPIO chip.
    var chip: String { value("--chip") ?? "gpiochip0" }

    /// `--lang L`: the voice's language, English without it.
    func language() throws(CLIError) -> VoiceLanguage {
        guard let code = value("--lang") else { return .english }
        guard let language = VoiceLanguage(rawValue: code) else {
            throw .usage(
                "unknown language \"\(code)\" (runway speaks \(VoiceLanguage.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        return language
    }

    /// `--config FILE`, else the installed configuration's path.
    /// A command without `--config` (`start`, `reprocess`) reads the installed one.
    var configurationPath: String {
        declaration.option(named: "--config") != nil
            ? value("--config") ?? DaemonConfiguration.defaultPath : DaemonConfiguration.defaultPath
    }

    /// The configuration at `configurationPath` (none there: the defaults); a broken one is
    /// refused with its key.
    func configuration() throws(CLIError) -> DaemonConfiguration {
        do {
            return try DaemonConfiguration.load(path: configurationPath)
        } catch {
            throw CLIError("\(error)")
        }
    }

    /// `--logbook FILE`, else the configuration's logbook (on the board, runwayd's).
    func logbookPath() -> String {
        if let path = value("--logbook") { return path }
        let configuration =
            declaration.option(named: "--config") != nil ? configurationPath : DaemonConfiguration.defaultPath
        return (try? DaemonConfiguration.load(path: configuration))?.logbook ?? DaemonConfiguration().logbook
    }

    /// The positional `name` as a flight number.
    func flightID(_ name: String = "ID") throws(CLIError) -> Int64 {
        let text = argument(name) ?? ""
        guard let id = Int64(text), id > 0 else {
            throw .usage(
                "\(name) is a flight number from runway logbook, not \"\(Diagnostic.escaped(text))\"")
        }
        return id
    }
}
