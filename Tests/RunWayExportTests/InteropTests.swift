import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import RunWayTestSupport
import Testing

/// Every export format read by an independent reader: Garmin's FIT SDK for Python (integrity,
/// a clean decode, and the numbers), and xmllint with the GPX 1.1 + TrackPointExtension and
/// TCX v2 + ActivityExtension schemas.
@Suite("FIT, GPX and TCX checked by independent readers")
struct InteropTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let root = fixtures.deletingLastPathComponent().deletingLastPathComponent()

    /// A 5 km run with four stops (pauses), heart rate and cadence; the hilly one for ascent.
    static let stops = SimulatedFlight.fly(.stops5k).flight!
    static let hilly = SimulatedFlight.fly(.hilly10k).flight!

    static func temporary(_ bytes: [UInt8], _ ext: String) throws -> String {
        let path = NSTemporaryDirectory() + "runway-export-\(UUID().uuidString.prefix(8)).\(ext)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The FIT SDK's reading of `bytes`, as fit_check.py prints it.
    static func fitReading(_ bytes: [UInt8]) async throws -> [String: Any] {
        let path = try temporary(bytes, "fit")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let python = try await python()
        let result = try await offPool {
            try runToEnd(python, [fixtures.appendingPathComponent("fit_check.py").path, path])
        }
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }

    /// xmllint's verdict on `bytes` against `schema` (a bundle in Fixtures/schemas).
    static func validate(_ bytes: [UInt8], _ ext: String, schema: String) async throws -> (
        ok: Bool, output: String
    ) {
        let path = try temporary(bytes, ext)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await offPool {
            try runToEnd(
                "/usr/bin/xmllint",
                ["--noout", "--schema", fixtures.appendingPathComponent("schemas/\(schema)").path, path])
        }
        return (result.status == 0 && result.stderr.contains("validates"), result.stderr)
    }

    @Test func fitIsWholeAndSaysTheRun() async throws {
        let flight = Self.stops
        let activity = ExportActivity(flight: flight, bodyMass: 70)
        let fit = try await Self.fitReading(FITEncoder.encode(activity))
        #expect(fit["is_fit"] as? Bool == true)
        #expect(fit["integrity"] as? Bool == true)
        #expect((fit["errors"] as? [String])?.isEmpty == true, "\(fit["errors"] ?? "")")
        #expect(fit["file_type"] as? String == "activity")
        #expect(fit["sport"] as? String == "running")
        #expect(abs((fit["total_distance"] as? Double ?? 0) - flight.distance) < 0.01)
        #expect(abs((fit["last_distance"] as? Double ?? 0) - flight.distance) < 0.01)
        // The timer is the file's own start..stop intervals, whole seconds: the moving time within
        // half a second (ExportSeriesTests checks the intervals' sum).
        #expect(abs((fit["total_timer_time"] as? Double ?? 0) - flight.movingTime) <= 0.5)
        #expect(abs((fit["total_elapsed_time"] as? Double ?? 0) - flight.elapsed) < 0.001)
        #expect(fit["laps"] as? Int == flight.splits.count)
        #expect(fit["num_laps"] as? Int == flight.splits.count)
        let lapSum = (fit["lap_distances"] as? [Double] ?? []).reduce(0, +)
        #expect(abs(lapSum - flight.distance) < 0.05)
        #expect(fit["timestamps_never_go_back"] as? Bool == true)
        #expect(fit["distance_never_goes_back"] as? Bool == true)
        #expect(fit["activity_sessions"] as? Int == 1)
        #expect(fit["total_calories"] as? Int == Int(flight.kilocalories(bodyMass: 70)!.rounded()))
        #expect(abs(Double(fit["avg_heart_rate"] as? Int ?? 0) - flight.averageHeartRate!) <= 0.5)
        // Pauses are real: a stop_all at each and at the end, a start at the beginning and after each.
        let timer = (fit["timer_events"] as? [[Any]] ?? []).map { $0.last as? String ?? "" }
        #expect(timer.filter { $0 == "stop_all" }.count == flight.pauses.count + 1)
        #expect(timer.filter { $0 == "start" }.count == flight.pauses.count + 1)
        #expect(flight.pauses.count == 4)
        // Running cadence in FIT is strides per minute: half the steps.
        let cadences = fit["cadences"] as? [Int] ?? []
        #expect(!cadences.isEmpty && cadences.allSatisfy { (70...100).contains($0) }, "\(cadences)")
        #expect(fit["heart_rates"] as? Int ?? 0 > 0)
    }

    /// The stops run with heart-rate figures as the engine hands them over (set here, so the
    /// test holds whatever the engine computes): zones from the heart-rate reserve, five zone
    /// times that leave 100.25 s of moving time below zone 1, each split's maximum.
    static var zoned: Flight {
        var flight = stops
        flight.maxHeartRate = 181.4
        flight.heartRateZones = HeartRateZones(method: .reserve, maximum: 190, resting: 50)
        let inZones = flight.movingTime - 100.25
        flight.timeInZone = [0.1, 0.2, 0.4, 0.25, 0.05].map { $0 * inZones }
        for i in flight.splits.indices { flight.splits[i].maxHeartRate = 160 + Double(i) }
        return flight
    }

    @Test func fitSaysTheMaximumAndTheTimeInEachZoneAsAGarminDoes() async throws {
        let flight = Self.zoned
        let fit = try await Self.fitReading(FITEncoder.encode(ExportActivity(flight: flight)))
        #expect(fit["integrity"] as? Bool == true)
        #expect((fit["errors"] as? [String])?.isEmpty == true, "\(fit["errors"] ?? "")")
        #expect(fit["max_heart_rate"] as? Int == 181)
        let lapMaxima = fit["lap_max_heart_rates"] as? [Int] ?? []
        #expect(lapMaxima == flight.splits.indices.map { 160 + $0 }, "\(lapMaxima)")
        // Zone 0 (below zone 1) first, then zones 1…5: they add up to the timer time, the file's
        // own whole-second intervals (within half a second of the moving time).
        let times = try #require(flight.timeInZone)
        let timer = ExportActivity(flight: flight).timerTime
        #expect(abs(timer - flight.movingTime) <= 0.5)
        let expected = ([100.25 + timer - flight.movingTime] + times).map { ($0 * 1000).rounded() / 1000 }
        let zones = try #require(fit["time_in_zone"] as? [[String: Any]])
        try #require(zones.count == 1, "\(zones)")
        let zone = zones[0]
        #expect(zone["reference_mesg"] as? String == "session" && zone["reference_index"] as? Int == 0)
        let read = zone["time_in_hr_zone"] as? [Double] ?? []
        #expect(read.count == 6 && zip(read, expected).allSatisfy { abs($0 - $1) < 0.0005 }, "\(read)")
        #expect(abs(read.reduce(0, +) - (fit["total_timer_time"] as? Double ?? 0)) < 0.003)
        // Karvonen edges of 50…90 % of 50–190 bpm, then the maximum as zone 5's top.
        #expect(zone["hr_zone_high_boundary"] as? [Int] == [120, 134, 148, 162, 176, 190])
        #expect(zone["hr_calc_type"] as? String == "percent_hrr")
        #expect(zone["max_heart_rate"] as? Int == 190 && zone["resting_heart_rate"] as? Int == 50)
        let session = fit["session_time_in_hr_zone"] as? [Double] ?? []
        #expect(session.count == 6 && zip(session, expected).allSatisfy { abs($0 - $1) < 0.0005 })

        // fitdecode reads the same.
        let second = try #require(fit["fitdecode"] as? [String: Any])
        #expect((second["errors"] as? [String])?.isEmpty == true, "\(second["errors"] ?? "")")
        let secondSession = try #require(second["session"] as? [String: Any])
        #expect(secondSession["max_heart_rate"] as? Int == 181)
        #expect((secondSession["time_in_hr_zone"] as? [Double])?.count == 6)
        #expect(second["laps"] as? [Int] == lapMaxima)
        let secondZones = try #require(second["time_in_zone"] as? [[String: Any]])
        #expect(secondZones.count == 1)
        let secondRead = secondZones.first?["time_in_hr_zone"] as? [Double] ?? []
        #expect(secondRead.count == 6 && zip(secondRead, expected).allSatisfy { abs($0 - $1) < 0.0005 })
        #expect(secondZones.first?["hr_zone_high_boundary"] as? [Int] == [120, 134, 148, 162, 176, 190])
        #expect(secondZones.first?["hr_calc_type"] as? String == "percent_hrr")
    }

    /// Zones from the maximum alone: `percent_max_hr`, and no resting heart rate (it takes no
    /// part); without heart rate, no time in zone and no maximum at all.
    @Test func fitZonesFromTheMaximumAndAFlightWithoutHeartRate() async throws {
        var flight = Self.zoned
        flight.heartRateZones = HeartRateZones(method: .maximum, maximum: 200)
        let fit = try await Self.fitReading(FITEncoder.encode(ExportActivity(flight: flight)))
        let zone = try #require((fit["time_in_zone"] as? [[String: Any]])?.first)
        #expect(zone["hr_calc_type"] as? String == "percent_max_hr")
        #expect(zone["hr_zone_high_boundary"] as? [Int] == [100, 120, 140, 160, 180, 200])
        #expect(zone["resting_heart_rate"] is NSNull || zone["resting_heart_rate"] == nil)

        var scenario = Scenario.flat5k.ending(at: 900)
        scenario.heartRate = false
        let bare = try #require(SimulatedFlight.fly(scenario).flight)
        let none = try await Self.fitReading(FITEncoder.encode(ExportActivity(flight: bare)))
        #expect(none["integrity"] as? Bool == true)
        #expect((none["time_in_zone"] as? [Any])?.isEmpty == true)
        #expect(none["max_heart_rate"] is NSNull && none["session_time_in_hr_zone"] is NSNull)
        #expect((none["lap_max_heart_rates"] as? [Any])?.allSatisfy { $0 is NSNull } == true)
        #expect(((none["fitdecode"] as? [String: Any])?["errors"] as? [String])?.isEmpty == true)
    }

    @Test func fitCarriesTheBarometricClimbAndSaysItIsBarometric() async throws {
        let flight = Self.hilly
        let fit = try await Self.fitReading(FITEncoder.encode(ExportActivity(flight: flight)))
        #expect(fit["integrity"] as? Bool == true)
        #expect(fit["total_ascent"] as? Int == Int(flight.elevationGain.rounded()))
        #expect(fit["total_descent"] as? Int == Int((flight.elevation?.loss ?? -1).rounded()))
        #expect(flight.elevationGain > 20)
        #expect(fit["altitudes"] as? Int ?? 0 > 0)
        let devices = fit["devices"] as? [Any] ?? []
        #expect(devices.contains { ($0 as? String)?.contains("barometric") == true }, "\(devices)")
        #expect(fit["total_calories"] is NSNull || fit["total_calories"] == nil)
    }

    @Test func gpxValidatesWithItsExtensionsAndBreaksAtEveryPause() async throws {
        let flight = Self.stops
        let activity = ExportActivity(flight: flight)
        let gpx = GPXEncoder.encode(activity, name: "Morning run & <test>")
        let verdict = try await Self.validate(gpx, "gpx", schema: "gpx_bundle.xsd")
        #expect(verdict.ok, "\(verdict.output)")
        let text = String(decoding: gpx, as: UTF8.self)
        #expect(text.components(separatedBy: "<trkseg>").count - 1 == activity.segments.count)
        #expect(activity.segments.count == flight.pauses.count + 1)
        #expect(text.contains("creator=\"RunWay Core (barometric altitude)\""))
        #expect(text.contains("<gpxtpx:hr>") && text.contains("<gpxtpx:cad>"))
        #expect(!text.contains("<gpxtpx:hr>0<"))
        #expect(text.contains("Morning run &amp; &lt;test&gt;"))
        // UTC with Z, never a local offset.
        let firstTime = try #require(text.firstRange(of: "<time>").map { text[$0.upperBound...].prefix(20) })
        #expect(firstTime.hasSuffix("Z"))
    }

    @Test func aFlightWithoutABarometerSaysItsElevationIsTheReceivers() async throws {
        var scenario = Scenario.hilly10k.ending(at: 3000)
        scenario.barometer.present = false
        let run = SimulatedFlight.fly(scenario)
        let flight = try #require(run.flight)
        let activity = ExportActivity(flight: flight, inputs: run.inputs)
        let gpx = String(decoding: GPXEncoder.encode(activity, name: "gps"), as: UTF8.self)
        #expect(
            gpx.contains("creator=\"RunWay Core\"")
                && gpx.contains("Elevation: GPS altitude, above sea level, anchored to the GPS receiver"))
        // Without its raw log the altitude stays relative to the start, and says so.
        let bare = String(
            decoding: GPXEncoder.encode(ExportActivity(flight: flight), name: "gps"), as: UTF8.self)
        #expect(bare.contains("GPS altitude, relative to the start (0 m at the start)"))
        let fit = try await Self.fitReading(FITEncoder.encode(activity))
        let devices = fit["devices"] as? [Any] ?? []
        #expect(!devices.contains { ($0 as? String)?.contains("barometric") == true }, "\(devices)")
        #expect(fit["altitudes"] as? Int ?? 0 > 0)
    }

    @Test func gpxLeavesOutWhatIsMissingRatherThanWritingZero() async throws {
        var scenario = Scenario.flat5k.ending(at: 900)
        scenario.heartRate = false
        scenario.cadence = false
        let flight = try #require(SimulatedFlight.fly(scenario).flight)
        let gpx = GPXEncoder.encode(ExportActivity(flight: flight), name: "no sensors")
        let verdict = try await Self.validate(gpx, "gpx", schema: "gpx_bundle.xsd")
        #expect(verdict.ok, "\(verdict.output)")
        let text = String(decoding: gpx, as: UTF8.self)
        #expect(!text.contains("<extensions>") && !text.contains("hr>"))
        // Same for FIT: the fields are there but invalid, so nothing is read.
        let fit = try await Self.fitReading(FITEncoder.encode(ExportActivity(flight: flight)))
        #expect(fit["heart_rates"] as? Int == 0)
        #expect(fit["integrity"] as? Bool == true)
    }

    @Test func tcxValidatesWithALapPerSplitAndRunCadence() async throws {
        let flight = Self.stops
        let tcx = TCXEncoder.encode(ExportActivity(flight: flight, bodyMass: 70), notes: "a note")
        let verdict = try await Self.validate(tcx, "tcx", schema: "tcx_bundle.xsd")
        #expect(verdict.ok, "\(verdict.output)")
        let text = String(decoding: tcx, as: UTF8.self)
        #expect(text.components(separatedBy: "<Lap StartTime=").count - 1 == flight.splits.count)
        #expect(text.contains("<Activity Sport=\"Running\">"))
        #expect(
            text.contains("<Creator xsi:type=\"Device_t\"><Name>RunWay Core (barometric altitude)</Name>"))
        #expect(text.contains("<ns3:RunCadence>"))
        #expect(text.components(separatedBy: "<Calories>").count - 1 == flight.splits.count)
        // A pause inside a lap starts a new Track.
        #expect(text.components(separatedBy: "<Track>").count - 1 >= flight.splits.count + 1)
    }

    /// Each lap's maximum heart rate, after its average as the schema orders them, and still valid.
    @Test func tcxSaysEachLapsMaximumHeartRate() async throws {
        let flight = Self.zoned
        let tcx = TCXEncoder.encode(ExportActivity(flight: flight, bodyMass: 70))
        let verdict = try await Self.validate(tcx, "tcx", schema: "tcx_bundle.xsd")
        #expect(verdict.ok, "\(verdict.output)")
        let text = String(decoding: tcx, as: UTF8.self)
        let maxima = text.components(separatedBy: "<MaximumHeartRateBpm><Value>").dropFirst().compactMap {
            Int($0.prefix { $0.isNumber })
        }
        #expect(maxima == flight.splits.indices.map { 160 + $0 }, "\(maxima)")
        #expect(text.contains("</AverageHeartRateBpm><MaximumHeartRateBpm>"))
        // Without a split's maximum (a flight stored before it was kept), no element, never 0.
        var old = flight
        for i in old.splits.indices { old.splits[i].maxHeartRate = nil }
        let oldText = String(decoding: TCXEncoder.encode(ExportActivity(flight: old)), as: UTF8.self)
        #expect(!oldText.contains("<MaximumHeartRateBpm>") && oldText.contains("<AverageHeartRateBpm>"))
    }
}
