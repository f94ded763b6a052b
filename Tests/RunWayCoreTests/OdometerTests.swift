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

    /// A cold start's offset decaying against the runner (issue 26): the positions crawl 6 m in
    /// 20 s while Doppler reads 3 m/s on one track. That velocity is the runner's; it is kept.
    @Test func aCoherentVelocityBeyondThePositionsIsKept() {
        var odometer = Odometer()
        for t in 0...20 { odometer.integrate(time: Double(t), speed: 3, track: 90 + Double(t % 3)) }
        #expect(odometer.count(chord: 6, duration: 20) == 60)
    }

    /// The same integral from readings whose track swings about (a receiver's noise, not a
    /// runner), or that averaged under a running speed, is still held to the positions.
    @Test func anIncoherentVelocityBeyondThePositionsIsStillRejected() {
        var swinging = Odometer()
        for t in 0...20 { swinging.integrate(time: Double(t), speed: 3, track: t % 2 == 0 ? 10 : 130) }
        #expect(swinging.count(chord: 6, duration: 20) == 6)
        var slow = Odometer()
        for t in 0...40 { slow.integrate(time: Double(t), speed: t % 3 == 0 ? 3 : 0, track: 90) }
        #expect(slow.count(chord: 6, duration: 40) == 6)
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

    /// While wander holds a running runner inside the 5 m anchor, the distance shown goes on with
    /// the speed integral not yet spent; it never goes back, and nothing is shown across a signal
    /// gap until the step after it counts. Before, it moved only at counted steps (in chunks of
    /// two fixes at 4 m/s: a 400 m interval ended at 408 m).
    @Test func theDistanceShownGoesOnWithSpeedBetweenCountedSteps() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 3)
        odometer.integrate(time: 1, speed: 3)
        odometer.integrate(time: 2, speed: 3)
        #expect(odometer.distance == 0)
        #expect(odometer.shown == 6)
        odometer.count(chord: 6.5)
        #expect(odometer.distance == 6 && odometer.shown == 6)
        odometer.integrate(time: 3, speed: 3)
        #expect(odometer.shown == 9)
        // A manual pause forgets the integral; what was shown stays.
        odometer.discardPending()
        #expect(odometer.distance == 6 && odometer.shown == 9)
        // An outage: the integral shows nothing across it (only ticks carry the display on:
        // `aTicksDisplayGoesOnThroughASilence…`) until the step after it counts.
        odometer.integrate(time: 33, speed: 3)
        #expect(odometer.shown == 9)
        odometer.count(chord: 88)
        #expect(odometer.distance == 94 && odometer.shown == 94)
        // A vehicle's rewind takes the shown distance back with it; paused by the button or a
        // vehicle, the integral still runs but is not shown.
        odometer.rewind(to: 50)
        #expect(odometer.shown == 50)
        odometer.hidesPending = true
        odometer.integrate(time: 34, speed: 12)
        odometer.integrate(time: 35, speed: 12)
        #expect(odometer.shown == 50)
    }

    /// Issue 26, live: through an underpass (no fix at all) the PFD's distance goes on at the
    /// speed the runner held, so a kilometre passed inside it is not shown 180 m late; it never goes back
    /// when the fixes after say less, and it waits for them after `maxCarry`. Before, it froze
    /// for the whole outage ("outages on a straight": 1.5 % behind at a kilometre mark).
    @Test func aTicksDisplayGoesOnThroughASilenceAtTheHeldSpeed() {
        // Five readings averaging 3 m/s, the last 3.4: the held speed is their mean.
        var odometer = Self.read([2.8, 3.0, 2.9, 2.9, 3.4])
        let counted = odometer.distance
        odometer.carry(to: 34)
        #expect(abs(odometer.display - (counted + 3 * 30)) < 1e-9)
        // What is recorded does not follow the ticks (a replay's differ from the live run's).
        #expect(odometer.shown == counted)
        odometer.carry(to: 30)  // an older tick moves nothing back
        #expect(abs(odometer.display - (counted + 90)) < 1e-9)
        // Beyond `maxCarry` of silence the display waits.
        odometer.carry(to: 4 + odometer.configuration.maxCarry + 10)
        #expect(abs(odometer.display - (counted + 90)) < 1e-9)
        // The fixes come back: the step across the silence said the runner stopped inside it
        // (a short chord), so the counted distance is less than displayed — and that holds.
        odometer.integrate(time: 40, speed: 3)
        odometer.count(chord: 20, duration: 36)
        #expect(odometer.distance < odometer.display)
        #expect(abs(odometer.display - (counted + 90)) < 1e-9)
    }

    /// Paused by the button or a vehicle, or with the receiver saying "standing", nothing is
    /// carried.
    @Test func nothingIsCarriedWhileHiddenOrStanding() {
        var hidden = Odometer()
        for t in 0...4 { hidden.integrate(time: Double(t), speed: 3) }
        hidden.hidesPending = true
        let displayed = hidden.display
        hidden.carry(to: 20)
        #expect(hidden.display == displayed)
        var standing = Odometer()
        for t in 0...4 { standing.integrate(time: Double(t), speed: 0.2) }
        standing.carry(to: 20)
        #expect(standing.display == 0 && standing.shown == 0)
    }

    /// A braking reading as the signal went (under `edgeShare` of the pace before it) says the
    /// runner stopped where the silence began: nothing is carried. Before, the mean of the last
    /// readings (2.6 m/s) was carried: "outage from a stop", seed 53, the display ran 115 m
    /// ahead while the runner stood, then froze for 40 s of running after the signal came back.
    @Test func aSilenceThatBeganWithBrakingCarriesNothing() {
        var braking = Self.read([3.0, 3.1, 2.9, 3.0, 1.2])
        let counted = braking.display
        braking.carry(to: 30)
        #expect(braking.display == counted)
        // A reading that only eased (a corner taken at 0.7 of the pace) still carries.
        var easing = Self.read([3.0, 3.1, 2.9, 3.0, 2.1])
        let before = easing.display
        easing.carry(to: 30)
        #expect(easing.display > before + 2 * 26)
    }

    /// An odometer that read `speeds` a second apart and counted them as one 12 m step.
    static func read(_ speeds: [Double]) -> Odometer {
        var odometer = Odometer()
        for (t, v) in speeds.enumerated() { odometer.integrate(time: Double(t), speed: v) }
        odometer.count(chord: 12)
        return odometer
    }

    /// An odometer that read `speeds` a second apart, each second's step counted.
    static func running(at speeds: [Double]) -> Odometer {
        var odometer = Odometer()
        for (t, v) in speeds.enumerated() {
            odometer.integrate(time: Double(t), speed: v)
            if t > 0 { odometer.count(chord: v, duration: 1) }
        }
        return odometer
    }

    /// A minute's silence after those readings (the last at 4 s, the next at 64 s, 150 m apart),
    /// its step counted at the speeds either side held: the mean of the five before (2.92 m/s)
    /// and `speedAfter`. Returns the step.
    @discardableResult
    static func minuteOfSilence(_ odometer: inout Odometer, speedAfter: Double) -> Double {
        odometer.integrate(time: 64, speed: speedAfter)
        let step = odometer.count(chord: 150, duration: 60)
        #expect(abs(step - (2.92 + speedAfter) / 2 * 60) < 1e-6)
        return step
    }

    /// The speed held across a silence is the mean of the last readings before it, not one
    /// reading's noise: 2.6 m/s read once after 3.0, 3.0, 3.0, 3.0 holds 2.92, not 2.6.
    @Test func theSpeedHeldAcrossASilenceIsTheMeanOfTheLastReadings() {
        var odometer = Self.running(at: [3.0, 3.0, 3.0, 3.0, 2.6])
        let before = odometer.distance
        let step = Self.minuteOfSilence(&odometer, speedAfter: 3)
        #expect(abs(odometer.distance - before - step) < 1e-9)
    }

    /// The speed after a silence is one reading when its step is counted; once five running
    /// readings are in, the step is revised to their mean: 3.4 read first, then 3.0 four times,
    /// is 3.08 after, the 60 s step (2.92 + 3.08) / 2 × 60 = 180 m, not 189.6 m. The shown
    /// distance does not go back; it holds until the runner has run what was taken.
    @Test func aStepAcrossASilenceIsRevisedToTheMeanOfTheReadingsAfterIt() {
        var odometer = Self.running(at: [3.0, 3.0, 3.0, 3.0, 2.6])
        let before = odometer.distance
        Self.minuteOfSilence(&odometer, speedAfter: 3.4)
        let shownAtTheStep = odometer.shown
        var counted = 0.0
        for t in 65...68 {
            odometer.integrate(time: Double(t), speed: 3)
            counted += odometer.count(chord: 3, duration: 1)
        }
        #expect(abs(odometer.distance - before - 180 - counted) < 1e-6, "\(odometer.distance - before)")
        #expect(odometer.shown >= shownAtTheStep)
        // A runner slowing under a walk right after the silence ends the revision with what came:
        // the one reading, so the step stands.
        var stopping = Self.running(at: [3, 3, 3, 3, 3])
        stopping.integrate(time: 64, speed: 3.4)
        let held = stopping.count(chord: 150, duration: 60)
        let afterStep = stopping.distance
        stopping.integrate(time: 65, speed: 0.5)
        let slowing = stopping.count(chord: 0.5, duration: 1)
        #expect(abs(held - 192) < 1e-6)
        #expect(abs(stopping.distance - afterStep - slowing) < 1e-9)
    }

    /// A minute's silence the runner stopped in (64 m of chord, far under the 3 m/s either side
    /// held), going in east and coming out north: the step is the quarter circle across the chord
    /// (71 m; the true path round the corner was 90), not the chord that cuts it. Without a turn
    /// known, or on a straight, it is the chord.
    @Test func aStopInASilenceIsTheArcItsHeadingsMake() {
        let chord = 45 * 2.squareRoot()
        var turning = Self.running(at: [3, 3, 3, 3, 3])
        turning.integrate(time: 64, speed: 3)
        #expect(abs(turning.count(chord: chord, duration: 60, turn: 90) - 45 * Double.pi / 2) < 1e-6)
        var straight = Self.running(at: [3, 3, 3, 3, 3])
        straight.integrate(time: 64, speed: 3)
        #expect(abs(straight.count(chord: 90, duration: 60, turn: 0) - 90) < 1e-9)
        var unknown = Self.running(at: [3, 3, 3, 3, 3])
        unknown.integrate(time: 64, speed: 3)
        #expect(abs(unknown.count(chord: chord, duration: 60) - chord) < 1e-9)
    }

    /// A step across a silence measured again on a new chord (the fixes after it put its exit
    /// elsewhere) keeps its rule: kept going, the larger of the chord and the speeds held; stopped,
    /// the arc on the new chord. Only the last crossing is measured again, and only once.
    @Test func aCrossingMeasuredAgainKeepsItsRule() {
        // Kept going: 200 m of chord (a jumped exit) against 177.6 m of speeds held → 185 m.
        var kept = Self.running(at: [3, 3, 3, 3, 3])
        kept.integrate(time: 64, speed: 2.92)
        let before = kept.distance
        #expect(abs(kept.count(chord: 200, duration: 60) - 200) < 1e-9)
        kept.remeasureCrossing(chord: 185)
        #expect(abs(kept.distance - before - 185) < 1e-9)
        kept.remeasureCrossing(chord: 100)
        #expect(abs(kept.distance - before - 185) < 1e-9)
        // A chord now under the speeds held falls back to them.
        var short = Self.running(at: [3, 3, 3, 3, 3])
        short.integrate(time: 64, speed: 3)
        let start = short.distance
        short.count(chord: 200, duration: 60)
        short.remeasureCrossing(chord: 150)
        #expect(abs(short.distance - start - 180) < 1e-9)
        // Stopped, turning 90°: the quarter circle on the new chord.
        var stopped = Self.running(at: [3, 3, 3, 3, 3])
        stopped.integrate(time: 64, speed: 3)
        let origin = stopped.distance
        stopped.count(chord: 40, duration: 60, turn: 90)
        stopped.remeasureCrossing(chord: 45 * 2.squareRoot())
        #expect(abs(stopped.distance - origin - 45 * Double.pi / 2) < 1e-6)
        // Another silence first: the crossing is gone, nothing moves.
        stopped.integrate(time: 80, speed: 3)
        let settled = stopped.distance
        stopped.remeasureCrossing(chord: 10)
        #expect(stopped.distance == settled)
    }

    /// A silence inside a stand (at rest either side) whose first fix back is a multipath jump
    /// 36 m off: its chord, past the 25 m a stand may wander, is counted, until the fixes after
    /// it vote the exit 1.6 m from the entry: then nothing (the shown distance holds until run).
    /// A stand that really moved (the vote 30 m away) keeps its chord.
    @Test func aStandsJumpedExitMeasuredAgainIsNothing() {
        func stand() -> Odometer {
            var odometer = Odometer()
            for t in 0..<5 {
                odometer.integrate(time: Double(t), speed: 0)
                if t > 0 { odometer.count(chord: 0.5, duration: 1) }
            }
            odometer.integrate(time: 17, speed: 0)
            return odometer
        }
        var jumped = stand()
        let before = jumped.distance
        #expect(abs(jumped.count(chord: 36, duration: 13) - 36) < 1e-9)
        jumped.remeasureCrossing(chord: 1.6)
        #expect(abs(jumped.distance - before) < 1e-9)
        #expect(jumped.shown >= before + 36 - 1e-9)
        var moved = stand()
        moved.count(chord: 36, duration: 13)
        moved.remeasureCrossing(chord: 30)
        #expect(abs(moved.distance - before - 30) < 1e-9)
    }
}

