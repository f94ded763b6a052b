import RunWayCore
import RunWayExport
import RunWaySimulator
import Testing

/// Issue 26: an outage over a turn-around (found by a hostile pass over the conditions). The
/// runner goes in running one way and comes out running the other, 40 m from where the signal
/// went, so the chord says nothing of the 120–180 m it ran.
@Suite("An outage on a hairpin")
struct HairpinOutageTests {
    /// The saved and live distance, the moving time and the exported track. Before the
    /// turn-around was read from the headings (`runway-bench conditions --seeds 20`, median /
    /// worst): saved 4.19 / 4.37 % short, live 5.37 / 5.59 % at a kilometre mark, the moving time
    /// 44.6 / 46.0 s short, the track 1.87 / 1.98 % off the stated distance; after, 0.07 / 0.23 %,
    /// 0.20 / 0.45 %, 0.5 / 0.5 s and 0.13 / 0.18 %.
    @Test func theRunnerWentRoundTheTurnAround() throws {
        for seed in 1...5 {
            let run = SimulatedFlight.fly(Scenario.hairpinOutages.seeded(seed))
            let live = try #require(run.flight)
            let saved = try #require(run.savedFlight)
            let error = abs(saved.distance - run.truth.distance) / run.truth.distance * 100
            #expect(error <= 0.5, "seed \(seed): saved \(error) %")
            for (index, time) in run.truth.kilometreTimes.enumerated() {
                let mark = Double(index + 1) * 1000
                let shown = run.distanceLog.last { $0.elapsed <= time }?.distance ?? 0
                #expect(abs(shown - mark) / mark * 100 <= 1, "seed \(seed) km \(index + 1): \(shown)")
            }
            #expect(run.truth.stopCount == 0)
            for (which, flight) in [("live", live), ("saved", saved)] {
                let error = abs(flight.movingTime - run.truth.movingTime)
                #expect(error <= 2, "seed \(seed) \(which): moving time \(error) s off")
            }
            let track = abs(ExportActivity(flight: saved).trackLength - saved.distance) / saved.distance * 100
            #expect(track <= 0.5, "seed \(seed): track \(track) %")
        }
    }
}
