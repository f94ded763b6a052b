import Foundation
import RunWayCore
import RunWaySimulator
import RunWayStore
import Testing

/// `runway fly --workout` (issue 27): the 6 × 400 m session as a gpsd trace, flown as its
/// workout, saved, and read back with its laps; a bad workout is a usage error naming the step.
@Suite("runway fly --workout: laps per step, stored and shown")
struct FlyWorkoutTests {
    static let session = "wu 1km; 6x(work 400m @3:50±10, recover 200m); cd 1km"

    /// The scenario's fixes as gpsd's TPV lines (what `gpspipe -w` would have written).
    static func trace() throws -> String {
        var runner = ScenarioRunner(.sixByFourHundred)
        var lines: [String] = []
        while let event = runner.next() {
            guard case .input(.fix(let fix)) = event else { continue }
            var fields = [
                #""class":"TPV""#, #""mode":\#(fix.mode)"#, #""time":"\#(UTCTime.format(fix.time))""#,
                #""lat":\#(fix.coordinate.latitude)"#, #""lon":\#(fix.coordinate.longitude)"#,
            ]
            if let speed = fix.speed { fields.append(#""speed":\#(speed)"#) }
            if let eph = fix.horizontalAccuracy { fields.append(#""eph":\#(eph)"#) }
            if let track = fix.track { fields.append(#""track":\#(track)"#) }
            lines.append("{" + fields.joined(separator: ",") + "}")
        }
        return try RunWayBinary.temporary(lines.joined(separator: "\n") + "\n", suffix: ".json")
    }

    @Test func theSessionIsALapPerStepInTheJSONTheSummaryAndTheLogbook() throws {
        let gps = try Self.trace()
        let logbook = NSTemporaryDirectory() + "runway-workout-\(UUID().uuidString).sqlite"
        let result = try RunWayBinary.run([
            "fly", "--gps", gps, "--workout", Self.session, "--json", "--save", "--logbook", logbook,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let laps = try #require(object["laps"] as? [[String: Any]])
        #expect(laps.count == 15)
        #expect(
            laps.map { $0["kind"] as? String } == ["warmup"]
                + Array(repeating: ["work", "recover"], count: 6).flatMap { $0 } + ["cooldown", "after"])
        #expect(laps[1]["step"] as? String == "work 400m @3:50±10")
        #expect(laps[1]["target_pace_s_per_km"] as? Double == 230)
        #expect(laps[14]["step"] is NSNull)
        for lap in laps where lap["kind"] as? String == "work" {
            #expect(abs((lap["distance_m"] as? Double ?? 0) - 400) < 12)
            #expect(lap["completed"] as? Bool == true)
        }
        let workout = try #require(object["workout"] as? String)
        #expect(try Workout(parsing: workout).steps.count == 14)

        // Stored: `runway show` reads the same laps back.
        let shown = try RunWayBinary.run(["show", "1", "--logbook", logbook, "--json"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let stored = try #require(
            try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        let storedLaps = try #require(stored["laps"] as? [[String: Any]])
        #expect(storedLaps.count == laps.count)
        #expect(storedLaps.map { $0["step"] as? String } == laps.map { $0["step"] as? String })
        #expect(stored["workout"] as? String == workout)
        // And reprocessing flies the same workout again from the raw log.
        let again = try #require(try Logbook(path: logbook).replay(flight: 1))
        #expect(again.laps.count == 15)

        let text = try RunWayBinary.run(["fly", "--gps", gps, "--workout", Self.session])
        #expect(text.stdout.contains("LAP  STEP"))
        #expect(text.stdout.contains("work 400m @3:50±10"))
    }

    @Test(arguments: [
        ("work -400m", "step 1: distance -400 m is outside 50 m–100 km"),
        ("wu 1km; 10000x(work 400m)", "a repeat count is 1–99, got 10000"),
        ("work 400m @hr160-150", "step 1: heart rate 160–150 bpm is not a band"),
        ("work 400yd", "\"400yd\" has no known unit"),
        ("", "a workout needs at least one step"),
    ])
    func aBadWorkoutIsAUsageErrorNamingItsStepAndNothingIsStored(_ spec: String, _ said: String) throws {
        let logbook = NSTemporaryDirectory() + "runway-workout-\(UUID().uuidString).sqlite"
        let result = try RunWayBinary.run([
            "fly", "--gps", try RunWayBinary.fixture("demo-mission.gpsd.json"), "--workout", spec, "--save",
            "--logbook", logbook,
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains(said), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: logbook))
    }

    @Test func aWorkoutAndAMissionTogetherAreRefused() throws {
        let result = try RunWayBinary.run([
            "fly", "--gps", "x", "--workout", Self.session, "--mission", "pace=5:30,distance=5000",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--workout and --mission"))
    }
}
