import RunWayCore
import RunWaySimulator
import Testing

/// The simulator's heart (`HeartRateModel`: 45 s lag, drift, noise) on a 140–155 bpm mission.
@Suite("Heart-rate missions flown in the simulator")
struct HeartRateMissionSimulatorTests {
    static func heard(_ run: SimulatedFlight) -> [TimedCallout] {
        run.callouts.filter { $0.callout == .heartRateHigh || $0.callout == .heartRateLow }
    }

    /// Inside the high edge by 2 bpm for an hour: about one callout an hour or fewer, and none
    /// while the heart climbs from rest.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aRunnerInsideTheEdgeHearsAboutOneAnHourOrFewer(seed: UInt64) throws {
        let run = SimulatedFlight.fly(.heartRateEdge(offset: -2, seed: seed))
        let flight = try #require(run.flight)
        #expect(flight.elapsed > 3500)
        #expect(Self.heard(run).count <= 2, "\(Self.heard(run).map(\.callout))")
        let zones = try #require(flight.timeInZone)
        #expect(abs(zones.reduce(0, +) - flight.movingTime) < 30)  // 1 % of readings drop out
    }

    /// 150 bpm, then from 20 minutes the runner holds 165: HR HIGH within two minutes (heart rate's
    /// own 45 s lag, then the 30 s verdict average), said once and repeated slowly.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func aRunnerWhoGoesOverTheZoneIsToldAtTheEdge(seed: UInt64) throws {
        let run = SimulatedFlight.fly(
            .heartRateEdge(offset: -5, minutes: 30, stepAt: 1200, stepTo: 165, seed: seed))
        let rotate = try #require(run.callouts.first { $0.callout == .rotate }).time
        let heard = Self.heard(run)
        let first = try #require(heard.first)
        #expect(first.callout == .heartRateHigh)
        #expect(
            first.time > rotate + 1200 && first.time - rotate - 1200 <= 120, "\(first.time - rotate - 1200) s"
        )
        #expect(heard.count <= 1 + 600 / 180)  // the callout and its repeats, no chatter
    }

    /// From rest to the band's middle: the first minutes are below the band, and nothing is said.
    @Test func theWarmUpClimbIsNotHRLow() throws {
        let run = SimulatedFlight.fly(.heartRateEdge(offset: -7, minutes: 20, seed: 5))
        #expect(Self.heard(run).isEmpty)
    }
}
