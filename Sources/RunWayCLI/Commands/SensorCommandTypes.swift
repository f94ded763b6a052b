import RunWayControl

extension RunWayCommand {
    /// `runway sensors scan`.
    struct SensorsScan: Subcommand {
        static let declaration = CommandDeclaration(
            "sensors scan", group: .sensors,
            abstract:
                "the Bluetooth heart-rate straps and footpods near: address, type, name, signal, paired",
            discussion:
                "runwayd scans (it owns the radio), then lists what answered, the strongest signal first. Wake a strap by wetting its electrodes, a footpod with a few steps. JSON: a list of objects with \"address\", \"name\", \"kinds\" ([\"heart_rate\"] or [\"cadence\"]), \"rssi\" (dBm) and \"paired\".",
            options: [
                .init("--seconds", value: "N", help: "how long to scan, 1–60 (default 10)"), .json, .socket,
            ],
            examples: ["runway sensors scan", "runway sensors scan --seconds 20 --json"])

        let socket: String
        let seconds: Int
        let json: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            socket = arguments.socketPath
            json = arguments.flag("--json")
            seconds =
                try arguments.whole("--seconds", in: ControlRequest.scanSeconds, unit: "seconds")
                ?? ControlRequest.defaultScanSeconds
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try SensorsCommands.scan(seconds: seconds, socket: socket, json: json, console: console)
        }
    }

    /// `runway sensors pair`.
    struct SensorsPair: Subcommand {
        static let declaration = CommandDeclaration(
            "sensors pair", group: .sensors,
            abstract: "pair runwayd with a sensor found by a scan; it connects to it before every run",
            discussion:
                "One sensor of each kind: pairing a second strap replaces the first (the reply says so). runwayd keeps the choice in its state (/var/lib/runway/sensors.json); it is never edited by hand.",
            arguments: [
                .init(
                    "SENSOR",
                    help: "the sensor's address (AA:BB:CC:DD:EE:FF) or its name as the scan shows it")
            ],
            options: [.json, .socket],
            examples: ["runway sensors pair A0:9E:1A:12:34:56", "runway sensors pair \"Polar H10 1A2B3C4D\""])

        let socket: String
        let sensor: String
        let json: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            socket = arguments.socketPath
            sensor = arguments.argument("SENSOR")!
            json = arguments.flag("--json")
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try SensorsCommands.pair(sensor, socket: socket, json: json, console: console)
        }
    }

    /// `runway sensors forget`.
    struct SensorsForget: Subcommand {
        static let declaration = CommandDeclaration(
            "sensors forget", group: .sensors,
            abstract: "forget a paired sensor: runwayd no longer connects to it, and BlueZ drops its bond",
            arguments: [.init("SENSOR", help: "the paired sensor's address or name (runway sensors list)")],
            options: [.socket],
            examples: ["runway sensors forget Stryd"])

        let socket: String
        let sensor: String

        init(_ arguments: ParsedArguments) throws(CLIError) {
            socket = arguments.socketPath
            sensor = arguments.argument("SENSOR")!
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try SensorsCommands.forget(sensor, socket: socket, console: console)
        }
    }

    /// `runway sensors list`.
    struct SensorsList: Subcommand {
        static let declaration = CommandDeclaration(
            "sensors list", group: .sensors,
            abstract: "the paired sensors: connected or not, battery, the last value, when last heard",
            discussion:
                "JSON: a list of objects with \"address\", \"name\", \"kinds\", \"connected\", \"battery_percent\", \"heart_rate\", \"cadence\", \"contact\", \"last_seen\" (ISO-8601 UTC, or null before the first GPS fix) and \"last_seen_age_s\" (seconds ago), each null when unknown.",
            options: [.json, .socket],
            examples: ["runway sensors list", "runway sensors list --json"])

        let socket: String
        let json: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            socket = arguments.socketPath
            json = arguments.flag("--json")
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try SensorsCommands.list(socket: socket, json: json, console: console)
        }
    }
}
