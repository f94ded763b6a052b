import Foundation
import RunWayControl
import RunWayCore
import Testing

@testable import RunWayDaemon

/// What a client sends is read once, exactly: a key given twice, a number where a boolean
/// belongs, a date that does not exist or a number past any runner's range is refused with a
/// sentence naming the field — and nothing a client sends can trap the daemon.
@Suite("Control requests from outside: each key once, true is true, every number in range")
struct ControlInputTests {
    static func refusal(_ text: String) -> String? {
        do {
            _ = try ControlRequest.parse(Array(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    @Test(arguments: [
        // The line that killed runwayd mid-flight (an Int overflow in the mission parser).
        (
            #"{"command":"start","mission":{"pace":"999999999999999999:00","distance":5000}}"#,
            "mission.pace: expected a pace as M:SS per km from 2:00 to 20:00"
        ),
        (
            #"{"command":"start","mission":{"pace":"99999999999999999999999:00","distance":5000}}"#,
            "mission.pace: expected a pace as M:SS per km from 2:00 to 20:00"
        ),
        (
            #"{"command":"start","mission":{"pace":"5:30","distance":1e308}}"#,
            "mission.distance: expected metres 100–500000"
        ),
        (
            #"{"command":"start","mission":{"pace":"5:30","distance":5000,"deviation":-1e308}}"#,
            "mission.deviation: expected seconds per km 1–120"
        ),
        (#"{"command":"start","mission":{"pace":"5:30","distance":1e400}}"#, "1e400"),
    ])
    func aNumberPastItsRangeIsRefusedNamingTheField(_ line: String, _ message: String) throws {
        let refusal = try #require(Self.refusal(line), "accepted \(line)")
        #expect(refusal.contains(message), "\(refusal)")
    }

    @Test(arguments: [
        #"{"command":"status","command":"stop"}"#,
        #"{"command":"stop","sent_at":null,"sent_at":"2026-10-03T07:00:00Z"}"#,
        #"{"command":"start","mission":{"pace":"5:30","pace":"4:00","distance":5000}}"#,
        #"{"command":"st\u006fp","comm\u0061nd":"status"}"#,
    ])
    func aKeyGivenTwiceIsRefused(_ line: String) throws {
        let refusal = try #require(Self.refusal(line), "accepted \(line)")
        #expect(refusal.contains("is given twice"), "\(refusal)")
    }

    @Test func okIsTrueOrFalseAndNothingElse() throws {
        #expect(
            try ControlRequest.parse(Array(#"{"command":"export-finished","ok":true}"#.utf8))
                == .exportFinished(ok: true))
        for value in ["1", "0", "\"true\"", "null", "1.0"] {
            let refusal = Self.refusal(#"{"command":"export-finished","ok":\#(value)}"#)
            #expect(refusal?.contains("export-finished needs \"ok\": true or false") == true, "ok: \(value)")
        }
    }

    @Test(arguments: [
        "2026-02-30T07:00:00Z", "2026-04-31T07:00:00Z", "2025-02-29T07:00:00Z", "2100-02-29T00:00:00Z",
    ])
    func aDayThatDoesNotExistIsNoTime(_ text: String) throws {
        let refusal = try #require(Self.refusal(#"{"command":"stop","sent_at":"\#(text)"}"#), "\(text)")
        #expect(refusal.contains("sent_at: expected an ISO-8601 UTC time"), "\(refusal)")
    }

    /// Random lines, and lines built from the parser's own words with huge and odd values in
    /// them: each is a request or a refusal, never a trap. (A fixed seed: a failure is replayed.)
    @Test func anyLineIsARequestOrARefusal() {
        var random = SplitMix(seed: 22)
        let pieces = [
            "{", "}", "[", "]", ",", ":", "\"", "\\", "\\u0000", "\\ud800", "-", "0", "9", ".", "e", "E", "+",
            "1e400", "-1e400", "999999999999999999", "99999999999999999999999999", "NaN", "Infinity",
            "\"command\"", "\"start\"", "\"stop\"", "\"mission\"", "\"pace\"", "\"distance\"",
            "\"deviation\"", "\"sent_at\"", "\"export-finished\"", "\"ok\"", "true", "false", "null",
            "\"999999999999999999:00\"", "\"-5:30\"", "\"5:-1\"", "\"2026-02-30T07:00:00Z\"", " ", "\n",
            "\u{0}", "é", "\u{10FFFF}",
        ]
        for round in 0..<20_000 {
            var line = ""
            if round % 4 == 0 {
                let count = Int(random.next() % 64)
                line = String(
                    decoding: (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }, as: UTF8.self
                )
            } else {
                for _ in 0..<Int(random.next() % 24) {
                    line += pieces[Int(random.next() % UInt64(pieces.count))]
                }
            }
            _ = Self.refusal(line)
        }
        // Deep nesting is refused, not recursed into until the stack ends.
        let deep = String(repeating: "[", count: 60_000) + String(repeating: "]", count: 60_000)
        #expect(Self.refusal(deep) != nil)
        let deepObject =
            String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(Self.refusal(deepObject) != nil)
    }
}

/// A small deterministic generator (SplitMix64) for the property tests.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
