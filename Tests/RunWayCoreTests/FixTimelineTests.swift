import Foundation
import RunWayCore
import RunWaySimulator
import Testing

/// The daemon's judge of fix times against the monotonic clock (`FixTimeline`).
@Suite("Fix time line: each fix's time judged against the board's monotonic clock")
struct FixTimelineTests {
    static let epoch = 1_800_000_000.0
    static let day = 86_400.0

    /// A 1 Hz receiver: fix `i` dated `epoch + i`, arriving at monotonic `100 + i + delay`.
    struct Receiver {
        var timeline = FixTimeline()
        var delivered: [Fix] = []
        var events: [FixTimeline.Event] = []

        mutating func send(_ i: Int, dated time: Double? = nil, delay: Double = 0.2, inFlight: Bool = true) {
            let fix = Fix(time: time ?? (FixTimelineTests.epoch + Double(i)), coordinate: Track.origin)
            let judgement = timeline.judge(
                fix, arrivedAt: MonotonicInstant(seconds: 100 + Double(i) + delay), inFlight: inFlight)
            delivered += judgement.fixes
            if let event = judgement.event { events.append(event) }
        }

        /// The axis at monotonic `100 + i` (where fix `i` was taken).
        func axis(_ i: Int) -> Double? {
            timeline.base.gps(MonotonicInstant(seconds: 100 + Double(i)))?.seconds
        }
    }

    @Test func theFirstLineStandsOnceThreeFixesAgreeAndNothingIsLost() {
        var receiver = Receiver()
        receiver.send(0)
        receiver.send(1)
        #expect(receiver.delivered.isEmpty)
        #expect(receiver.axis(1) == nil)
        receiver.send(2)
        #expect(receiver.delivered.map(\.time) == [0, 1, 2].map { Self.epoch + $0 })
        #expect(receiver.events == [.established(at: Self.epoch)])
    }

    @Test(arguments: [day, 365 * day, 4_102_444_800 - epoch, -day])
    func oneMisdatedFixIsDroppedAndTheLineHolds(_ error: Double) {
        var receiver = Receiver()
        for i in 0..<600 { receiver.send(i, dated: i == 300 ? Self.epoch + 300 + error : nil) }
        let times = receiver.delivered.map(\.time)
        #expect(times == (0..<600).filter { $0 != 300 }.map { Self.epoch + Double($0) })
        #expect(receiver.axis(599).map { abs($0 - (Self.epoch + 599)) < 0.5 } == true)
        #expect(receiver.timeline.quarantinedCount == 1)
        #expect(receiver.events.count == 2)  // established, quarantined
    }

    /// A cold start's first RMC a day ahead: it never founds the line.
    @Test func aColdStartsMisdatedFirstFixNeverFoundsTheLine() {
        var receiver = Receiver()
        receiver.send(0, dated: Self.epoch + Self.day)
        for i in 1..<10 { receiver.send(i) }
        #expect(receiver.delivered.map(\.time) == (1..<10).map { Self.epoch + Double($0) })
    }

    /// gpsd's bt451 capture: one epoch a day ahead, then the time line ~52 minutes back for good.
    /// In the air the new line is mapped onto the flight's axis: times go on from where they
    /// were, none is lost.
    @Test func aLastingCorrectionInTheAirIsMappedOntoTheAxis() {
        var receiver = Receiver()
        for i in 0..<100 { receiver.send(i) }
        receiver.send(100, dated: Self.epoch + 100 + Self.day)
        for i in 101..<200 { receiver.send(i, dated: Self.epoch + Double(i) - 3_120) }
        let times = receiver.delivered.map(\.time)
        #expect(times.count == 199)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "in time order")
        #expect(abs(times.last! - (Self.epoch + 199)) < 0.5, "on the axis: \(times.last! - Self.epoch)")
        #expect(receiver.axis(199).map { abs($0 - (Self.epoch + 199)) < 0.5 } == true)
        #expect(receiver.events.contains(.corrected(by: -3_120, adopted: false)))
    }

    /// On the ground a receiver that corrects its clock forward is followed (the axis may move
    /// forward while nothing flies), and a backward correction is still mapped (the engine's
    /// time never goes back).
    @Test func onTheGroundAForwardCorrectionIsAdopted() {
        var receiver = Receiver()
        for i in 0..<50 { receiver.send(i, inFlight: false) }
        for i in 50..<60 { receiver.send(i, dated: Self.epoch + Double(i) + 3_600, inFlight: false) }
        #expect(receiver.events.contains(.corrected(by: 3_600, adopted: true)))
        #expect(receiver.axis(59).map { abs($0 - (Self.epoch + 59 + 3_600)) < 0.5 } == true)
        #expect(receiver.delivered.count == 60)
        #expect(receiver.delivered.last!.time == Self.epoch + 59 + 3_600)
    }

