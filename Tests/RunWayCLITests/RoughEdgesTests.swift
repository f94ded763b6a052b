import Foundation
import RunWayStore
import RunWayTestSupport
import Testing

/// What a new user trips over first: --version, a forgotten option value, an option that does
/// nothing without its partner, the new flight's id for scripts, and Ctrl-C during the demo.
@Suite("runway: the rough edges a new user finds")
struct RoughEdgesTests {
    @Test func versionSaysWhatThisBuildWrites() async throws {
        let result = try await RunWayBinary.run(["--version"])
        #expect(result.status == 0 && result.stdout.hasPrefix("runway "))
        #expect(result.stdout.contains("logbook schema 12") && result.stdout.contains("engine version 11"))
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

/// A command that writes to the logbook closes flights a power cut left open — but never one
/// runwayd is recording right now.
@Suite("A flight in the air is runwayd's")
struct RecorderLockTests {
    @Test func aWritingCommandLeavesTheLiveFlightAloneWhileRunwaydRecords() async throws {
        let path = NSTemporaryDirectory() + "runway-live-\(UUID().uuidString.prefix(8)).sqlite"
        let flying = try Logbook(path: path).begin(startTime: 1_791_000_000, mission: nil)
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        var lock = RecorderLock(logbook: path)  // as runwayd holds it
        let taken = lock != nil  // (not inside #expect, which would keep the lock alive)
        #expect(taken && RecorderLock.isHeld(logbook: path))
        let during = try await RunWayBinary.run(["fly", "--gps", gps, "--save", "--logbook", path])
        #expect(during.status == 0)
        #expect(during.stderr.contains("runwayd is recording into"), "\(during.stderr)")
        let entries = try Logbook(path: path, access: .readOnly).entries()
        #expect(entries.first { $0.id == flying }?.status == .flying)
        let demo = try await RunWayBinary.run(["demo", "--speed", "max", "--logbook", path])
        #expect(demo.status == 1 && demo.stderr.contains("is being recorded into"))
        // runwayd gone (a power cut): the next writer closes it.
        lock = nil
        // (A child another test is forking may hold a copy of the descriptor until it execs.)
        for _ in 0..<100 where RecorderLock.isHeld(logbook: path) {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(!RecorderLock.isHeld(logbook: path))
        let after = try await RunWayBinary.run(["fly", "--gps", gps, "--save", "--logbook", path])
        #expect(after.stderr.contains("flight \(flying), left open by a power cut"), "\(after.stderr)")
    }
}
