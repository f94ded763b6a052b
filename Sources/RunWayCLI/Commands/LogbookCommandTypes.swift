import RunWayControl
import RunWayCore

extension CommandDeclaration.Option {
    /// `--logbook FILE`, defaulting to the configuration's.
    static let logbookOrConfigured = Self.logbook(
        "the logbook (default: the configuration's, /var/lib/runway/logbook.sqlite)", required: false)
}

/// What `calendar` and `week` both read: the logbook, a date, the zone its days are in, JSON.
struct DayQuery: Sendable {
    /// The options it is read from.
    static let options: [CommandDeclaration.Option] =
        [.logbookOrConfigured, .json] + CommandDeclaration.Option.zone

    let path: String
    let date: String?
    let json: Bool
    let zone: LocalZone

    init(_ arguments: ParsedArguments) throws(CLIError) {
        path = arguments.logbookPath()
        date = arguments.argument("DATE")
        json = arguments.flag("--json")
        zone = try arguments.zone()
    }
}

/// `calendar` and `week`: a `DayQuery`, shown their own way.
protocol DayCommand: Subcommand {
    init(query: DayQuery)
}

extension DayCommand {
    init(_ arguments: ParsedArguments) throws(CLIError) { self.init(query: try DayQuery(arguments)) }
}

extension RunWayCommand {
    /// `runway logbook` (and `runway show ID`).
    struct LogbookList: Subcommand {
        static let declaration = CommandDeclaration(
            "logbook", group: .flights,
            abstract: "the flights, most recent first; with --flight ID, one flight's summary",
            discussion:
                "A flight's summary has its distance, times, pace, splits (fastest, slowest, highest and lowest marked when there are two or more), elevation, heart rate (average, maximum, time in each zone), GPWS alerts, mission and calories. runway show ID is the same as runway logbook --flight ID. In the JSON list, \"status\" is the logbook's state of a flight (finished, recovered, flying); in one flight's JSON it is the engine's verdict (recorded, too short) and the logbook's state is \"logbook_status\".",
            options: [
                .logbookOrConfigured,
                .init(
                    "--flight", value: "ID",
                    help: "one flight: summary, splits, alerts; JSON adds its samples and route"),
                .init(
                    "--body-mass", value: "KG",
                    help:
                        "the runner's body mass for the calories (default: the configuration's runner.body_mass_kg)"
                ),
                .init("--all", help: "also list flights a reprocessed one supersedes"),
                .json,
            ] + CommandDeclaration.Option.zone,
            examples: ["runway logbook", "runway logbook --flight 3 --tz Asia/Seoul", "runway show 3 --json"])

        let path: String
        let flight: Int64?
        let bodyMass: Double?
        let all: Bool
        let json: Bool
        let zone: LocalZone
        /// The runner's unit (`run.units` of the installed configuration): the summary's.
        let units: DistanceUnit
        /// The installed configuration's `home_altitude_m`: the JSON's `altitude_anchor`.
        let homeAltitude: Double?

        init(_ arguments: ParsedArguments) throws(CLIError) {
            path = arguments.logbookPath()
            zone = try arguments.zone()
            let givenMass = try arguments.number("--body-mass", in: 20...300, unit: "kilograms")
            let installed = try? DaemonConfiguration.load(path: arguments.configurationPath)
            units = installed?.run.units ?? .kilometre
            homeAltitude = installed?.homeAltitude
            bodyMass = givenMass ?? installed?.bodyMass
            all = arguments.flag("--all")
            json = arguments.flag("--json")
            if let text = arguments.value("--flight") {
                guard let id = Int64(text), id > 0 else {
                    throw .usage(
                        "--flight takes a flight number from runway logbook, not \"\(Diagnostic.escaped(text))\""
                    )
                }
                flight = id
            } else {
                flight = nil
                if givenMass != nil { throw .usage("--body-mass goes with --flight ID") }
            }
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            if let flight {
                return try LogbookCommands.show(
                    path: path, id: flight, zone: zone, bodyMass: bodyMass, json: json, units: units,
                    homeAltitude: homeAltitude, console: console)
            }
            return try LogbookCommands.list(path: path, zone: zone, all: all, json: json, console: console)
        }
    }

    /// `runway calendar`.
    struct Calendar: DayCommand {
        static let declaration = CommandDeclaration(
            "calendar", group: .flights,
            abstract: "the Flight Calendar: a month of km a day with week totals, or one day's runs",
            discussion:
                "Each day shows its km (shaded on a colour terminal) and a dot for each further run that day, up to 4; a side column totals each week. With a day (YYYY-MM-DD), its runs are listed. Days are local days (see runway help).",
            arguments: [
                .init(
                    "DATE", help: "YYYY-MM for a month (default this month), YYYY-MM-DD for a day",
                    required: false)
            ],
            options: DayQuery.options,
            examples: ["runway calendar", "runway calendar 2026-10", "runway calendar 2026-10-03 --json"])

        let query: DayQuery

        func run(console: Console) async throws(CLIError) -> Int32 {
            try CalendarCommands.calendar(
                path: query.path, date: query.date, zone: query.zone, json: query.json, console: console)
        }
    }

    /// `runway week`.
    struct Week: DayCommand {
        static let declaration = CommandDeclaration(
            "week", group: .flights,
            abstract: "the week's distance per day as bars, scaled to its largest day",
            arguments: [
                .init("DATE", help: "a day of the week to show, YYYY-MM-DD (default today)", required: false)
            ],
            options: DayQuery.options,
            examples: ["runway week", "runway week 2026-10-03"])

        let query: DayQuery

