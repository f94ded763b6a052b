import Foundation
import RunWayCore
import Testing

@testable import RunWayCLI

/// The trace reader reads gpsd's lines with the strict parser every outside JSON goes through
/// (`JSONValue.parse`) instead of `JSONSerialization`. What gpsd writes reads as it did (the
/// corpora and gpsd's captures are compared in the other suites); these are the edges where the
/// two differed, each decided.
@Suite("gpsd lines through the strict JSON parser")
struct TraceReaderJSONTests {
    static let tpv = #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:00Z","lat":47,"lon":8"#

    static func read(_ line: String) -> (fix: Fix?, problems: [String]) {
        var problems: [String] = []
        let fix = TraceReader.report(line: line) { problems.append($0) }
        return (fix, problems)
    }

    /// `JSONSerialization` kept the last `lat`; which one gpsd meant cannot be known, so the line
    /// is skipped and said, as the control socket refuses a key given twice.
    @Test func aKeyGivenTwiceSkipsTheLine() {
        let (fix, problems) = Self.read(Self.tpv + #","lat":48}"#)
        #expect(fix == nil && problems == ["not a JSON object — line skipped"])
    }

    /// A trailing comma is not JSON, and gpsd never writes one: skipped (it was read).
    @Test func aTrailingCommaSkipsTheLine() {
        let (fix, problems) = Self.read(Self.tpv + ",}")
        #expect(fix == nil && problems == ["not a JSON object — line skipped"])
    }

    /// A byte-order mark before a file's first line (an editor's) is skipped, as it was.
    @Test func aByteOrderMarkIsSkipped() {
        let (fix, problems) = Self.read("\u{FEFF}" + Self.tpv + "}")
        #expect(fix?.coordinate.latitude == 47 && problems.isEmpty)
    }

    /// The diagnostics keep their words: `<null>` for null, strings in quotes, numbers as JSON
    /// writes them; a list or an object is now written as compact JSON (it was Swift's
    /// description, whose dictionary order changed from run to run).
    @Test func diagnosticsSayTheValueAsBefore() {
        #expect(
            Self.read(Self.tpv + #","speed":null}"#).problems == [
                "speed <null> is not a number — treated as unknown"
            ])
        #expect(
            Self.read(Self.tpv + #","eph":"3/4"}"#).problems == [
                #"eph "3/4" is not a number — treated as unknown"#
            ])
        #expect(
            Self.read(Self.tpv + #","track":[1,2]}"#).problems == [
                "track [1,2] is not a number — treated as unknown"
            ])
        #expect(
            Self.read(Self.tpv + #","track":{"a":1}}"#).problems == [
                #"track {"a":1} is not a number — treated as unknown"#
            ])
        let mode = #"{"class":"TPV","mode":3.5,"time":"2026-10-03T07:00:00Z","lat":47,"lon":8}"#
        #expect(Self.read(mode).problems == ["mode 3.5 is not a number — line skipped"])
        let time = #"{"class":"TPV","mode":3,"time":null,"lat":47,"lon":8}"#
        #expect(Self.read(time).problems == ["time <null> is not an ISO-8601 UTC time — line skipped"])
    }

    /// Numbers past a Double are refused by the parser, and were by `JSONSerialization`; tiny
    /// ones are zero in both.
    @Test func numbersAtTheEdges() {
        #expect(Self.read(Self.tpv + #","speed":1e400}"#).problems == ["not a JSON object — line skipped"])
        #expect(Self.read(Self.tpv + #","speed":1e-400}"#).fix?.speed == 0)
        #expect(Self.read(Self.tpv + #","x":"\ud800"}"#).problems == ["not a JSON object — line skipped"])
    }
}
