import RunWayCore
import RunWaySimulator

/// The simulator, for comparing a recorded trace with the run it was recorded from.
enum RunWaySimulatorAccess {
    static var demo: Scenario { .demoMission }

    static func fly(_ scenario: Scenario) -> Flight {
        SimulatedFlight.fly(scenario).flight!
    }
}
