import Foundation
import RunWayStore
import RunWayTestSupport
import Testing

/// The seed's calendar, day list and weekly chart, and delete, against a logbook of known runs:
/// the demo trace on 3 October at 06:59 and 16:59 UTC, and on 6 October.
@Suite("runway calendar, week, delete")
struct CalendarCommandTests {
    static let logbook: String = {
        let path = NSTemporaryDirectory() + "runway-calendar-\(UUID().uuidString.prefix(8)).sqlite"
        let gps = try! RunWayBinary.fixture("demo-mission.gpsd.json")
        let text = try! String(contentsOfFile: gps, encoding: .utf8)
        let evening = text.replacingOccurrences(of: "2026-10-03T06:", with: "2026-10-03T16:")
            .replacingOccurrences(of: "2026-10-03T07:", with: "2026-10-03T17:")
        let tuesday = text.replacingOccurrences(of: "2026-10-03T", with: "2026-10-06T")
        for trace in [text, evening, tuesday] {
            let file = try! RunWayBinary.temporary(trace, suffix: ".json")
            _ = try! RunWayBinary.run(["fly", "--gps", file, "--save", "--logbook", path])
        }
        return path
    }()

    @Test func aMonthShowsKilometresADayADotForTheSecondRunAndWeekTotals() async throws {
        let result = try await RunWayBinary.run([
            "calendar", "2026-10", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let first = try #require(lines.first { $0.contains(" 03 ") })
        #expect(first.contains("03 10.4 •"), "\(result.stdout)")
        #expect(first.hasSuffix("10.4"))  // the week's total
        let second = try #require(lines.first { $0.contains(" 06 ") })
        #expect(second.contains("06 5.2 ") && second.hasSuffix("5.2"))
        #expect(result.stdout.contains("15.5 km in 3 runs"))
        // Not a terminal: no colour, no escape sequence at all.
        #expect(!result.stdout.contains("\u{1B}"))
        // In Seoul the evening run is on the 4th.
        let seoul = try await RunWayBinary.run([
            "calendar", "2026-10", "--logbook", Self.logbook, "--tz", "Asia/Seoul",
        ])
        #expect(seoul.stdout.contains("03 5.2 ") && seoul.stdout.contains("04 5.2 "), "\(seoul.stdout)")
        let json = try await RunWayBinary.run([
            "calendar", "2026-10", "--logbook", Self.logbook, "--json", "--utc-offset", "0",
        ])
        #expect(json.stdout.contains(#"{"date":"2026-10-03","distance_m":10358.9,"runs":2,"flights":[1,2]}"#))
    }

    @Test func aDayListsItsRunsWithTheirLocalTimes() async throws {
        let result = try await RunWayBinary.run([
            "calendar", "2026-10-03", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        #expect(result.stdout.contains("2026-10-03 (UTC): 2 runs"))
        #expect(
            result.stdout.contains("#1    06:59  5.18 km") && result.stdout.contains("#2    16:59  5.18 km"))
        let none = try await RunWayBinary.run([
            "calendar", "2026-10-04", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        #expect(none.stdout.contains("No runs on 2026-10-04."))
        #expect(try await RunWayBinary.run(["calendar", "2026-13", "--logbook", Self.logbook]).status == 2)
        #expect(
            try await RunWayBinary.run(["calendar", "2026-02-30", "--logbook", Self.logbook]).status == 2)
    }

    @Test func aWeekIsBarsScaledToItsLargestDay() async throws {
        let result = try await RunWayBinary.run([
            "week", "2026-10-04", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        #expect(result.stdout.contains("week of 2026-09-28  10.4 km"))
        let saturday = try #require(result.stdout.split(separator: "\n").first { $0.contains("Sat") })
        #expect(saturday.contains(String(repeating: "█", count: 30)) && saturday.hasSuffix("10.4 km"))
        let next = try await RunWayBinary.run([
            "week", "2026-10-06", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        let tuesday = try #require(next.stdout.split(separator: "\n").first { $0.contains("Tue") })
        #expect(tuesday.contains(String(repeating: "█", count: 30)))
    }

    @Test func deleteAsksAndNeverTouchesAFlightInTheAir() async throws {
        let path = NSTemporaryDirectory() + "runway-delete-\(UUID().uuidString.prefix(8)).sqlite"
        try FileManager.default.copyItem(atPath: Self.logbook, toPath: path)
        let declined = try await RunWayBinary.shell("echo n | \"$RUNWAY\" delete 2 --logbook '\(path)'")
        #expect(declined.status == 1 && declined.stdout.contains("Not deleted."))
        let closed = try await RunWayBinary.shell("\"$RUNWAY\" delete 2 --logbook '\(path)' < /dev/null")
        #expect(closed.status == 1 && closed.stderr.contains("add --yes"))
        let yes = try await RunWayBinary.shell("echo y | \"$RUNWAY\" delete 2 --logbook '\(path)'")
        #expect(yes.status == 0 && yes.stdout.contains("Deleted flight #2"))
        #expect(
            try await RunWayBinary.run(["delete", "2", "--logbook", path, "--yes"]).stderr.contains(
                "no flight 2"))
        // A flight still in the air is refused.
        let flying = try Logbook(path: path).begin(startTime: 1_800_000_000, mission: nil)
        let refused = try await RunWayBinary.run(["delete", "\(flying)", "--logbook", path, "--yes"])
        #expect(refused.status == 1 && refused.stderr.contains("still in the air"), "\(refused.stderr)")
    }
}

@Suite("runway replay: the FDR at a moment, and its four lanes")
struct ReplayCommandTests {
    @Test func aMomentInsideAPauseIsShownPausedWithItsLanesAndCursor() async throws {
        let path = CalendarCommandTests.logbook
        let json = try await RunWayBinary.run(["logbook", "--logbook", path, "--flight", "1", "--json"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let samples = try #require(object["fdr_samples"] as? [[String: Any]])
        let paused = try #require(samples.first { $0["paused"] as? Bool == true })
        let at = Int(try #require(paused["elapsed_s"] as? Double)) + 2
        let moment = "\(at / 60):\(at % 60 < 10 ? "0" : "")\(at % 60)"
        let result = try await RunWayBinary.run(["replay", "1", "--logbook", path, "--at", moment])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Flight #1 at \(moment) of 29:35  PAUSED"), "\(result.stdout)")
        // No heart rate in this trace: --, not 0.
        #expect(result.stdout.contains("PACE --") && result.stdout.contains("BPM --"))
        for lane in ["  PACE ", "  BPM  (no values)", "  SPM  (no values)", "  ALT  "] {
            #expect(result.stdout.contains(lane))
        }
        #expect(result.stdout.contains("^ \(moment)"))
        let asJSON = try await RunWayBinary.run(["replay", "1", "--logbook", path, "--at", moment, "--json"])
        #expect(asJSON.stdout.contains(#""paused":true"#) && asJSON.stdout.contains(#""heart_rate":null"#))
        #expect(try await RunWayBinary.run(["replay", "1", "--logbook", path, "--at", "99:00"]).status == 2)
        #expect(try await RunWayBinary.run(["replay", "1", "--logbook", path, "--at", "5:7"]).status == 2)
    }

    @Test func aFlightWithoutSamplesSaysWhy() async throws {
        let path = NSTemporaryDirectory() + "runway-replay-\(UUID().uuidString.prefix(8)).sqlite"
        let id = try Logbook(path: path).begin(startTime: 1_800_000_000, mission: nil)
        let result = try await RunWayBinary.run(["replay", "\(id)", "--logbook", path])
        #expect(result.status == 1 && result.stderr.contains("still in the air"), "\(result.stderr)")
    }
}
