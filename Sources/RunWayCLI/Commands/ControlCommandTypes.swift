import RunWayCore

extension RunWayCommand {
    /// `runway status`.
    struct Status: Subcommand {
        static let declaration = CommandDeclaration(
            "status", group: .runwayd,
            abstract:
                "the running runwayd's state: phase, distance, pace, altitude, GPWS, GPS, battery, storage",
            discussion:
                "JSON's \"status\" object is runwayd's live state (field names in the README). With --watch, a line a second and every callout as it is said, until Ctrl-C.",
            options: [.init("--watch", help: "follow the state and the callouts"), .json, .socket],
            examples: ["runway status", "runway status --watch"])

        let socket: String
        let watch: Bool
        let json: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            socket = arguments.socketPath
            watch = arguments.flag("--watch")
            json = arguments.flag("--json")
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try ControlCommands.status(socket: socket, watch: watch, json: json, console: console)
        }
    }

    /// `runway start`.
    struct Start: Subcommand {
        static let declaration = CommandDeclaration(
            "start", group: .runwayd,
            abstract: "press START: the countdown, then the flight (as the START button)",
            discussion:
                "Without --mission or --workout, the run chosen at the buttons (else the configuration's mission, if any) is flown. Before the first GPS fix, the start is held and flown when the fix comes.",
            options: [
                .init(
                    "--mission", value: "SPEC",
                    help:
                        "a Mission Flight: pace=5:30,deviation=15,distance=5000, or hr=140-155 / zone=2 (the configuration's zones), and time=30:00"
                ),
                .init(
                    "--workout", value: "NAME|SPEC",
                    help:
                        "a workout: a configured run's name, or its steps, \"wu 1km; 6x(work 400m @3:50±10, recover 200m); cd 1km\" (runwayd checks it)"
                ),
                .socket,
            ],
            examples: [
                "runway start", "runway start --mission pace=5:30,distance=10km",
                "runway start --workout \"8x(run 4min, walk 1min)\"",
            ])

        let socket: String
        let mission: Mission?
        let workout: String?

        init(_ arguments: ParsedArguments) throws(CLIError) {
            socket = arguments.socketPath
            mission = try arguments.mission()
            workout = arguments.value("--workout")
            if mission != nil, workout != nil {
                throw .usage("--workout and --mission: a run flies one or the other")
            }
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try ControlCommands.command(
                "start", mission: mission, workout: workout, socket: socket, console: console)
        }
    }

    /// `runway pause`.
    struct Pause: ControlPress {
        static let declaration = buttonDeclaration(
            "pause", abstract: "press PAUSE: the flight pauses (as the pause button)")
        let socket: String
    }

    /// `runway resume`.
    struct Resume: ControlPress {
        static let declaration = buttonDeclaration(
            "resume", abstract: "press RESUME: a paused flight goes on (as the pause button again)")
        let socket: String
    }

    /// `runway lap`.
    struct Lap: ControlPress {
        static let declaration = buttonDeclaration(
            "lap", abstract: "press LAP: a workout's step ends here, else a lap (as END pressed briefly)")
        let socket: String
    }

    /// `runway stop`.
    struct Stop: ControlPress {
        static let declaration = buttonDeclaration(
            "stop", abstract: "END the flight: TOUCHDOWN, the summary is stored (as a long press)")
        let socket: String
    }

    /// `runway export-finished`.
    struct ExportFinished: Subcommand {
        static let declaration = CommandDeclaration(
            "export-finished", group: .runwayd,
            abstract: "tell runwayd a USB export ended, so the buzzer says done or failed",
            discussion: "runway-export@.service runs it with systemd's $SERVICE_RESULT.",
            arguments: [.init("RESULT", help: "success or ok for done; anything else for failed")],
            options: [.socket],
            examples: ["runway export-finished success"])

        let socket: String
        let result: String

        init(_ arguments: ParsedArguments) throws(CLIError) {
            socket = arguments.socketPath
            result = arguments.argument("RESULT")!
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try ControlCommands.exportFinished(result: result, socket: socket, console: console)
        }
    }
}

/// PAUSE, RESUME and END: a button press sent to runwayd, nothing more to say.
protocol ControlPress: Subcommand {
    var socket: String { get }
    init(socket: String)
}

extension ControlPress {
    static func buttonDeclaration(_ name: String, abstract: String) -> CommandDeclaration {
        CommandDeclaration(
            name, group: .runwayd, abstract: abstract, options: [.socket], examples: ["runway \(name)"])
    }

    init(_ arguments: ParsedArguments) throws(CLIError) {
        self.init(socket: arguments.socketPath)
    }

    func run(console: Console) async throws(CLIError) -> Int32 {
        try ControlCommands.command(Self.declaration.name, mission: nil, socket: socket, console: console)
    }
}
