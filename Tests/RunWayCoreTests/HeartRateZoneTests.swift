import Testing

@testable import RunWayCore

@Suite("Heart-rate zones: edges from the maximum or the reserve")
struct HeartRateZoneEdgeTests {
    @Test func edgesFromTheMaximumAreFractionsOfIt() {
        let zones = HeartRateZones(method: .maximum, maximum: 190)
        #expect(zones.lowerEdges == [95, 114, 133, 152, 171])
        #expect(zones.zone(of: 94.9) == nil)
        #expect(zones.zone(of: 95) == 1)
        #expect(zones.zone(of: 151.9) == 3)
        #expect(zones.zone(of: 152) == 4)
        #expect(zones.zone(of: 200) == 5)
        #expect(zones.range(of: 2) == 114...133)
        #expect(zones.range(of: 5) == 171...190)
        #expect(zones.range(of: 6) == nil)
    }

    @Test func edgesFromTheReserveStartAtTheRestingHeartRate() {
        let zones = HeartRateZones(method: .reserve, maximum: 190, resting: 60)
        // 60 + f × 130
        #expect(zones.lowerEdges == [125, 138, 151, 164, 177])
        #expect(zones.zone(of: 124) == nil)
        #expect(zones.zone(of: 150) == 2)
        #expect(zones.range(of: 2) == 138...151)
    }

    @Test func theUnconfiguredDefaultIsMaximum190() {
        #expect(EngineConfiguration().heartRateZones == HeartRateZones(method: .maximum, maximum: 190))
    }
}

@Suite("Time in zone: readings hold until the next or until they are stale, in moving time only")
struct HeartRateZoneTimeTests {
    let zones = HeartRateZones(method: .maximum, maximum: 200)  // edges 100 120 140 160 180

    @Test func aReadingHoldsUntilTheNextOne() {
        var time = HeartRateZoneTime(zones: zones, maxAge: 10)
        time.add(heartRate: 130, at: 0)  // zone 2
        time.add(heartRate: 150, at: 5)  // zone 3
        time.add(heartRate: 150, at: 10)
        #expect(time.seconds(through: 20, moving: [0...100]) == [0, 5, 15, 0, 0])
        #expect(time.spans.count == 2)  // the two zone-3 readings merged
    }

    @Test func aStaleReadingCountsNoMore() {
        var time = HeartRateZoneTime(zones: zones, maxAge: 10)
        time.add(heartRate: 150, at: 0)
        time.add(heartRate: 150, at: 30)  // 10–30: no heart rate
        #expect(time.seconds(through: 35, moving: [0...100]) == [0, 0, 15, 0, 0])
    }

    @Test func belowZoneOneCountsInNone() {
        var time = HeartRateZoneTime(zones: zones, maxAge: 10)
        time.add(heartRate: 90, at: 0)
        time.add(heartRate: 110, at: 5)
        #expect(time.seconds(through: 10, moving: [0...100]) == [5, 0, 0, 0, 0])
    }

    @Test func pausesCountInNoZone() {
        var time = HeartRateZoneTime(zones: zones, maxAge: 100)
        time.add(heartRate: 150, at: 0)
        #expect(time.seconds(through: 60, moving: [0...10, 20...30, 55...70]) == [0, 0, 25, 0, 0])
    }

    @Test func noReadingIsMissingNotZero() {
        let time = HeartRateZoneTime(zones: zones, maxAge: 10)
        #expect(time.seconds(through: 60, moving: [0...60]) == nil)
    }

    @Test func anOlderReadingIsIgnored() {
        var time = HeartRateZoneTime(zones: zones, maxAge: 10)
        time.add(heartRate: 150, at: 5)
        time.add(heartRate: 190, at: 2)
        #expect(time.seconds(through: 10, moving: [0...10]) == [0, 0, 5, 0, 0])
    }
}

@Suite("A flight's maximum heart rate and time in zone")
struct FlightHeartRateTests {
    /// Runs east at 3 m/s with a fix and a heart-rate reading every second (`heartRate(t)`).
    static func run(
        _ computer: inout FlightComputer, from: Double, to: Double, startEast: Double = 0,
        heartRate: (Double) -> Double?
    ) {
        var t = from
        while t <= to {
            _ = computer.handle(.fix(Track.fix(t, east: startEast + 3 * (t - from), speed: 3)))
            _ = computer.handle(.body(BodySample(time: Track.t0 + t + 0.5, heartRate: heartRate(t))))
            t += 1
        }
    }

    @Test func timeInZoneSumsToTheMovingTimeWhenHeartRateNeverStops() throws {
        var computer = FlightComputer()
        computer.rotate()
        Self.run(&computer, from: 0, to: 300) { 120 + $0 / 10 }  // 120 → 150: zones 2 and 3
        // A standstill of a minute, heart rate still read: an auto-pause.
        for t in stride(from: 301.0, through: 360, by: 1) {
            _ = computer.handle(.fix(Track.fix(t, east: 900, speed: 0)))
            _ = computer.handle(.body(BodySample(time: Track.t0 + t + 0.5, heartRate: 140)))
        }
        Self.run(&computer, from: 361, to: 700, startEast: 903) { _ in 175 }
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(!flight.pauses.isEmpty)
        let zones = try #require(flight.timeInZone)
        #expect(zones.count == 5)
        #expect(abs(zones.reduce(0, +) - flight.movingTime) < 1.5)  // the first half second had no reading
        #expect(zones[0] == 0)
        #expect(zones[1] > 0 && zones[2] > 0 && zones[3] == 0 && zones[4] > 300)  // 175: zone 5
        #expect(flight.heartRateZones == EngineConfiguration().heartRateZones)
        #expect(flight.maxHeartRate == 175)
    }

    @Test func eachSplitHasItsOwnMaximum() throws {
        var computer = FlightComputer()
        computer.rotate()
        Self.run(&computer, from: 0, to: 800) { $0 < 300 ? 150 + $0 / 100 : 140 }  // split 1 peaks at 152.99
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.splits.count == 3)
        #expect(flight.splits[0].maxHeartRate == 152.99)
        #expect(flight.splits[1].maxHeartRate == 140)
        #expect(flight.maxHeartRate == 152.99)
    }

    @Test func withoutHeartRateEveryFigureIsMissing() throws {
        var computer = FlightComputer()
        computer.rotate()
        Self.run(&computer, from: 0, to: 400) { _ in nil }
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(flight.maxHeartRate == nil)
        #expect(flight.timeInZone == nil)
        #expect(flight.splits.allSatisfy { $0.maxHeartRate == nil })
    }

    @Test func theFlightCountsInTheConfiguredZones() throws {
        var configuration = EngineConfiguration()
        configuration.heartRateZones = HeartRateZones(method: .reserve, maximum: 200, resting: 50)
        var computer = FlightComputer(configuration: configuration)
        computer.rotate()
        Self.run(&computer, from: 0, to: 200) { _ in 140 }  // reserve: 125 140 155 170 185 → zone 2
        let landed = computer.land()
        let flight = try #require(landed)
        let zones = try #require(flight.timeInZone)
        #expect(zones[1] > 190 && zones[0] == 0 && zones[2] == 0)
        #expect(flight.heartRateZones == configuration.heartRateZones)
    }
}
