import Foundation
import RunWayCore
import RunWayHardware

/// The daemon's one configuration file (`/etc/runway/runway.json` by default). No file at all
/// means the documented defaults; a file with an unknown key, a wrong type or an impossible value
/// is refused at start with the key's path and what was expected, so a typo never silently
/// becomes a default.
public struct DaemonConfiguration: Sendable, Equatable {
    public static let defaultPath = "/etc/runway/runway.json"

    public var gpioChip = "gpiochip0"
    public var buttons = ButtonConfiguration.defaultBoard
    /// GPIO 23 (pin 16): GPIO 18 is an I2S amplifier's bit clock (board/README.md, "Audio out").
    public var buzzerLine = 23
    public var i2cBus = 1
    public var i2cAddress: UInt8 = 0x76
    public var gpsd = GPSDEndpoint()
    public var logbook = "/var/lib/runway/logbook.sqlite"
    /// For calories; nil leaves them out.
    public var bodyMass: Double?
    /// The runner's zones (`runner.max_heart_rate`, `resting_heart_rate`, `heart_rate_zones`):
    /// time in zone and `zone=N` missions. Unset: `HeartRateZones.unconfigured`.
    public var heartRateZones = HeartRateZones.unconfigured
    /// The mission START flies when the runner gives none; nil is a Free Flight.
    public var mission: Mission?
    /// The battery gauge: where the kernel's power supplies are, and the thresholds.
    public var battery = Battery()
    /// An IANA zone for local times (file names, listings); nil uses the system's.
    public var timeZone: String?
    /// Metres above sea level where runs begin (`home_altitude_m`): anchors the exported files'
    /// altitude there instead of at the receiver's mean altitude over the run (issue 28); nil
    /// leaves the receiver's mean.
    public var homeAltitude: Double?
    /// What the runner hears and how (`voice` in the file).
    public var voice = Voice()
    /// The Bluetooth sensors (`bluetooth` in the file): `{"enabled": false}` on a board without
    /// Bluetooth, so runwayd starts no sensor service and the checklist says why.
    public var bluetooth = Bluetooth()
    /// The runs a preflight gesture chooses from beside the free run and `mission` (`runs`).
    public var runs: [ConfiguredRun] = []
    /// The run's own settings (`run` in the file): auto-pause, auto-resume, the forgotten stop.
    public var run = RunSettings()

    public init() {}

    public struct Bluetooth: Sendable, Equatable {
        public var enabled = true

        public init(enabled: Bool = true) { self.enabled = enabled }
    }

    /// The engine's configuration this file implies: the defaults with the runner's zones.
    public var engine: EngineConfiguration {
        var engine = EngineConfiguration()
        engine.heartRateZones = heartRateZones
        run.apply(to: &engine)
        return engine
    }

    /// `{"output": "both", "language": "en", "device": "default", "engine": "flite", "name": "slt",
    /// "rate": 170}`: every key optional.
    public struct Voice: Sendable, Equatable {
        /// The speech engines `engine` may name (RunWayVoice's `SpeechEngine`, checked by a test).
        public static let engines = ["espeak-ng", "flite"]
        /// nil: `both` when the audio device opens at start, the buzzer alone when there is none
        /// (a board without audio out is not at fault).
        public var output: VoiceOutput?
        public var language = VoiceLanguage.english
        /// An ALSA PCM name: `default`, `plughw:CARD=Device` (a USB dongle), `hw:sndrpihifiberry`
        /// (an I2S amplifier), `bluealsa` (Bluetooth headphones through bluez-alsa).
        public var device = "default"
        /// nil: the language's default engine.
        public var engine: String?
        /// The engine's voice, e.g. "slt" (flite) or "en-us" (espeak-ng); nil: the default.
        public var name: String?
        /// Words per minute (80–350); nil: the engine's default for the language.
        public var rate: Int?

        public init() {}
    }

    public struct Battery: Sendable, Equatable {
        public var powerSupply = "/sys/class/power_supply"
        /// Below this the battery is said to be low, once (the takeoff checklist's 20 %).
        public var lowPercent = 20
        /// At or below this a flight in the air is landed and saved before the power dies.
        public var criticalPercent = 5
        public var pollSeconds = 30.0
    }

