import Foundation
import Testing

@testable import RunWayCore
@testable import RunWaySimulator

@Suite("The live distance's drift taken out by the fixes as they come")
struct LiveDriftCorrectionTests {
    let origin = Coordinate(latitude: 52.5, longitude: 13.4)

    /// One run at 3 m/s over `path` (east, north by distance), a fix a second: the speeds read
    /// `speedError(t)` off, each fix lies `fixOffset(t)` from where the runner was with `eph`.
    /// Returns the odometer's sum of speeds and the metres the correction amended it by, at each
    /// second.
    func fly(
        seconds: Int, path: (Double) -> SIMD2<Double> = { SIMD2($0, 0) }, eph: Double = 10,
        speedError: (Double) -> Double, fixOffset: (Double) -> SIMD2<Double> = { _ in .zero },
        countEvery: Int = 1, tracks: Bool = true
    ) -> (credited: [Double], amended: [Double]) {
        var drift = LiveDriftCorrection()
        let projection = LocalProjection(origin: origin)
        var credited = [0.0]
        var amended = [0.0]
        var lastSpeed: Double?
        var pending = 0.0
        for k in 0...seconds {
            let t = Double(k)
            let here = path(3 * t)
            let ahead = path(3 * t + 0.5) - path(3 * t - 0.5)
            let track = atan2(ahead.x, ahead.y) / Geodesy.radiansPerDegree
            let speed = 3 + speedError(t)
            let step = lastSpeed.map { ($0 + speed) / 2 } ?? 0
            lastSpeed = speed
            let place = here + fixOffset(t)
            drift.reading(
                time: t, speed: speed,
                track: tracks ? (track + 360).truncatingRemainder(dividingBy: 360) : nil)
            pending += step
            var amend = 0.0
            if k % countEvery == 0 {
                amend = drift.step(
                    time: t, credited: pending,
                    coordinate: projection.coordinate(east: place.x, north: place.y),
                    eph: eph)
                pending = 0
            }
            if k > 0 {
                credited.append(credited[k - 1] + step)
                amended.append(amended[k - 1] + amend)
            }
        }
        return (credited, amended)
    }

    /// Speeds with a healthy receiver's noise (σ 0.1 m/s) reading 0.1 m/s slow besides for five
    /// minutes on a straight: a 30 m shortfall, seventeen times what such readings walk in that
    /// time (a noisy Doppler under trees walked a fifth of that beyond its σ in one run in a
    /// hundred). The fixes, each where the runner was, give back a quarter of it by the end of
    /// those minutes and half of it fifteen minutes later, a few centimetres a second, never more
    /// than it was: a drift that far outside what the readings' noise allows is split between
    /// them and the error of the fix the route started from (`startSigma`), as the model weighs
    /// the two.
    @Test func speedsThatReadSlowAreBroughtUpToTheFixes() {
        var generator = SeededGenerator(seed: 26)
        let noise = (0...1200).map { _ in 0.1 * generator.gaussian() }
        let run = fly(seconds: 1200, speedError: { t in noise[Int(t)] + (t <= 300 ? -0.1 : 0) })
        let shortfall = { (k: Int) in 3 * Double(k) - run.credited[k] }
        #expect(run.amended[300] > shortfall(300) / 4, "\(run.amended[300]) of \(shortfall(300))")
        #expect(run.amended[1200] > shortfall(1200) / 2, "\(run.amended[1200]) of \(shortfall(1200))")
        let overshoot = (0...1200).map { run.amended[$0] - shortfall($0) }.max() ?? 0
        #expect(overshoot < 3, "\(overshoot)")
        let largestStep = zip(run.amended, run.amended.dropFirst()).map { abs($1 - $0) }.max() ?? 0
        #expect(largestStep < 0.5, "\(largestStep)")
    }

