import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@Suite("Altitude: zero at ROTATE, spike guard, double EMA seeded by a flag, 0 is a value")
struct AltitudeTests {
    @Test func barometricFormulaRoundTrips() {
        let p = BarometricFormula.pressure(altitude: 100, reference: 101_325)
        #expect(abs(BarometricFormula.altitude(pressure: p, reference: 101_325) - 100) < 1e-6)
        // ~12 Pa per metre near sea level.
        #expect(abs((101_325 - p) / 100 - 11.9) < 0.3)
    }

    @Test func aBarometerStartedEarlyDoesNotShiftTheZero() {
        var computer = FlightComputer()
        // The barometer runs through the countdown while the runner bounces about 4 m of
        // pressure away; the zero must come from the first sample at ROTATE.
        _ = computer.handle(.start(at: Track.t0, mission: nil, countdown: true))
        for t in stride(from: 0.0, to: 3, by: 0.5) {
            _ = computer.handle(.pressure(PressureSample(time: Track.t0 + t, pascals: 101_325 + 48)))
        }
        _ = computer.handle(.pressure(PressureSample(time: Track.t0 + 3, pascals: 101_325)))
        #expect(computer.pfd.altitude == 0)
        for t in 4...20 {
            _ = computer.handle(.pressure(PressureSample(time: Track.t0 + Double(t), pascals: 101_325)))
        }
        #expect(computer.pfd.altitude == 0)
    }

    @Test func altitudeZeroIsAValueNotMissing() {
        var filter = AltitudeFilter(rotateAt: 0)
        #expect(filter.altitude == nil)
        #expect(filter.add(PressureSample(time: 0, pascals: 100_000)) == .accepted(0))
        #expect(filter.altitude == 0)
        var computer = FlightComputer()
        computer.rotate()
        _ = computer.handle(.pressure(PressureSample(time: Track.t0, pascals: 100_000)))
        computer.run(speed: 3, from: 0, to: 10)
        #expect(computer.pfd.altitude == 0)
        #expect(computer.land()?.samples.first?.altitude == 0)
    }

    @Test func aSpikeFasterThanThreeMetresPerSecondIsDropped() {
        var filter = AltitudeFilter(rotateAt: 0)
        _ = filter.add(PressureSample(time: 0, pascals: 100_000))
        // 5 m in 1 s (≈ 60 Pa).
        #expect(filter.add(PressureSample(time: 1, pascals: 100_000 - 60)) == .spike)
        // 2 m in 1 s is allowed.
        guard case .accepted = filter.add(PressureSample(time: 1, pascals: 100_000 - 24)) else {
            Issue.record("2 m/s is a plausible climb")
            return
        }
    }

    @Test func implausiblePressureIsRejected() {
        var filter = AltitudeFilter(rotateAt: 0)
        #expect(filter.add(PressureSample(time: 0, pascals: .nan)) == .implausible)
        #expect(filter.add(PressureSample(time: 0, pascals: 0x80000)) == .implausible)
        #expect(filter.altitude == nil)
    }

    @Test func theDoubleEMAUsesPointEightAndPointTwo() {
        var filter = AltitudeFilter(rotateAt: 0)
        _ = filter.add(PressureSample(time: 0, pascals: 100_000))
        let p = BarometricFormula.pressure(altitude: 1, reference: 100_000)
        _ = filter.add(PressureSample(time: 1, pascals: p))
        let raw = BarometricFormula.altitude(pressure: p, reference: 100_000)
        let s1 = 0.2 * raw
        #expect(abs((filter.altitude ?? -1) - 0.2 * s1) < 1e-9)
    }
}

@Suite("Elevation gain: rises only, weather drift and noise rejected")
struct ElevationGainTests {
    @Test func countsRisesNeverFalls() {
        var gain = ElevationGain()
        for t in 0...300 {
            let s = Double(t)
            // 0.1 m/s up for 100 s, down for 100 s, up again.
            let z = t < 100 ? 0.1 * s : (t < 200 ? 10 - 0.1 * (s - 100) : 0.1 * (s - 200))
            gain.add(time: s, altitude: z)
        }
        #expect(abs(gain.total - 20) < 0.6)
    }

    @Test func flatGroundWithNoiseAndDriftGainsNothing() {
        var gain = ElevationGain()
        var rng = SeededGenerator(seed: 3)
        var smooth = 0.0
        for t in 0..<3600 {
            // 1 hPa/h of falling pressure is ~8 m/h of apparent climb, plus 2.5 cm noise.
            let raw = 8.3 * Double(t) / 3600 + 0.025 * rng.gaussian()
            smooth = 0.8 * smooth + 0.2 * raw
            gain.add(time: Double(t), altitude: smooth)
        }
        #expect(gain.total < 1)
    }

