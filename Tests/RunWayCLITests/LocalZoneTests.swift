import Foundation
import RunWayCore
import RunWayTestSupport
import Testing

@testable import RunWayCLI

/// Local times as a runner reads them: real time zones (summer time for each run's own date),
/// offsets with minutes, every local time labelled, JSON in UTC with the offset beside it.
@Suite("Local time: --tz, --utc-offset, the configured zone, TZ")
struct LocalZoneTests {
    @Test func offsetsWithMinutesAndDecimalHoursAreLabelledTruthfully() async throws {
        #expect(LocalZone.parseOffset("9") == 32_400)
        #expect(LocalZone.parseOffset("-3") == -10_800)
        #expect(LocalZone.parseOffset("+5:30") == 19_800)
        #expect(LocalZone.parseOffset("5.5") == 19_800)
        #expect(LocalZone.parseOffset("5:45") == 20_700)
        #expect(LocalZone.parseOffset("-03:30") == -12_600)
        for bad in ["15", "5:7", "5:60", "abc", "+-1", "1e1", "5.51"] {
            #expect(LocalZone.parseOffset(bad) == nil, "\(bad)")
        }
        let india = try LocalZone.resolve(tz: nil, utcOffset: "5.5", configuration: "/nonexistent")
        #expect(india.label(at: 0) == "UTC+5:30")
        #expect(india.describe(UTCTime.parse("2026-10-03T06:59:50Z")!) == "2026-10-03 12:29 (UTC+5:30)")
    }

    @Test func aNamedZoneGivesEachRunItsOwnSummerOrWinterTime() async throws {
        let berlin = try LocalZone.resolve(tz: "Europe/Berlin", utcOffset: nil, configuration: "/nonexistent")
        #expect(
            berlin.describe(UTCTime.parse("2026-07-01T06:00:00Z")!)
                == "2026-07-01 08:00 (Europe/Berlin, UTC+2)")
        #expect(
            berlin.describe(UTCTime.parse("2026-12-01T06:00:00Z")!)
                == "2026-12-01 07:00 (Europe/Berlin, UTC+1)")
        #expect(throws: CLIError.self) {
            try LocalZone.resolve(tz: "Mars/Base", utcOffset: nil, configuration: "")
        }
        #expect(throws: CLIError.self) { try LocalZone.resolve(tz: "UTC", utcOffset: "1", configuration: "") }
    }

    @Test func theCommandsShowLocalTimesLabelledAndJSONKeepsUTC() async throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let path = NSTemporaryDirectory() + "runway-tz-\(UUID().uuidString.prefix(8)).sqlite"
        _ = try await RunWayBinary.run(["fly", "--gps", gps, "--save", "--logbook", path])
        let config = try RunWayBinary.temporary(#"{"time_zone": "Asia/Seoul"}"#, suffix: ".json")
        // The configured zone, unless the command line says otherwise.
        let configured = try await RunWayBinary.run(["logbook", "--logbook", path, "--config", config])
        #expect(configured.stdout.contains("2026-10-03 15:59 UTC+9"), "\(configured.stdout)")
        let shown = try await RunWayBinary.run([
            "logbook", "--logbook", path, "--flight", "1", "--utc-offset", "+5:45",
        ])
        #expect(shown.stdout.contains("Flight #1  2026-10-03 12:44 (UTC+5:45)"))
        #expect(shown.stdout.contains("  2026-10-03 12:44 (UTC+5:45)\n"))  // the summary's own line agrees
        let json = try await RunWayBinary.run([
            "logbook", "--logbook", path, "--json", "--tz", "America/New_York",
        ])
        #expect(json.stdout.contains(#""start_time":"2026-10-03T06:59:50Z","utc_offset_s":-14400"#))
        // TZ is the system's zone when nothing else is given.
        let viaTZ = try await RunWayBinary.shell(
            "TZ=Asia/Kolkata \"$RUNWAY\" logbook --logbook '\(path)' --config /nonexistent")
        #expect(viaTZ.stdout.contains("2026-10-03 12:29 UTC+5:30"), "\(viaTZ.stdout)")
        let fly = try await RunWayBinary.run(["fly", "--gps", gps, "--tz", "Asia/Seoul"])
        #expect(fly.stdout.contains("2026-10-03 15:59 (Asia/Seoul, UTC+9)"))
        #expect(
            try await RunWayBinary.run(["logbook", "--logbook", path, "--utc-offset", "5:7"]).status == 2)
    }
}
