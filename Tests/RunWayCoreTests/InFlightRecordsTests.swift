import Testing

@testable import RunWayCore

/// Issue 29: the route and the FDR as a flight holds them in the air — compact columns in fixed
/// chunks, rounded to each column's stated precision, decoded at touchdown.
@Suite("The in-flight route and FDR are compact and exact to their precision")
struct InFlightRecordsTests {
    @Test func aRoutePointComesBackToTheMillisecondAndTheTenMillionthOfADegree() {
        var route = InFlightRoute()
        let start = 1_800_000_000.0
        // Elapsed as a flight computes it (a difference of GPS times, with its float noise).
        route.append(
            RoutePoint(
                elapsed: (start + 1234.1) - start,
                coordinate: Coordinate(latitude: 37.527_590_234, longitude: -126.930_500_849)))
        #expect(
            route[0]
                == RoutePoint(
                    elapsed: 1234.1, coordinate: Coordinate(latitude: 37.527_590_2, longitude: -126.930_500_8)
                ))
        #expect(route.decoded == [route[0]])
    }

    @Test func aSampleKeepsEveryValueAndEveryMissingOne() {
        var samples = InFlightSamples()
        let full = FDRSample(
            elapsed: 3_600, distance: 10_234.567_89, pace: 301.234_56, heartRate: 151.5, cadence: 172,
            altitude: -12.345_6, heading: 359.996, paused: false)
        let empty = FDRSample(
            elapsed: 3_605, distance: 10_234.6, pace: nil, heartRate: nil, cadence: nil, altitude: nil,
            heading: nil, paused: true)
        let zero = FDRSample(
            elapsed: 3_610, distance: 0, pace: 0, heartRate: 0, cadence: 0, altitude: 0, heading: 0,
            paused: false)
        for sample in [full, empty, zero] { samples.append(sample) }
        #expect(
            samples[0]
                == FDRSample(
                    elapsed: 3_600, distance: 10_234.568, pace: 301.235, heartRate: 151.5, cadence: 172,
                    altitude: -12.346, heading: 360, paused: false))
        #expect(samples[1] == empty)
        #expect(samples[2] == zero, "0 is a value, not missing")
    }

    @Test func aPausedSampleWithAPaceKeepsBoth() {
        var samples = InFlightSamples()
        samples.append(
            FDRSample(
                elapsed: 5, distance: 1, pace: 2_000, heartRate: 250, cadence: 300, altitude: 8_848,
                heading: 90, paused: true))
        #expect(samples[0].paused && samples[0].pace == 2_000 && samples[0].heartRate == 250)
        #expect(samples[0].cadence == 300 && samples[0].altitude == 8_848)
    }

    @Test func growingAllocatesWholeChunksAndNeverDoubles() {
        var column = ChunkedColumn<Int32>()
        let chunk = ChunkedColumn<Int32>.chunkLength
        column.append(1)
        let one = column.bytes
        for value in 2...Int32(chunk * 40) { column.append(value) }
        #expect(column.count == chunk * 40)
        #expect((0..<column.count).allSatisfy { column[$0] == Int32($0 + 1) })
        // Forty chunks of values with their 32-byte headers, and the list of chunks: within 5 %
        // of what the values need (an array grown by appending would hold up to twice).
        let needed = column.count * MemoryLayout<Int32>.stride
        #expect(column.bytes >= needed && Double(column.bytes) <= Double(needed) * 1.05 + Double(one))
        column.truncate(to: chunk + 1)
        #expect(column.count == chunk + 1 && column[chunk] == Int32(chunk + 1))
        #expect(column.bytes < 3 * one + 512, "the chunks past the kept values are freed")
    }

    @Test func aCopyOfTheFlightKeepsItsOwnRecords() {
        var route = InFlightRoute()
        for index in 0..<300 {
            route.append(
                RoutePoint(elapsed: Double(index), coordinate: Coordinate(latitude: 1, longitude: 2)))
        }
        var copy = route
        copy.append(RoutePoint(elapsed: 300, coordinate: Coordinate(latitude: 3, longitude: 4)))
        copy.removeAll(after: 10)
        #expect(route.count == 300 && route[299].elapsed == 299)
        #expect(copy.count == 11)
    }

    @Test func landingEarlierDropsWhatCameAfterAndKeepsThePointAtTheLandingItself() {
        var route = InFlightRoute()
        var samples = InFlightSamples()
        let rotate = 1_800_000_000.3
        // A day's fixes across many chunks, one of them out of order (a misdated fix).
        var times = (0..<2_000).map { rotate + Double($0) * 0.7 }
        times[1_500] = rotate + 10
        for time in times {
            route.append(
                RoutePoint(elapsed: time - rotate, coordinate: Coordinate(latitude: 0, longitude: 0)))
        }
        for mark in stride(from: 0.0, through: 1_400, by: 5) {
            samples.append(
                FDRSample(
                    elapsed: mark, distance: mark, pace: nil, heartRate: nil, cadence: nil, altitude: nil,
                    heading: nil, paused: false))
        }
        // Landed at the 1 000th fix's own time, as a forgotten stop lands at the last movement.
        let landing = times[1_000]
        route.removeAll(after: landing - rotate)
        samples.removeAll(after: landing - rotate)
        let kept = route.decoded.map(\.elapsed)
        #expect(kept.count == 1_002, "the fixes up to the landing's own, and the misdated one before it")
        #expect(kept.last == 10 && kept[1_000] == 700)
        #expect(samples.count == 141 && samples[140].elapsed == 700)
        route.removeAll()
        #expect(route.count == 0 && route.bytes == 0)
    }
}
