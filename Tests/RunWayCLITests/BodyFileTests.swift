import Foundation
import RunWayCore
import Testing

@testable import RunWayCLI

/// `runway fly --body FILE`: heart rate and cadence, `time,heart_rate,cadence`; each bad row is
/// said with its line and skipped, never a crash, never a 0 that means "missing".
@Suite("runway fly --body: the body CSV, its bad rows, and a heart-rate mission flown from it")
struct BodyFileTests {
    static func read(_ text: String) throws -> (samples: [BodySample], problems: [String]) {
        let file = BodyFile(LineReader(bytes: Array(text.utf8), name: "strap.csv"))
        var samples: [BodySample] = []
        while let sample = try file.next() { samples.append(sample) }
        return (samples, file.diagnostics.kept.map(\.description))
    }

    @Test func aGoodFileIsReadWithItsMissingValuesMissing() throws {
        let (samples, problems) = try Self.read(
            "time,heart_rate,cadence\n2026-10-03T07:00:01Z,121,170\n2026-10-03T07:00:02Z,,172\n"
                + "2026-10-03T07:00:03Z,124,\n# a comment\n\n2026-10-03T07:00:04Z,,\n")
        #expect(problems.isEmpty)
        #expect(samples.count == 3)  // a row with neither value carries nothing
        #expect(samples[1].heartRate == nil && samples[1].cadence == 172)
        #expect(samples[2].heartRate == 124 && samples[2].cadence == nil)
        #expect(samples[0].time == UTCTime.parse("2026-10-03T07:00:01Z"))
    }

    @Test(arguments: [
        (
            "2026-10-03T07:00:01Z,121",
            "strap.csv:1: expected 3 fields (time,heart_rate,cadence), found 2 — row skipped"
        ),
        (
            "2026-10-03T07:00:01Z,121,170,9",
            "strap.csv:1: expected 3 fields (time,heart_rate,cadence), found 4"
        ),
        ("07:00:01,121,170", #"strap.csv:1: time "07:00:01" is not an ISO-8601 UTC time — row skipped"#),
        (
            "2026-10-03T07:00:01Z,fast,170",
            #"strap.csv:1: heart rate "fast" is not a number (empty for missing)"#
        ),
        ("2026-10-03T07:00:01Z,0x90,170", #"strap.csv:1: heart rate "0x90" is not a number"#),
        ("2026-10-03T07:00:01Z,nan,170", #"strap.csv:1: heart rate "nan" is not a number"#),
        (
            "2026-10-03T07:00:01Z,0,170",
            "strap.csv:1: heart rate 0 bpm is outside 20–250 (empty for missing) — row skipped"
        ),
        ("2026-10-03T07:00:01Z,400,170", "strap.csv:1: heart rate 400 bpm is outside 20–250"),
        ("2026-10-03T07:00:01Z,150,-3", "strap.csv:1: cadence -3 spm is outside 0–300"),
        ("2026-10-03T07:00:01Z,150,1e9", #"strap.csv:1: cadence "1e9" is not a number"#),
    ])
    func eachBadRowIsSaidWithItsLineAndSkipped(_ row: String, _ message: String) throws {
        let (samples, problems) = try Self.read(row + "\n2026-10-03T07:00:05Z,150,170\n")
        #expect(samples.count == 1)  // the good row after it is still read
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix(message) == true, "\(problems)")
    }

    @Test func aTimeThatDoesNotAdvanceIsSkipped() throws {
        let (samples, problems) = try Self.read(
            "2026-10-03T07:00:05Z,150,170\n2026-10-03T07:00:05Z,151,170\n2026-10-03T07:00:04Z,152,170\n")
        #expect(samples.count == 1)
        #expect(problems.count == 2)
        #expect(problems[0].contains("strap.csv:2: time 2026-10-03T07:00:05Z does not advance"))
    }

    @Test func binaryGarbageAndAHugeLineNeverCrash() throws {
        var bytes: [UInt8] = Array("time,heart_rate,cadence\n".utf8) + [0xFF, 0xFE, 0x00, 0x0A]
        bytes += Array(repeating: UInt8(ascii: "9"), count: 2_000_000) + [0x0A]
        bytes += Array("2026-10-03T07:00:05Z,150,170\n".utf8)
        let file = BodyFile(LineReader(bytes: bytes, name: "strap.csv"))
        var samples: [BodySample] = []
        while let sample = try file.next() { samples.append(sample) }
        #expect(samples.count == 1)
        #expect(file.diagnostics.total == 2)
    }

    /// The demo trace (2026-10-03T07:00:10Z on, 25 minutes: inside the run) with a strap: 150
    /// bpm, then 170 from 15 minutes.
    static func strap() -> String {
        var lines = ["time,heart_rate,cadence"]
        let start = UTCTime.parse("2026-10-03T07:00:10Z")!
        for t in 0..<1500 {
            lines.append(
                "\(UTCTime.format(start + Double(t))),\(t < 900 ? 150 : 170),\(t % 7 == 0 ? "" : "172")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aHeartRateMissionIsFlownFromARecordedRun() throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let body = try RunWayBinary.temporary(Self.strap(), suffix: ".csv")
        let result = try RunWayBinary.run([
            "fly", "--gps", gps, "--body", body, "--mission", "hr=140-155,distance=5000", "--json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let alerts = try #require(object["alerts"] as? [[String: Any]])
        #expect(alerts.compactMap { $0["kind"] as? String } == ["HR HIGH"])
        let splits = try #require(object["splits"] as? [[String: Any]])
        #expect(splits.first?["heart_rate"] as? Double == 150)
        let text = try RunWayBinary.run([
            "fly", "--gps", gps, "--body", body, "--mission", "zone=3,time=20:00",
        ])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("body samples"))
        #expect(text.stdout.contains("MISSION FLIGHT (zone 3, 133–152 bpm, 20:00)"), "\(text.stdout)")
        #expect(text.stdout.contains(">> HR HIGH"))
        #expect(text.stdout.contains(">> MISSION COMPLETE"))
    }

    @Test func aMissingBodyFileAndTwoStandardInputsAreRefused() throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let missing = try RunWayBinary.run(["fly", "--gps", gps, "--body", "/nonexistent/strap.csv"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("/nonexistent/strap.csv"))
        let both = try RunWayBinary.run(["fly", "--gps", "-", "--body", "-"])
        #expect(both.status == 2)
        #expect(both.stderr.contains("--gps and --body cannot both read standard input"))
    }
}
