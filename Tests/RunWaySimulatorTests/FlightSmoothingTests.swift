import RunWayCore
import RunWayExport
import RunWaySimulator
import Testing

/// The touchdown smoother against the simulator's truth, on conditions where the live engine
/// misses (issue 26), and the exported track's own length against the stated distance.
@Suite("The saved flight: the touchdown smoother over the raw log")
struct FlightSmoothingTests {
    @Test(arguments: [Scenario.openSky, .coldStartDecaying, .coldStartSnapping, .intervals, .tenHertz])
    func theSavedDistanceAndTrackHoldWhereTheLiveOneDoesOrNot(_ base: Scenario) throws {
        for seed in 1...3 as ClosedRange<UInt64> {
            var scenario = base
            scenario.seed = seed &* 7919 &+ base.seed
            let run = SimulatedFlight.fly(scenario)
            let saved = try #require(run.savedFlight)
            #expect(saved.distanceMethod == .smoothed)
            #expect(saved.liveDistance == run.flight?.distance)
            let error = abs(saved.distance - run.truth.distance) / run.truth.distance * 100
            #expect(error <= 0.5, "\(scenario.name) seed \(seed): \(error) %")
            let track = abs(ExportActivity(flight: saved).trackLength - saved.distance) / saved.distance * 100
            #expect(track <= 0.5, "\(scenario.name) seed \(seed): track \(track) %")
            // Pauses, heart rate and alerts stay the live rules'.
            #expect(saved.movingTime == run.flight?.movingTime)
            #expect(saved.pauses == run.flight?.pauses)
        }
    }

    @Test func aFlightWithTooFewFixesKeepsTheLiveFiguresAndSaysWhy() throws {
        let run = SimulatedFlight.fly(.walker)
        var live = try #require(run.flight)
        let kept = FlightSmoothing.smoothed(
            live, inputs: [EngineInput](), configuration: EngineConfiguration())
        live.liveDistance = live.distance
        #expect(kept.distance == live.distance)
        #expect(kept.distanceMethod == .live)
        #expect(kept.smoothingNote == "too few fixes to smooth")
    }
}
