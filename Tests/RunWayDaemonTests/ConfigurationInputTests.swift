import Foundation
import RunWayControl
import RunWayCore
import Testing

@testable import RunWayDaemon

/// The configuration is outside input too: a number past its range, a key given twice or a path
/// with a control character in it is refused by `--check-config`, naming the key.
@Suite("Daemon configuration from outside: numbers in range, each key once, paths without control characters")
struct ConfigurationInputTests {
    @Test(arguments: [
        // The value that crashed `runwayd --check-config` and `runway export`.
        (
            #"{"mission": {"pace": "999999999999999999:00", "distance": 5000}}"#,
            "mission.pace: expected a pace as M:SS per km from 2:00 to 20:00"
        ),
        (
            #"{"mission": {"pace": "-0:00", "distance": 5000}}"#,
            "mission.pace: expected a pace as M:SS per km from 2:00 to 20:00"
        ),
        (
            #"{"mission": {"pace": "5:30", "distance": 5000, "deviation": 1e300}}"#,
            "mission.deviation: expected seconds per km 1–120, got 1e+300"
        ),
        (#"{"board": {"buzzer": 1e300}}"#, "board.buzzer: expected a GPIO line 0–53, got 1e+300"),
        (
            #"{"battery": {"low_percent": -1e300}}"#,
            "battery.low_percent: expected a percentage 5–50, got -1e+300"
        ),
        (#"{"runner": {"body_mass_kg": 1e400}}"#, "not valid JSON"),
    ])
    func aNumberPastItsRangeIsRefusedNamingTheKey(_ json: String, _ message: String) {
        let problem = DaemonConfigurationTests.problem(json)
        #expect(problem.contains(message), "\(problem)")
    }

    @Test(arguments: [
        #"{"logbook": "/data/a.sqlite", "logbook": "/data/b.sqlite"}"#,
        #"{"board": {"buzzer": 18, "buzzer": 19}}"#,
        #"{"mission": {"pace": "5:30", "distance": 5000, "distance": 10000}}"#,
    ])
    func aKeyGivenTwiceIsRefused(_ json: String) {
        let problem = DaemonConfigurationTests.problem(json)
        #expect(problem.contains("is given twice"), "\(problem)")
    }

    @Test(arguments: [
        (#"{"logbook": "/data/runs.sqlite\u0000.old"}"#, "logbook"),
        (#"{"logbook": "/data/runs\n.sqlite"}"#, "logbook"),
        (#"{"battery": {"power_supply": "/sys/class\u0000/x"}}"#, "battery.power_supply"),
        (#"{"board": {"gpiochip": "gpiochip0\u0000"}}"#, "board.gpiochip"),
        (#"{"time_zone": "Asia/Seoul\u0000"}"#, "time_zone"),
        (#"{"gpsd": "127.0.0.1:2947\u0000"}"#, "gpsd"),
    ])
    func aControlCharacterInAPathOrNameIsRefused(_ json: String, _ key: String) {
        let problem = DaemonConfigurationTests.problem(json)
        #expect(problem.hasPrefix("\(key): "), "\(problem)")
        #expect(problem.contains("control character"), "\(problem)")
    }

    @Test func booleansAreTrueOrFalse() {
        #expect(
            DaemonConfigurationTests.problem(#"{"board": {"buttons": {"active_low": 0}}}"#)
                == "board.buttons.active_low: expected true or false, got 0")
    }
}
