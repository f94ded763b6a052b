import RunWayCore
import Testing

@Suite("The saved flight's barometer: averaged either side of each reading, no lag")
struct SmoothedAltitudeTests {
    /// Pressure for `altitude` metres above a 101 325 Pa start.
    func sample(_ time: Double, _ altitude: Double) -> PressureSample {
        let pascals = BarometricFormula.pressure(altitude: altitude, reference: 101_325)
        return PressureSample(time: time, pascals: pascals)
    }

    /// A steady climb of 0.1 m/s: inside the log the average sits on the climb itself (the live
    /// EMA trails it by 0.8 m at 1 Hz); the zero is the first reading at ROTATE.
    @Test func aClimbIsFollowedWithoutLag() throws {
        let samples = (0...60).map { sample(Double($0), 5 + 0.1 * Double($0)) }
        let smoothed = try #require(SmoothedAltitude(pressures: samples, rotateAt: 10))
        #expect(smoothed.altitude(at: 5) == nil)  // before ROTATE
        #expect(abs((smoothed.altitude(at: 10) ?? 99) - 0.1) < 0.01)  // its edge: 10…12 s
        #expect(abs((smoothed.altitude(at: 40) ?? 99) - 3) < 0.01)
        #expect(smoothed.altitude(at: 40.5) == nil)  // no reading then
        var ema = AltitudeFilter(rotateAt: 10)
        var last = 0.0
        for s in samples { if case .accepted(let v) = ema.add(s) { last = v } }
        #expect(5 - last > 0.7)
    }

    /// A spike the live filter drops (over 3 m/s) takes no part in the average.
    @Test func aSpikeIsNoPartOfTheAverage() throws {
        let samples = (0...20).map { sample(Double($0), $0 == 10 ? 40 : 0) }
        let smoothed = try #require(SmoothedAltitude(pressures: samples, rotateAt: 0))
        #expect(smoothed.altitude(at: 10) == nil)
        #expect(abs(smoothed.altitude(at: 9) ?? 99) < 0.01)
        #expect(abs(smoothed.altitude(at: 11) ?? 99) < 0.01)
    }

    @Test func noReadingAfterRotateIsNone() {
        #expect(SmoothedAltitude(pressures: [sample(0, 0)], rotateAt: 5) == nil)
        #expect(SmoothedAltitude(pressures: [PressureSample](), rotateAt: 0) == nil)
    }
}