    /// True speeds up a staircase of 100 m treads and risers, the fixes on the path: each
    /// corner is run as an arc inside a second's step, and a route reckoned along one heading
    /// for that step would overshoot it by ~0.9 m toward the next tread, every corner the same
    /// way (36 m in 40 corners, the city blocks' −10 m at the fifth kilometre). Reckoned by the
    /// mean of the tracks either side, nothing is amended.
    @Test func cornersAreNotMistakenForDrift() {
        func staircase(_ s: Double) -> SIMD2<Double> {
            let flight = (s / 200).rounded(.down)
            let d = s - 200 * flight
            return d < 100
                ? SIMD2(100 * flight + d, 100 * flight) : SIMD2(100 * flight + 100, 100 * flight + d - 100)
        }
        let run = fly(seconds: 1200, path: staircase, speedError: { _ in 0 })
        let worst = run.amended.map(abs).max() ?? 0
        #expect(worst < 1.5, "\(worst)")
        // Counted every 5 s (fixes held inside the anchor, a stop's): the corner lies inside a
        // step of 15 m, and the step still goes where the readings did.
        let held = fly(seconds: 1200, path: staircase, speedError: { _ in 0 }, countEvery: 5)
        let heldWorst = held.amended.map(abs).max() ?? 0
        #expect(heldWorst < 1.5, "\(heldWorst)")
    }

    /// A receiver that gives no track: the route cannot follow the way, and a fix's white noise
    /// steered into it would fall behind the runner by the cosine of every wobble (~12 m in ten
    /// minutes at 0.8 m of noise). Nothing is measured, and nothing amended.
    @Test func withoutTracksNothingIsAmended() {
        var generator = SeededGenerator(seed: 5)
        let noise = (0...600).map { _ in SIMD2(0.8 * generator.gaussian(), 0.8 * generator.gaussian()) }
        let run = fly(seconds: 600, speedError: { _ in 0 }, fixOffset: { noise[Int($0)] }, tracks: false)
        let worst = run.amended.map(abs).max() ?? 0
        #expect(worst == 0, "\(worst)")
    }

    /// The fixes wander (a minute-long error of 2.5 m per axis) while the speeds are right: the
    /// wander is not the runner's, and what it amends stays within a few metres over half an hour.
    @Test func wanderAloneAmendsLittle() {
        var generator = SeededGenerator(seed: 11)
        let east = GaussMarkovPath(sigma: 2.5, tau: 60, seconds: 1800, generator: &generator)
        let north = GaussMarkovPath(sigma: 2.5, tau: 60, seconds: 1800, generator: &generator)
        let run = fly(
            seconds: 1800, eph: 21, speedError: { _ in 0 },
            fixOffset: { t in SIMD2(east.values[Int(t)], north.values[Int(t)]) })
        let worst = run.amended.map(abs).max() ?? 0
        #expect(worst < 4, "\(worst)")
    }

    /// A cold start's fixes 300 m off snapping to the truth at 60 s, and a multipath excursion of
    /// 40 m for 4 s later: neither is a step of the runner's, and the distance keeps its speeds'.
    @Test func aSnapOrAnExcursionOfTheFixesIsNotDistance() {
        let run = fly(
            seconds: 600, eph: 30, speedError: { _ in 0 },
            fixOffset: { t in
                if t < 60 { return SIMD2(-210, 210) }
                return t >= 300 && t < 304 ? SIMD2(40, 0) : .zero
            })
        let worst = run.amended.map(abs).max() ?? 0
        #expect(worst < 1, "\(worst)")
    }

    /// A solution converging slower than the settled rate (0.8 m/s along the way for two
    /// minutes, from 96 m behind) passes for wander, but not for long: it leaves the gate (30 m)
    /// within a minute and the route starts again on it, each time keeping what was known.
    @Test func aSlowlyConvergingSolutionIsNotDistance() {
        let run = fly(
            seconds: 300, eph: 30, speedError: { _ in 0 },
            fixOffset: { t in SIMD2(t < 120 ? -96 + 0.8 * t : 0, 0) })
        let worst = run.amended.map(abs).max() ?? 0
        #expect(worst < 1, "\(worst)")
    }

