import Foundation
import RunWayControl
import RunWayCore
import Testing

@testable import RunWayCLI

/// Numbers typed on the command line are range-checked before any arithmetic: a huge one is
/// refused with the option's name and range, never an Int overflow.
@Suite("Command-line numbers: range-checked before arithmetic")
struct OutsideNumberTests {
    @Test(arguments: [
        "99999999999999999999", "9999999999999999999999999999999999999999", "-99999999999999999999",
        "9999999999999999:00", "+999999999999999999:59",
    ])
    func aHugeUTCOffsetIsNoOffset(_ text: String) {
        #expect(LocalZone.parseOffset(text) == nil, "\(text)")
    }

    @Test func aHugeUTCOffsetIsRefusedNamingTheOption() {
        #expect(throws: CLIError.self) {
            try LocalZone.resolve(tz: nil, utcOffset: "99999999999999999999", configuration: "/nonexistent")
        }
    }

    @Test(arguments: [
        ("pace=999999999999999999:00,distance=5000", "pace"),
        ("pace=5:30,distance=99999999999999999999999999999999999999km", "distance"),
        ("pace=5:30,distance=5000,deviation=9999999999999999999999999999999999999999", "deviation"),
    ])
    func aHugeMissionValueIsRefusedNamingItsKey(_ text: String, _ key: String) {
        do {
            _ = try MissionOption.parse(text)
            Issue.record("accepted \(text)")
        } catch {
            #expect("\(error)".contains("--mission: \(key)"), "\(error)")
        }
    }

    /// The demo's speed divides real time: a speed of 1e-39 made the next tick's delay overflow.
    @Test(arguments: ["0.000000000000000000000000000000000000001", "0.001"])
    func aDemoSpeedTooSmallIsRefused(_ speed: String) throws {
        let arguments = try ParsedArguments(["--speed", speed], for: RunWayCommand.Demo.declaration)
        #expect(throws: CLIError.self) { try RunWayCommand.Demo(arguments) }
    }
}

/// runwayd's replies as the CLI reads them: `"ok": 1` is not a yes, and a key given twice is no
/// reply at all.
@Suite("Replies from runwayd: true is true, each key once")
struct ControlReplyReadingTests {
    @Test func okMustBeJSONTrue() throws {
        let yes = try #require(ControlResponse(line: Array(#"{"ok":true,"phase":"cruise"}"#.utf8)))
        #expect(try ControlCommands.checked(yes).phase == "cruise")
        for value in ["1", "1.0", "\"true\"", "null"] {
            let reply = try #require(ControlResponse(line: Array(#"{"ok":\#(value)}"#.utf8)))
            #expect(throws: CLIError.self, "ok: \(value)") { try ControlCommands.checked(reply) }
        }
    }

    @Test func aKeyGivenTwiceIsNoReply() {
        #expect(ControlResponse(line: Array(#"{"ok":false,"ok":true}"#.utf8)) == nil)
    }

    @Test func numbersStillReadAsNumbers() throws {
        let line = #"{"ok":true,"distance_m":5000,"x":[1,null]}"#
        let reply = try #require(ControlResponse(line: Array(line.utf8)))
        #expect(try ControlCommands.checked(reply).distance == 5000)
        #expect(
            ControlCommands.render(try JSONValue.parse(Array(line.utf8)))
                == #"{"distance_m":5000,"ok":true,"x":[1,null]}"#)
    }
}
