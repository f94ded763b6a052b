import RunWayCore
import RunWaySimulator
import Testing

/// The buzzer is the interface: SINK RATE / OVERSPEED must be right and bearable. A runner at
/// the band's edge once heard 92 episodes an hour; a runner who really is off pace must still be
/// told in seconds, and after MISSION COMPLETE nothing more.
@Suite("GPWS a runner can live with")
struct GPWSChatterTests {
    static func episodes(_ callouts: [TimedCallout]) -> [TimedCallout] {
        callouts.filter { $0.callout == .sinkRate || $0.callout == .overspeed }
    }

    @Test(arguments: [false, true])
    func aRunnerAtTheBandsEdgeForAnHourHearsAtMostAHandful(fastEdge: Bool) throws {
        for offset in [-3.0, -0.2, 1.0, 3.0] {
            for seed: UInt64 in [3, 4] {
                let flight = try #require(
                    SimulatedFlight.fly(.bandEdge(offset: offset, fastEdge: fastEdge, seed: seed)).flight)
                #expect(flight.elapsed > 3500)
                #expect(
                    flight.alerts.count <= 4, "offset \(offset) seed \(seed): \(flight.alerts.count) episodes"
                )
                // Inside the band by 3 s/km: never a word.
                if offset == -3 { #expect(flight.alerts.isEmpty) }
            }
        }
    }

    /// On target, then 20 s/km slower than the band allows for two minutes, then on target again.
    static func slowdown(seed: UInt64) -> (run: SimulatedFlight, change: Double) {
        var scenario = Scenario.bandEdge(offset: -15, minutes: 10, seed: seed)
        let onTarget = 1000 / 330.0
        let slow = 1000 / 365.0
        scenario.legs = [
            .init(from: 0, speed: onTarget), .init(from: onTarget * 240, speed: slow),
            .init(from: onTarget * 240 + slow * 120, speed: onTarget),
        ]
        let run = SimulatedFlight.fly(scenario)
        let rotate = run.callouts.first { $0.callout == .rotate }!.time
        // At 1.5 m/s² from standstill the runner reaches 3.03 m/s after 2 s, 1 s behind.
        return (run, rotate + 241)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aRunnerWhoReallySlowsIsToldOnceWithinFifteenSecondsAndTheEpisodeEndsWhenBack(seed: UInt64) throws {
        let (run, change) = Self.slowdown(seed: seed)
        let heard = Self.episodes(run.callouts)
        #expect(heard.count == 1, "\(heard)")
        let sink = try #require(heard.first)
        #expect(sink.callout == .sinkRate)
        #expect(
            sink.time >= change && sink.time - change <= 15, "told \(sink.time - change) s after the change")
        let episode = try #require(run.flight?.alerts.first)
        let back = change + 120 - run.flight!.startTime
        #expect(episode.endElapsed.map { $0 > back && $0 < back + 30 } == true, "\(episode)")
    }

    @Test func trafficLightsAreNotSinkRate() throws {
        // 5 km with four stops, on a mission whose band holds the runner's pace: a stop is a
        // pause, not a too-slow runner.
        for seed: UInt64 in [13, 14, 15] {
            var scenario = Scenario.stops5k
            scenario.mission = Mission(targetPace: 315, allowedDeviation: 15, targetDistance: 20_000)
            scenario.seed = seed
            let run = SimulatedFlight.fly(scenario)
            #expect(Self.episodes(run.callouts).isEmpty, "seed \(seed): \(Self.episodes(run.callouts))")
        }
    }

    @Test func missionCompleteSoundsOnceAtTheTargetAndNothingAfterIt() throws {
        // Target 3 km, then far too slow and far too fast: a free flight, no alerts.
        var scenario = Scenario.bandEdge(offset: -15, minutes: 30, targetDistance: 3000)
        scenario.legs = [
            .init(from: 0, speed: 1000 / 330), .init(from: 3200, speed: 2.2), .init(from: 4000, speed: 4.0),
        ]
        scenario.totalDistance = 5000
        let run = SimulatedFlight.fly(scenario)
        let complete = run.callouts.filter { $0.callout == .missionComplete }
        #expect(complete.count == 1)
        let at = try #require(complete.first).time
        #expect(Self.episodes(run.callouts).allSatisfy { $0.time < at })
        #expect(!run.callouts.contains { $0.callout == .minimums && $0.time > at })
        let flight = try #require(run.flight)
        #expect(flight.distance > 4900)  // the flight went on until END
        #expect(flight.alerts.allSatisfy { ($0.endElapsed ?? .infinity) <= at - flight.startTime })
    }
}
