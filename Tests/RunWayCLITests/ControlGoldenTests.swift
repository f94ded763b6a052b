import Foundation
import RunWayControl
import RunWayCore
import RunWayHardware
import Testing

@testable import RunWayCLI

/// What `runway` prints for runwayd's lines is what it printed before the typed contract
/// (`Tests/Fixtures/control/cli-*`, captured from the `[String: Any]` code): `status --json`
/// byte for byte as `JSONSerialization` wrote it, the status line, `--watch --json`, the
/// checklist from runwayd, and each command's sentence.
@Suite("runway's output for runwayd's replies: unchanged")
struct ControlGoldenTests {
    static func golden(_ name: String) throws -> String {
        let url = try #require(Bundle.module.resourceURL?.appendingPathComponent("Fixtures/control/\(name)"))
        return String(try String(contentsOf: url, encoding: .utf8).dropLast())
    }

    static func status(_ name: String) throws -> ControlStatus {
        let line = Array(try golden("reply-status-\(name).json").utf8)
        let reply = try #require(ControlResponse(line: line))
        return try #require(try ControlCommands.checked(reply).status)
    }

    @Test(arguments: ["cruise", "paused", "idle"])
    func statusPrintsAsItDid(_ name: String) throws {
        let status = try Self.status(name)
        #expect(ControlCommands.render(status.json) == (try Self.golden("cli-status-json-\(name).txt")))
        #expect(ControlCommands.line(status) == (try Self.golden("cli-status-\(name).txt")))
        let list = ChecklistCommand.fromDaemon(
            status, battery: BatteryStatus(capacity: 50, state: "Discharging"), storage: .success(2e9))
        #expect(list.text(source: "runwayd") == (try Self.golden("cli-checklist-\(name).txt")))
        #expect(list.json(source: "runwayd").rendered() == (try Self.golden("cli-checklist-\(name).json")))
    }

    @Test(arguments: ["state-cruise", "state-paused", "state-idle", "callout-split", "callout-error"])
    func watchJSONPrintsAsItDid(_ name: String) throws {
        let event = try #require(ControlEvent(line: Array(try Self.golden("event-\(name).json").utf8)))
        #expect(ControlCommands.render(event.json) == (try Self.golden("cli-watch-json-\(name).txt")))
    }

    /// Each reply golden, and the line `runway start|pause|resume|stop` and `runway
    /// export-finished` print for it.
    @Test func commandsSayWhatTheySaid() throws {
        let blocks = try Self.golden("cli-command-outputs.txt").split(separator: "\n").chunks(of: 3)
        #expect(blocks.count == 25)
        for block in blocks {
            let reply = try #require(ControlResponse(line: Array(try Self.golden(String(block[0])).utf8)))
            let command: String
            let export: String
            do {
                let outcome = try ControlCommands.checked(reply)
                command = ControlCommands.said(outcome)
                export = outcome.result?.text ?? "ok"
            } catch {
                command = "runway: \(error.message)"
                export = command
            }
            #expect("  command: \(command)" == block[1], "\(block[0])")
            #expect("  export-finished: \(export)" == block[2], "\(block[0])")
        }
    }

    /// Foundation's key order and number forms, for objects a newer daemon might send.
    @Test func theJSONSerializationFormIsKept() throws {
        let object = try JSONValue.parse(
            Array(
                #"{"b":1e21,"a_b":2.5e-05,"a-b":-0.0,"A":"x/y","a10":9007199254740993,"a9":[1,{"z":null,"Y":true}]}"#
                    .utf8))
        #expect(
            object.foundationSortedRendering()
                == #"{"A":"x\/y","a_b":2.5e-05,"a-b":-0,"a9":[1,{"Y":true,"z":null}],"a10":9007199254740992,"b":1e+21}"#
        )
        // Escapes as JSONSerialization wrote them (checked against it): `\/`, `\b`, `\f`, `\u00XX`.
        let text = try JSONValue.parse(Array(#"{"s":"a/b\\c\"d\n\t\r\b\f\u0001\u001f\u007f é"}"#.utf8))
        #expect(text.foundationSortedRendering() == #"{"s":"a\/b\\c\"d\n\t\r\b\f\u0001\u001f\#u{7F} é"}"#)
    }
}

extension Array {
    fileprivate func chunks(of size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min($0 + size, count)]) }
    }
}
