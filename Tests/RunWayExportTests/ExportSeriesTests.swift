import Foundation
import RunWayCore
import RunWayExport
import RunWayTestSupport
import Testing

@testable import RunWaySimulator

/// The per-second series every format encodes (issue 28): a record each second, paused or not,
/// with the raw log's values at that second; FIT in time order over the whole file, its timer
/// totals the file's own intervals; and the three files giving the same series to independent
/// readers, over a varied set of flights. Serialized: each case starts five reader processes and
/// the day-long one reads 86 400 records; one at a time they leave the machine to the suites
/// that keep real time (run all at once beside another suite on 2 cores, timing-bound tests
/// elsewhere missed their bounds).
@Suite("One per-second series, the same in FIT, GPX and TCX", .serialized)
struct ExportSeriesTests {
    static func flights() -> [(name: String, scenario: Scenario)] {
        var noBarometer = Scenario.hilly10k.ending(at: 2400)
        noBarometer.barometer.present = false
        var noHeartRate = Scenario.flat5k.ending(at: 900)
        noHeartRate.heartRate = false
        return [
            ("pauses", .stops5k), ("stops in urban wander", .urbanStops), ("signal gaps", .cityOutages),
            ("no barometer", noBarometer), ("no heart rate", noHeartRate),
            ("10 Hz", .tenHertz.ending(at: 900)),
        ]
    }

    /// Flown off the cooperative pool (`offPool`): a day-long flight is seconds of work, and the
    /// pool has two threads on this machine, which the suites that keep real time need.
    static func fly(_ scenario: Scenario) async throws -> (Flight, [EngineInput]) {
        let run = try await offPool { SimulatedFlight.fly(scenario) }
        return (try #require(run.flight), run.inputs)
    }

    @Test func aRecordEverySecondAlsoWhilePausedWithTheRawLogsValuesAtThatSecond() async throws {
        let (flight, inputs) = try await Self.fly(.stops5k)
        let activity = try await offPool { ExportActivity(flight: flight, inputs: inputs) }
        let first = flight.startTime.rounded(.up)
        let seconds = Int((flight.startTime + flight.elapsed).rounded(.down) - first) + 1
        #expect(activity.points.count == seconds)
        #expect(activity.points.enumerated().allSatisfy { $0.element.time == first + Double($0.offset) })
        let paused = activity.points.filter(\.paused)
        #expect(paused.count > 60 && paused.allSatisfy { $0.heartRate != nil }, "\(paused.count)")
        let expected = try await offPool {
            activity.points.map { point in
                [
                    rawValue(inputs, at: point.time, age: 10) {
                        if case .body(let b) = $0, let hr = b.heartRate, hr > 0 { hr } else { nil }
                    },
                    rawValue(inputs, at: point.time, age: 10) {
                        if case .body(let b) = $0 { b.cadence } else { nil }
                    },
                    rawValue(inputs, at: point.time, age: 2) {
                        if case .fix(let f) = $0, f.mode >= 2, let s = f.speed, s <= 12 { s } else { nil }
                    },
                ]
            }
        }
        for (point, raw) in zip(activity.points, expected) {
            #expect([point.heartRate, point.cadence, point.speed] == raw, "\(point.time)")
        }
        // The heart rate's fall at a stop is kept: the records' mean is the flight's, which
        // counts every reading, paused or not (issue 28 row 3 found 161.6 against 158.1 bpm).
        let all = activity.points.compactMap(\.heartRate)
        let mean = all.reduce(0, +) / Double(all.count)
        #expect(abs(mean - flight.averageHeartRate!) < 1.0, "\(mean) vs \(flight.averageHeartRate!)")
    }

    /// A 10 Hz receiver: one record a second, never two; where the route has a point within
    /// half a second, the record is at the nearest one, else between the route's points.
    @Test func aTenHertzReceiverIsOneRecordASecondAtTheRoutesPointNearestTheSecond() async throws {
        let (flight, inputs) = try await Self.fly(.tenHertz.ending(at: 600))
        let activity = try await offPool { ExportActivity(flight: flight, inputs: inputs) }
        let fixes = inputs.filter { if case .fix = $0 { true } else { false } }.count
        #expect(fixes > 9 * activity.points.count, "\(fixes) fixes, \(activity.points.count) records")
        #expect(Set(activity.points.map(\.time)).count == activity.points.count)
        #expect(
            activity.points.count == Int(flight.elapsed.rounded()) + 1
                || activity.points.count == Int(flight.elapsed))
        let route = flight.route.points
        var checked = 0
        for point in activity.points.dropFirst(5) {
            let nearest = route.min { abs($0.elapsed - point.elapsed) < abs($1.elapsed - point.elapsed) }!
            guard abs(nearest.elapsed - point.elapsed) < 0.5 else { continue }
            #expect(point.coordinate == nearest.coordinate)
            checked += 1
        }
        #expect(checked > 50)
    }

