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
