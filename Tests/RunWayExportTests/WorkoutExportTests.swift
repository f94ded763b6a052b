import Foundation
import RunWayCore
import RunWayExport
import RunWaySimulator
import Testing

/// A workout's laps and steps in the files, read back by Garmin's FIT SDK and the TCX schema
/// (issue 27): a lap per step with its intensity, trigger and step, and the workout's steps with
/// their lengths and targets, as a Garmin watch writes them.
@Suite("A workout in FIT and TCX, read by independent readers")
struct WorkoutExportTests {
    static let session: Flight = {
        var scenario = Scenario.sixByFourHundred
        scenario.workout = try? Workout(
            parsing: "wu 1km; 6x(work 400m @3:50±10 @hr150-175, recover 90s); cd 1km")
        // Timed recoveries take what the runner covers in 90 s, not 200 m: the run goes on
        // 300 m past the track session's 5.7 km, so running follows the workout's end.
        scenario.totalDistance = 6000
        let flown = SimulatedFlight.fly(scenario)
        return flown.savedFlight ?? flown.flight!
    }()

    @Test func fitHasALapPerStepAndTheWorkoutsSteps() async throws {
        let flight = Self.session
        #expect(flight.laps.count == 15)
        let fit = try await InteropTests.fitReading(FITEncoder.encode(ExportActivity(flight: flight)))
        #expect(fit["integrity"] as? Bool == true)
        #expect((fit["errors"] as? [String])?.isEmpty == true, "\(fit["errors"] ?? "")")
        #expect(fit["laps"] as? Int == 15)
        let intensities = fit["lap_intensities"] as? [String] ?? []
        var wanted = ["warmup"]
        for _ in 0..<6 { wanted += ["active", "recovery"] }
        wanted += ["cooldown", "active"]
        #expect(intensities == wanted, "\(intensities)")
        let triggers = fit["lap_triggers"] as? [String] ?? []
        #expect(
            triggers.first == "distance" && triggers[2] == "time" && triggers.last == "session_end",
            "\(triggers)")
        let steps = fit["lap_workout_steps"] as? [Any] ?? []
        #expect(steps.prefix(14).compactMap { $0 as? Int } == Array(0..<14), "\(steps)")
        #expect(steps.last is NSNull)
        let lapSum = (fit["lap_distances"] as? [Double] ?? []).reduce(0, +)
        #expect(abs(lapSum - flight.distance) < 0.1)

        let workout = try #require((fit["workout"] as? [[String: Any]])?.first)
        #expect(workout["num_valid_steps"] as? Int == 14)
        #expect(workout["sport"] as? String == "running")
        let wkt = try #require(fit["workout_steps"] as? [[String: Any]])
        #expect(wkt.count == 14)
        #expect(wkt[0]["duration_type"] as? String == "distance")
        #expect(wkt[0]["duration_distance"] as? Double == 1000)
        #expect(wkt[0]["target_type"] as? String == "open")
        #expect(wkt[0]["intensity"] as? String == "warmup")
        #expect(wkt[1]["target_type"] as? String == "speed")
        // 3:50 ± 10 s/km: 4:00 and 3:40 as m/s.
        #expect(abs((wkt[1]["custom_target_speed_low"] as? Double ?? 0) - 1000.0 / 240) < 0.002, "\(wkt[1])")
        #expect(abs((wkt[1]["custom_target_speed_high"] as? Double ?? 0) - 1000.0 / 220) < 0.002)
        #expect(wkt[1]["secondary_target_type"] as? String == "heart_rate")
        #expect(wkt[2]["duration_type"] as? String == "time")
        #expect(wkt[2]["duration_time"] as? Double == 90)
        #expect(wkt[2]["intensity"] as? String == "recovery")
    }

    @Test func tcxSaysEachLapsIntensityAndTriggerAndValidates() async throws {
        let tcx = TCXEncoder.encode(ExportActivity(flight: Self.session), notes: nil)
        let verdict = try await InteropTests.validate(tcx, "tcx", schema: "tcx_bundle.xsd")
        #expect(verdict.ok, "\(verdict.output)")
        let text = String(decoding: tcx, as: UTF8.self)
        #expect(text.components(separatedBy: "<Lap ").count - 1 == 15)
        #expect(text.components(separatedBy: "<Intensity>Resting</Intensity>").count - 1 == 6)
        #expect(text.contains("<TriggerMethod>Time</TriggerMethod>"))
    }

    /// A free run with two laps pressed: three laps, no workout message, manual triggers and the
    /// last one ended by the session.
    @Test func pressedLapsAreManualLapsWithoutAWorkout() async throws {
        var computer = FlightComputer()
        _ = computer.handle(.start(at: 1_800_000_000, mission: nil, countdown: false))
        var east = 0.0
        let origin = LocalProjection(origin: Coordinate(latitude: 37.5, longitude: 127))
        for t in 1...600 {
            east += 3
            _ = computer.handle(
                .fix(
                    Fix(
                        time: 1_800_000_000 + Double(t), coordinate: origin.coordinate(east: east, north: 0),
                        horizontalAccuracy: 5, speed: 3, track: 90, altitude: nil, mode: 3)))
            if t % 200 == 0, t < 600 { _ = computer.handle(.lap(at: 1_800_000_000 + Double(t))) }
        }
        let flight = try #require(computer.end(sentAt: nil).result.flight)
        #expect(flight.laps.count == 3)
        let fit = try await InteropTests.fitReading(FITEncoder.encode(ExportActivity(flight: flight)))
        #expect((fit["errors"] as? [String])?.isEmpty == true)
        #expect(fit["lap_triggers"] as? [String] == ["manual", "manual", "session_end"])
        #expect((fit["workout"] as? [Any])?.isEmpty == true)
    }
}
