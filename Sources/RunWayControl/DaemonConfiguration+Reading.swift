import Foundation
import RunWayCore
import RunWayHardware

/// The whole file, key by key (`DaemonConfiguration.parse`): one reader per section, each
/// refusing what it does not know with the key's path.
extension Reader {
    mutating func configuration() throws(Problem) -> DaemonConfiguration {
        var config = DaemonConfiguration()
        let top = try object(known: [
            "board", "gpsd", "logbook", "runner", "mission", "time_zone", "battery", "voice", "bluetooth",
            "run", "runs", "home_altitude_m",
        ])
        if let run = top["run"] { config.run = try run.runSettings() }
        if let board = top["board"] { try board.board(into: &config) }
        try Self.sections(top, into: &config)
        return config
    }

    /// The `board` object: the gpiochip, the buttons' and the buzzer's GPIO lines (no two on one
    /// line), and the barometer's I2C bus and address.
    func board(into config: inout DaemonConfiguration) throws(Problem) {
        let keys = try object(known: ["gpiochip", "buttons", "buzzer", "i2c"])
        if let chip = keys["gpiochip"] {
            config.gpioChip = try chip.string("a gpiochip name, e.g. \"gpiochip0\"")
        }
        if let buzzer = keys["buzzer"] { config.buzzerLine = try buzzer.whole(Self.gpioLine, in: 0...53) }
        if let buttons = keys["buttons"] {
            let roles = ButtonRole.allCases.map(\.rawValue)
            let entries = try buttons.object(known: roles + ["active_low"])
            let activeLow = try entries["active_low"]?.bool("true or false") ?? true
            config.buttons = try ButtonConfiguration.defaultBoard.map { board throws(Problem) in
                let line =
                    try entries[board.role.rawValue]?.whole(Self.gpioLine, in: 0...53) ?? board.line
                return ButtonConfiguration(role: board.role, line: line, activeLow: activeLow)
            }
            let lines = config.buttons.map(\.line)
            if Set(lines).count != lines.count {
                throw Problem(path: buttons.path, message: "two buttons share one GPIO line (\(lines))")
            }
        }
        if config.buttons.contains(where: { $0.line == config.buzzerLine }) {
            throw Problem(
                path: (keys["buzzer"] ?? self).path,
                message: "the buzzer shares GPIO \(config.buzzerLine) with a button")
        }
        if let i2c = keys["i2c"] {
            let entries = try i2c.object(known: ["bus", "address"])
            if let bus = entries["bus"] {
                config.i2cBus = try bus.whole("an I2C bus number 0–255", in: 0...255)
            }
            if let address = entries["address"] {
                let text = try address.string("\"0x76\" or \"0x77\"").lowercased()
                guard text == "0x76" || text == "0x77" else { throw address.fail("\"0x76\" or \"0x77\"") }
                config.i2cAddress = text == "0x76" ? 0x76 : 0x77
            }
        }
    }

    /// The top-level keys beside `board` and `run`, each checked as its reader says.
    static func sections(_ top: [String: Reader], into config: inout DaemonConfiguration) throws(Problem) {
        if let gpsd = top["gpsd"] {
            let text = try gpsd.string("HOST:PORT, e.g. \"127.0.0.1:2947\"")
            guard let endpoint = GPSDEndpoint(parsing: text) else {
                throw gpsd.fail("HOST:PORT, e.g. \"127.0.0.1:2947\"")
            }
            config.gpsd = endpoint
        }
        if let logbook = top["logbook"] {
            let path = try logbook.string("an absolute path to the logbook file")
            guard path.hasPrefix("/") else { throw logbook.fail("an absolute path to the logbook file") }
            config.logbook = path
        }
        if let battery = top["battery"] {
            config.battery = try battery.battery()
        }
        if let voice = top["voice"] {
            config.voice = try voice.voice()
        }
        if let bluetooth = top["bluetooth"] {
            let entries = try bluetooth.object(known: ["enabled"])
            if let enabled = entries["enabled"] {
                config.bluetooth.enabled = try enabled.bool("true or false")
            }
        }
        if let runner = top["runner"] {
            let entries = try runner.object(known: [
                "body_mass_kg", "max_heart_rate", "resting_heart_rate", "heart_rate_zones",
            ])
            if let mass = entries["body_mass_kg"], !mass.isNull {
                config.bodyMass = try mass.number("kilograms 20–300", in: 20...300)
            }
            config.heartRateZones = try runner.heartRateZones(entries)
        }
        if let mission = top["mission"], !mission.isNull {
            config.mission = try mission.mission(zones: config.heartRateZones)
        }
        if let runs = top["runs"] { config.runs = try runs.runs(zones: config.heartRateZones) }
        if let zone = top["time_zone"], !zone.isNull {
            let name = try zone.string("an IANA time zone, e.g. \"Asia/Seoul\"")
            guard TimeZone(identifier: name) != nil else {
                throw zone.fail("an IANA time zone, e.g. \"Asia/Seoul\"")
            }
            config.timeZone = name
        }
        if let home = top["home_altitude_m"], !home.isNull {
            // The Dead Sea shore to the top of Everest.
            config.homeAltitude = try home.number("metres above sea level, −430 to 8850", in: -430...8850)
        }
    }
}
