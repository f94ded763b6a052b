import RunWayCore

extension RunWayCommand {
    /// `runway demo`.
    struct Demo: Subcommand {
        static let declaration = CommandDeclaration(
            "demo", group: .flights,
            abstract: "fly a simulated 5 km Mission Flight on the simulated board, faster than real time",
            discussion:
                "The board's own live pipeline flies a built-in 5 km run with a hill, a stop and a mission, and prints what the board would say: the countdown, each callout and the summary. Ctrl-C ends the flight as the END button would.",
            options: [
                .init(
                    "--speed", value: "N|max", help: "simulated seconds per real second (default 120), or max"
                ),
                .logbook("record the flight into this logbook as it flies", required: false),
                .init("--progress", help: "print 'at <elapsed>' each simulated second (for scripts)"),
                .audio, .lang,
            ] + CommandDeclaration.Option.zone,
            examples: [
                "runway demo", "runway demo --speed max --logbook /tmp/demo.sqlite",
                "runway demo --speed max --audio /tmp/demo-audio",
            ])

        let speed: Double?
        let logbook: String?
        let progress: Bool
        let zone: LocalZone
        let audio: String?
        let language: VoiceLanguage

        init(_ arguments: ParsedArguments) throws(CLIError) {
            audio = arguments.value("--audio")
            language = try arguments.language()
            logbook = arguments.value("--logbook")
            progress = arguments.flag("--progress")
            zone = try arguments.zone()
            switch arguments.value("--speed") {
            case nil: speed = 120
            case "max": speed = nil
            case let text?:
                // At least 0.01: the next tick's delay is divided by it (1e-39 overflowed).
                guard let value = DecimalText.number(text), (0.01...100_000).contains(value) else {
                    throw .usage("--speed takes a number from 0.01 to 100000, or 'max', not \"\(text)\"")
                }
                speed = value
            }
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            await DemoCommand.run(
                speed: speed, logbook: logbook, progress: progress, zone: zone, audio: audio,
                language: language,
                console: console)
        }
    }

    /// `runway fly`.
    struct Fly: Subcommand {
        static let declaration = CommandDeclaration(
            "fly", group: .flights,
            abstract:
                "fly a recorded GPS trace (and pressure, heart rate, cadence) through the flight engine",
            discussion:
                "The trace is gpsd JSON as gpspipe -w writes it; the pressure file is CSV, time,pressure_pa with ISO-8601 UTC times, as runway baro --csv writes it; the body file is CSV, time,heart_rate,cadence, an empty field for a missing value. Heart-rate zones (and zone=N missions) are the installed configuration's runner's. Prints the flight's summary (or JSON); with --save it is stored in the logbook like a run from the board.",
            options: [
                .init(
                    "--gps", value: "FILE", help: "the gpsd JSON trace (- for standard input)", required: true
                ),
                .init("--pressure", value: "FILE", help: "a pressure CSV for the barometric altitude"),
                .init(
                    "--body", value: "FILE", help: "a heart rate and cadence CSV (time,heart_rate,cadence)"),
                .init(
                    "--buttons", value: "FILE",
                    help:
                        "the runner's presses, CSV time,button (start, pause, resume, end): a PAUSE bump flown as the board would"
                ),
                .init(
                    "--mission", value: "SPEC",
                    help:
                        "fly as a Mission Flight: pace=5:30,deviation=15,distance=5000, or hr=140-155 / zone=2, and time=30:00"
                ),
                .init(
                    "--workout", value: "SPEC",
                    help:
                        "fly a workout, a lap per step: \"wu 1km; 6x(work 400m @3:50±10, recover 200m); cd 1km\" (steps warmup, work, recover, cooldown, run, walk; m, km, mi, s, min, h; targets M:SS±S, hrLOW-HIGH, zN)"
                ),
                .init("--save", help: "store the flight in the logbook (with --logbook)"),
                .logbook("the logbook --save stores into", required: false),
                .json, .audio, .lang,
            ] + CommandDeclaration.Option.zone,
            examples: [
                "gpspipe -w -n 4000 > run.json; runway fly --gps run.json",
                "runway fly --gps run.json --pressure run.csv --save --logbook ~/runs.sqlite",
                "runway fly --gps run.json --body strap.csv --mission hr=140-155,distance=5000",
                "runway fly --gps run.json --buttons presses.csv --json",
                "runway fly --gps track.json --workout \"wu 2km; 6x400m @3:50; cd 1km\"",
            ])

