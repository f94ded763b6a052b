import Foundation
import RunWayControl
import RunWayHardware

extension CommandDeclaration.Option {
    /// `--chip NAME`, the GPIO chip the buttons and the buzzer are on (read by `ParsedArguments.chip`).
    static let chip = Self("--chip", value: "NAME", help: "the GPIO chip (default gpiochip0)")
}

extension RunWayCommand {
    /// `runway gps`.
    struct GPS: Subcommand {
        static let declaration = CommandDeclaration(
            "gps", group: .board, abstract: "print fixes as the gpsd client delivers them to the engine",
            arguments: [.init("HOST:PORT", help: "gpsd's address (default 127.0.0.1:2947)", required: false)],
            options: [
                .init("--count", value: "N", help: "stop after N fixes"),
                .init("--timeout", value: "SECONDS", help: "exit 1 when no fix comes within this time"),
                .json,
            ],
            examples: ["runway gps --count 5", "runway gps 192.168.1.20:2947 --timeout 30"])

        let endpoint: GPSDEndpoint
        let count: Int?
        let timeout: Double?
        let json: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            count = try arguments.count()
            timeout = try arguments.number("--timeout", in: 0.1...86_400, unit: "seconds")
            json = arguments.flag("--json")
            let address = arguments.argument("HOST:PORT") ?? "127.0.0.1:2947"
            guard let endpoint = GPSDEndpoint(parsing: address) else {
                throw .usage("\"\(Diagnostic.escaped(address))\" is not HOST:PORT")
            }
            self.endpoint = endpoint
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            await GPSCommand.run(
                endpoint: endpoint, count: count, timeout: timeout, json: json, console: console)
        }
    }

    /// `runway baro`.
    struct Baro: Subcommand {
        static let declaration = CommandDeclaration(
            "baro", group: .board,
            abstract: "print BMP280 readings: chip id, °C, Pa and the altitude relative to the first",
            discussion:
                "--csv writes the pressure file runway fly --pressure reads (time,pressure_pa, UTC times from the board's clock): run it beside gpspipe during a run to record one.",
            options: [
                .init("--bus", value: "N", help: "the I2C bus (default 1: /dev/i2c-1)"),
                .init("--address", value: "0x76|0x77", help: "the chip's address (default 0x76)"),
                .init("--count", value: "N", help: "stop after N readings"),
                .json,
                .init("--csv", help: "time,pressure_pa lines for runway fly --pressure"),
                .init("--simulated", help: "a simulated chip instead of the bus"),
            ],
            examples: ["runway baro --count 3", "runway baro --csv > run.csv"])

        let bus: Int
        let address: UInt8
        let count: Int?
        let json: Bool
        let csv: Bool
        let simulated: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            bus = try arguments.whole("--bus", in: 0...255, unit: "an I2C bus number") ?? 1
            count = try arguments.count()
            json = arguments.flag("--json")
            csv = arguments.flag("--csv")
            simulated = arguments.flag("--simulated")
            if json && csv { throw .usage("baro prints --json or --csv, not both") }
            let text = arguments.value("--address") ?? "0x76"
            let hex = text.lowercased().hasPrefix("0x") ? String(text.dropFirst(2)) : text
            guard let address = UInt8(hex, radix: 16), address == 0x76 || address == 0x77 else {
                throw .usage("--address is 0x76 or 0x77 for a BMP280, not \(Diagnostic.escaped(text))")
            }
            self.address = address
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try BaroCommand.run(
                bus: bus, address: address, count: count, json: json, csv: csv, simulated: simulated,
                console: console)
        }
    }

    /// `runway buttons`.
    struct Buttons: Subcommand {
        static let declaration = CommandDeclaration(
            "buttons", group: .board,
            abstract: "print button presses as they are recognised (short / long, role)",
            options: [
                .chip,
                .init("--start", value: "LINE", help: "the START button's line (default 17)"),
                .init("--pause", value: "LINE", help: "the PAUSE button's line (default 27)"),
                .init("--end", value: "LINE", help: "the END button's line (default 22)"),
                .init("--active-high", help: "buttons pull the line high when pressed (default: low)"),
                .init("--buzzer", value: "LINE", help: "beep on this line when a long press is recognised"),
            ],
            examples: ["runway buttons", "runway buttons --chip gpiochip4 --buzzer 23"])

        let chip: String
        let buttons: [ButtonConfiguration]
        let buzzer: Int?

        init(_ arguments: ParsedArguments) throws(CLIError) {
            chip = arguments.chip
            let activeLow = !arguments.flag("--active-high")
            var buttons: [ButtonConfiguration] = []
            for board in ButtonConfiguration.defaultBoard {
                let line = try arguments.gpioLine("--\(board.role.rawValue)") ?? board.line
                buttons.append(ButtonConfiguration(role: board.role, line: line, activeLow: activeLow))
            }
            self.buttons = buttons
            buzzer = try arguments.gpioLine("--buzzer")
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try GPIOCommands.buttons(chip: chip, buttons: buttons, buzzer: buzzer, console: console)
        }
    }

    /// `runway buzz`.
    struct Buzz: Subcommand {
        static let declaration = CommandDeclaration(
            "buzz", group: .board, abstract: "play one callout's buzzer pattern",
            arguments: [
                .init(
                    "PATTERN",
                    help: GPIOCommands.patterns.map(\.name).joined(separator: ", "))
            ],
            options: [
                .chip,
                .init("--line", value: "LINE", help: "the buzzer's line (default 23)"),
                .init("--simulated", help: "print the pattern's on/off times instead of driving a line"),
            ],
            examples: ["runway buzz split", "runway buzz touchdown --simulated"])

        let name: String
        let chip: String
        let line: Int
        let simulated: Bool

        init(_ arguments: ParsedArguments) throws(CLIError) {
            name = arguments.argument("PATTERN")!
            chip = arguments.chip
            line = try arguments.gpioLine("--line") ?? DaemonConfiguration().buzzerLine
            simulated = arguments.flag("--simulated")
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try GPIOCommands.buzz(name: name, chip: chip, line: line, simulated: simulated, console: console)
        }
    }
}