@Suite("Distance: positions overrule a speed that persistently disagrees")
struct OdometerDistrustTests {
    /// Steps of `chord` metres every 2 s east, with the receiver reporting `speed`.
    func run(_ odometer: inout Odometer, steps: Range<Int>, speed: Double, chord: Double = 6) {
        for i in steps {
            let t = Double(i) * 2
            odometer.integrate(time: t - 1, speed: speed)
            odometer.integrate(time: t, speed: speed)
            odometer.count(
                chord: chord, duration: 2, from: Track.coordinate(east: Double(i - 1) * chord),
                to: Track.coordinate(east: Double(i) * chord))
        }
    }

    @Test func aSpeedThatLiesLowWhilePositionsMarchOnIsOverruled() {
        // gpsd's bundg_zeus_9 capture: 0–0.4 m/s reported while the boat does 2.9 m/s.
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 3)
        run(&odometer, steps: 1..<11, speed: 3)
        let before = odometer.distance
        run(&odometer, steps: 11..<31, speed: 0.3)
        #expect(!odometer.speedIsTrusted)
        #expect(abs(odometer.distance - before - 20 * 6) < 1)
        // Speed that agrees again is trusted again after three steps.
        run(&odometer, steps: 31..<35, speed: 3)
        #expect(odometer.speedIsTrusted)
    }

    /// A march that switched speed off, then positions that stop marching while the speed still
    /// reads standing (a stand's wander folding back: east, west, east): the receiver was right,
    /// speed is trusted again at the first three steps that are no march, and the wander after
    /// that is no distance. Before, speed stayed off until three steps agreed, which a stand
    /// never gives: a 45 s stop in fast urban wander counted 104 m and no pause.
    @Test func aLieThatStopsMarchingGivesTheSpeedBack() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 3)
        run(&odometer, steps: 1..<11, speed: 3)
        run(&odometer, steps: 11..<16, speed: 0.3)
        #expect(!odometer.speedIsTrusted)
        let marched = odometer.distance
        var east = 15 * 6.0
        for i in 16..<40 {
            let t = Double(i) * 2
            odometer.integrate(time: t - 1, speed: 0)
            odometer.integrate(time: t, speed: 0)
            let next = i % 2 == 0 ? east + 6 : east - 6
            odometer.count(
                chord: 6, duration: 2, from: Track.coordinate(east: east), to: Track.coordinate(east: next))
            east = next
        }
        #expect(odometer.speedIsTrusted)
        // The first wander step still marched on with the two before it; none after counts.
        #expect(abs(odometer.distance - marched - 6) < 0.01, "\(odometer.distance - marched)")
    }

    @Test func aMultipathExcursionOutAndBackDoesNotOverruleSpeed() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 3)
        // Out 30 m sideways, along, and back: three disagreeing steps whose net line is short.
        let path: [(Double, Double)] = [(0, 0), (6, 30), (12, 30), (18, 0)]
        for i in 1..<path.count {
            odometer.integrate(time: Double(i) * 2 - 1, speed: 3)
            odometer.integrate(time: Double(i) * 2, speed: 3)
            let a = Track.coordinate(east: path[i - 1].0, north: path[i - 1].1)
            let b = Track.coordinate(east: path[i].0, north: path[i].1)
            odometer.count(chord: Geodesy.distance(a, b), duration: 2, from: a, to: b)
        }
        #expect(odometer.speedIsTrusted)
        #expect(abs(odometer.distance - 18) < 0.01)
    }

    /// A runner braking to a stop under trees: the last moving reading 1.6 m/s, then Doppler 0
    /// while the rough fixes wander on 4 m every 3 s (1.3 m/s, one way). That is no receiver
    /// lying about its speed: speed stays trusted (at a 1 m/s line it was switched off, and the
    /// positions then resumed the stop).
    @Test func wanderAfterBrakingDoesNotSwitchSpeedOff() {
        var odometer = Odometer()
        var east = 0.0
        for t in 0...10 {
            odometer.integrate(time: Double(t), speed: t < 10 ? 3 : 1.6)
            if t > 0 {
                odometer.count(
                    chord: 3, duration: 1, from: Track.coordinate(east: east),
                    to: Track.coordinate(east: east + 3))
                east += 3
            }
        }
        for step in 1...5 {
            let t = 10.0 + 3 * Double(step)
            odometer.integrate(time: t - 2, speed: 0)
            odometer.integrate(time: t - 1, speed: 0)
            odometer.integrate(time: t, speed: 0)
            odometer.count(
                chord: 4, duration: 3, from: Track.coordinate(east: east),
                to: Track.coordinate(east: east + 4))
            east += 4
        }
        #expect(odometer.speedIsTrusted)
    }

    /// A 60 s outage round a city corner at 3 m/s: the chord (127 m of 180) cuts the corner; the
    /// speeds either side held are the step. A 75 s outage with a 45 s stop inside (90 m): the
    /// chord, as before (holding the speed would credit the stop).
    @Test(arguments: [(60.0, 127.0, 180.0), (75, 90, 90), (60, 178, 180)])
    func aSilenceIsBridgedByTheSpeedsWhenTheChordSaysTheRunnerKeptGoing(
        _ gap: Double, _ chord: Double, _ counted: Double
    ) {
        var odometer = Odometer()
        for t in 0...10 {
            odometer.integrate(time: Double(t), speed: 3)
            if t > 0 {
                odometer.count(
                    chord: 3, duration: 1, from: Track.coordinate(east: Double(t - 1) * 3),
                    to: Track.coordinate(east: Double(t) * 3))
            }
        }
        let before = odometer.distance
        odometer.integrate(time: 10 + gap, speed: 3)
        let step = odometer.count(
            chord: chord, duration: gap, from: Track.coordinate(east: 30),
            to: Track.coordinate(east: 30 + chord))
        #expect(abs(step - counted) < 0.01)
        #expect(abs(odometer.distance - before - counted) < 0.01)
    }

    /// A cold start's offset decaying back (issue 26): Doppler reads a runner's 3 m/s while the
    /// positions race 10 m/s one way for 20 s. Doppler is right: speed stays trusted and the
    /// distance is what it integrates (the positions' net line made the live distance 33 % long).
    @Test func positionsRacingAheadOfAHealthyDopplerDoNotOverruleIt() {
        var odometer = Odometer()
        odometer.integrate(time: 0, speed: 3)
        for t in 1...20 {
            odometer.integrate(time: Double(t), speed: 3)
            odometer.count(
                chord: 10, duration: 1, from: Track.coordinate(east: Double(t - 1) * 10),
                to: Track.coordinate(east: Double(t) * 10))
        }
        #expect(odometer.speedIsTrusted)
        #expect(abs(odometer.distance - 60) < 1)
    }

    /// A stop in an urban canyon (issue 26): just after braking from 2.6 m/s, Doppler reads 0
    /// while the fix wanders 6 m a second three times and then jumps 35 m (multipath). The net
    /// line is that one jump, not a march: speed stays trusted and nothing is counted.
    @Test func aJumpClosingAStopsWanderIsNoMarch() {
        var odometer = Odometer()
        for t in 0...10 {
            odometer.integrate(time: Double(t), speed: t < 10 ? 3 : 2.6)
            if t > 0 {
                odometer.count(
                    chord: 3, duration: 1, from: Track.coordinate(east: Double(t - 1) * 3),
                    to: Track.coordinate(east: Double(t) * 3))
            }
        }
        let before = odometer.distance
        var east = 30.0
        for (t, step) in [(11.0, 6.0), (12, 6), (13, 6), (20, 35)] {
            odometer.integrate(time: t, speed: 0)
            odometer.count(
                chord: step, duration: t == 20 ? 7 : 1, from: Track.coordinate(east: east),
                to: Track.coordinate(east: east + (t == 20 ? -35 : 6)))
            east += t == 20 ? -35 : 6
        }
        #expect(odometer.speedIsTrusted)
        #expect(odometer.distance - before < 2)  // the braking's own 1.3 m
    }
}