    /// One mistake in the file: where (`board.buttons.end`), what was expected and what was found.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var message: String

        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// Reads `path`; a missing file is the defaults (`nil` problem), anything else wrong is one
    /// sentence naming the key. With `mustExist` (a file named on the command line) a missing
    /// file is refused instead: a mistyped `--config` must not run the board on the defaults.
    public static func load(path: String, mustExist: Bool = false) throws(Problem) -> DaemonConfiguration {
        guard FileManager.default.fileExists(atPath: path) else {
            guard !mustExist else {
                throw Problem(
                    path: "",
                    message: "no such file: give --config an existing file, or leave --config out "
                        + "for \(defaultPath) (the defaults when there is none)")
            }
            return DaemonConfiguration()
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Problem(path: "", message: "\(path) cannot be read (permission denied, or a directory)")
        }
        return try parse(data, name: path)
    }

    public static func parse(_ data: Data, name: String = "configuration") throws(Problem)
        -> DaemonConfiguration
    {
        let root: JSONValue
        do {
            root = try JSONValue.parse(data)
        } catch {
            throw Problem(path: "", message: "\(name) is not valid JSON (\(error))")
        }
        var reader = Reader(value: root, path: "")
        return try reader.configuration()
    }
}

/// Walks the JSON with the key path in hand.
struct Reader {
    typealias Problem = DaemonConfiguration.Problem
    let value: JSONValue
    let path: String

    func child(_ key: String, _ value: JSONValue) -> Reader {
        Reader(value: value, path: path.isEmpty ? key : "\(path).\(key)")
    }

