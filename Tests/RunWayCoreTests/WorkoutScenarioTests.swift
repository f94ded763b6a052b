import RunWayCore
import RunWaySimulator
import Testing

/// The 6 × 400 m track session on the simulated park loop, over many seeds (issue 27): every
/// step said, a lap per step, work laps as the runner ran them.
@Suite("Workouts: 6 × 400 m on the simulated board")
struct WorkoutScenarioTests {
    @Test(arguments: 1...20)
    func sixByFourHundredGivesTheLapsTheRunnerRan(_ seed: Int) throws {
        var scenario = Scenario.sixByFourHundred
        scenario.seed = UInt64(seed)
        let flown = SimulatedFlight.fly(scenario)
        let flight = try #require(flown.savedFlight ?? flown.flight)
        let steps = flown.callouts.compactMap {
            if case .workoutStep(let i, _, _) = $0.callout { i } else { nil }
        }
        #expect(steps == Array(0..<14))
        #expect(flown.callouts.contains { $0.callout == .workoutComplete })
        #expect(flight.laps.count == 15, "\(flight.laps.count)")
        for lap in flight.laps where lap.step?.kind == .work {
            #expect(abs(lap.distance - 400) < 12, "seed \(seed) lap \(lap.index): \(lap.distance) m")
            // Against what the runner really covered between the lap's ends.
            let ran = try #require(
                flown.truth.distance(atElapsed: lap.endElapsed).flatMap { end in
                    flown.truth.distance(atElapsed: lap.startElapsed).map { end - $0 }
                })
            #expect(abs(lap.distance - ran) < 8, "seed \(seed) lap \(lap.index): \(lap.distance) m of \(ran)")
            let truePace = lap.movingTime / ran * 1000
            #expect(
                abs((lap.pace ?? 0) - truePace) < 5,
                "seed \(seed) lap \(lap.index): \(lap.pace ?? 0) s/km, ran at \(truePace)")
        }
        let total = flight.laps.reduce(0) { $0 + $1.distance }
        #expect(abs(total - flight.distance) < 0.01)
        // Run on pace: no band alert in a work step the runner held.
        let alerts = flown.callouts.filter { $0.callout == .sinkRate || $0.callout == .overspeed }
        #expect(
            alerts.isEmpty, "seed \(seed): \(alerts.map { ($0.callout.text, $0.time - flight.startTime) })")
    }
}
