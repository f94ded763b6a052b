import Foundation
import RunWayControl
import RunWayCore
import Testing

@testable import RunWayCLI

/// One mission rule (`MissionRule`) for `--mission`, the configuration's `mission` and the
/// socket's `start`: what either took before, both take now (`"5km"` used to pass the option
/// and fail the configuration).
@Suite("One mission rule for the option, the configuration and the socket")
struct MissionRuleTests {
    static func configured(_ mission: String) throws(DaemonConfiguration.Problem) -> Mission? {
        try DaemonConfiguration.parse(Data(#"{"mission": \#(mission)}"#.utf8)).mission
    }

    static func started(_ mission: String) throws(ControlRequest.Refusal) -> Mission? {
        guard
            case .start(let m, _) = try ControlRequest.parse(
                Array(#"{"command":"start","mission":\#(mission)}"#.utf8))
        else { return nil }
        return m
    }

    /// The same targets written each way: the option's text, and JSON as the configuration
    /// and the socket take it (numbers as before, and now the option's words too).
    static let forms: [(option: String, json: String, pace: Double, deviation: Double, distance: Double)] = [
        ("pace=5:30,distance=5km", #"{"pace":"5:30","distance":"5km"}"#, 330, 15, 5000),
        ("pace=5:30,distance=5000", #"{"pace":"5:30","distance":5000}"#, 330, 15, 5000),
        ("pace=5:30,distance=5000", #"{"pace":"5:30","distance":"5000"}"#, 330, 15, 5000),
        ("pace=5:30,distance=5000m", #"{"pace":"5:30","distance":"5000m"}"#, 330, 15, 5000),
        (
            "pace=5:30,deviation=15s,distance=5.2km",
            #"{"pace":"5:30","deviation":"15s","distance":"5.2km"}"#, 330, 15, 5200
        ),
        (
            "pace=12:05,deviation=7.5,distance=10KM", #"{"pace":"12:05","deviation":7.5,"distance":"10KM"}"#,
            725, 7.5, 10_000
        ),
        (
            "pace=4:00,deviation=20,distance=42195", #"{"pace":"4:00","deviation":"20","distance":42195}"#,
            240, 20, 42_195
        ),
    ]

    @Test(arguments: forms)
    func everyFormIsReadAlikeEverywhere(
        _ option: String, _ json: String, _ pace: Double, _ deviation: Double, _ distance: Double
    ) throws {
        let expected = Mission(targetPace: pace, allowedDeviation: deviation, targetDistance: distance)
        #expect(try MissionOption.parse(option) == expected)
        #expect(try Self.configured(json) == expected)
        #expect(try Self.started(json) == expected)
    }

    @Test(arguments: [
        (#"{"pace":"5:30","distance":"5 km"}"#, #"mission.distance: expected metres 100–500000, got "5 km""#),
        (#"{"pace":"5:30","distance":"50m"}"#, #"mission.distance: expected metres 100–500000, got "50m""#),
        (#"{"pace":"5:30","distance":"1e3"}"#, #"mission.distance: expected metres 100–500000, got "1e3""#),
        (#"{"pace":"5:30","distance":true}"#, "mission.distance: expected metres 100–500000, got true"),
        (
            #"{"pace":"5:30","deviation":"15m","distance":5000}"#,
            #"mission.deviation: expected seconds per km 1–120, got "15m""#
        ),
        (
            #"{"pace":"5:30","deviation":null,"distance":5000}"#,
            "mission.deviation: expected seconds per km 1–120, got null"
        ),
        (
            #"{"pace":330,"distance":5000}"#,
            "mission.pace: expected a pace as M:SS per km, e.g. \"5:30\", got 330"
        ),
    ])
    func whatNoReaderTookIsStillRefused(_ json: String, _ message: String) {
        #expect(throws: DaemonConfiguration.Problem.self) { try Self.configured(json) }
        do {
            _ = try Self.configured(json)
        } catch {
            #expect(error.description == message)
        }
        #expect(throws: ControlRequest.Refusal(message: message)) { try Self.started(json) }
    }

    @Test func theOptionStillRefusesWhatItRefused() {
        for text in [
            "pace=5:30,distance=5 km", "pace=5:30,distance=50m", "pace=330,distance=5000",
            "pace=5:30,deviation=15m,distance=5000",
        ] {
            #expect(throws: CLIError.self, "\(text)") { try MissionOption.parse(text) }
        }
    }
}

/// Heart-rate and time missions (issue 25): `hr=` / `zone=` with or instead of the pace, `time=`
/// instead of the distance, read alike by the option, the configuration and the socket.
@Suite("Heart-rate and time missions, everywhere a mission is written")
struct HeartRateMissionRuleTests {
    static let hr = Mission.HeartRateBand(low: 140, high: 155)

    static let forms: [(option: String, json: String, expected: Mission)] = [
        (
            "hr=140-155,distance=5000", #"{"heart_rate":{"low":140,"high":155},"distance":5000}"#,
            Mission(pace: nil, heartRate: hr, goal: .distance(5000))
        ),
        (
            "hr=140-155,time=30:00", #"{"heart_rate":{"low":140,"high":155},"time":"30:00"}"#,
            Mission(pace: nil, heartRate: hr, goal: .duration(1800))
        ),
        (
            "hr=140-155,time=30min", #"{"heart_rate":{"low":140,"high":155},"time":1800}"#,
            Mission(pace: nil, heartRate: hr, goal: .duration(1800))
        ),
        (
            "pace=5:30,hr=140-155,time=1:05:00",
            #"{"pace":"5:30","heart_rate":{"low":140,"high":155},"time":"3900s"}"#,
            Mission(pace: .init(targetPace: 330, allowedDeviation: 15), heartRate: hr, goal: .duration(3900))
        ),
        (
            "pace=5:30,time=1.5h", #"{"pace":"5:30","time":"90:00"}"#,
            Mission(pace: .init(targetPace: 330, allowedDeviation: 15), goal: .duration(5400))
        ),
    ]

    @Test(arguments: forms)
    func everyFormIsReadAlikeEverywhere(_ option: String, _ json: String, _ expected: Mission) throws {
        #expect(try MissionOption.parse(option) == expected)
        #expect(try MissionRuleTests.configured(json) == expected)
        #expect(try MissionRuleTests.started(json) == expected)
    }

    @Test func aZoneIsTakenFromTheRunnersZones() throws {
        let zones = HeartRateZones(method: .reserve, maximum: 190, resting: 50)  // 120 134 148 162 176
        let mission = try MissionOption.parse("zone=3,distance=8km") { zones }
        #expect(mission.heartRate == Mission.HeartRateBand(low: 148, high: 162, zone: 3))
        // The defaults (max 190, 50…90 %) without a configuration.
        #expect(try MissionOption.parse("zone=2,time=45min").heartRate == .init(low: 114, high: 133, zone: 2))
        // The configuration's zones for its own mission and for the socket's.
        let file =
            #"{"runner":{"max_heart_rate":200,"resting_heart_rate":60,"heart_rate_zones":"reserve"},"mission":{"zone":2,"distance":5000}}"#
        let configured = try DaemonConfiguration.parse(Data(file.utf8))
        #expect(configured.mission?.heartRate == .init(low: 144, high: 158, zone: 2))
        let request = try ControlRequest.parse(
            Array(#"{"command":"start","mission":{"zone":2,"distance":5000}}"#.utf8),
            zones: configured.heartRateZones)
        #expect(request == .start(mission: configured.mission))
        #expect(configured.engine.heartRateZones == configured.heartRateZones)
    }

    @Test(arguments: [
        ("hr=140-155", "needs pace, hr or zone, and distance or time"),
        ("time=30:00", "needs pace, hr or zone, and distance or time"),
        ("deviation=15,hr=140-155,distance=5000", "deviation goes with a pace"),
        ("hr=140-155,distance=5000,time=30:00", "distance and time both end the mission"),
        ("hr=140-155,zone=2,distance=5000", "hr and zone both set the heart rate"),
        ("hr=140,distance=5000", #"hr "140" is not LOW-HIGH beats per minute"#),
        ("hr=140-155-170,distance=5000", #"hr "140-155-170" is not LOW-HIGH"#),
        (
            "hr=155-140,distance=5000",
            "heart rate 155–140 bpm is not a band inside 60–230 bpm at least 5 bpm wide"
        ),
        ("hr=140-142,distance=5000", "heart rate 140–142 bpm is not a band"),
        ("hr=30-80,distance=5000", "heart rate 30–80 bpm is not a band"),
        ("hr=0x8c-155,distance=5000", #"hr "0x8c-155""#),
        ("zone=6,distance=5000", #"zone "6" is not a heart-rate zone 1–5"#),
        ("zone=2.5,distance=5000", #"zone "2.5" is not a heart-rate zone 1–5"#),
        ("hr=140-155,time=30", #"time "30" is not a time (e.g. 30:00"#),
        ("hr=140-155,time=30:60", #"time "30:60" is not a time"#),
        ("hr=140-155,time=1:5:00", #"time "1:5:00" is not a time"#),
        ("hr=140-155,time=30s", "time 30s is outside 1 minute–48 hours"),
        ("hr=140-155,time=49h", "time 49h is outside 1 minute–48 hours"),
        ("hr=140-155,time=1e9s", #"time "1e9s" is not a time"#),
    ])
    func refusalsNameTheKeyAndWhatIsExpected(_ text: String, _ message: String) {
        do {
            _ = try MissionOption.parse(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.message.contains(message), "\(error.message)")
            #expect(error.exitCode == 2)
        }
    }

    @Test(arguments: [
        (
            #"{"heart_rate":{"low":140,"high":155}}"#,
            "mission: a mission needs pace (or heart_rate, or zone) and distance (or time)"
        ),
        (#"{"distance":5000}"#, "mission: a mission needs pace (or heart_rate, or zone)"),
        (
            #"{"heart_rate":{"low":140},"distance":5000}"#,
            #"mission.heart_rate: expected {"low": 140, "high": 155}"#
        ),
        (
            #"{"heart_rate":{"low":140,"high":"155"},"distance":5000}"#,
            "mission.heart_rate.high: expected beats per minute 60–230"
        ),
        (
            #"{"heart_rate":{"low":150,"high":140},"distance":5000}"#,
            "mission.heart_rate: heart rate 150–140 bpm is not a band"
        ),
        (
            #"{"heart_rate":{"low":140,"high":155,"mid":150},"distance":5000}"#,
            "mission.heart_rate.mid: unknown key"
        ),
        (
            #"{"heart_rate":{"low":140,"high":155},"zone":2,"distance":5000}"#,
            "mission.zone: heart_rate and zone both"
        ),
        (#"{"zone":0,"distance":5000}"#, "mission.zone: expected a heart-rate zone 1–5, got 0"),
        (#"{"zone":2,"distance":5000,"time":1800}"#, "mission.time: distance and time both end the mission"),
        (#"{"zone":2,"time":30}"#, "mission.time: expected seconds 60–172800"),
        (#"{"zone":2,"time":"30"}"#, "mission.time: expected seconds 60–172800"),
        (#"{"deviation":15,"zone":2,"time":1800}"#, "mission.deviation: a deviation goes with a pace"),
    ])
    func theConfigurationNamesTheKey(_ json: String, _ message: String) {
        do {
            _ = try MissionRuleTests.configured(json)
            Issue.record("\(json) was accepted")
        } catch {
            #expect("\(error)".hasPrefix(message), "\(error)")
        }
    }

    @Test(arguments: [
        (#"{"max_heart_rate":90}"#, "runner.max_heart_rate: expected beats per minute 100–230, got 90"),
        (
            #"{"max_heart_rate":"190"}"#,
            #"runner.max_heart_rate: expected beats per minute 100–230, got "190""#
        ),
        (
            #"{"resting_heart_rate":200}"#,
            "runner.resting_heart_rate: expected beats per minute 30–120, got 200"
        ),
        (
            #"{"max_heart_rate":120,"resting_heart_rate":110}"#,
            "runner.resting_heart_rate: expected beats per minute at least 20 below max_heart_rate (120), got 110"
        ),
        (
            #"{"heart_rate_zones":"karvonen"}"#,
            #"runner.heart_rate_zones: expected "max" or "reserve", got "karvonen""#
        ),
        (#"{"max_hr":190}"#, "runner.max_hr: unknown key"),
    ])
    func theRunnersZonesAreCheckedByKey(_ runner: String, _ message: String) {
        do {
            _ = try DaemonConfiguration.parse(Data(#"{"runner": \#(runner)}"#.utf8))
            Issue.record("\(runner) was accepted")
        } catch {
            #expect("\(error)".hasPrefix(message), "\(error)")
        }
    }

    @Test func theRunnersZonesAreRead() throws {
        let file = #"{"runner":{"max_heart_rate":184,"resting_heart_rate":52,"heart_rate_zones":"reserve"}}"#
        let zones = try DaemonConfiguration.parse(Data(file.utf8)).heartRateZones
        #expect(zones == HeartRateZones(method: .reserve, maximum: 184, resting: 52))
        #expect(try DaemonConfiguration.parse(Data("{}".utf8)).heartRateZones == .unconfigured)
    }

    /// `runway start` has no `--config`: a zone is taken from the installed configuration's
    /// zones (none here: the defaults), and the command goes on to the socket.
    @Test func startTakesAZoneMissionWithoutAConfigOption() throws {
        let good = try RunWayBinary.run([
            "start", "--mission", "zone=2,time=30:00", "--socket", "/nonexistent/sock",
        ])
        #expect(good.status == 1, "\(good.stderr)")
        #expect(good.stderr.contains("runwayd is not running"))
        let bad = try RunWayBinary.run([
            "start", "--mission", "zone=9,time=30:00", "--socket", "/nonexistent/sock",
        ])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains(#"--mission: zone "9" is not a heart-rate zone 1–5"#))
    }

    @Test func aPaceMissionsSummaryReadsAsBefore() throws {
        #expect(
            MissionOption.describe(try MissionOption.parse("pace=5:30,distance=5km"))
                == "5:30/km ±15 s, 5.00 km")
        #expect(
            MissionOption.describe(try MissionOption.parse("hr=140-155,time=30:00"))
                == "HR 140–155 bpm, 30:00")
        #expect(
            MissionOption.describe(try MissionOption.parse("zone=2,time=1:05:00"), goalSeparator: " over ")
                == "zone 2, 114–133 bpm over 1:05:00")
    }
}
