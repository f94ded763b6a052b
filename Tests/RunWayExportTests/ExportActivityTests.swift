import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import Testing

@testable import RunWayStore

@Suite("The export's view of a flight: track, laps, segments, manifest, names")
struct ExportActivityTests {
    @Test func theTrackIsAtMostOnePointASecondEndsAtTheFlightsDistanceAndNeverGoesBack() throws {
        let flight = try #require(SimulatedFlight.fly(.stops5k).flight)
        let activity = ExportActivity(flight: flight)
        let seconds = activity.points.map { Int($0.time.rounded(.down)) }
        #expect(zip(seconds, seconds.dropFirst()).allSatisfy { $0 < $1 })
        #expect(zip(activity.points, activity.points.dropFirst()).allSatisfy { $0.distance <= $1.distance })
        #expect(activity.points.last?.distance == flight.distance)
        // Every counted fix (a 5 m step or more): at least one point each 10 m.
        #expect(Double(activity.points.count) > flight.distance / 10)
    }

    @Test func lapsAreTheSplitsAndAddUpToTheSession() throws {
        let flight = try #require(SimulatedFlight.fly(.stops5k).flight)
        let activity = ExportActivity(flight: flight)
        #expect(activity.laps.count == flight.splits.count)
        #expect(abs(activity.laps.reduce(0) { $0 + $1.distance } - flight.distance) < 1e-6)
        #expect(abs(activity.laps.reduce(0) { $0 + $1.movingTime } - flight.movingTime) < 1e-6)
        #expect(activity.laps.last?.endElapsed == flight.elapsed)
    }

    /// The flight's and splits' maxima carry into the session and laps with the zones; a flight
    /// stored before the maximum was kept takes its samples' highest, and a flight without
    /// splits is one lap with the session's maximum.
    @Test func theMaximaAndZonesCarryIntoTheSessionAndLaps() throws {
        var flight = try #require(SimulatedFlight.fly(.stops5k).flight)
        let highestSample = try #require(flight.samples.compactMap(\.heartRate).max())
        // As a flight stored before the engine kept maxima and zones reads back.
        flight.maxHeartRate = nil
        flight.timeInZone = nil
        flight.heartRateZones = nil
        for i in flight.splits.indices { flight.splits[i].maxHeartRate = nil }
        let old = ExportActivity(flight: flight)
        #expect(old.maximumHeartRate == highestSample && old.timeInZone == nil && old.heartRateZones == nil)
        #expect(old.laps.allSatisfy { $0.maximumHeartRate == nil })

        flight.maxHeartRate = highestSample + 3
        flight.heartRateZones = HeartRateZones(maximum: 195)
        flight.timeInZone = [1, 2, 3, 4, 5]
        for i in flight.splits.indices { flight.splits[i].maxHeartRate = 150 + Double(i) }
        let activity = ExportActivity(flight: flight)
        #expect(activity.maximumHeartRate == highestSample + 3)
        #expect(activity.timeInZone == [1, 2, 3, 4, 5] && activity.heartRateZones == flight.heartRateZones)
        #expect(activity.laps.map(\.maximumHeartRate) == flight.splits.indices.map { 150 + Double($0) })

        flight.splits = []
        #expect(ExportActivity(flight: flight).laps.map(\.maximumHeartRate) == [highestSample + 3])
    }

    @Test func segmentsBreakAtEachPauseThatHasPointsOnBothSides() throws {
        let flight = try #require(SimulatedFlight.fly(.stops5k).flight)
        let activity = ExportActivity(flight: flight)
        #expect(activity.segments.count == flight.pauses.count + 1)
        #expect(activity.segments.reduce(0) { $0 + $1.count } == activity.points.count)
        for (segment, pause) in zip(activity.segments.dropFirst(), flight.pauses) {
            #expect(segment.first!.elapsed >= pause.end)
        }
    }

    @Test func aManifestLineThatDoesNotReadIsIgnored() {
        let text = """
            v1\t2026-10-03T07:00:03Z\tfit\t2026-10-03-0700-5.2km.fit\t23241
            v1\t2026-10-03T07:00:03Z\tkml\tx.kml\t1
            v2\t2026-10-03T07:00:03Z\tgpx\tx.gpx\t1
            v1\tyesterday\tgpx\tx.gpx\t1
            v1\t2026-10-03T07:00:03Z\tgpx\t../escape.gpx\t1
            garbage
            """
        let manifest = ExportManifest(text: text)
        #expect(manifest.entries.count == 1)
        #expect(manifest.contains(start: UTCTime.parse("2026-10-03T07:00:03Z")!, format: .fit))
        #expect(!manifest.contains(start: UTCTime.parse("2026-10-03T07:00:03Z")!, format: .gpx))
        #expect(ExportManifest(text: manifest.text) == manifest)
    }

    @Test func namesSayTheLocalStartAndTheDistance() throws {
        var flight = try #require(SimulatedFlight.fly(Scenario.flat5k.ending(at: 600)).flight)
        flight.startTime = UTCTime.parse("2026-10-03T22:30:00Z")!
        flight.distance = 5_234
        #expect(Exporter.baseName(flight, utcOffset: 0) == "2026-10-03-2230-5.2km")
        #expect(Exporter.baseName(flight, utcOffset: 9 * 3600) == "2026-10-04-0730-5.2km")
        flight.distance = 950
        #expect(Exporter.baseName(flight, utcOffset: 0) == "2026-10-03-2230-1.0km")
    }
}

/// Which flights leave the device: finished and recovered ones (a recovered one says so), never
/// one still in the air or a too-short one; the logbook is only read.
@Suite("What an export takes from the logbook")
struct ExporterSelectionTests {
    @Test func recoveredFlightsSaySoAndFlyingOrTooShortOnesAreSkipped() throws {
        let path = NSTemporaryDirectory() + "runway-select-\(UUID().uuidString.prefix(8)).sqlite"
        let logbook = try Logbook(path: path)
        var ids: [Int64] = []
        for day in 0..<4 {
            var flight = try #require(SimulatedFlight.fly(Scenario.flat5k.ending(at: 400)).flight)
            flight.startTime += Double(day) * 86_400
            guard case .saved(let id) = try logbook.save(flight, inputs: [], source: "test") else {
                Issue.record("not saved")
                return
            }
            ids.append(id)
        }
        try logbook.database.query("UPDATE flights SET status = 'recovered' WHERE id = ?", [.integer(ids[1])])
        try logbook.database.query("UPDATE flights SET status = 'flying' WHERE id = ?", [.integer(ids[2])])
        try logbook.database.query("UPDATE flights SET status = 'too short' WHERE id = ?", [.integer(ids[3])])
        let stick = NSTemporaryDirectory() + "runway-select-stick-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: true)
        var options = ExportOptions()
        options.formats = [.gpx, .tcx]
        let report = try Exporter.export(
            from: try Logbook(path: path, access: .readOnly), to: try ExportDirectory(destination: stick),
            options: options)
        #expect(report.failure == nil)
        #expect(Set(report.written.map(\.flight)) == [ids[0], ids[1]])
        #expect(report.skipped.map(\.flight) == [ids[2], ids[3]])
        #expect(report.skipped.map(\.reason) == ["still in the air", "too short to be a run"])
        let recovered = try #require(report.written.first { $0.flight == ids[1] && $0.format == .tcx })
        let text = try String(contentsOfFile: stick + "/RUNWAY/" + recovered.name, encoding: .utf8)
        #expect(text.contains("<Notes>Recovered after a power cut"))
    }
}
