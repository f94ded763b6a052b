import Foundation
import RunWayCore
import RunWayStore
import Testing

/// `runway show` of flights stored with heart-rate figures (made here, as the engine would hand
/// them over): the summary's maximum and time-in-zone block, and `show --json`'s fields; a
/// flight without heart rate shows none of them and its JSON says null.
@Suite("runway show: maximum heart rate and time in zone")
struct HeartRateReportTests {
    static let start = 1_791_010_800.0  // 2026-10-03T07:00:00Z

    /// Two full splits and a tail; with `heartRate`, zones from a maximum of 190.
    static func flight(heartRate: Bool, day: Int) -> Flight {
        var splits = (1...2).map { i in
            Split(
                order: i, distance: 1000, movingDuration: 330, elapsedDuration: 335,
                elapsedEnd: Double(i) * 335,
                heartRate: heartRate ? 150 + Double(i) * 5 : nil, cadence: nil, elevationGain: 0)
        }
        if heartRate {
            splits[0].maxHeartRate = 171.5
            splits[1].maxHeartRate = 183.5
        }
        var flight = Flight(
            mission: nil, startTime: start + Double(day) * 86_400,
            endTime: start + Double(day) * 86_400 + 1_700, distance: 5_000, elapsed: 1_700, movingTime: 1_650,
            splits: splits, droppedTail: 0, samples: [], route: Route(points: []),
            simplifiedRoute: Route(points: []), alerts: [], averageHeartRate: heartRate ? 158 : nil,
            averageCadence: nil)
        if heartRate {
            flight.maxHeartRate = 183.5
            flight.heartRateZones = HeartRateZones(method: .maximum, maximum: 190)
            flight.timeInZone = [60, 250, 1_020, 300, 0]
            flight.alerts = [
                AlertEpisode(kind: .heartRateHigh, startElapsed: 400, endElapsed: 460, coordinate: nil),
                AlertEpisode(kind: .heartRateLow, startElapsed: 900, endElapsed: 950, coordinate: nil),
                AlertEpisode(kind: .heartRateHigh, startElapsed: 1_400, endElapsed: 1_500, coordinate: nil),
            ]
        }
        return flight
    }

    /// A logbook holding the flight with heart rate (1) and the one without (2).
    static let logbook: String = {
        let path = NSTemporaryDirectory() + "runway-hr-\(UUID().uuidString.prefix(8)).sqlite"
        let logbook = try! Logbook(path: path, journalCapacity: 0)
        for (day, heartRate) in [(0, true), (1, false)] {
            let flight = flight(heartRate: heartRate, day: day)
            let id = try! logbook.begin(startTime: flight.startTime, mission: nil, source: "test")
            try! logbook.finish(flight: id, with: flight)
        }
        return path
    }()

    func show(_ arguments: [String]) async throws -> String {
        let result = try await RunWayBinary.run(
            ["show"] + arguments + ["--logbook", Self.logbook, "--utc-offset", "0"])
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func theSummaryShowsTheMaximumAndTheTimeInEachZoneWithItsRange() async throws {
        let text = try await show(["1"])
        #expect(text.contains("  Max HR        184 bpm         Zones         % of max 190\n"), "\(text)")
        #expect(text.contains("\n  TIME IN ZONE\n"))
        for line in [
            "  Z1  95–114 bpm    1:00     4 %", "  Z2  114–133 bpm   4:10     15 %",
            "  Z3  133–152 bpm   17:00    63 %", "  Z4  152–171 bpm   5:00     18 %",
            "  Z5  171–190 bpm   0:00     0 %",
        ] {
            #expect(text.split(separator: "\n").contains(Substring(line)), "\(line) in\n\(text)")
        }
    }

    /// HR HIGH and HR LOW are counted on a line of their own; the pace alerts' line is as before.
    @Test func theSummaryCountsHeartRateAlertsApartFromThePaceOnes() async throws {
        let text = try await show(["1"])
        #expect(text.contains("  GPWS alerts   0 (SINK RATE 0, OVERSPEED 0)\n"), "\(text)")
        #expect(text.contains("  HR alerts     3 (HR HIGH 2, HR LOW 1)\n"), "\(text)")
        let object = try await json(1)
        let alerts = try #require(object["alerts"] as? [[String: Any]])
        #expect(alerts.compactMap { $0["kind"] as? String } == ["HR HIGH", "HR LOW", "HR HIGH"], "\(alerts)")
    }

    @Test func aFlightWithoutHeartRateHasNoZoneLines() async throws {
        let text = try await show(["2"])
        #expect(!text.contains("HR alerts"))
        #expect(!text.contains("Max HR") && !text.contains("TIME IN ZONE") && !text.contains(" 0 bpm"))
        #expect(text.contains("-- bpm"))
    }

    func json(_ id: Int) async throws -> [String: Any] {
        let text = try await show(["\(id)", "--json"])
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func showJSONSaysTheMaximumTheTimeInZoneAndTheZones() async throws {
        let object = try await json(1)
        #expect(object["max_heart_rate"] as? Double == 183.5)
        #expect(object["time_in_zone_s"] as? [Double] == [60, 250, 1_020, 300, 0])
        let zones = try #require(object["heart_rate_zones"] as? [String: Any])
        #expect(zones["method"] as? String == "max" && zones["max"] as? Double == 190)
        #expect(zones["resting"] is NSNull)  // the maximum alone draws these zones
        #expect(zones["lower_edges"] as? [Double] == [95, 114, 133, 152, 171])
        let splits = try #require(object["splits"] as? [[String: Any]])
        #expect(splits.map { $0["max_heart_rate"] as? Double } == [171.5, 183.5])
        // The fields that were there are still there, as they were.
        #expect(object["avg_heart_rate"] as? Double == 158)
    }

    /// A heart-rate mission's band, zone and time goal are in `show --json`'s mission, beside the
    /// pace fields (null for it), so a script sees what the runner flew.
    @Test func showJSONSaysAHeartRateMissionsBandAndTimeGoal() async throws {
        let path = NSTemporaryDirectory() + "runway-hr-mission-\(UUID().uuidString.prefix(8)).sqlite"
        let logbook = try Logbook(path: path, journalCapacity: 0)
        var flight = Self.flight(heartRate: true, day: 0)
        flight.mission = Mission(
            pace: nil, heartRate: .init(low: 133, high: 152, zone: 3), goal: .duration(1_500))
        let id = try logbook.begin(startTime: flight.startTime, mission: flight.mission, source: "test")
        try logbook.finish(flight: id, with: flight)
        let result = try await RunWayBinary.run(["show", "\(id)", "--json", "--logbook", path])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let mission = try #require(object["mission"] as? [String: Any], "\(object)")
        #expect(mission["target_hr_low"] as? Double == 133 && mission["target_hr_high"] as? Double == 152)
        #expect(mission["target_zone"] as? Double == 3 && mission["target_time_s"] as? Double == 1_500)
        #expect(mission["target_pace_s_per_km"] is NSNull && mission["target_distance_m"] is NSNull)
    }

    @Test func showJSONWithoutHeartRateSaysNullNeverZero() async throws {
        let object = try await json(2)
        for key in ["max_heart_rate", "time_in_zone_s", "heart_rate_zones", "avg_heart_rate"] {
            #expect(object[key] is NSNull, "\(key): \(object[key] ?? "absent")")
        }
        let splits = try #require(object["splits"] as? [[String: Any]])
        #expect(splits.count == 2 && splits.allSatisfy { $0["max_heart_rate"] is NSNull })
    }
}
