import RunWayCore
import Testing

@Suite("Distance: speed integrated between counted fixes, guarded by positions")
struct OdometerTests {
    @Test func speedIntegralIsSpentWhenAStepCounts() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 3)
        odometer.integrate(time: 1, speed: 3)
        odometer.integrate(time: 2, speed: 3)
        // Wander made the chord 7.5 m; the runner covered 6 m.
        #expect(odometer.count(chord: 7.5) == 6)
        #expect(odometer.distance == 6)
    }

    @Test func missingSpeedFallsBackToTheChord() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: nil)
        odometer.integrate(time: 2, speed: nil)
        #expect(odometer.count(chord: 6) == 6)
    }

    @Test func anIntegralFarBeyondThePositionsIsRejected() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 11)
        odometer.integrate(time: 5, speed: 11)  // 55 m claimed; positions moved 6 m
        #expect(odometer.count(chord: 6) == 6)
    }

    @Test func aLongSilenceIsNotBridgedBySpeed() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 3)
        odometer.integrate(time: 30, speed: 3)
        #expect(odometer.count(chord: 85) == 85)
    }

    @Test func standingStillWithWanderAddsNothing() {
        var odometer = Odometer()
        for t in 0...10 { odometer.integrate(time: Double(t), speed: 0.1) }
        // Position wander carried a fix 5 m away; the receiver says "at rest".
        #expect(odometer.count(chord: 5.1) == 0)
    }

    @Test func aPositionJumpDoesNotAddLength() {
        var odometer = Odometer()
        for t in 0...4 { odometer.integrate(time: Double(t), speed: 3) }
        // Multipath moved the fix 30 m sideways: the chord is 42 m, the runner ran 12.
        #expect(odometer.count(chord: 42) == 12)
    }
}
