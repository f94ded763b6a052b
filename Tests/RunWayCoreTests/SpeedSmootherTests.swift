import RunWayCore
import Testing

@Suite("Speed smoother: double EMA, β = 0.25, seeded with the first positive speed")
struct SpeedSmootherTests {
    @Test func seededWithTheFirstPositiveSpeed() {
        var smoother = SpeedSmoother()
        #expect(smoother.update(0) == 0)
        #expect(smoother.update(3) == 3)
        #expect(smoother.s1 == 3 && smoother.s2 == 3)
    }

    @Test func followsTheDoubleEMAFormula() {
        var smoother = SpeedSmoother(configuration: .init(beta: 0.25, reseedCount: 0))
        smoother.update(4)
        let v = smoother.update(3.8)
        let s1 = 0.75 * 4 + 0.25 * 3.8
        let s2 = 0.75 * 4 + 0.25 * s1
        #expect(abs(v - s2) < 1e-12)
    }

    @Test func dopplerJitterAtRestDoesNotSeedTheFilter() {
        var smoother = SpeedSmoother()
        #expect(smoother.update(0.02) == 0)
        #expect(smoother.update(0.3) == 0)
        #expect(smoother.update(1.7) == 1.7)  // the first real step seeds it
    }

    @Test func negativeAndUnknownSpeedsCountAsZero() {
        var a = SpeedSmoother(configuration: .init(reseedCount: 0))
        var b = SpeedSmoother(configuration: .init(reseedCount: 0))
        var c = SpeedSmoother(configuration: .init(reseedCount: 0))
        a.update(3)
        b.update(3)
        c.update(3)
        #expect(a.update(-1) == b.update(nil))
        #expect(b.speed == c.update(0))
    }

    @Test func aSingleSpikeDoesNotReseed() {
        var smoother = SpeedSmoother()
        for _ in 0..<10 { smoother.update(3) }
        let after = smoother.update(11.4)  // the haicom log's spike
        #expect(after < 4)
    }

    @Test func aRealChangeOfSpeedReseedsWithinThreeSamples() {
        var smoother = SpeedSmoother()
        for _ in 0..<10 { smoother.update(3) }
        smoother.update(4)
        smoother.update(4)
        #expect(smoother.update(4) == 4)
        // With re-seeding off, the seed's filter is still ~6 % behind after three samples.
        var plain = SpeedSmoother(configuration: .init(reseedCount: 0))
        for _ in 0..<10 { plain.update(3) }
        for _ in 0..<3 { plain.update(4) }
        #expect(plain.speed < 3.8)
    }
}

@Suite("Pace: min/km from smoothed speed; no speed means no pace")
struct PaceTests {
    @Test func paceIsSecondsPerKilometre() {
        #expect(Pace.secondsPerKilometre(speed: 1000.0 / 330) == 330)
        #expect(Pace.format(330) == "5:30")
        #expect(Pace.format(305) == "5:05")
    }

    @Test func noSpeedIsNoPaceNeverInfinityOrZero() {
        #expect(Pace.secondsPerKilometre(speed: nil) == nil)
        #expect(Pace.secondsPerKilometre(speed: 0) == nil)
        #expect(Pace.secondsPerKilometre(speed: .nan) == nil)
        #expect(Pace.format(nil) == "--:--")
    }
}
