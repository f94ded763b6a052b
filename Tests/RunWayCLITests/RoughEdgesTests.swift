import Foundation
import RunWayTestSupport
import Testing

/// What a new user trips over first: --version, a forgotten option value, an option that does
/// nothing without its partner, the new flight's id for scripts, and Ctrl-C during the demo.
@Suite("runway: the rough edges a new user finds")
struct RoughEdgesTests {
    @Test func versionSaysWhatThisBuildWrites() async throws {
        let result = try await RunWayBinary.run(["--version"])
        #expect(result.status == 0 && result.stdout.hasPrefix("runway "))
        #expect(result.stdout.contains("logbook schema 5") && result.stdout.contains("engine version 3"))
    }

    @Test func aForgottenValueIsAUsageErrorNotAFileNamedLikeAnOption() async throws {
        let result = try await RunWayBinary.run(["fly", "--gps", "--json"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--gps needs a value, not the option --json"))
    }

    @Test func logbookWithoutSaveIsRefusedRatherThanIgnored() async throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let result = try await RunWayBinary.run(["fly", "--gps", gps, "--logbook", "/tmp/never.sqlite"])
        #expect(result.status == 2 && result.stderr.contains("--logbook goes with --save"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.sqlite"))
    }

    @Test func flyJSONWithSaveCarriesTheFlightsID() async throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let path = NSTemporaryDirectory() + "runway-id-\(UUID().uuidString.prefix(8)).sqlite"
        for _ in 0..<2 {  // the second time it is already there, under the same number
            let result = try await RunWayBinary.run([
                "fly", "--gps", gps, "--save", "--logbook", path, "--json",
            ])
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(object["flight_id"] as? Double == 1)
            #expect(object["status"] as? String == "recorded")
        }
        let unsaved = try await RunWayBinary.run(["fly", "--gps", gps, "--json"])
        #expect(unsaved.stdout.contains(#""flight_id":null"#))
    }

    @Test func ctrlCDuringTheDemoLandsTheFlightAndPrintsItsSummary() async throws {
        let path = NSTemporaryDirectory() + "runway-ctrlc-\(UUID().uuidString.prefix(8)).sqlite"
        let result = try await RunWayBinary.shell(
            "\"$RUNWAY\" demo --speed 300 --logbook '\(path)' & pid=$!; sleep 2; kill -INT $pid; wait $pid")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Ctrl-C: END") && result.stdout.contains("FLIGHT SUMMARY"))
        #expect(result.stderr.contains("saved as flight 1"))
        // Landed, not left open: the next look finds it finished, not recovered.
        let listed = try await RunWayBinary.run(["logbook", "--logbook", path])
        #expect(listed.stdout.contains("finished"), "\(listed.stdout)")
    }
}

@Suite("runway baro --csv: a pressure file made on the board")
struct BaroCSVTests {
    @Test func itsRowsAreWhatFlyPressureReads() async throws {
        let made = try await RunWayBinary.run(["baro", "--simulated", "--csv", "--count", "3"])
        #expect(made.status == 0)
        let lines = made.stdout.split(separator: "\n")
        #expect(lines.first == "time,pressure_pa" && lines.count == 4)
        let csv = try RunWayBinary.temporary(made.stdout, suffix: ".csv")
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let flown = try await RunWayBinary.run(["fly", "--gps", gps, "--pressure", csv, "--json"])
        #expect(flown.status == 0)
        // Every row read (today's times do not cover the 2026-10-03 trace, which fly says).
        #expect(!flown.stderr.contains("skipped"), "\(flown.stderr)")
        #expect(try await RunWayBinary.run(["baro", "--simulated", "--csv", "--json"]).status == 2)
    }
}