    /// After `forgetPosition` (a silence, a manual pause) the route starts again at the next fix:
    /// a runner who went on 20 m unseen is there, not 20 m of the speeds' drift.
    @Test func afterForgettingThePositionTheNextFixStartsTheRouteAgain() {
        var drift = LiveDriftCorrection()
        let projection = LocalProjection(origin: origin)
        func fix(_ t: Double, _ east: Double, credited: Double) -> Double {
            drift.reading(time: t, speed: 3, track: 90)
            return drift.step(
                time: t, credited: credited, coordinate: projection.coordinate(east: east, north: 0), eph: 10)
        }
        var amended = 0.0
        for k in 0...300 { amended += fix(Double(k), 3 * Double(k), credited: k > 0 ? 3 : 0) }
        drift.forgetPosition()
        for k in 0...300 { amended += fix(400 + Double(k), 920 + 3 * Double(k), credited: k > 0 ? 3 : 0) }
        #expect(abs(amended) < 0.5, "\(amended)")
    }

    /// Bad input amends nothing: readings with no speed, a NaN or infinite one, a clock going
    /// back; steps of NaN or infinite metres, no `eph` or an infinite one, a clock standing
    /// still, a NaN track. Each such step starts the route again at its fix.
    @Test func badInputAmendsNothingAndStaysFinite() {
        var drift = LiveDriftCorrection()
        let here = origin
        var outputs: [Double] = []
        drift.reading(time: 0, speed: nil, track: nil)
        drift.reading(time: 0, speed: .nan, track: .nan)
        drift.reading(time: -5, speed: .infinity, track: 90)
        outputs.append(drift.step(time: 0, credited: 0, coordinate: here, eph: nil))
        drift.reading(time: 1, speed: 3, track: .nan)
        outputs.append(drift.step(time: 1, credited: .nan, coordinate: here, eph: nil))
        outputs.append(drift.step(time: 1, credited: 3, coordinate: here, eph: .infinity))
        drift.reading(time: 2, speed: .nan, track: 90)
        outputs.append(drift.step(time: 2, credited: 3, coordinate: here, eph: 10))
        drift.reading(time: 3, speed: 3, track: 90)
        outputs.append(drift.step(time: 3, credited: .infinity, coordinate: here, eph: 10))
        drift.reading(time: 4, speed: 3, track: .infinity)
        outputs.append(drift.step(time: 4, credited: -3, coordinate: here, eph: .nan))
        #expect(outputs == [0, 0, 0, 0, 0, 0], "\(outputs)")
        #expect(drift.estimatedShortfall == 0)
    }
}

/// A Gauss–Markov error sampled once a second.
private struct GaussMarkovPath {
    var values: [Double] = []

    init(sigma: Double, tau: Double, seconds: Int, generator: inout SeededGenerator) {
        var process = GaussMarkov(sigma: sigma, tau: tau, generator: &generator)
        values = [process.value]
        for _ in 0..<seconds { values.append(process.step(1, generator: &generator)) }
    }
}

@Suite("The live distance amended by the fixes, in the engine")
struct LiveDriftFlightTests {
    /// Ten minutes east at 3 m/s, the fixes where the runner was, the receiver's speed reading
    /// 2.9 m/s (a third of a metre short every ten seconds): the odometer alone would show 1740 m
    /// of the 1800. A bias that steady is far outside the walk the filter expects of readings
    /// that never vary (σ 0.05 m/s at least), so the fixes bring back about a third of it in ten
    /// minutes (1761 m), and the display never goes back.
    @Test func theLiveDistanceIsAmendedTowardTheFixes() {
        var computer = FlightComputer()
        computer.rotate()
        var shown: [Double] = []
        for k in 0...600 {
            let t = Double(k)
            let fix = Fix(
                time: Track.t0 + t, coordinate: Track.coordinate(east: 3 * t), horizontalAccuracy: 10,
                speed: 2.9, track: 90, altitude: nil, mode: 3)
            _ = computer.handle(.fix(fix))
            shown.append(computer.pfd.distance)
        }
        let last = shown.last ?? 0
        #expect(last > 1755 && last < 1800, "\(last)")
        let wentBack = zip(shown, shown.dropFirst()).contains { $1 < $0 }
        #expect(!wentBack)
    }
}
