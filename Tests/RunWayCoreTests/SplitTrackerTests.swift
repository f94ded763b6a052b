import RunWayCore
import Testing

@Suite("Splits: 1000 m, while loop, interpolated boundary, tail ≥ 100 m, dropped metres")
struct SplitTrackerTests {
    func progress(_ elapsed: Double, _ distance: Double, gain: Double = 0) -> Progress {
        Progress(elapsed: elapsed, distance: distance, movingTime: elapsed, elevationGain: gain)
    }

    @Test func aRunOfOnePointZeroSixKilometresGivesOneSplitAndReportsSixtyMetresDropped() {
        var tracker = SplitTracker()
        _ = tracker.record(progress(300, 1000.5))
        let (splits, dropped) = tracker.finish(progress(318, 1060))
        #expect(splits.count == 1)
        #expect(abs(dropped - 60) < 0.01)
    }

    @Test func aRunOfOnePointEightFourKilometresGivesAKilometreAndAnEightHundredFortyMetreSplit() {
        var tracker = SplitTracker()
        _ = tracker.record(progress(330, 1001))
        let (splits, dropped) = tracker.finish(progress(600, 1840))
        #expect(splits.map(\.order) == [1, 2])
        #expect(splits[0].distance == 1000)
        #expect(abs(splits[1].distance - 840) < 0.01)
        #expect(dropped == 0)
    }

    @Test func oneUpdateThatJumpsOnePointThreeKilometresStillClosesTheSplit() {
        var tracker = SplitTracker()
        _ = tracker.record(progress(0, 0))
        let closed = tracker.record(progress(400, 1300))
        #expect(closed.count == 1)
        let more = tracker.record(progress(1000, 3300))
        #expect(more.map(\.order) == [2, 3])
    }

    @Test func theBoundaryTimeIsInterpolatedBetweenTheStraddlingFixes() {
        var tracker = SplitTracker()
        _ = tracker.record(progress(330, 995))
        let closed = tracker.record(progress(332, 1005))
        // 5 m of 10 m: half-way between 330 and 332, not the later fix's 332.
        #expect(closed.first?.elapsedEnd == 331)
        #expect(closed.first?.movingDuration == 331)
    }

    @Test func elevationGainAndAveragesArePerSplitAndSkipMissingValues() {
        var tracker = SplitTracker()
        tracker.add(BodySample(time: 1, heartRate: 150, cadence: nil))
        tracker.add(BodySample(time: 2, heartRate: nil, cadence: 170))
        tracker.add(BodySample(time: 3, heartRate: 160, cadence: 0))  // cadence 0 is a value
        _ = tracker.record(progress(0, 0, gain: 0))
        let first = tracker.record(progress(300, 1000, gain: 12))
        #expect(first.first?.heartRate == 155)
        #expect(first.first?.cadence == 85)
        #expect(first.first?.elevationGain == 12)
        let (splits, _) = tracker.finish(progress(400, 1200, gain: 12))
        #expect(splits[1].heartRate == nil)  // no samples: missing, not 0
        #expect(splits[1].elevationGain == 0)
    }

    @Test func splitsKeepMovingAndElapsedDurations() {
        var tracker = SplitTracker()
        let end = Progress(elapsed: 400, distance: 1000, movingTime: 340, elevationGain: 0)
        let split = tracker.record(end).first
        #expect(split?.movingDuration == 340)
        #expect(split?.elapsedDuration == 400)
        #expect(split?.pace == 340)
    }
}

@Suite("Flight result: too short, totals, averages, markers")
struct FlightResultTests {
    @Test func aFlightUnderOneHundredMetresIsTooShort() {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 3, from: 0, to: 30)
        let flight = computer.land()
        #expect(flight?.status == .tooShort)
        #expect(flight?.status.rawValue == "too short")
    }

    @Test func averagesComeFromAllSamplesNotFromSplitAverages() {
        var computer = FlightComputer()
        computer.rotate()
        // Split 1: 1 sample of 100. Split 2: 3 samples of 200. Mean of samples: 175.
        _ = computer.handle(.body(BodySample(time: Track.t0 + 1, heartRate: 100)))
        computer.run(speed: 4, from: 0, to: 260)
        for t in [300.0, 310, 320] {
            _ = computer.handle(.body(BodySample(time: Track.t0 + t, heartRate: 200)))
        }
        computer.run(speed: 4, from: 261, to: 500, startEast: 1044)
        let flight = computer.land()
        #expect(flight?.splits.count == 2)
        #expect(flight?.averageHeartRate == 175)
        // The maxima: the flight's and each split's highest sample (they were never set: every
        // flight landed with max_heart_rate null).
        #expect(flight?.maxHeartRate == 200)
        #expect(flight?.splits.map(\.maxHeartRate) == [100, 200])
    }

    @Test func aFlightWithoutHeartRateHasNoMaximum() {
        var computer = FlightComputer()
        computer.rotate()
        computer.run(speed: 4, from: 0, to: 500)
        let flight = computer.land()
        #expect(flight?.maxHeartRate == nil)
        #expect(flight?.splits.allSatisfy { $0.maxHeartRate == nil } == true)
    }

    @Test func totalElevationGainIsTheSumOfSplitGains() {
        var flight = Flight(
            mission: nil, startTime: 0, endTime: 0, distance: 2000, elapsed: 0, movingTime: 0, splits: [],
            droppedTail: 0, samples: [], route: Route(points: []), simplifiedRoute: Route(points: []),
            alerts: [],
            averageHeartRate: nil, averageCadence: nil)
        flight.splits = [
            Split(
                order: 1, distance: 1000, movingDuration: 300, elapsedDuration: 300, elapsedEnd: 300,
                heartRate: 150, cadence: nil, elevationGain: 15),
            Split(
                order: 2, distance: 1000, movingDuration: 320, elapsedDuration: 320, elapsedEnd: 620,
                heartRate: nil, cadence: nil, elevationGain: 0),
        ]
        #expect(flight.elevationGain == 15)
        #expect(flight.paceExtremes?.fastest == 0 && flight.paceExtremes?.slowest == 1)
        // Only one split has a heart rate: no marker.
        #expect(flight.heartRateExtremes == nil)
    }
}