    /// Twelve slow hills with no flat tops (550 m foot to foot at 2.9 m/s, 6–14 m, 118 m in
    /// all), no weather: a level window that ended at each sample booked the first seconds past
    /// every crest and trough as drift (116.6 m); centred on the sample, 117.6 m.
    @Test func slowCrestsAreNotBookedAsDrift() {
        var gain = ElevationGain()
        let heights: [Double] = [8, 12, 6, 14, 9, 11, 7, 13, 10, 6, 12, 10]
        for t in 0...2320 {
            let s = 2.9 * Double(t)
            let index = Int(s / 560)
            let phase = (s - 560 * Double(index)) / 550
            let z = index < heights.count && phase < 1 ? heights[index] * (1 - cos(2 * .pi * phase)) / 2 : 0
            gain.add(time: Double(t), altitude: z)
        }
        #expect(abs(gain.total - 118) < 0.8, "\(gain.total)")
    }

    /// The weather's rate is what the level ground said, from the first of it: a minute of flat
    /// ground under 3 hPa/h of falling pressure (0.0069 m/s of apparent climb), then a 20 m climb
    /// at 0.1 m/s, then flat again. The rate learnt as an average over ten minutes starting from
    /// 0 was a tenth of the weather's after that minute, and the climb counted 1.3 m of weather
    /// (21.3 m); the learnt rate is the level ground's mean, however little of it there was.
    @Test func theWeathersRateIsTheLevelGroundsFromItsFirstMinute() {
        for weather in [0.0069, -0.0069] {
            var gain = ElevationGain()
            for t in 0...320 {
                let time = Double(t)
                let terrain = min(max(0, time - 60) * 0.1, 20)
                gain.add(time: time, altitude: terrain + weather * time)
            }
            #expect(abs(gain.total - 20) < 0.3, "\(weather): \(gain.total)")
        }
    }

    /// The samples not yet judged (the window's look-ahead) count at once: a climb's last
    /// metres are in the total as soon as they are read.
    @Test func theLatestClimbCountsAtOnce() {
        var gain = ElevationGain()
        for t in 0...60 { gain.add(time: Double(t), altitude: Double(t) * 0.1) }
        #expect(abs(gain.total - 6) < 0.01, "\(gain.total)")
        #expect(abs((gain.terrainAltitude ?? 0) - 6) < 0.01)
    }

    /// A climb that eases into level ground: its last samples count at once as terrain, and
    /// once judged on the window around them some are level after all (drift). The total the
    /// runner saw never goes back, so the splits' gains (each its end's total less its
    /// start's, at least 0) add up to the run's total (SPEC "Altitude and elevation gain").
    @Test func theTotalNeverGoesBack() {
        var gain = ElevationGain()
        var shown = 0.0
        var altitude = 0.0
        for t in 0...200 {
            // 3 cm/s for 100 s, then easing by 0.3 mm/s² to level, then level.
            altitude += t <= 100 ? 0.03 : max(0, 0.03 - 0.0003 * Double(t - 100))
            gain.add(time: Double(t), altitude: altitude)
            #expect(gain.total >= shown, "t \(t): \(gain.total) after \(shown)")
            shown = gain.total
        }
        #expect(gain.total > 3 && gain.total <= altitude, "\(gain.total) of \(altitude)")
    }

    @Test func theSimulatedFlatAndHillyCoursesMeetTheirTargets() {
        let flat = SimulatedFlight.fly(.flat5k).flight
        #expect((flat?.elevationGain ?? 99) <= 1)
        let hilly = SimulatedFlight.fly(.hilly10k)
        let truth = hilly.truth.elevationGain
        #expect(abs((hilly.flight?.elevationGain ?? 0) - truth) / truth <= 0.03)
    }
}

@Suite("A barometer lost mid-run: the flight goes on without altitude, said once")
struct BarometerLossTests {
    @Test func theFlightGoesOnWithoutAltitudeAndSaysSoOnce() {
        var computer = FlightComputer()
        computer.rotate()
        for t in 0...20 {
            _ = computer.handle(.pressure(PressureSample(time: Track.t0 + Double(t), pascals: 101_325)))
        }
        computer.run(speed: 3, from: 0, to: 20)
        #expect(computer.pfd.altitude == 0)
        let heard = callouts(computer.handle(.barometerLost(at: Track.t0 + 21)))
        #expect(heard == [.error("BAROMETER LOST")])
        #expect(callouts(computer.handle(.barometerLost(at: Track.t0 + 22))).isEmpty)
        #expect(computer.pfd.altitude == nil)
        computer.run(speed: 3, from: 23, to: 60, startEast: 69)
        #expect(computer.phase == .cruise)
        #expect(computer.pfd.distance > 150)
        // Readings return: so does altitude.
        _ = computer.handle(.pressure(PressureSample(time: Track.t0 + 61, pascals: 101_325)))
        #expect(computer.pfd.altitude != nil)
        let flight = computer.land()
        #expect(flight?.samples.contains { $0.elapsed > 25 && $0.elapsed < 55 && $0.altitude == nil } == true)
    }
}