        func run(console: Console) async throws(CLIError) -> Int32 {
            try CalendarCommands.week(
                path: query.path, date: query.date, zone: query.zone, json: query.json, console: console)
        }
    }

    /// `runway replay`.
    struct Replay: Subcommand {
        static let declaration = CommandDeclaration(
            "replay", group: .flights,
            abstract: "the Flight Data Recorder at a moment, and its PACE, BPM, SPM and ALT lanes",
            discussion:
                "Shows elapsed time, distance, pace, heart rate, cadence, altitude, heading and the position at the moment, with the four lanes as sparklines on one time axis and a cursor there. A missing value breaks its lane; a taller pace bar is a slower pace.",
            arguments: [.flightID],
            options: [
                .init(
                    "--at", value: "MM:SS",
                    help: "the moment, as MM:SS or H:MM:SS of elapsed time (default the end)"),
                .logbookOrConfigured, .json,
            ],
            examples: ["runway replay 3 --at 12:30"])

        let path: String
        let id: Int64
        let at: String?
        let json: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            path = arguments.logbookPath()
            id = try arguments.flightID()
            at = arguments.value("--at")
            json = arguments.flag("--json")
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try ReplayCommand.run(path: path, id: id, at: at, json: json, console: console)
        }
    }

    /// `runway delete`.
    struct Delete: Subcommand {
        static let declaration = CommandDeclaration(
            "delete", group: .logbook, abstract: "delete a flight (asks first; never one still in the air)",
            arguments: [.flightID],
            options: [.logbookOrConfigured, .init("--yes", help: "delete without asking")],
            examples: ["runway delete 3", "runway delete 3 --yes"])

        let path: String
        let id: Int64
        let yes: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            path = arguments.logbookPath()
            id = try arguments.flightID()
            yes = arguments.flag("--yes")
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try CalendarCommands.delete(
                path: path, id: id, yes: yes, answer: { readLine() }, console: console)
        }
    }

    /// `runway salvage`.
    struct Salvage: Subcommand {
        static let declaration = CommandDeclaration(
            "salvage", group: .logbook,
            abstract: "copy every flight that can still be read from a damaged logbook into a new one",
            discussion:
                "Flights are flown again from their raw sensor logs where those can be read, else kept as stored. The damaged logbook is only read; NEW must not exist.",
            arguments: [.init("DAMAGED", help: "the damaged logbook")],
            options: [.init("--to", value: "NEW", help: "the new logbook to write", required: true)],
            examples: ["runway salvage /var/lib/runway/logbook.sqlite --to ~/saved.sqlite"])

        let damaged: String
        let target: String

        init(_ arguments: ParsedArguments) throws(CLIError) {
            damaged = arguments.argument("DAMAGED")!
            target = arguments.value("--to")!
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try LogbookCommands.salvage(from: damaged, to: target, console: console)
        }
    }

    /// `runway reprocess`.
    struct Reprocess: Subcommand {
        static let declaration = CommandDeclaration(
            "reprocess", group: .logbook,
            abstract: "fly a stored flight again from its raw sensor log with this build's engine",
            discussion: "The result is stored as a new flight that supersedes the old one, unless --replace.",
            arguments: [.flightID],
            options: [
                .logbookOrConfigured, .init("--replace", help: "replace the flight instead of keeping both"),
            ],
            examples: ["runway reprocess 3"])

        let path: String
        let id: Int64
        let replace: Bool
        let configuration: EngineConfiguration

        init(_ arguments: ParsedArguments) throws(CLIError) {
            path = arguments.logbookPath()
            id = try arguments.flightID()
            replace = arguments.flag("--replace")
            configuration = try arguments.configuration().engine
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try LogbookCommands.reprocess(
                path: path, id: id, replace: replace, configuration: configuration, console: console)
        }
    }

    /// `runway trim` (issue 27).
    struct Trim: Subcommand {
        static let declaration = CommandDeclaration(
            "trim", group: .logbook,
            abstract: "cut a stored flight to a window of its elapsed time, from its raw sensor log",
            discussion:
                "A forgotten stop's standing or a car ride home at the end: the raw log inside the window is flown again from --start (default the flight's start) to --end (default its end), as reprocess flies a flight, and stored in one transaction as a new flight that supersedes the old one, unless --replace. Times are elapsed from the flight's start, MM:SS or H:MM:SS, as runway show prints them.",
            arguments: [.flightID],
            options: [
                .init("--start", value: "MM:SS", help: "keep from this elapsed time"),
                .init("--end", value: "MM:SS", help: "keep up to this elapsed time"),
                .logbookOrConfigured, .init("--replace", help: "replace the flight instead of keeping both"),
            ],
            examples: ["runway trim 3 --end 52:10", "runway trim 3 --start 2:00 --end 1:05:00 --replace"])

        let path: String
        let id: Int64
        let start: Double?
        let end: Double?
        let replace: Bool
        let configuration: EngineConfiguration

        init(_ arguments: ParsedArguments) throws(CLIError) {
            path = arguments.logbookPath()
            id = try arguments.flightID()
            replace = arguments.flag("--replace")
            func time(_ option: String) throws(CLIError) -> Double? {
                guard let text = arguments.value(option) else { return nil }
                guard let seconds = MissionRule.clock(text) else {
                    throw .usage(
                        "\(option) \"\(text)\" is not a time from the flight's start: MM:SS or H:MM:SS")
                }
                return seconds
            }
            start = try time("--start")
            end = try time("--end")
            if start == nil && end == nil { throw .usage("trim needs --start, --end or both") }
            configuration = try arguments.configuration().engine
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try LogbookCommands.trim(
                path: path, id: id, start: start, end: end, replace: replace, configuration: configuration,
                console: console)
        }
    }
}
