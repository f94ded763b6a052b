import Foundation
import RunWayCore
import RunWayStore
import Testing

@testable import RunWayCLI

@Suite("runway fly: a recorded gpsd trace through the same engine, --json contract, bad input")
struct FlyCommandTests {
    static let mission = "pace=5:30,deviation=15,distance=5000"

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func fliesTheRecordedGpsdTraceWithItsPressureLog() throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let pressure = try RunWayBinary.fixture("demo-mission.pressure.csv")
        let result = try RunWayBinary.run([
            "fly", "--gps", gps, "--pressure", pressure, "--mission", Self.mission, "--json",
        ])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let object = try json(result.stdout)
        for key in [
            "recorded", "distance_m", "elapsed_s", "moving_s", "elevation_gain_m", "avg_pace_s_per_km",
            "splits",
            "alerts", "samples", "route_points", "dropped_tail_m",
        ] {
            #expect(object[key] != nil, "missing \(key)")
        }
        #expect(object["recorded"] as? Bool == true)
        let distance = try #require(object["distance_m"] as? Double)
        #expect(abs(distance - 5180) < 5180 * 0.015)  // the simulated run is 5.18 km
        let gain = try #require(object["elevation_gain_m"] as? Double)
        #expect(abs(gain - 20) < 1)
        let splits = try #require(object["splits"] as? [[String: Any]])
        #expect(splits.count == 6)
        for key in [
            "order", "distance_m", "moving_s", "elapsed_end_s", "pace_s_per_km", "elevation_gain_m",
            "heart_rate",
            "cadence",
        ] {
            #expect(splits[0].keys.contains(key), "split missing \(key)")
        }
        // No heart-rate sensor in a gpsd trace: null, never 0.
        #expect(splits[0]["heart_rate"] is NSNull)
        let alerts = try #require(object["alerts"] as? [[String: Any]])
        #expect(Set(alerts.compactMap { $0["kind"] as? String }) == ["SINK RATE", "OVERSPEED"])
        #expect(alerts.allSatisfy { $0["start_elapsed_s"] is Double && $0["end_elapsed_s"] is Double })
        #expect((object["samples"] as? Int ?? 0) > 340)
    }

    @Test func theSameTraceGivesTheSameFlightAsTheDirectSimulation() throws {
        // gpsd → JSON → reader → engine must agree with the simulator → engine path: what gpsd
        // does to the numbers (rounding, units) must not move a run.
        let gps = try TraceReader.gps(path: RunWayBinary.fixture("demo-mission.gpsd.json"))
        let flown = try FlyCommand.fly(gps: gps, gpsName: "demo", pressure: nil, mission: nil).flight
        var scenario = RunWaySimulatorAccess.demo
        scenario.mission = nil
        let direct = RunWaySimulatorAccess.fly(scenario)
        #expect(abs(flown.distance - direct.distance) < 10)
        #expect(flown.splits.count == direct.splits.count)
    }

    @Test func textOutputIsTheFlightSummary() throws {
        let result = try RunWayBinary.run([
            "fly", "--gps", try RunWayBinary.fixture("demo-mission.gpsd.json"),
        ])
        #expect(result.status == 0)
        #expect(result.stdout.contains("FLIGHT SUMMARY  FREE FLIGHT  RECORDED"))
        // The 5.18 km run's tail split, as the smoother measured it (180 m live).
        let tail = result.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first.flatMap { $0.hasSuffix("M") ? Int($0.dropLast()) : nil }
        }
        #expect(tail.count == 1 && (175...185).contains(tail[0]), "\(result.stdout)")
        #expect(result.stdout.contains("Distance is smoothed over the whole run at touchdown, live 5.18 km"))
        #expect(result.stdout.contains(">> TOUCHDOWN"))
    }

    @Test func anUnreadableFileIsOneClearSentenceAndExitsOne() throws {
        let result = try RunWayBinary.run(["fly", "--gps", "/nonexistent/run.json"])
        #expect(result.status == 1)
        #expect(result.stderr == "runway: cannot read /nonexistent/run.json: no such file\n")
    }

    @Test func anEmptyTraceExitsNonZero() throws {
        let path = try RunWayBinary.temporary("", suffix: ".json")
        let result = try RunWayBinary.run(["fly", "--gps", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has no usable fix"))
    }

    @Test func aTraceWithOnlyBadLinesSaysWhyAndExitsNonZero() throws {
        let path = try RunWayBinary.temporary("{oops\n{\"class\":\"TPV\",\"mode\":1}\n", suffix: ".json")
        let result = try RunWayBinary.run(["fly", "--gps", path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(path):1: not a JSON object — line skipped"))
        #expect(result.stderr.contains("has no usable fix"))
    }

    @Test func badLinesAreReportedAndTheRestIsFlown() throws {
        let source = try String(
            contentsOfFile: try RunWayBinary.fixture("demo-mission.gpsd.json"), encoding: .utf8)
        var lines = source.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(
            String.init)
        lines.insert("garbage", at: 400)
        lines.insert(lines[300], at: 700)  // a time going backwards
        let gps = try RunWayBinary.temporary(lines.joined(separator: "\n"), suffix: ".json")
        let csv = try RunWayBinary.temporary(
            "time,pressure_pa\n2026-10-03T07:00:03Z,NaN\n2026-10-03T07:00:04Z,100000,7\n", suffix: ".csv")
        let result = try RunWayBinary.run(["fly", "--gps", gps, "--pressure", csv, "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("\(gps):401: not a JSON object — line skipped"))
        #expect(result.stderr.contains("\(gps):701: time 2026-10-03T"))
        #expect(result.stderr.contains("goes backwards"))
        #expect(result.stderr.contains("\(csv):2: pressure \"NaN\" is not a number — row skipped"))
        #expect(result.stderr.contains("\(csv):3: expected 2 fields"))
        let object = try json(result.stdout)
        #expect(object["recorded"] as? Bool == true)
        // The four bad lines, and what they leave: a pressure file with no sample.
        #expect((object["warnings"] as? [String])?.count == 5)
        #expect(result.stderr.contains("\(csv): has no pressure samples: the flight has no altitude"))
        // No usable pressure: the elevation is the receiver's, and says so.
        #expect(object["elevation_source"] as? String == "gps")
        #expect(object["elevation_gain_m"] is Double)
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try RunWayBinary.run(["fly"]).status == 2)
        #expect(try RunWayBinary.run(["fly", "--gps", "x", "--bogus"]).status == 2)
        let bad = try RunWayBinary.run(["fly", "--gps", "x", "--mission", "pace=fast"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("pace \"fast\" is not M:SS per km"))
        #expect(try RunWayBinary.run(["launch"]).status == 2)
        #expect(try RunWayBinary.run(["help"]).status == 0)
    }

    @Test func missionOption() throws {
        let mission = try MissionOption.parse("pace=5:30,deviation=15,distance=5km")
        #expect(mission == Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000))
        #expect(throws: CLIError.self) { try MissionOption.parse("deviation=15") }
    }

    @Test func aTooShortFlightSaysSo() throws {
        let text = (0..<30).map { i in
            #"{"class":"TPV","mode":3,"time":"2026-10-03T07:00:\#(i < 10 ? "0" : "")\#(i)Z","lat":37.5,"lon":\#(127.0 + Double(i) * 0.00003),"speed":2.6,"eph":15}"#
        }.joined(separator: "\n")
        let path = try RunWayBinary.temporary(text, suffix: ".json")
        let result = try RunWayBinary.run(["fly", "--gps", path, "--json"])
        #expect(result.status == 0)
        let object = try json(result.stdout)
        #expect(object["recorded"] as? Bool == false)
        #expect(object["status"] as? String == "too short")
        let text2 = try RunWayBinary.run(["fly", "--gps", path])
        #expect(text2.stdout.contains("NOT RECORDED — TOO SHORT"))
    }
}

@Suite("runway demo and simulate")
struct DemoCommandTests {
    @Test func theDemoFliesTheMissionAndPrintsTheSummary() throws {
        let result = try RunWayBinary.run(["demo", "--speed", "max"])
        #expect(result.status == 0)
        for expected in [
            ">> 3", ">> ROTATE", ">> SINK RATE", ">> OVERSPEED", ">> MINIMUMS", ">> PAUSE (stopped)",
            ">> SPLIT 1 KM", ">> TOUCHDOWN", "FLIGHT SUMMARY  MISSION FLIGHT", "RECORDED", "▲", "▼",
            "Moving time",
            "Elevation     +20 m",
        ] {
            #expect(result.stdout.contains(expected), "demo output lacks \(expected)")
        }
        #expect(result.stdout.contains("CRUISE"))
    }

    @Test func simulateWritesValidNMEA() throws {
        let lines = try SimulateCommand.lines(scenario: "walker", format: .nmea, leadIn: 2)
        #expect(lines.first?.hasPrefix("$GPRMC,") == true)
        #expect(lines.first?.contains(",V,") == true)  // the lead-in has no fix
        for line in lines.prefix(50) {
            let star = try #require(line.lastIndex(of: "*"))
            let body = line[line.index(after: line.startIndex)..<star]
            var checksum: UInt8 = 0
            for byte in body.utf8 { checksum ^= byte }
            #expect(String(line[line.index(after: star)...]) == String(format: "%02X", checksum))
        }
        #expect(throws: CLIError.self) { try SimulateCommand.lines(scenario: "moon", format: .nmea) }
    }
}

@Suite("runway fly --save")
struct FlySaveTests {
    @Test func aFlownTraceJoinsTheLogbookWithItsRawLog() throws {
        let path = NSTemporaryDirectory() + "runway-save-\(UUID().uuidString).sqlite"
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let result = try RunWayBinary.run(["fly", "--gps", gps, "--save", "--logbook", path, "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("saved as flight 1"))
        let logbook = try Logbook(path: path)
        let entry = try #require(try logbook.entries().first)
        #expect(entry.status == .finished)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(abs(entry.distance - (object["distance_m"] as? Double ?? 0)) < 0.1)
        // Flown again from the stored raw log, it is the same flight.
        let again = try #require(try logbook.replay(flight: entry.id))
        #expect(abs(again.distance - entry.distance) < 1e-6)
        #expect(try logbook.splits(flight: entry.id) == again.splits)
    }

    @Test func saveNeedsALogbook() throws {
        #expect(try RunWayBinary.run(["fly", "--gps", "x", "--save"]).status == 2)
    }
}

@Suite("runway logbook and reprocess")
struct LogbookCommandTests {
    @Test func theLogbookListsFlightsWithDateAndTimeAndReprocessKeepsTheOriginal() throws {
        let path = NSTemporaryDirectory() + "runway-list-\(UUID().uuidString).sqlite"
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        #expect(try RunWayBinary.run(["fly", "--gps", gps, "--save", "--logbook", path]).status == 0)
        let again = try RunWayBinary.run(["reprocess", "1", "--logbook", path])
        #expect(again.status == 0)
        #expect(again.stdout.contains("stored as flight 2; the original is kept"))
        // One run counts once: the reprocessed flight stands for the original, which --all shows.
        let list = try RunWayBinary.run(["logbook", "--logbook", path, "--utc-offset", "9"])
        #expect(list.status == 0)
        let lines = list.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(
            lines.allSatisfy {
                $0.contains("#2") && $0.contains("2026-10-03 15:59") && $0.contains("5.18 km")
            })
        let all = try RunWayBinary.run(["logbook", "--logbook", path, "--all"]).stdout.split(separator: "\n")
        #expect(all.count == 2)
        #expect(all.last?.contains("superseded by #2") == true)
        #expect(try RunWayBinary.run(["reprocess", "9", "--logbook", path]).status == 1)
    }

    @Test func oneFlightShowsItsSummaryCaloriesAndForScriptsItsSamplesAndRoute() throws {
        let path = NSTemporaryDirectory() + "runway-show-\(UUID().uuidString).sqlite"
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let flown = try RunWayBinary.run(["fly", "--gps", gps, "--save", "--logbook", path, "--json"])
        #expect(flown.status == 0)
        let shown = try RunWayBinary.run(
            ["logbook", "--logbook", path, "--flight", "1", "--body-mass", "70", "--utc-offset", "9"])
        #expect(shown.status == 0)
        #expect(shown.stdout.contains("Flight #1  2026-10-03 15:59 (UTC+9)  finished"))
        #expect(shown.stdout.contains("5.18 km") && shown.stdout.contains("SINK RATE"))
        // ≈ 70 × (0.2 × 5180 + 0.9 × 27 + 3.5 × 28.8) × 5 / 1000: the climb is the receiver's here.
        #expect(shown.stdout.contains("Calories      406"))
        #expect(shown.stdout.contains("Altitude      −1 to +26 m (GPS)"))
        let json = try RunWayBinary.run(["logbook", "--logbook", path, "--flight", "1", "--json"])
        #expect(json.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let saved = try #require(
            try JSONSerialization.jsonObject(with: Data(flown.stdout.utf8)) as? [String: Any])
        // Every field `runway fly --json` printed reads back the same from the logbook.
        for key in [
            "distance_m", "moving_s", "elapsed_s", "avg_pace_s_per_km", "elevation_gain_m", "samples",
        ] {
            #expect((object[key] as? Double) == (saved[key] as? Double), "\(key)")
        }
        #expect((object["splits"] as? [Any])?.count == (saved["splits"] as? [Any])?.count)
        #expect((object["fdr_samples"] as? [Any])?.count == saved["samples"] as? Int)
        #expect((object["route_simplified"] as? [Any])?.count == saved["route_points_simplified"] as? Int)
        #expect(object["source"] as? String == "fly \(gps)")
        #expect(object["calories_kcal"] is NSNull)
        // Where the exported files' altitude above sea level comes from (issue 28): the
        // receiver's mean over the run, said with how many fixes and by how much.
        let anchor = try #require(object["altitude_anchor"] as? [String: Any])
        #expect(anchor["reference"] as? String == "gps_mean")
        #expect((anchor["gps_fixes"] as? Int ?? 0) > 1000)
        #expect((anchor["offset_m"] as? Double).map { (-500...9000).contains($0) && $0 != 0 } == true)
        #expect((anchor["description"] as? String)?.contains("above sea level") == true)
        // `runway fly --json` said the same anchor before the flight was stored.
        let flownAnchor = try #require(saved["altitude_anchor"] as? [String: Any])
        #expect(flownAnchor["reference"] as? String == "gps_mean")
        #expect(flownAnchor["offset_m"] as? Double == anchor["offset_m"] as? Double)
        let missing = try RunWayBinary.run(["logbook", "--logbook", path, "--flight", "7"])
        #expect(missing.status == 1 && missing.stderr.contains("no flight 7"))
        let badMass = try RunWayBinary.run([
            "logbook", "--logbook", path, "--flight", "1", "--body-mass", "7O",
        ])
        #expect(badMass.status == 2 && badMass.stderr.contains("--body-mass takes kilograms"))
    }

    /// `home_altitude_m` in the configuration anchors the files' altitude at the start (issue 28):
    /// the demo starts 1 m above its lowest point, so the offset is the home altitude itself.
    @Test func theConfiguredHomeAltitudeAnchorsTheAltitude() throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let config = try RunWayBinary.temporary(#"{"home_altitude_m": 120}"#, suffix: ".json")
        let flown = try RunWayBinary.run(["fly", "--gps", gps, "--config", config, "--json"])
        #expect(flown.status == 0, "\(flown.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(flown.stdout.utf8)) as? [String: Any])
        let anchor = try #require(object["altitude_anchor"] as? [String: Any])
        #expect(anchor["reference"] as? String == "home_altitude")
        #expect(anchor["gps_fixes"] is NSNull)
        #expect((anchor["offset_m"] as? Double).map { abs($0 - 120) < 3 } == true, "\(anchor)")
        #expect((anchor["description"] as? String)?.contains("configured home altitude") == true)
        let bad = try RunWayBinary.temporary(#"{"home_altitude_m": 12000}"#, suffix: ".json")
        let refused = try RunWayBinary.run(["fly", "--gps", gps, "--config", bad, "--json"])
        #expect(
            refused.status != 0 && refused.stderr.contains("home_altitude_m: expected metres above sea level")
        )
        #expect(refused.stdout.isEmpty)
    }

    @Test func aDamagedLogbookIsRefusedAndSalvageCopiesWhatReads() throws {
        let path = NSTemporaryDirectory() + "runway-damaged-\(UUID().uuidString).sqlite"
        let target = NSTemporaryDirectory() + "runway-salvaged-\(UUID().uuidString).sqlite"
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        // Two runs: the recorded trace, and the same course a day later.
        let nextDay = try RunWayBinary.temporary(
            try String(contentsOfFile: gps, encoding: .utf8).replacingOccurrences(
                of: "2026-10-03T", with: "2026-10-04T"), suffix: ".json")
        for trace in [gps, nextDay] {
            #expect(try RunWayBinary.run(["fly", "--gps", trace, "--save", "--logbook", path]).status == 0)
        }
        // The card loses the file's last quarter.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count * 3 / 4 / 4096 * 4096).write(to: URL(fileURLWithPath: path))
        let refused = try RunWayBinary.run(["logbook", "--logbook", path])
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains("damaged") && refused.stderr.contains("runway salvage \(path) --to NEW"))
        let salvaged = try RunWayBinary.run(["salvage", path, "--to", target])
        #expect(salvaged.status == 0)
        #expect(
            salvaged.stdout.contains("#1 → #1")
                && salvaged.stdout.contains("flown again from its raw sensor log"))
        #expect(salvaged.stdout.contains("into \(target); \(path) was only read."))
        let list = try RunWayBinary.run(["logbook", "--logbook", target])
        #expect(list.status == 0 && list.stdout.contains("5.18 km"))
        let again = try RunWayBinary.run(["salvage", path, "--to", target])
        #expect(again.status == 1 && again.stderr.contains("never writes over one"))
        #expect(try RunWayBinary.run(["salvage", "--to", target]).status == 2)
    }

    @Test func aCardWithNoRoomForTheRawLogJournalStillRecordsTheFlight() throws {
        let path = NSTemporaryDirectory() + "runway-nearly-full-\(UUID().uuidString).sqlite"
        let result = try RunWayBinary.run(
            ["demo", "--speed", "max", "--logbook", path], fileSizeLimit: 1 << 20)
        #expect(result.status == 0)
        #expect(result.stderr.contains("no raw-log journal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-rawlog"))  // the space is given back
        let logbook = try Logbook(path: path, journalCapacity: 0)
        let entry = try #require(try logbook.entries().first)
        #expect(entry.status == .finished && abs(entry.distance - 5180) < 10)
        #expect(try logbook.replay(flight: entry.id)?.distance == entry.distance)  // its raw log is whole
    }

    @Test func aLogbookThatCannotBeWrittenIsOneSentence() throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let result = try RunWayBinary.run([
            "fly", "--gps", gps, "--save", "--logbook", "/proc/nope/runway.sqlite",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("/proc/nope/runway.sqlite: cannot be written"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