extension RunWayCommand {
    /// `runway checklist`.
    struct Checklist: Subcommand {
        static let declaration = CommandDeclaration(
            "checklist", group: .board,
            abstract:
                "the takeoff checklist: GPS, barometer, WEATHER, battery, storage, buttons, buzzer, voice",
            discussion:
                "Each line is OK or NOT OK with its reason, and a note where OK means less than it seems. Read from runwayd when it runs, else from gpsd and the chips themselves. WEATHER is the pressure's tendency over the last hours from runwayd's barograph. VOICE opens the configured audio device (voice.device). Exits 1 when a required line (GPS, barometer, battery, storage; buttons, buzzer and voice with --interactive) is NOT OK.",
            options: [
                .init(
                    "--interactive",
                    help: "also press each button when asked, hear each buzzer pattern and the voice"),
                .init(
                    "--simulated",
                    help: "the simulated board's GPS and barometer (battery and storage are real)"),
                .init(
                    "--wait", value: "SECONDS",
                    help: "how long to wait for a first fix from gpsd (default 15)"),
                .init(
                    "--power-supply", value: "DIR",
                    help: "where the battery is read (default /sys/class/power_supply)"),
                .logbookOrConfigured,
                .json,
                .init(
                    "--config", value: "FILE",
                    help: "runwayd's configuration: the board's pins, gpsd, the logbook"),
                .socket,
            ],
            examples: [
                "runway checklist", "runway checklist --interactive", "runway checklist --simulated --json",
            ])

        let request: ChecklistCommand.Request

        init(_ arguments: ParsedArguments) throws(CLIError) {
            var request = ChecklistCommand.Request()
            request.configuration = try arguments.configuration()
            request.socket = arguments.socketPath
            request.wait = try arguments.number("--wait", in: 1...600, unit: "seconds") ?? 15
            request.powerSupply = arguments.value("--power-supply")
            request.logbook = arguments.value("--logbook")
            request.simulated = arguments.flag("--simulated")
            request.interactive = arguments.flag("--interactive")
            request.json = arguments.flag("--json")
            self.request = request
        }

        func run(console: Console) async throws(CLIError) -> Int32 {
            try await ChecklistCommand.run(request, console: console)
        }
    }
}
