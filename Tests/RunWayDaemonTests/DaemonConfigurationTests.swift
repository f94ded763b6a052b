import Foundation
import RunWayControl
import RunWayCore
import RunWayDaemon
import RunWayHardware
import Testing

/// The configuration file: defaults without one, and one test per kind of mistake, each
/// checking the message a runner reads.
@Suite("Daemon configuration: defaults, and every mistake named by its key")
struct DaemonConfigurationTests {
    static func parse(_ json: String) throws(DaemonConfiguration.Problem) -> DaemonConfiguration {
        try DaemonConfiguration.parse(Data(json.utf8))
    }

    static func problem(_ json: String) -> String {
        do {
            _ = try parse(json)
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func noFileMeansTheDocumentedDefaults() throws {
        let config = try DaemonConfiguration.load(path: "/nonexistent/runway.json")
        #expect(config == DaemonConfiguration())
        #expect(config.buttons.map(\.line) == [17, 27, 22] && config.buzzerLine == 23)
        #expect(config.i2cBus == 1 && config.i2cAddress == 0x76)
        #expect(config.gpsd == GPSDEndpoint(host: "127.0.0.1", port: 2947))
        #expect(config.logbook == "/var/lib/runway/logbook.sqlite")
        #expect(config.mission == nil && config.bodyMass == nil && config.timeZone == nil)
    }

    /// The file `make install` puts in /etc/runway says exactly what no file at all means.
    @Test func theInstalledDefaultFileIsTheDefaults() throws {
        let path = DaemonEndToEndTests.root.appendingPathComponent("board/runway.json").path
        #expect(try DaemonConfiguration.load(path: path) == DaemonConfiguration())
    }

    /// The run's settings (issue 27) reach the engine's rules.
    @Test func theRunSettingsReachTheEngine() throws {
        let config = try Self.parse(
            #"{"run": {"auto_pause": false, "auto_resume_after_s": 30, "standstill_remind_after_s": 600, "standstill_land_after_s": null}}"#
        )
        let engine = config.engine
        #expect(engine.pause.autoPauseAfter == .infinity)
        let miles = try Self.parse(#"{"run": {"units": "mi"}}"#).engine
        #expect(miles.units == .mile && miles.splitLength == 1609.344)
        let halves = try Self.parse(#"{"run": {"units": "km", "split_length_m": 500}}"#).engine
        #expect(halves.splitLength == 500)
        #expect(engine.slips.autoResumeAfter == 30)
        #expect(engine.standstill.remindAfter == 600)
        #expect(engine.standstill.landAfter == nil)
        // The defaults: auto-pause on, no auto-resume, reminded at 5 min, landed at 30.
        let defaults = DaemonConfiguration().engine
        #expect(defaults.pause.autoPauseAfter == 8 && defaults.slips.autoResumeAfter == nil)
        #expect(defaults.standstill.landAfter == 1800)
    }

    @Test(arguments: [
        (#"{"run": {"auto_pase": true}}"#, "run.auto_pase: unknown key"),
        (#"{"run": {"units": "miles"}}"#, #"run.units: expected "km" or "mi", got "miles""#),
        (#"{"run": {"split_length_m": 50}}"#, "run.split_length_m: expected metres 200–10000"),
        (
            #"{"run": {"auto_resume_after_s": 0}}"#,
            "run.auto_resume_after_s: expected seconds 10–600, or null (never), got 0"
        ),
        (#"{"run": {"auto_pause": "yes"}}"#, "run.auto_pause: expected true or false"),
        (
            #"{"run": {"standstill_land_after_s": 200}}"#,
            "run.standstill_land_after_s: expected seconds 300–86400"
        ),
        (
            #"{"run": {"standstill_remind_after_s": 3600, "standstill_land_after_s": 1800}}"#,
            "must come after the reminder"
        ),
    ])
    func aBadRunSettingIsNamed(json: String, wanted: String) {
        let problem = Self.problem(json)
        #expect(problem.contains(wanted), "\(problem)")
    }

    @Test func aFullFileReads() throws {
        let config = try Self.parse(
            """
            {"board": {"gpiochip": "gpiochip4", "buttons": {"start": 5, "pause": 6, "end": 13, "active_low": false},
                       "buzzer": 19, "i2c": {"bus": 3, "address": "0x77"}},
             "gpsd": "[::1]:2948", "logbook": "/data/runs.sqlite", "runner": {"body_mass_kg": 68.5},
             "mission": {"pace": "5:30", "deviation": 10, "distance": 10000}, "time_zone": "Asia/Seoul"}
            """)
        #expect(config.gpioChip == "gpiochip4" && config.buzzerLine == 19)
        #expect(config.buttons.map(\.line) == [5, 6, 13] && config.buttons.allSatisfy { !$0.activeLow })
        #expect(config.i2cBus == 3 && config.i2cAddress == 0x77)
        #expect(config.gpsd == GPSDEndpoint(host: "::1", port: 2948))
        #expect(config.logbook == "/data/runs.sqlite" && config.bodyMass == 68.5)
        #expect(config.mission == Mission(targetPace: 330, allowedDeviation: 10, targetDistance: 10_000))
        #expect(config.timeZone == "Asia/Seoul")
        #expect(config.homeAltitude == nil)
        #expect(try Self.parse(#"{"home_altitude_m": 34.5}"#).homeAltitude == 34.5)
        #expect(try Self.parse(#"{"home_altitude_m": null}"#).homeAltitude == nil)
        let battery = try Self.parse(
            #"{"battery": {"power_supply": "/run/ups", "low_percent": 25, "critical_percent": 8, "poll_seconds": 10}}"#
        ).battery
        #expect(battery.powerSupply == "/run/ups" && battery.lowPercent == 25)
        #expect(battery.criticalPercent == 8 && battery.pollSeconds == 10)
        let voice = try Self.parse(
            #"{"voice": {"output": "voice", "language": "ko", "device": "plughw:CARD=Device", "engine": "espeak-ng", "name": "ko", "rate": 150}}"#
        ).voice
        #expect(voice.output == .voice && voice.language == .korean && voice.device == "plughw:CARD=Device")
        #expect(voice.engine == "espeak-ng" && voice.name == "ko" && voice.rate == 150)
        // Unset: the output follows the device (both with audio out, the buzzer without).
        #expect(try Self.parse("{}").voice == DaemonConfiguration.Voice())
        #expect(DaemonConfiguration.Voice().output == nil && DaemonConfiguration.Voice().language == .english)
        // Bluetooth is on unless the file says otherwise (a board without it says false).
        #expect(try Self.parse("{}").bluetooth.enabled)
        #expect(try !Self.parse(#"{"bluetooth": {"enabled": false}}"#).bluetooth.enabled)
    }

    @Test(arguments: [
        (#"{"voice": {"language": "fr"}}"#, #"voice.language: expected one of "en", "ko", got "fr""#),
        (
            #"{"voice": {"output": "loud"}}"#,
            #"voice.output: expected one of "buzzer", "voice", "both", got "loud""#
        ),
        (
            #"{"voice": {"engine": "festival"}}"#,
            #"voice.engine: expected one of "espeak-ng", "flite", got "festival""#
        ),
        (#"{"voice": {"rate": 1000}}"#, "voice.rate: expected words per minute 80–350, got 1000"),
        (#"{"voice": {"rate": 380}}"#, "voice.rate: expected words per minute 80–350, got 380"),
        (#"{"voice": {"language": "ko", "engine": "flite"}}"#, "voice.engine: flite speaks English only"),
        (#"{"voice": {"device": ""}}"#, #"voice.device: expected an ALSA device name"#),
        (#"{"voice": {"volume": 3}}"#, "voice.volume: unknown key"),
    ])
    func aWrongVoiceNamesItsKey(_ text: String, _ said: String) throws {
        #expect(throws: DaemonConfiguration.Problem.self) { try Self.parse(text) }
        do {
            _ = try Self.parse(text)
        } catch {
            #expect("\(error)".hasPrefix(said), "\(error)")
        }
    }

    @Test(arguments: [
        // A line that is not a number.
        (
            #"{"board": {"buttons": {"end": "22a"}}}"#,
            #"board.buttons.end: expected a GPIO line 0–53, got "22a""#
        ),
        // Out of range.
        (#"{"board": {"buzzer": 54}}"#, "board.buzzer: expected a GPIO line 0–53, got 54"),
        // A boolean is not a number.
        (#"{"board": {"i2c": {"bus": true}}}"#, "board.i2c.bus: expected an I2C bus number 0–255, got true"),
        // Unknown keys, at any depth.
        (
            #"{"bord": {}}"#,
            "bord: unknown key (known here: board, gpsd, logbook, runner, mission, time_zone, battery, voice, bluetooth, run, runs, home_altitude_m)"
        ),
        (
            #"{"board": {"buttons": {"stop": 3}}}"#,
            "board.buttons.stop: unknown key (known here: start, pause, end, active_low)"
        ),
        // Wrong types.
        (#"{"board": []}"#, "board: expected an object, got a list"),
        (#"{"gpsd": 2947}"#, #"gpsd: expected HOST:PORT, e.g. "127.0.0.1:2947", got 2947"#),
        (
            #"{"board": {"buttons": {"active_low": 1}}}"#,
            "board.buttons.active_low: expected true or false, got 1"
        ),
        // Impossible values.
        (
            #"{"board": {"i2c": {"address": "0x40"}}}"#,
            #"board.i2c.address: expected "0x76" or "0x77", got "0x40""#
        ),
        (
            #"{"board": {"buttons": {"start": 22}}}"#,
            "board.buttons: two buttons share one GPIO line ([22, 27, 22])"
        ),
        (#"{"board": {"buzzer": 17}}"#, "board.buzzer: the buzzer shares GPIO 17 with a button"),
        (
            #"{"logbook": "runs.sqlite"}"#,
            #"logbook: expected an absolute path to the logbook file, got "runs.sqlite""#
        ),
        (#"{"runner": {"body_mass_kg": 5}}"#, "runner.body_mass_kg: expected kilograms 20–300, got 5"),
        (
            #"{"home_altitude_m": 9000}"#,
            "home_altitude_m: expected metres above sea level, −430 to 8850, got 9000"
        ),
        (
            #"{"home_altitude_m": "34"}"#,
            #"home_altitude_m: expected metres above sea level, −430 to 8850, got "34""#
        ),
        (
            #"{"mission": {"pace": "5", "distance": 5000}}"#,
            #"mission.pace: expected a pace as M:SS per km from 2:00 to 20:00, e.g. "5:30", got "5""#
        ),
        (
            #"{"mission": {"pace": "5:30"}}"#,
            #"mission: a mission needs pace (or heart_rate, or zone) and distance (or time), e.g. {"pace": "5:30", "distance": 5000}"#
        ),
        (
            #"{"time_zone": "Mars/Olympus"}"#,
            #"time_zone: expected an IANA time zone, e.g. "Asia/Seoul", got "Mars/Olympus""#
        ),
        (
            #"{"battery": {"low": 20}}"#,
            "battery.low: unknown key (known here: power_supply, low_percent, critical_percent, poll_seconds)"
        ),
        (
            #"{"battery": {"low_percent": 15, "critical_percent": 15}}"#,
            "battery.critical_percent: expected a percentage below low_percent (15), got 15"
        ),
        (
            #"{"battery": {"power_supply": "sys/class"}}"#,
            #"battery.power_supply: expected an absolute path, e.g. "/sys/class/power_supply", got "sys/class""#
        ),
        (#"{"battery": {"poll_seconds": 0}}"#, "battery.poll_seconds: expected seconds 0.1–600, got 0"),
        (#"{"bluetooth": {"enabled": "no"}}"#, #"bluetooth.enabled: expected true or false, got "no""#),
        (#"{"bluetooth": {"on": true}}"#, "bluetooth.on: unknown key (known here: enabled)"),
        (#"{"bluetooth": true}"#, "bluetooth: expected an object, got true"),
        (
            #"{"gpsd": "host:notaport"}"#,
            #"gpsd: expected HOST:PORT, e.g. "127.0.0.1:2947", got "host:notaport""#
        ),
    ])
    func eachMistakeNamesItsKeyAndWhatWasExpected(_ json: String, _ message: String) {
        #expect(Self.problem(json) == message)
    }

    @Test func notJSONAtAllIsSaidAsSuch() {
        #expect(Self.problem("{board: 1").hasPrefix("configuration is not valid JSON"))
        #expect(Self.problem("[1, 2]") == "expected an object, got a list")
    }
}
