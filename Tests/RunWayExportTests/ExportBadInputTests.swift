import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import RunWayTestSupport
import Testing

/// Bad input (issue 28): a raw log with a damaged stretch, a 48-hour flight, heart rate for half
/// the run, no altitude at all. Each gives files every reader takes whole, which say what is
/// missing (the description: GPX's track desc, TCX's notes, FIT's device descriptor), and whose
/// series is still the same in the three formats.
@Suite("Bad input still makes valid files that say what is missing", .serialized)
struct ExportBadInputTests {
    static func stops() async throws -> (Flight, [EngineInput]) {
        try await ExportSeriesTests.fly(.stops5k)
    }

    static func expectReadable(_ activity: ExportActivity, _ label: String) async throws -> ReadBack {
        let read = try await ReadBack.of(activity)
        read.expectValid(label)
        ExportSeriesTests.expectTimeOrderAndTimer(read, activity, label)
        ExportSeriesTests.expectSameSeries(read, activity, label)
        let descriptor = (read.fitdecode["descriptors"] as? [[String: Any]])?.first?["descriptor"] as? String
        #expect(read.gpx["description"] as? String == activity.description, "\(label)")
        #expect(read.tcx["notes"] as? String == activity.description, "\(label)")
        #expect(
            descriptor.map { activity.description.hasPrefix($0) } == true, "\(label): \(descriptor ?? "-")")
        return read
    }

    @Test func aRawLogDamagedForFiveMinutesIsSaidAndItsSecondsHaveNoReadings() async throws {
        let (flight, inputs) = try await Self.stops()
        let hole = (flight.startTime + 600)...(flight.startTime + 900)
        let kept = inputs.filter { !hole.contains($0.time) }
        let activity = try await offPool {
            ExportActivity(flight: flight, inputs: kept, rawLogGaps: [600...900])
        }
        #expect(activity.description.contains("The raw log was damaged from 600 s to 900 s after the start"))
        let inside = activity.points.filter { $0.elapsed > 611 && $0.elapsed < 900 }
        #expect(!inside.isEmpty && inside.allSatisfy { $0.heartRate == nil && $0.speed == nil })
        #expect(activity.points.count == Int(flight.elapsed.rounded(.down)) + 1)
        _ = try await Self.expectReadable(activity, "damaged raw log")
    }

    @Test func heartRateForHalfTheRunIsSaidAsAShare() async throws {
        let (flight, inputs) = try await Self.stops()
        let half = flight.startTime + flight.elapsed / 2
        let kept = inputs.map { input -> EngineInput in
            guard case .body(var body) = input, body.time >= half else { return input }
            body.heartRate = nil
            return .body(body)
        }
        let activity = try await offPool { ExportActivity(flight: flight, inputs: kept) }
        let without = activity.points.filter { $0.heartRate == nil }.count
        let percent = Int((Double(without) / Double(activity.points.count) * 100).rounded())
        // The last reading stands for the strap's 10 s: 49 % of the seconds on this run.
        #expect((48...50).contains(percent))
        #expect(
            activity.description.contains("No heart rate for \(percent) % of the seconds"),
            "\(activity.description)")
        let read = try await Self.expectReadable(activity, "half heart rate")
        let withHeartRate = read.fitRecords.filter { $0[1] != nil }.count
        #expect(abs(Double(withHeartRate) / Double(read.fitRecords.count) - 0.5) < 0.01)
    }

    @Test func noAltitudeAtAllIsSaidAndNoElevationIsWritten() async throws {
        var (flight, inputs) = try await Self.stops()
        flight.elevation = nil
        for i in flight.samples.indices { flight.samples[i].altitude = nil }
        for i in flight.splits.indices { flight.splits[i].elevationGain = 0 }
        let kept = inputs.compactMap { input -> EngineInput? in
            switch input {
            case .pressure: return nil
            case .fix(var fix):
                fix.altitude = nil
                return .fix(fix)
            default: return input
            }
        }
        let activity = try await offPool { [flight] in ExportActivity(flight: flight, inputs: kept) }
        #expect(activity.altitudeAnchor == nil && !activity.hasAltitude)
        #expect(activity.description.contains("No altitude: no barometer and no GPS altitude."))
        let read = try await Self.expectReadable(activity, "no altitude")
        #expect(read.fit["altitudes"] as? Int == 0 && read.fit["total_ascent"] is NSNull)
        #expect(read.gpxRows.allSatisfy { $0[3] == nil } && read.tcxRows.allSatisfy { $0[3] == nil })
    }

    /// A runner who forgot to stop (and turned the standstill landing off): 48 hours, the last
    /// 47.5 of them paused. 172 800 records, each still read.
    @Test func aFortyEightHourFlightIsEveryRecordInOrder() async throws {
        var (flight, inputs) = try await Self.stops()
        let ran = flight.elapsed
        flight.elapsed = 48 * 3600
        flight.endTime = flight.startTime + flight.elapsed
        flight.pauses.append(PauseInterval(start: ran, end: flight.elapsed, reason: .manual))
        let activity = try await offPool { [flight, inputs] in
            ExportActivity(flight: flight, bodyMass: 70, inputs: inputs)
        }
        #expect(activity.points.count == 48 * 3600 + 1)
        #expect(abs(activity.timerTime - flight.movingTime) <= 0.5)
        let read = try await Self.expectReadable(activity, "48 h")
        #expect(read.fitRecords.count == 48 * 3600 + 1)
    }
}
