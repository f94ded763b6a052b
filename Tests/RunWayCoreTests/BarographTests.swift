import RunWayCore
import Testing

@Suite("Barograph: WEATHER from the pressure tendency")
struct BarographTests {
    /// A reading every 10 s (runwayd's idle pace) for `hours`, falling `rate` Pa an hour, with
    /// ±3 Pa of sensor noise.
    func drawn(hours: Double, rate: Double, start: Double = 1000) -> Barograph {
        var barograph = Barograph()
        var t = 0.0
        var noise = 1.0
        while t <= hours * 3600 {
            noise = -noise
            barograph.record(pascals: 101_325 + rate * t / 3600 + 3 * noise, at: start + t)
            t += 10
        }
        return barograph
    }

    @Test(arguments: [
        (0.0, Barograph.Tendency.steady), (20, .steady), (-20, .steady), (60, .rising),
        (-60, .falling), (-150, .fallingFast), (150, .risingFast),
    ])
    func threeHoursReadAsABarographsReaderWould(_ rate: Double, _ expected: Barograph.Tendency) throws {
        let barograph = drawn(hours: 4, rate: rate)
        let reading = try #require(barograph.reading(at: 1000 + 4 * 3600))
        #expect(reading.tendency == expected)
        #expect(abs(reading.changePer3h - rate * 3) < 15, "\(reading.changePer3h)")
    }

    @Test func lessThanAnHourSaysNothing() {
        #expect(drawn(hours: 0.9, rate: -200).reading(at: 1000 + 0.9 * 3600) == nil)
        #expect(drawn(hours: 1.1, rate: -200).reading(at: 1000 + 1.1 * 3600)?.tendency == .fallingFast)
    }

    @Test func itKeepsSixHoursHoweverLongTheBoardRuns() {
        let barograph = drawn(hours: 48, rate: 1)
        #expect(barograph.points.count <= 73)
        #expect(barograph.points.first!.seconds >= 1000 + 42 * 3600 - 300)
    }

    @Test func noAirPressureAndBackwardsTimeAreLeftOut() {
        var barograph = drawn(hours: 2, rate: 0)
        let before = barograph
        barograph.record(pascals: 0, at: 1000 + 3 * 3600)
        barograph.record(pascals: .nan, at: 1000 + 3 * 3600)
        barograph.record(pascals: 101_000, at: 10)
        #expect(barograph == before)
        barograph.reset()
        #expect(barograph.reading(at: 1000 + 3 * 3600) == nil && barograph.latest == nil)
    }
}