        let gps: String
        let buttons: String?
        let pressure: String?
        let body: String?
        let configuration: EngineConfiguration
        /// The configuration's `home_altitude_m`: the JSON's `altitude_anchor`.
        let homeAltitude: Double?
        let mission: Mission?
        let workout: Workout?
        let json: Bool
        let saveTo: String?
        let zone: LocalZone
        let audio: String?
        let language: VoiceLanguage

        init(_ arguments: ParsedArguments) throws(CLIError) {
            gps = arguments.value("--gps")!
            audio = arguments.value("--audio")
            language = try arguments.language()
            pressure = arguments.value("--pressure")
            body = arguments.value("--body")
            buttons = arguments.value("--buttons")
            mission = try arguments.mission()
            workout = try arguments.workout()
            let installed = try arguments.configuration()
            configuration = installed.engine
            homeAltitude = installed.homeAltitude
            json = arguments.flag("--json")
            zone = try arguments.zone()
            let save = arguments.flag("--save")
            let logbook = arguments.value("--logbook")
            if save && logbook == nil { throw .usage("--save needs --logbook FILE") }
            if !save && logbook != nil {
                throw .usage(
                    "--logbook goes with --save (runway fly … --save --logbook FILE); nothing would be saved")
            }
            let stdin = [("--gps", gps), ("--pressure", pressure), ("--body", body), ("--buttons", buttons)]
                .filter { $0.1 == "-" }
            if stdin.count > 1 {
                throw .usage(
                    "\(stdin.map(\.0).joined(separator: " and ")) cannot \(stdin.count == 2 ? "both" : "all") read standard input"
                )
            }
            saveTo = save ? logbook : nil
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try FlyCommand.run(
                gps: gps, pressure: pressure, body: body, buttons: buttons, mission: mission,
                workout: workout,
                configuration: configuration, json: json, saveTo: saveTo, zone: zone, audio: audio,
                language: language, homeAltitude: homeAltitude, console: console)
        }
    }

    /// `runway simulate`.
    struct Simulate: Subcommand {
        static let declaration = CommandDeclaration(
            "simulate", group: .board,
            abstract: "write a built-in scenario's sensor output (NMEA or pressure CSV)",
            discussion:
                "The NMEA is for gpsfake, so a real gpsd can serve a known run; the pressure CSV is for runway fly --pressure. Scenarios: demo, flat5k, hilly10k, stops5k, walker.",
            options: [
                .init(
                    "--scenario", value: "NAME", help: "demo, flat5k, hilly10k, stops5k or walker",
                    required: true),
                .init("--format", value: "nmea|pressure", help: "NMEA sentences (default) or a pressure CSV"),
                .init("--lead-in", value: "SECONDS", help: "standing still with a fix before the run starts"),
            ],
            examples: ["runway simulate --scenario flat5k > flat5k.nmea; gpsfake -c 0.1 flat5k.nmea"])

        let scenario: String
        let format: SimulateCommand.Format
        let leadIn: Int

        init(_ arguments: ParsedArguments) throws(CLIError) {
            scenario = arguments.value("--scenario")!
            leadIn = try arguments.whole("--lead-in", in: 0...3600, unit: "whole seconds") ?? 0
            let formatText = arguments.value("--format") ?? "nmea"
            guard let format = SimulateCommand.Format(rawValue: formatText) else {
                throw .usage("--format is nmea or pressure, not \"\(formatText)\"")
            }
            self.format = format
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            console.out(
                try SimulateCommand.lines(scenario: scenario, format: format, leadIn: leadIn).joined(
                    separator: "\n"))
            return 0
        }
    }
}
