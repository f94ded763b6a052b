import RunWayCore
import Testing

@Suite("Time base: the monotonic clock mapped onto GPS time from the fixes")
struct TimeBaseTests {
    static let epoch = 1_790_000_000.0

    @Test func beforeTheFirstFixThereIsNoMapping() {
        let base = TimeBase()
        #expect(base.gps(MonotonicInstant(seconds: 10)) == nil)
        #expect(!base.isSet)
    }

    /// Delivery jitter: fixes arrive 0.1–0.6 s late; the least-late one sets the offset.
    @Test func theLeastDelayedDeliveryWinsSoJitterDoesNotShakeTimes() {
        var base = TimeBase()
        let delays = [0.4, 0.1, 0.6, 0.3, 0.5]
        for (i, delay) in delays.enumerated() {
            let gps = Self.epoch + Double(i)
            base.observe(
                fix: GPSInstant(seconds: gps), arrivedAt: MonotonicInstant(seconds: 100 + Double(i) + delay))
        }
        // A reading stamped at monotonic 103.1 happened at GPS epoch + 3.0 (least delay 0.1).
        let mapped = base.gps(MonotonicInstant(seconds: 103.1))
        #expect(mapped.map { abs($0.seconds - (Self.epoch + 3.0)) < 1e-9 } == true)
    }

    /// The crystal drifts (here 100 ppm, far worse than a Pi's): the window follows it.
    @Test func driftIsFollowed() {
        var base = TimeBase(window: 10)
        for i in 0..<3_600 {
            let gps = Self.epoch + Double(i)
            let monotonic = 50 + Double(i) * 1.0001 + 0.2
            base.observe(fix: GPSInstant(seconds: gps), arrivedAt: MonotonicInstant(seconds: monotonic))
        }
        // The least delivery delay is taken as zero (a constant delay cannot be seen from the
        // fixes alone): the last fix's arrival maps to its own GPS time.
        let now = 50 + 3_599 * 1.0001 + 0.2
        let mapped = base.gps(MonotonicInstant(seconds: now))
        #expect(mapped.map { abs($0.seconds - (Self.epoch + 3_599)) < 0.01 } == true)
    }

    /// gpsd restarted with a receiver whose time is 30 s different: the window starts over.
    @Test func aJumpStartsOver() {
        var base = TimeBase()
        base.observe(fix: GPSInstant(seconds: Self.epoch), arrivedAt: MonotonicInstant(seconds: 100.2))
        base.observe(fix: GPSInstant(seconds: Self.epoch + 31), arrivedAt: MonotonicInstant(seconds: 101.2))
        #expect(base.offset.map { abs($0 - (Self.epoch + 31 - 101.2)) < 1e-9 } == true)
    }

    /// A START pressed before the first fix is held and back-filled with its own time.
    @Test func inputsBeforeTheFirstFixAreHeldThenMapped() {
        var held = HeldInputs()
        var base = TimeBase()
        held.hold(.start(mission: nil, countdown: true), at: MonotonicInstant(seconds: 20))
        held.hold(.pressure(pascals: 101_000), at: MonotonicInstant(seconds: 21))
        #expect(held.release(through: base) == nil)
        base.observe(fix: GPSInstant(seconds: Self.epoch + 10), arrivedAt: MonotonicInstant(seconds: 30))
        let inputs = held.release(through: base)
        #expect(
            inputs == [
                .start(at: Self.epoch, mission: nil, countdown: true),
                .pressure(PressureSample(time: Self.epoch + 1, pascals: 101_000)),
            ])
        #expect(held.held.isEmpty)
    }

    @Test func theHoldIsBounded() {
        var held = HeldInputs(capacity: 3)
        for i in 0..<5 { held.hold(.pressure(pascals: 100_000), at: MonotonicInstant(seconds: Double(i))) }
        #expect(held.held.map(\.0.seconds) == [2, 3, 4])
        #expect(held.dropped == 2)
    }
}
