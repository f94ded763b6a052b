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

    @Test func aMonthShowsKilometresADayADotForTheSecondRunAndWeekTotals() throws {
        let result = try RunWayBinary.run([
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
        let seoul = try RunWayBinary.run([
            "calendar", "2026-10", "--logbook", Self.logbook, "--tz", "Asia/Seoul",
        ])
        #expect(seoul.stdout.contains("03 5.2 ") && seoul.stdout.contains("04 5.2 "), "\(seoul.stdout)")
        let json = try RunWayBinary.run([
            "calendar", "2026-10", "--logbook", Self.logbook, "--json", "--utc-offset", "0",
        ])
        #expect(json.stdout.contains(#"{"date":"2026-10-03","distance_m":10360.3,"runs":2,"flights":[1,2]}"#))
    }

    @Test func aDayListsItsRunsWithTheirLocalTimes() throws {
        let result = try RunWayBinary.run([
            "calendar", "2026-10-03", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        #expect(result.stdout.contains("2026-10-03 (UTC): 2 runs"))
        #expect(
            result.stdout.contains("#1    06:59  5.18 km") && result.stdout.contains("#2    16:59  5.18 km"))
        let none = try RunWayBinary.run([
            "calendar", "2026-10-04", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        #expect(none.stdout.contains("No runs on 2026-10-04."))
        #expect(try RunWayBinary.run(["calendar", "2026-13", "--logbook", Self.logbook]).status == 2)
        #expect(try RunWayBinary.run(["calendar", "2026-02-30", "--logbook", Self.logbook]).status == 2)
    }

    @Test func aWeekIsBarsScaledToItsLargestDay() throws {
        let result = try RunWayBinary.run([
            "week", "2026-10-04", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        #expect(result.stdout.contains("week of 2026-09-28  10.4 km"))
        let saturday = try #require(result.stdout.split(separator: "\n").first { $0.contains("Sat") })
        #expect(saturday.contains(String(repeating: "█", count: 30)) && saturday.hasSuffix("10.4 km"))
        let next = try RunWayBinary.run([
            "week", "2026-10-06", "--logbook", Self.logbook, "--utc-offset", "0",
        ])
        let tuesday = try #require(next.stdout.split(separator: "\n").first { $0.contains("Tue") })
        #expect(tuesday.contains(String(repeating: "█", count: 30)))
    }

    @Test func deleteAsksAndNeverTouchesAFlightInTheAir() throws {
        let path = NSTemporaryDirectory() + "runway-delete-\(UUID().uuidString.prefix(8)).sqlite"
        try FileManager.default.copyItem(atPath: Self.logbook, toPath: path)
        let declined = try RunWayBinary.shell("echo n | \"$RUNWAY\" delete 2 --logbook '\(path)'")
        #expect(declined.status == 1 && declined.stdout.contains("Not deleted."))
        let closed = try RunWayBinary.shell("\"$RUNWAY\" delete 2 --logbook '\(path)' < /dev/null")
        #expect(closed.status == 1 && closed.stderr.contains("add --yes"))
        let yes = try RunWayBinary.shell("echo y | \"$RUNWAY\" delete 2 --logbook '\(path)'")
        #expect(yes.status == 0 && yes.stdout.contains("Deleted flight #2"))
        #expect(
            try RunWayBinary.run(["delete", "2", "--logbook", path, "--yes"]).stderr.contains("no flight 2"))
        // A flight still in the air is refused.
        let flying = try Logbook(path: path).begin(startTime: 1_800_000_000, mission: nil)
        let refused = try RunWayBinary.run(["delete", "\(flying)", "--logbook", path, "--yes"])
        #expect(refused.status == 1 && refused.stderr.contains("still in the air"), "\(refused.stderr)")
    }
}
