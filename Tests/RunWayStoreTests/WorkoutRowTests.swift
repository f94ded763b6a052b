import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// A workout flight in the logbook (schema 10): its workout, laps, decisions and the chosen
/// run's name read back as they were landed, and a replay of its raw log flies the same steps.
@Suite("Logbook: a workout's laps, decisions and run name")
struct WorkoutRowTests {
    @Test func aWorkoutFlightReadsBackWithItsLapsDecisionsAndRun() throws {
        let scenario = Scenario.sixByFourHundred
        var inputs: [EngineInput] = []
        var computer = FlightComputer()
        var runner = ScenarioRunner(scenario)
        var landed: Flight?
        while let event = runner.next() {
            guard case .input(var input) = event else { continue }
            if case .start(let at, let mission, let countdown, let workout, _) = input {
                input = .start(at: at, mission: mission, countdown: countdown, workout: workout, run: "track")
            }
            if computer.isFlying { inputs.append(input) }
            for case .ended(.landed(let flight)) in computer.handle(input) { landed = flight }
        }
        if landed == nil { landed = computer.end(sentAt: nil).result.flight }
        let flight = try #require(landed)
        #expect(flight.runName == "track")
        #expect(flight.laps.count == 15)
        #expect(flight.decisions.filter { $0.kind == .step }.count == 14)

        let logbook = try Logbook(path: temporaryLogbookPath())
        guard case .saved(let id) = try logbook.save(flight, inputs: inputs, source: "test") else {
            Issue.record("not saved")
            return
        }
        let stored = try #require(try logbook.flight(id: id)).flight
        #expect(stored.runName == "track")
        #expect(stored.workout == flight.workout)
        #expect(stored.laps == flight.laps)
        #expect(stored.decisions == flight.decisions)
        let replayed = try #require(try logbook.replay(flight: id))
        #expect(replayed.laps.count == 15)
        #expect(replayed.runName == "track")
    }
}