    /// Without a barometer the rises summed over the records are the flight's gain (issue 28
    /// row 4: 40.3–41.0 m summed against 26.8 m), and the altitude is above sea level: the
    /// simulator's course is at `courseAltitude`.
    @Test func withoutABarometerTheRecordsClimbWhatTheFlightClimbedAboveSeaLevel() async throws {
        var scenario = Scenario.hilly10k.ending(at: 2400)
        scenario.barometer.present = false
        let (flight, inputs) = try await Self.fly(scenario)
        let activity = try await offPool { ExportActivity(flight: flight, inputs: inputs) }
        let altitudes = activity.points.compactMap(\.altitude)
        let climb = zip(altitudes, altitudes.dropFirst()).reduce(0) { $0 + max(0, $1.1 - $1.0) }
        #expect(flight.elevation?.source == .gps)
        #expect(abs(climb - flight.elevationGain) < 0.5, "\(climb) vs \(flight.elevationGain)")
        #expect(activity.altitudeAnchor.map { if case .receiverMean = $0 { true } else { false } } == true)
        let mean = altitudes.reduce(0, +) / Double(altitudes.count)
        let truth = activity.points.map {
            scenario.barometer.courseAltitude + scenario.elevation(at: $0.distance)
        }
        let trueMean = truth.reduce(0, +) / Double(truth.count)
        #expect(abs(mean - trueMean) < 5, "\(mean) vs \(trueMean)")
    }

    /// The saved flight counts the barometer averaged either side of each reading
    /// (`SmoothedAltitude`), and so does its file: the records' rises are its gain, not the live
    /// rule's lagging EMA's (2 % less on short hills).
    @Test func theSavedFlightsFileClimbsWhatTheSavedFlightClimbed() async throws {
        var still = Scenario.shortHills
        still.barometer.driftPascalsPerHour = 0
        let scenario = still
        let run = try await offPool { SimulatedFlight.fly(scenario) }
        let saved = try #require(run.savedFlight)
        #expect(saved.distanceMethod == .smoothed)
        let activity = try await offPool { ExportActivity(flight: saved, inputs: run.inputs) }
        let altitudes = activity.points.compactMap(\.altitude)
        let climb = zip(altitudes, altitudes.dropFirst()).reduce(0) { $0 + max(0, $1.1 - $1.0) }
        #expect(abs(climb - saved.elevationGain) < 0.5, "\(climb) vs \(saved.elevationGain)")
        #expect(abs(saved.elevationGain - (run.flight?.elevationGain ?? 0)) > 1)
    }

    @Test func theBarometersAltitudeIsAnchoredToTheReceiversMeanAndTheClimbStays() async throws {
        let scenario = Scenario.hilly10k.ending(at: 2400)
        let (flight, inputs) = try await Self.fly(scenario)
        let activity = try await offPool { ExportActivity(flight: flight, inputs: inputs) }
        let altitudes = activity.points.compactMap(\.altitude)
        let climb = zip(altitudes, altitudes.dropFirst()).reduce(0) { $0 + max(0, $1.1 - $1.0) }
        #expect(flight.elevation?.source == .barometer)
        #expect(abs(climb - flight.elevationGain) < 0.5, "\(climb) vs \(flight.elevationGain)")
        let offsets = activity.points.compactMap { p in
            p.altitude.map { $0 - scenario.barometer.courseAltitude - scenario.elevation(at: p.distance) }
        }
        let offset = offsets.reduce(0, +) / Double(offsets.count)
        // Measured −3.6 m: the receiver's wander (σ 4 m, τ 120 s) over 40 minutes.
        #expect(abs(offset) < 5, "mean error \(offset) m")
        #expect(activity.altitudeReference?.contains("above sea level") == true)
        let home = try await offPool { ExportActivity(flight: flight, inputs: inputs, homeAltitude: 100) }
        #expect(home.points.first?.altitude == 100 && home.altitudeAnchor == .home)
    }

    @Test(arguments: flights().map(\.name))
    func theThreeFilesGiveTheSameSeriesToIndependentReaders(_ name: String) async throws {
        let scenario = try #require(Self.flights().first { $0.name == name }).scenario
        let (flight, inputs) = try await Self.fly(scenario)
        let activity = try await offPool { ExportActivity(flight: flight, bodyMass: 70, inputs: inputs) }
        let read = try await ReadBack.of(activity)
        read.expectValid(name)
        Self.expectTimeOrderAndTimer(read, activity, name)
        Self.expectSameSeries(read, activity, name)
    }

