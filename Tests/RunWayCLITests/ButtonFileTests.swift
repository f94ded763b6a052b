import Foundation
import RunWayCore
import Testing

@testable import RunWayCLI

/// `runway fly --buttons FILE` (issue 27): the runner's presses flown with the trace, so a
/// trace shows what the board would have done — a PAUSE bump reminded, START resuming.
@Suite("runway fly --buttons: a PAUSE bump flown as the board would")
struct ButtonFileTests {
    static func read(_ text: String) throws -> (presses: [EngineInput], problems: [String]) {
        let file = ButtonFile(LineReader(bytes: Array(text.utf8), name: "presses.csv"))
        let presses = try file.all()
        return (presses, file.diagnostics.kept.map(\.description))
    }

    @Test func eachButtonIsItsInputAndABadRowIsSaidAndSkipped() throws {
        let (presses, problems) = try Self.read(
            "time,button\n2026-10-03T07:05:00Z,pause\n2026-10-03T07:06:00Z,START\n2026-10-03T07:07:00Z,jump\n"
                + "2026-10-03T07:08:00Z,resume\n2026-10-03T07:09:00Z,end\n")
        let t = try #require(UTCTime.parse("2026-10-03T07:05:00Z"))
        #expect(
            presses == [
                .togglePause(at: t), .start(at: t + 60, mission: nil, countdown: false), .resume(at: t + 180),
                .end(at: t + 240, sentAt: nil),
            ])
        #expect(
            problems == [
                #"presses.csv:4: button "jump" is not one of start, pause, resume, end, lap — row skipped"#
            ])
    }

    /// The demo trace: PAUSE bumped 5 minutes in, START pressed 4 minutes later. The flight says
    /// STILL PAUSED while the runner runs on, resumes at START, and names the pause manual.
    @Test func aPauseBumpIsRemindedAndStartResumes() throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let presses = try RunWayBinary.temporary(
            "time,button\n2026-10-03T07:05:10Z,pause\n2026-10-03T07:09:10Z,start\n", suffix: ".csv")
        let result = try RunWayBinary.run(["fly", "--gps", gps, "--buttons", presses, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let pauses = try #require(object["pauses"] as? [[String: Any]])
        let manual = try #require(pauses.first { $0["reason"] as? String == "manual" })
        let length = (manual["end_elapsed_s"] as? Double ?? 0) - (manual["start_elapsed_s"] as? Double ?? 0)
        #expect(abs(length - 240) < 3, "\(pauses)")
        #expect(object["landed_by"] as? String == "runner")
        let text = try RunWayBinary.run(["fly", "--gps", gps, "--buttons", presses])
        #expect(text.stdout.contains(">> STILL PAUSED"), "\(text.stdout)")
        #expect(text.stdout.components(separatedBy: ">> STILL PAUSED").count - 1 == 2)
    }
}

/// `run.units` reaches `runway fly`'s summary: a runner in miles reads miles.
@Suite("runway fly in the runner's unit")
struct FlyUnitsTests {
    @Test func aRunnerInMilesReadsMilesAndMileSplits() throws {
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let config = try RunWayBinary.temporary(#"{"run": {"units": "mi"}}"#, suffix: ".json")
        let result = try RunWayBinary.run(["fly", "--gps", gps, "--config", config])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(" mi "), "\(result.stdout)")
        #expect(result.stdout.contains("/mi"))
        #expect(result.stdout.contains("  1 MI "))
        #expect(result.stdout.contains(">> SPLIT 3"))
        #expect(!result.stdout.contains(">> SPLIT 4"))  // 5.18 km is 3.2 miles
    }
}
