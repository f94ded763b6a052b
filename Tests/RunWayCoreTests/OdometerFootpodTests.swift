import Testing

@testable import RunWayCore

/// Issue 26, live: a paired footpod across a GPS silence. Its metres, scaled to what GPS
/// measured beside it, are the step across the silence and what the display carries.
@Suite("The live odometer with a footpod")
struct OdometerFootpodTests {
    /// A runner at 3 m/s with fixes and pod readings each second from `start` to `end`; the pod
    /// reads `podScale` of the way. Counts a step every 2 s.
    static func run(
        _ odometer: inout Odometer, from start: Int, to end: Int, podScale: Double = 1.04,
        podStart: Double = 0
    ) {
        for t in start...end {
            odometer.footpod(
                BodySample(time: Double(t) - 0.25, footpodDistance: podStart + 3 * podScale * Double(t)))
            odometer.integrate(time: Double(t), speed: 3)
            if t % 2 == 0 { odometer.count(chord: 6, duration: 2) }
        }
    }

    /// 100 s of running calibrates the pod (300 m); a 60 s silence inside which the runner ran
    /// 20 s and stood 40 s: the pod's 60 m, not the held speed's 180 m nor the chord's.
    @Test func theStepAcrossASilenceIsWhatThePodCountedScaledToGPS() {
        var odometer = Odometer()
        Self.run(&odometer, from: 0, to: 100)
        let before = odometer.distance
        // Inside the silence: the pod reads each second; 20 s running, then standing.
        for t in 101...160 {
            let ran = Double(min(t, 120) - 100) * 3 * 1.04
            odometer.footpod(BodySample(time: Double(t) - 0.25, footpodDistance: 3 * 1.04 * 100 + ran))
            odometer.carry(to: Double(t))
        }
        // The display carried what the pod counted (scaled back to GPS metres), not 3 m/s × 60 s.
        #expect(abs(odometer.display - (before + 60)) < 1.5, "\(odometer.display - before)")
        odometer.footpod(BodySample(time: 160.75, footpodDistance: 3 * 1.04 * 100 + 60 * 1.04))
        odometer.integrate(time: 161, speed: 0)
        let step = odometer.count(chord: 59, duration: 61)
        #expect(abs(step - 60) < 1.5, "\(step)")
    }

    /// Before the pod has 200 m beside GPS it is not believed: the held speeds and the chord
    /// decide, as without one.
    @Test func anUncalibratedPodLeavesTheSilenceToTheSpeedsAndTheChord() {
        var with = Odometer()
        var without = Odometer()
        Self.run(&with, from: 0, to: 40)
        for t in 0...40 {
            without.integrate(time: Double(t), speed: 3)
            if t % 2 == 0 { without.count(chord: 6, duration: 2) }
        }
        for t in 41...100 {
            with.footpod(BodySample(time: Double(t) - 0.25, footpodDistance: 3.12 * Double(t)))
        }
        with.integrate(time: 101, speed: 3)
        without.integrate(time: 101, speed: 3)
        #expect(with.count(chord: 170, duration: 61) == without.count(chord: 170, duration: 61))
    }

    /// A pod that fell silent inside the GPS silence says nothing about it.
    @Test func aPodSilentInsideTheGapIsNotUsed() {
        var odometer = Odometer()
        Self.run(&odometer, from: 0, to: 100)
        odometer.footpod(BodySample(time: 105, footpodDistance: 3.12 * 105))
        // 50 s without a reading, then the pod is back.
        odometer.footpod(BodySample(time: 155, footpodDistance: 3.12 * 155))
        odometer.integrate(time: 161, speed: 3)
        let step = odometer.count(chord: 170, duration: 61)
        // The held speed (3 m/s × 61 s), since the chord says the runner kept going.
        #expect(abs(step - 183) < 1e-6, "\(step)")
    }

    /// The pod's count resets (a new battery): the total carries on from where it was.
    @Test func aPodResetInsideTheGapCountsOnFromWhereItWas() {
        var odometer = Odometer()
        Self.run(&odometer, from: 0, to: 100)
        for t in 101...160 {
            let count = t <= 130 ? 3.12 * Double(t) : 3.12 * Double(t - 131)
            odometer.footpod(BodySample(time: Double(t) - 0.25, footpodDistance: count))
        }
        odometer.integrate(time: 161, speed: 3)
        let step = odometer.count(chord: 170, duration: 61)
        // 60 s of pod readings but one (the reset's second counts nothing): 59 × 3 m.
        #expect(abs(step - 59 * 3) < 1.5, "\(step)")
    }
}
