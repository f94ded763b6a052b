import RunWayCore
import Testing

@testable import RunWaySimulator

/// Issue 27's slips flown end to end through the simulated board's inputs: what the runner hears
/// and what the flight keeps, for each slip scenario (one seed each; `runway-bench slips` flies
/// twenty).
@Suite("Slip scenarios: a PAUSE bump, a car, a bus, a forgotten stop, a sprint finish")
struct SlipScenarioTests {
    @Test func aPauseBumpAt2kmIsRemindedWithin20sAndAutoResumeKeepsTheRun() throws {
        let bumped = SimulatedFlight.fly(.pauseBump)
        let bump = try #require(Scenario.pauseBump.presses.first).elapsed + Scenario.pauseBump.rotateTime
        let first = try #require(bumped.callouts.first { $0.callout == .stillPaused })
        #expect(first.time - bump <= 20)
        #expect(try #require(bumped.flight).distance < 2100)
        var configuration = EngineConfiguration()
        configuration.slips.autoResumeAfter = 30
        let resumed = SimulatedFlight.fly(.pauseBump, configuration: configuration)
        let flight = try #require(resumed.flight)
        #expect(abs(flight.distance - resumed.truth.distance) < resumed.truth.distance * 0.005)
        #expect(flight.pauses.contains { $0.reason == .manual })
    }

    @Test(arguments: [Scenario.runDrivePark, .busRide])
    func aRideIsAVehiclePauseAndNotDistance(_ scenario: Scenario) throws {
        let run = SimulatedFlight.fly(scenario)
        let flight = try #require(run.flight)
        #expect(run.truth.ridden > 3000)
        #expect(abs(flight.distance - run.truth.distance) < run.truth.distance * 0.01, "\(flight.distance)")
        #expect(flight.pauses.contains { $0.reason == .vehicle })
        #expect(run.callouts.contains { $0.callout == .pause(.vehicle) })
        #expect(abs(flight.movingTime - run.truth.movingTime) < 15)
        // The saved (smoothed) flight keeps the vehicle out too.
        let saved = try #require(run.savedFlight)
        #expect(abs(saved.distance - run.truth.distance) < run.truth.distance * 0.01, "\(saved.distance)")
    }

    @Test func aForgottenStopLandsAtTheLastMovementAfter30Minutes() throws {
        let run = SimulatedFlight.fly(.forgottenStop)
        let flight = try #require(run.flight)
        #expect(flight.landing == .standstill)
        #expect(abs(flight.elapsed - run.truth.arrivalElapsed) < 3)
        #expect(run.callouts.contains { $0.callout == .standstill(minutes: 5, landing: false) })
        let saved = try #require(run.savedFlight)
        #expect(saved.landing == .standstill)
        #expect(abs(saved.distance - 5000) < 25)
    }

    @Test func aSprintFinishAt250Counts() throws {
        let run = SimulatedFlight.fly(.sprintFinish)
        let flight = try #require(run.flight)
        #expect(!flight.pauses.contains { $0.reason == .vehicle })
        #expect(abs(flight.distance - 5000) < 25)
    }
}
