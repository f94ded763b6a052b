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
            case .start(let m) = try ControlRequest.parse(
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