    func fail(_ expected: String) -> Problem {
        Problem(path: path, message: "expected \(expected), got \(Self.describe(value))")
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .array: "a list"
        case .object: "an object"
        default: value.rendered()  // a string quoted, its control characters escaped
        }
    }

    /// The object's keys (each once: the parser refuses a second), refusing any not in `known`.
    func object(known: [String]) throws(Problem) -> [String: Reader] {
        guard case .object(let members) = value else { throw fail("an object") }
        var result: [String: Reader] = [:]
        for (key, value) in members {
            guard known.contains(key) else {
                let at = path.isEmpty ? key : "\(path).\(key)"
                throw Problem(path: at, message: "unknown key (known here: \(known.joined(separator: ", ")))")
            }
            result[key] = child(key, value)
        }
        return result
    }

    var isNull: Bool { value.isNull }

    /// A JSON number (not a string, not true/false) inside `range`, checked before any use.
    func number(_ expected: String, in range: ClosedRange<Double>) throws(Problem) -> Double {
        guard let n = value.numberValue, range.contains(n) else { throw fail(expected) }
        return n
    }

    func whole(_ expected: String, in range: ClosedRange<Int>) throws(Problem) -> Int {
        let n = try number(expected, in: Double(range.lowerBound)...Double(range.upperBound))
        guard n == n.rounded() else { throw fail(expected) }
        return Int(n)
    }

    /// A non-empty string without control characters: a NUL would cut a path short at the C
    /// boundary (another file), a newline would split a log line.
    func string(_ expected: String) throws(Problem) -> String {
        guard let s = value.stringValue, !s.isEmpty else { throw fail(expected) }
        if let bad = s.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw Problem(
                path: path,
                message:
                    "expected \(expected), got \(Self.describe(value)), which holds the control character U+\(UTCTime.pad(Int(bad.value), 4))"
            )
        }
        return s
    }

    func bool(_ expected: String) throws(Problem) -> Bool {
        guard let b = value.boolValue else { throw fail(expected) }
        return b
    }

    static let gpioLine = "a GPIO line 0–53"

    mutating func configuration() throws(Problem) -> DaemonConfiguration {
        var config = DaemonConfiguration()
        let top = try object(known: [
            "board", "gpsd", "logbook", "runner", "mission", "time_zone", "battery", "voice", "bluetooth",
            "run", "runs", "home_altitude_m",
        ])
        if let run = top["run"] { config.run = try run.runSettings() }
        if let board = top["board"] {
            let keys = try board.object(known: ["gpiochip", "buttons", "buzzer", "i2c"])
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
                    path: (keys["buzzer"] ?? board).path,
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
        return config
    }

    /// `{"power_supply": "/sys/class/power_supply", "low_percent": 20, "critical_percent": 5,
    /// "poll_seconds": 30}`
    func battery() throws(Problem) -> DaemonConfiguration.Battery {
        var battery = DaemonConfiguration.Battery()
        let entries = try object(known: ["power_supply", "low_percent", "critical_percent", "poll_seconds"])
        if let root = entries["power_supply"] {
            let path = try root.string("an absolute path, e.g. \"/sys/class/power_supply\"")
            guard path.hasPrefix("/") else {
                throw root.fail("an absolute path, e.g. \"/sys/class/power_supply\"")
            }
            battery.powerSupply = path
        }
        if let low = entries["low_percent"] {
            battery.lowPercent = try low.whole("a percentage 5–50", in: 5...50)
        }
        if let critical = entries["critical_percent"] {
            battery.criticalPercent = try critical.whole("a percentage 1–20", in: 1...20)
            guard battery.criticalPercent < battery.lowPercent else {
                throw critical.fail("a percentage below low_percent (\(battery.lowPercent))")
            }
        }
        if let poll = entries["poll_seconds"] {
            battery.pollSeconds = try poll.number("seconds 0.1–600", in: 0.1...600)
        }
        return battery
    }

    /// The `voice` object (`DaemonConfiguration.Voice`).
    func voice() throws(Problem) -> DaemonConfiguration.Voice {
        var voice = DaemonConfiguration.Voice()
        let entries = try object(known: ["output", "language", "device", "engine", "name", "rate"])
        func oneOf(_ entry: Reader, _ names: [String]) throws(Problem) -> String {
            let expected = names.map { "\"\($0)\"" }.joined(separator: ", ")
            let text = try entry.string("one of \(expected)")
            guard names.contains(text) else { throw entry.fail("one of \(expected)") }
            return text
        }
        if let output = entries["output"], !output.isNull {
            voice.output = VoiceOutput(rawValue: try oneOf(output, VoiceOutput.allCases.map(\.rawValue)))
        }
        if let language = entries["language"] {
            voice.language =
                VoiceLanguage(rawValue: try oneOf(language, VoiceLanguage.allCases.map(\.rawValue)))
                ?? .english
        }
        if let device = entries["device"] {
            voice.device = try device.string(
                "an ALSA device name, e.g. \"default\" or \"plughw:CARD=Device\"")
        }
        if let engine = entries["engine"], !engine.isNull {
            voice.engine = try oneOf(engine, DaemonConfiguration.Voice.engines)
        }
        if let name = entries["name"], !name.isNull {
            voice.name = try name.string("a voice name, e.g. \"slt\" or \"en-us\"")
        }
        if let rate = entries["rate"], !rate.isNull {
            // What both engines take (flite's duration stretch is bounded at 350).
            voice.rate = try rate.whole("words per minute 80–350", in: 80...350)
        }
        if voice.engine == "flite", voice.language != .english, let engine = entries["engine"] {
            throw Problem(
                path: engine.path,
                message:
                    "flite speaks English only; for \"\(voice.language.rawValue)\" leave engine unset or use \"espeak-ng\""
            )
        }
        return voice
    }

    /// The runner's zones from `max_heart_rate` (bpm 100–230), `resting_heart_rate` (bpm 30–120,
    /// below the maximum) and `heart_rate_zones` (`"max"`: fractions of the maximum, `"reserve"`:
    /// of the reserve above the resting heart rate); each unset one keeps
    /// `HeartRateZones.unconfigured`'s.
    func heartRateZones(_ entries: [String: Reader]) throws(Problem) -> HeartRateZones {
        var zones = HeartRateZones.unconfigured
        if let maximum = entries["max_heart_rate"], !maximum.isNull {
            zones.maximum = try maximum.number("beats per minute 100–230", in: 100...230)
        }
        if let resting = entries["resting_heart_rate"], !resting.isNull {
            zones.resting = try resting.number("beats per minute 30–120", in: 30...120)
            guard zones.resting < zones.maximum - 20 else {
                throw resting.fail(
                    "beats per minute at least 20 below max_heart_rate (\(Int(zones.maximum)))")
            }
        }
        if let method = entries["heart_rate_zones"], !method.isNull {
            let names = HeartRateZones.Method.allCases.map(\.rawValue)
            let expected = names.map { "\"\($0)\"" }.joined(separator: " or ")
            let text = try method.string(expected)
            guard let chosen = HeartRateZones.Method(rawValue: text) else { throw method.fail(expected) }
            zones.method = chosen
        }
        return zones
    }

    /// `{"pace": "5:30", "deviation": 15, "distance": 5000}` (or `"15s"`, `"5km"`), with or
    /// instead of the pace `"heart_rate": {"low": 140, "high": 155}` or `"zone": 2` (of `zones`),
    /// and instead of the distance `"time"` (seconds, or `"30:00"`, `"30min"`): the `--mission`
    /// option's rule and ranges (`MissionRule`).
    func mission(zones: HeartRateZones) throws(Problem) -> Mission {
        let entries = try object(known: ["pace", "deviation", "distance", "time", "heart_rate", "zone"])
        let needs =
            "a mission needs pace (or heart_rate, or zone) and distance (or time), e.g. {\"pace\": \"5:30\", \"distance\": 5000}"
        guard entries["pace"] ?? entries["heart_rate"] ?? entries["zone"] != nil,
            entries["distance"] ?? entries["time"] != nil
        else { throw Problem(path: path, message: needs) }
        var band: Mission.PaceBand?
        if let paceEntry = entries["pace"] {
            let paceText = try paceEntry.string("a pace as M:SS per km, e.g. \"5:30\"")
            guard let pace = MissionRule.pace(.text(paceText)), Mission.paceRange.contains(pace) else {
                throw paceEntry.fail("a pace as M:SS per km from 2:00 to 20:00, e.g. \"5:30\"")
            }
            let deviation =
                try entries["deviation"]?.target(
                    MissionRule.deviation, "seconds per km 1–120", in: Mission.deviationRange)
                ?? MissionRule.defaultDeviation
            band = Mission.PaceBand(targetPace: pace, allowedDeviation: deviation)
        } else if let deviation = entries["deviation"] {
            throw Problem(
                path: deviation.path, message: "a deviation goes with a pace, e.g. \"pace\": \"5:30\"")
        }
        let heartRate = try heartRateBand(entries, zones: zones)
        let goal: Mission.Goal
        switch (entries["distance"], entries["time"]) {
        case (let distance?, nil):
            goal = .distance(
                try distance.target(MissionRule.distance, "metres 100–500000", in: Mission.distanceRange))
        case (nil, let time?):
            goal = .duration(
                try time.target(
                    MissionRule.duration, "seconds 60–172800, or a time as \"30:00\", \"30min\"",
                    in: Mission.durationRange))
        case (_?, let time?):
            throw Problem(path: time.path, message: "distance and time both end the mission: give one")
        case (nil, nil):
            throw Problem(path: path, message: needs)
        }
        do {
            return try Mission(checkedPace: band, heartRate: heartRate, goal: goal)
        } catch {
            throw Problem(path: path, message: "\(error)")
        }
    }

    /// `"heart_rate": {"low": 140, "high": 155}` (bpm) or `"zone": 2` (of `zones`), or neither.
    func heartRateBand(_ entries: [String: Reader], zones: HeartRateZones) throws(Problem)
        -> Mission.HeartRateBand?
    {
        switch (entries["heart_rate"], entries["zone"]) {
        case (_?, let zone?):
            throw Problem(path: zone.path, message: "heart_rate and zone both set the heart rate: give one")
        case (let bpm?, nil):
            let edges = try bpm.object(known: ["low", "high"])
            guard let low = edges["low"], let high = edges["high"] else {
                throw bpm.fail("{\"low\": 140, \"high\": 155} in beats per minute")
            }
            let lowBPM = try low.number("beats per minute 60–230", in: Mission.heartRateRange)
            let highBPM = try high.number("beats per minute 60–230", in: Mission.heartRateRange)
            do { return try Mission.HeartRateBand(checkedLow: lowBPM, high: highBPM) } catch {
                throw Problem(path: bpm.path, message: "\(error)")
            }
        case (nil, let zone?):
            guard let given = MissionRule.Given(zone.value), let n = MissionRule.zone(given) else {
                throw zone.fail("a heart-rate zone 1–5")
            }
            do { return try Mission.HeartRateBand(zone: n, of: zones) } catch {
                throw Problem(path: zone.path, message: "\(error)")
            }
        case (nil, nil):
            return nil
        }
    }

    /// A mission target read by `rule` from a JSON number or its text, inside `range`.
    func target(_ rule: (MissionRule.Given) -> Double?, _ expected: String, in range: ClosedRange<Double>)
        throws(Problem) -> Double
    {
        guard let given = MissionRule.Given(value), let n = rule(given), range.contains(n) else {
            throw fail(expected)
        }
        return n
    }
}