    /// Issue 26/28: the saved flight's exported track, measured as gpxpy (and most services)
    /// measure a GPX — its segments' summed length — is the distance the board states, within
    /// 0.5 %. The live route was 1.5–7 % longer (a service showed the runner another number).
    @Test(arguments: ["pauses", "signal gaps", "10 Hz"])
    func theExportedTracksOwnLengthIsTheStatedDistance(_ name: String) async throws {
        let scenario = try #require(Self.flights().first { $0.name == name }).scenario
        let run = try await offPool { SimulatedFlight.fly(scenario) }
        let saved = try #require(run.savedFlight)
        #expect(saved.distanceMethod == .smoothed, "\(name): \(saved.smoothingNote ?? "")")
        let activity = try await offPool { ExportActivity(flight: saved, inputs: run.inputs) }
        let read = try await ReadBack.of(activity)
        read.expectValid(name)
        let length = try #require(read.gpx["length_2d"] as? Double)
        #expect(
            abs(length - saved.distance) <= saved.distance * 0.005,
            "\(name): track \(length) m, stated \(saved.distance) m")
    }

    /// FIT in time order over the whole file; the timer totals the sum of the file's own
    /// intervals, the laps' the session's; the laps' calories the session's.
    /// A 24-hour run at 1 Hz, flown through the engine: 86 400 records through every reader.
    @Test func aDayLongFlightGivesTheSameSeriesToIndependentReaders() async throws {
        let (flight, inputs) = try await Self.fly(.endurance(hours: 24, rate: 1))
        let activity = try await offPool { ExportActivity(flight: flight, bodyMass: 70, inputs: inputs) }
        #expect(activity.points.count >= 86_400)
        let read = try await ReadBack.of(activity)
        read.expectValid("24 h")
        Self.expectTimeOrderAndTimer(read, activity, "24 h")
        Self.expectSameSeries(read, activity, "24 h")
    }

    static func expectTimeOrderAndTimer(_ read: ReadBack, _ activity: ExportActivity, _ name: String) {
        #expect(read.fitdecode["largest_step_back"] as? Double == 0, "\(name)")
        let sum = read.fitdecode["timer_sum"] as? Double ?? -1
        let session = read.fitdecode["session_timer"] as? Double ?? -2
        let laps = (read.fitdecode["lap_timers"] as? [Double] ?? []).reduce(0, +)
        #expect(sum == session && abs(laps - session) < 0.001, "\(name): \(sum) \(session) \(laps)")
        #expect(abs(session - activity.movingTime) <= 0.5, "\(name): \(session) vs \(activity.movingTime)")
        if let calories = read.fit["total_calories"] as? Int {
            let lapCalories = read.fit["lap_calories"] as? [Int] ?? []
            #expect(lapCalories.reduce(0, +) == calories, "\(name): \(lapCalories)")
            let tcxLaps = (read.tcx["laps"] as? [[String: Any]] ?? []).compactMap {
                $0["calories"] as? Double
            }
            #expect(Int(tcxLaps.reduce(0, +)) == calories, "\(name)")
        }
    }

    static func expectSameSeries(_ read: ReadBack, _ activity: ExportActivity, _ name: String) {
        let points = activity.points
        let fit = read.fitRecords
        let tcx = read.tcxRows
        let gpx = read.gpxRows
        #expect(fit.count == points.count && tcx.count == points.count, "\(name): \(fit.count) \(tcx.count)")
        #expect(gpx.count == points.filter { $0.coordinate != nil }.count, "\(name): \(gpx.count)")
        func same(_ a: Double?, _ b: Double?, _ tolerance: Double) -> Bool {
            switch (a, b) {
            case (nil, nil): true
            case (let a?, let b?): abs(a - b) <= tolerance
            default: false
            }
        }
        var mismatches: [String] = []
        var g = 0
        for (i, p) in points.enumerated() where i < fit.count && i < tcx.count {
            let hr = p.heartRate.map { $0.rounded() }
            let cad = ExportActivity.strides(p.cadence).map(Double.init)
            let f = fit[i]
            let t = tcx[i]
            let fitOK =
                f[0] == p.time && same(f[1], hr, 0) && same(f[2], cad, 0) && same(f[3], p.distance, 0.006)
                && same(f[4], p.altitude, 0.11) && same(f[5], p.speed, 0.0006)
                && same(f[6], p.coordinate?.latitude, 1e-6) && same(f[7], p.coordinate?.longitude, 1e-6)
            let tcxOK =
                t[0] == p.time && same(t[1], p.coordinate?.latitude, 1e-7) && same(t[3], p.altitude, 0.051)
                && same(t[4], p.distance, 0.051) && same(t[5], hr, 0) && same(t[6], cad, 0)
                && same(t[7], p.speed, 0.0006)
            var gpxOK = true
            if let c = p.coordinate, g < gpx.count {
                let x = gpx[g]
                gpxOK =
                    x[0] == p.time && same(x[1], c.latitude, 1e-7) && same(x[3], p.altitude, 0.051)
                    && same(x[4], hr, 0) && same(x[5], cad, 0)
                g += 1
            }
            if !(fitOK && tcxOK && gpxOK) {
                mismatches.append("\(i): fit \(fitOK) tcx \(tcxOK) gpx \(gpxOK)")
            }
        }
        #expect(
            mismatches.isEmpty, "\(name): \(mismatches.count) seconds differ, first \(mismatches.prefix(3))")
    }
}
