import Foundation
import RunWayTestSupport
import Testing

/// What a runner reads, byte for byte, against a logbook made by flying known traces: the demo
/// mission with its pressure log on 3 October at 06:59 UTC, the same run at 16:59 (two runs on
/// one day), on 6 October, and its first 4 minutes on 12 October (a flight of one split). The
/// files are in Tests/Fixtures/golden; after an intended change, RUNWAY_UPDATE_GOLDEN=1 rewrites
/// them, and the diff is reviewed like code.
@Suite("runway's output, golden files")
struct GoldenOutputTests {
    static let folder = NSTemporaryDirectory() + "runway-golden-\(UUID().uuidString.prefix(8))"

    static let logbook: String = {
        try! FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/logbook.sqlite"
        let gps = try! RunWayBinary.fixture("demo-mission.gpsd.json")
        let pressure = try! RunWayBinary.fixture("demo-mission.pressure.csv")
        let text = try! String(contentsOfFile: gps, encoding: .utf8)
        let evening = text.replacingOccurrences(of: "2026-10-03T06:", with: "2026-10-03T16:")
            .replacingOccurrences(of: "2026-10-03T07:", with: "2026-10-03T17:")
        let tuesday = text.replacingOccurrences(of: "2026-10-03T", with: "2026-10-06T")
        // (gpsd ends its lines with CR LF, one Character to Swift.)
        let short = text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n").filter { line in
            !(line.contains("\"time\":\"2026-10-03T07:0") && !line.contains("\"time\":\"2026-10-03T07:00")
                && !line.contains("\"time\":\"2026-10-03T07:01")
                && !line.contains("\"time\":\"2026-10-03T07:02")
                && !line.contains("\"time\":\"2026-10-03T07:03"))
                && !line.contains("\"time\":\"2026-10-03T07:1")
                && !line.contains("\"time\":\"2026-10-03T07:2")
        }.joined(separator: "\n").replacingOccurrences(of: "2026-10-03T", with: "2026-10-12T")
        let traces = [("morning", text), ("evening", evening), ("tuesday", tuesday), ("short", short)]
        for (name, trace) in traces {
            let file = folder + "/\(name).json"
            try! trace.write(toFile: file, atomically: true, encoding: .utf8)
            let extra =
                name == "morning" ? ["--pressure", pressure, "--mission", "pace=5:30,distance=5000"] : []
            _ = try! RunWayBinary.run(["fly", "--gps", file, "--save", "--logbook", path] + extra)
        }
        return path
    }()

    static let cases: [(name: String, arguments: [String])] = [
        ("logbook", ["logbook"]),
        ("logbook.json", ["logbook", "--json"]),
        ("flight-1", ["logbook", "--flight", "1", "--body-mass", "70"]),
        ("flight-3-no-heart-rate", ["show", "3"]),
        ("flight-4-one-split", ["logbook", "--flight", "4"]),
        ("calendar-2026-10", ["calendar", "2026-10"]),
        ("calendar-2026-10.json", ["calendar", "2026-10", "--json"]),
        ("calendar-2026-10-03", ["calendar", "2026-10-03"]),
        ("calendar-2026-10-03-seoul", ["calendar", "2026-10-03", "--tz", "Asia/Seoul"]),
        ("week-2026-10-03", ["week", "2026-10-03"]),
        ("replay-1-at-10-00", ["replay", "1", "--at", "10:00"]),
        ("replay-1-at-10-00.json", ["replay", "1", "--at", "10:00", "--json"]),
    ]

    static var goldenFolder: String { RunWayBinary.root.appendingPathComponent("Tests/Fixtures/golden").path }

    @Test(arguments: cases.map(\.name))
    func outputMatchesItsGoldenFile(_ name: String) async throws {
        let arguments = try #require(Self.cases.first { $0.name == name }).arguments
        let zone = arguments.contains("--tz") || arguments[0] == "replay" ? [] : ["--utc-offset", "0"]
        let result = try await RunWayBinary.run(arguments + ["--logbook", Self.logbook] + zone)
        #expect(result.status == 0, "\(result.stderr)")
        let output = result.stdout.replacingOccurrences(of: Self.folder, with: "<tmp>")
        #expect(!output.contains("\u{1B}"))
        let file = Self.goldenFolder + "/\(name).txt"
        if ProcessInfo.processInfo.environment["RUNWAY_UPDATE_GOLDEN"] == "1" {
            try FileManager.default.createDirectory(
                atPath: Self.goldenFolder, withIntermediateDirectories: true)
            try output.write(toFile: file, atomically: true, encoding: .utf8)
            return
        }
        let golden = try String(contentsOfFile: file, encoding: .utf8)
        #expect(
            output == golden,
            "\(name) differs from \(file): RUNWAY_UPDATE_GOLDEN=1 to rewrite, then review the diff")
    }

    @Test func whatTheGoldenFilesShow() throws {
        func golden(_ name: String) throws -> String {
            try String(contentsOfFile: Self.goldenFolder + "/\(name).txt", encoding: .utf8)
        }
        // Two runs on one day: the list has both with their times of day, the calendar a dot.
        let list = try golden("logbook")
        #expect(list.contains("2026-10-03 06:59") && list.contains("2026-10-03 16:59"))
        #expect(try golden("calendar-2026-10").contains("03 10.4 •"))
        // A flight of one split has no fastest/slowest markers; no heart rate is --, never 0.
        let short = try golden("flight-4-one-split")
        #expect(!short.contains("▲") && !short.contains("▼") && short.contains("712M"))
        let noHR = try golden("flight-3-no-heart-rate")
        #expect(noHR.contains("-- bpm") && !noHR.contains(" 0 bpm"))
        let first = try golden("flight-1")
        #expect(first.contains("▲") && first.contains("▼") && first.contains("kcal"))
    }
}