    /// A correction ahead mapped in the air; after landing the axis catches up.
    @Test func afterLandingTheAxisCatchesUpWithAReceiverAhead() {
        var receiver = Receiver()
        for i in 0..<20 { receiver.send(i) }
        for i in 20..<40 { receiver.send(i, dated: Self.epoch + Double(i) + 600) }
        #expect(receiver.delivered.last!.time == Self.epoch + 39)
        receiver.send(40, dated: Self.epoch + 640, inFlight: false)
        #expect(receiver.delivered.last!.time == Self.epoch + 640)
        #expect(receiver.events.last == .corrected(by: 600, adopted: true))
    }

    /// gpsfake replays faster than real time: GPS time runs 65× the monotonic clock, one second
    /// at a time, and every fix is taken.
    @Test func aReplayFasterThanRealTimeIsTaken() {
        var timeline = FixTimeline()
        var delivered = 0
        for i in 0..<2_000 {
            let fix = Fix(time: Self.epoch + Double(i), coordinate: Track.origin)
            delivered +=
                timeline.judge(
                    fix, arrivedAt: MonotonicInstant(seconds: 100 + Double(i) / 65), inFlight: true
                )
                .fixes.count
        }
        #expect(delivered == 2_000)
    }

    /// A receiver whose every time is noise: nothing believed, memory bounded.
    @Test func aReceiverOfNoiseIsNeverBelievedAndHeldFixesAreBounded() {
        var generator = SeededGenerator(seed: 7)
        var timeline = FixTimeline()
        var delivered = 0
        for i in 0..<10_000 {
            let time = Self.epoch + Double(generator.next() % 1_000_000_000)
            let fix = Fix(time: time, coordinate: Track.origin)
            delivered +=
                timeline.judge(fix, arrivedAt: MonotonicInstant(seconds: 100 + Double(i)), inFlight: true)
                .fixes.count
        }
        #expect(delivered == 0)
        #expect(timeline.quarantinedCount >= 9_000)
    }

    /// Over many seeds: outliers of every size sprinkled through an honest stream with delivery
    /// jitter; every honest fix is delivered exactly once, with its own time, in order, and no
    /// outlier is.
    @Test(arguments: 0..<40)
    func outliersAmidAnHonestStreamCostOnlyThemselves(_ seed: Int) {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 1)
        func uniform() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var timeline = FixTimeline()
        var honest: [Double] = []
        var delivered: [Double] = []
        for i in 0..<1_200 {
            let arrival = MonotonicInstant(seconds: 100 + Double(i) + 0.05 + 0.5 * uniform())
            var time = Self.epoch + Double(i)
            let outlier = i > 5 && uniform() < 0.02
            if outlier {
                let size = Foundation.pow(10, 1.2 + 8 * uniform())  // 16 s … 16 years
                time += uniform() < 0.5 ? size : -size
            } else {
                honest.append(time)
            }
            let fix = Fix(time: time, coordinate: Track.origin)
            delivered += timeline.judge(fix, arrivedAt: arrival, inFlight: true).fixes.map(\.time)
        }
        #expect(delivered == honest)
    }
}

extension FixTimelineTests {
    /// A burst of fixes that waited behind a 15 s stall arrives at once: their offsets creep a
    /// second a fix. They never agree into a line of their own, so the board's clock stays.
    @Test func aBurstAfterAStallIsNoCorrection() {
        var receiver = Receiver()
        for i in 0..<100 { receiver.send(i) }
        for i in 100..<115 {
            let fix = Fix(time: Self.epoch + Double(i), coordinate: Track.origin)
            receiver.delivered +=
                receiver.timeline.judge(
                    fix, arrivedAt: MonotonicInstant(seconds: 100 + 115.2), inFlight: true
                ).fixes
        }
        for i in 115..<130 { receiver.send(i) }
        #expect(receiver.timeline.shift == 0)
        #expect(receiver.axis(129).map { abs($0 - (Self.epoch + 129)) < 0.5 } == true)
        let times = receiver.delivered.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
    }
}
