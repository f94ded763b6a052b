import Foundation
import Testing

@testable import RunWayCore

/// The live rules where running is hard (issue 26): a stop amid wander is a stop when Doppler says
/// so, a stop inside an outage is split from the running on either side of it, rough fixes are
/// no signal loss.
@Suite("Live rules in hard conditions: stops in wander and in outages")
struct HardConditionTests {
    /// A detector that saw the runner go at 3 m/s for `seconds`, a fix a second.
    func running(for seconds: Int) -> PauseDetector {
        var pause = PauseDetector(startedAt: 0)
        for t in 1...seconds {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        return pause
    }

    @Test func oneNoisyReadingBesideAWanderStepIsNoResume() {
        var pause = running(for: 60)
        // Standing from 60 s: Doppler noise at rest, one reading of 0.6 m/s with a 5 m wander step.
        for t in 61...100 {
            let noisy = t == 80
            _ = pause.observeFix(
                time: Double(t), speed: noisy ? 0.6 : 0.1, moved: noisy, step: noisy ? 5 : 0,
                speedIsDoppler: true)
        }
        #expect(pause.pauseReason == .stopped)
        #expect(abs(pause.movingTime(at: 100) - 60.5) < 1)
    }

    @Test func threeRunningReadingsResumeFromTheFirst() {
        var pause = running(for: 60)
        for t in 61...90 {
            _ = pause.observeFix(time: Double(t), speed: 0, moved: false, step: 0, speedIsDoppler: true)
        }
        #expect(pause.pauseReason == .stopped)
        var resumed: Double?
        for t in 91...95 {
            for case .resumed(let at) in pause.observeFix(
                time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
            {
                resumed = at
            }
        }
        // Said at the third running reading, backdated to the first (half a fix interval before).
        #expect(resumed == 90.5)
    }

    /// A signal gap from 100 s to `end`, the first fix back `step` metres on, turned `turn`°.
    func gap(until end: Double, step: Double, turn: Double? = nil) -> PauseDetector {
        var pause = running(for: 100)
        _ = pause.advance(to: 100 + 9)
        #expect(pause.pauseReason == .signalLost)
        _ = pause.observeFix(time: end, speed: 3, moved: true, step: step, speedIsDoppler: true, turn: turn)
        for t in 1...3 {
            _ = pause.observeFix(time: end + Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        return pause
    }

    @Test func aStopInsideAnOutageIsSplitFromTheRunningAroundIt() {
        // 80 s without a fix, 90 m on: 30 s of running at 3 m/s and the stop's braking and
        // getting going (1.2 s), 48.8 s standing.
        let pause = gap(until: 180, step: 90)
        let cost = pause.configuration.stopCost(speed: 3)
        #expect(abs(cost - 2.5 * 2.5 / 6 * (1 / 2.0 + 1 / 1.5)) < 1e-9)
        #expect(!pause.isPaused)
        #expect(abs(pause.movingTime(at: 183) - (100 + 30 + cost + 3)) < 0.01, "\(pause.pauses)")
        let stop = pause.pauses.last
        #expect(
            stop?.reason == .signalLost && abs((stop?.duration ?? 0) - (50 - cost)) < 0.01, "\(pause.pauses)")
    }

    /// The first reading after an outage a getting-going one (0.97 m/s after 3 m/s): the
    /// runner stood until the signal came back. The step (96 m) is run at the speed before,
    /// 32 s and the braking (0.52 s), all at the gap's start; the stop lasts until the streak
    /// the reading began. On the two readings' mean (1.99 m/s) the stop came out 16 s short.
    @Test func aGettingGoingReadingAfterAnOutageEndsTheStopThere() {
        var pause = running(for: 100)
        _ = pause.advance(to: 109)
        _ = pause.observeFix(time: 175, speed: 0.97, moved: true, step: 96, speedIsDoppler: true)
        for t in 176...178 {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        #expect(!pause.isPaused)
        let moving = 100 + 32 + pause.configuration.pullingUpCost(speed: 3) + (178 - 174.5)
        #expect(abs(pause.movingTime(at: 178) - moving) < 0.01, "\(pause.pauses)")
        #expect(
            abs((pause.pauses.last?.start ?? 0) - (132 + pause.configuration.pullingUpCost(speed: 3))) < 0.01)
    }

    /// The signal gone just after the runner pulled up (its last reading a braking one, so the
    /// automatic pause came first): the step back (90 m at 3 m/s, 30 s and the getting going,
    /// 0.69 s) was run at the silence's end. The whole silence counted as a stop (30 s short).
    @Test func anOutageThatBeganAsTheRunnerStoodEndsTheStopAtItsRunning() {
        var pause = running(for: 100)
        _ = pause.observeFix(time: 101, speed: 0.3, moved: false, step: 0, speedIsDoppler: true)
        _ = pause.advance(to: 108)
        #expect(pause.pauseReason == .stopped)
        for t in 161...163 {
            _ = pause.observeFix(
                time: Double(t), speed: 3, moved: true, step: t == 161 ? 90 : 3, speedIsDoppler: true)
        }
        #expect(!pause.isPaused)
        let resumed = 161 - 30 - pause.configuration.gettingGoingCost(speed: 3)
        #expect(abs((pause.pauses.last?.end ?? 0) - resumed) < 0.01, "\(pause.pauses)")
        #expect(abs(pause.movingTime(at: 163) - (100.5 + 163 - resumed)) < 0.01)
    }

    /// A wander step with one noisy reading ends that silence while the runner still stands;
    /// the run that begins 40 s later resumes where its own streak began, not 5 m / 0.6 m/s
    /// before the wander step.
    @Test func aWanderStepEndingASilenceInAStopIsNoRunning() {
        var pause = running(for: 100)
        _ = pause.observeFix(time: 101, speed: 0.3, moved: false, step: 0, speedIsDoppler: true)
        _ = pause.advance(to: 108)
        _ = pause.observeFix(time: 120, speed: 0.6, moved: true, step: 5, speedIsDoppler: true)
        for t in 121...159 {
            _ = pause.observeFix(time: Double(t), speed: 0.1, moved: false, step: 0, speedIsDoppler: true)
        }
        for t in 160...162 {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        #expect(!pause.isPaused)
        #expect(abs((pause.pauses.last?.end ?? 0) - 159.5) < 0.01, "\(pause.pauses)")
    }

    /// The step back measured from the anchor a fix before the gap's last fix (the movement
    /// filter holds steps under 5 m) covers that second too, which was already moving time.
    @Test func aGapsStepFromAnEarlierFixCountsOnlyTheRunningInTheGap() {
        var pause = running(for: 100)
        _ = pause.advance(to: 109)
        _ = pause.observeFix(time: 180, speed: 3, moved: true, step: 93, speedIsDoppler: true, stepFrom: 99)
        for t in 181...183 {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        let cost = pause.configuration.stopCost(speed: 3)
        #expect(abs(pause.movingTime(at: 183) - (100 + 30 + cost + 3)) < 0.01, "\(pause.pauses)")
    }

    /// The chord slower than walking (70 m in 80 s) still says how long the runner ran: 23 s
    /// at 3 m/s, the rest a stop. It was all stop (a 45 s stop booked as 75 s).
    @Test func aStopInsideAnOutageIsSplitEvenWhenTheChordCrawls() {
        let pause = gap(until: 180, step: 70)
        let running = 70.0 / 3 + pause.configuration.stopCost(speed: 3)
        #expect(abs(pause.movingTime(at: 183) - (100 + running + 3)) < 0.01)
        #expect(abs((pause.pauses.last?.duration ?? 0) - (80 - running)) < 0.01, "\(pause.pauses)")
    }

    /// Two corners of a city block in 80 s (a staircase, no net turn): 240 m of street, a chord
    /// of 240 / 1.4 m, and the readings either side 5 % fast. All of it is running.
    @Test func aStaircaseThroughAGridIsRunningWithinItsReadingsNoise() {
        var pause = PauseDetector(startedAt: 0)
        for t in 1...100 {
            _ = pause.observeFix(time: Double(t), speed: 3.15, moved: true, step: 3, speedIsDoppler: true)
        }
        _ = pause.advance(to: 109)
        _ = pause.observeFix(
            time: 180, speed: 3.15, moved: true, step: 240 / 1.4, speedIsDoppler: true, turn: 2)
        for t in 181...183 {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        #expect(abs(pause.movingTime(at: 183) - 183) < 1, "\(pause.pauses)")
    }

    /// A 30 s stop inside a 61 s gap round a 64° turn: 90 m of chord, the first reading back
    /// 2.47 m/s after 3 (no getting-going reading by `edgeShare`). A staircase is at most √2 ×
    /// its chord and a path round the turn 1.18 ×, but not both at once: their product (1.84)
    /// let 33 s of running at the readings' mean fill the gap, and the stop was running.
    @Test func aStopRoundATurnIsNotHiddenByTheStaircaseAndTheBendTogether() {
        var pause = running(for: 100)
        _ = pause.advance(to: 100 + 9)
        _ = pause.observeFix(time: 161, speed: 2.47, moved: true, step: 90, speedIsDoppler: true, turn: 64)
        for t in 162...164 {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        let stood = 164 - pause.movingTime(at: 164)
        #expect(stood > 20 && stood < 32, "\(pause.pauses)")
        // Round a block and back with running at both edges: turned back, all of it running.
        #expect(abs(gap(until: 180, step: 20, turn: 175).movingTime(at: 183) - 183) < 1)
    }

    @Test func runningThroughAnOutageIsAllMovingStraightOrRoundCorners() {
        // Straight: 240 m in 80 s.
        #expect(abs(gap(until: 180, step: 240).movingTime(at: 183) - 183) < 1)
        // Two blocks round a corner: 170 m of chord for 240 m of street.
        #expect(abs(gap(until: 180, step: 170, turn: 90).movingTime(at: 183) - 183) < 1)
        // Round a block and back (a U): the chord is short, the turn says why.
        #expect(abs(gap(until: 180, step: 90, turn: 180).movingTime(at: 183) - 183) < 1)
    }

    /// East at 3 m/s for 10 s, a counted 3 m step each second: 30 m, speed trusted.
    static func runTenSeconds(_ odometer: inout Odometer) {
        odometer.integrate(time: 0, speed: 3)
        for t in 1...10 {
            odometer.integrate(time: Double(t), speed: 3)
            let east = Double(t) * 3
            odometer.count(
                chord: 3, duration: 1, from: Track.coordinate(east: east - 3),
                to: Track.coordinate(east: east))
        }
    }

    @Test func aRunnersBrakingAndFirstWanderStepsDoNotSwitchSpeedOff() {
        // Running at 3 m/s, then stopped: the last braking metres and wander make three steps
        // of 5–6 m within 3 s while Doppler reads 0. They are no lie about the speed.
        var odometer = Odometer()
        Self.runTenSeconds(&odometer)
        var east = 30.0
        for (t, step) in [(11.0, 5.5), (12.0, 5.2), (13.0, 5.8)] {
            odometer.integrate(time: t, speed: 0)
            odometer.count(
                chord: step, duration: 1, from: Track.coordinate(east: east),
                to: Track.coordinate(east: east + step))
            east += step
        }
        #expect(odometer.speedIsTrusted)
        #expect(abs(odometer.distance - 31.5) < 0.01)  // 30 m run, 1.5 m braking: no wander
    }

    /// Stopped under trees after running at 3 m/s: the wander makes three 6.3 m steps in 8 s,
    /// Doppler reading 0, their net line 13.9 m (1.7 m/s, a march by its pace, no step over half
    /// of it) but turning: east, then north, then north-east, 0.74 of their 18.9 m. Speed stays
    /// trusted and the wander is no distance (without `marchStraightness` it went off); the same
    /// steps in one line are a march (gpsd's bundg_zeus_9) and count.
    @Test func aStopsWanderThatTurnsIsNoMarch() {
        func stopped(_ steps: [(Double, Double)], straightness: Double = 0.8) -> Odometer {
            var configuration = Odometer.Configuration()
            configuration.marchStraightness = straightness
            var odometer = Odometer(configuration: configuration)
            Self.runTenSeconds(&odometer)
            var place = SIMD2<Double>(30, 0)
            var time = 10.0
            for (seconds, degrees) in steps {
                for k in 1...Int(seconds) { odometer.integrate(time: time + Double(k), speed: 0) }
                time += seconds
                let step = 6.3 * SIMD2(cos(degrees * .pi / 180), sin(degrees * .pi / 180))
                let next = place + step
                odometer.count(
                    chord: 6.3, duration: seconds, from: Track.coordinate(east: place.x, north: place.y),
                    to: Track.coordinate(east: next.x, north: next.y))
                place = next
            }
            return odometer
        }
        // 30 m run, 1.5 m braking (the trapezoid into the first 0): no wander.
        let turning: [(Double, Double)] = [(2, 0), (3, 100), (3, 20)]
        let wander = stopped(turning)
        #expect(wander.speedIsTrusted)
        #expect(abs(wander.distance - 31.5) < 0.01, "\(wander.distance)")
        #expect(!stopped(turning, straightness: 0).speedIsTrusted)
        let march = stopped([(2, 0), (3, 0), (3, 0)])
        #expect(!march.speedIsTrusted)
        #expect(abs(march.distance - 48.9) < 0.01, "\(march.distance)")
    }

    /// Steps healed short of their anchors' distance (a multipath jump the movement filter
    /// followed as a detour: 3.2 m steps whose fixes are 10 m apart) make a net line longer than
    /// their sum, which no march can: speed stays trusted. Without the check the 30 m of net line
    /// over 9.6 m of steps passed for a march, and a stop's wander was counted for a minute.
    @Test func stepsHealedShortOfTheirFixesAreNoMarch() {
        var odometer = Odometer()
        Self.runTenSeconds(&odometer)
        var east = 30.0
        var time = 10.0
        for _ in 1...3 {
            for k in 1...2 { odometer.integrate(time: time + Double(k), speed: 0) }
            time += 2
            odometer.count(
                chord: 3.2, duration: 2, from: Track.coordinate(east: east),
                to: Track.coordinate(east: east + 10))
            east += 10
        }
        #expect(odometer.speedIsTrusted)
        #expect(abs(odometer.distance - 31.5) < 0.01, "\(odometer.distance)")
    }

    /// An outage whose first reading back is a getting-going one (0.97 m/s after running at
    /// 3 m/s): the runner stood until the signal came back, so the step is the arc across the
    /// chord, not the speeds either side held (96 m of chord in 75 s passed the kept-going share
    /// on their mean, 1.99 m/s, and counted 149 m; revised to the running after it, 225 m).
    @Test func aGettingGoingReadingAfterASilencePutsTheStopInIt() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 3, 3])
        let before = odometer.distance
        odometer.integrate(time: 79, speed: 0.97)
        let step = odometer.count(chord: 96, duration: 75, turn: 0)
        #expect(abs(step - 96) < 1e-9, "\(step)")
        for t in 80...84 {
            odometer.integrate(time: Double(t), speed: 3)
            odometer.count(chord: 2, duration: 1)
        }
        #expect(odometer.distance - before < 96 + 5 * 3, "\(odometer.distance - before)")
    }

    /// A braking reading as the signal went (1 m/s after 3 m/s): the stop began there, so the
    /// speeds held through the silence are no measure of it (100 m of chord in 61 s passed on
    /// 2.8 m/s and counted 171 m).
    @Test func aBrakingReadingBeforeASilencePutsTheStopInIt() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 3, 1])
        odometer.integrate(time: 65, speed: 3)
        #expect(abs(odometer.count(chord: 100, duration: 61, turn: 0) - 100) < 1e-9)
        // Running readings at both edges: kept going, the speeds held (3 m/s × 61 s).
        var kept = OdometerTests.running(at: [3, 3, 3, 3, 3])
        kept.integrate(time: 65, speed: 3)
        #expect(abs(kept.count(chord: 120, duration: 61, turn: 0) - 183) < 1e-9)
    }

    /// A silence that turned the runner back (a hairpin 40 m across, headings 175° apart) with
    /// running readings at both edges: the runner kept going round, the speeds held (3 m/s ×
    /// 61 s), however short the chord. A turn of 100° is no turn-around (the arc across the
    /// chord); nor is a turn-around whose last reading before the silence was a braking one.
    @Test func aSilenceThatTurnedTheRunnerBackWasRunRound() {
        var kept = OdometerTests.running(at: [3, 3, 3, 3, 3])
        kept.integrate(time: 65, speed: 3)
        #expect(abs(kept.count(chord: 40, duration: 61, turn: 175) - 183) < 1e-9)
        // The speed after revised to the running readings that follow: still round the turn.
        let before = kept.distance
        for t in 66...69 {
            kept.integrate(time: Double(t), speed: 3)
            kept.count(chord: 3, duration: 1)
        }
        #expect(abs(kept.distance - before - 12) < 1e-6, "\(kept.distance - before)")
        var corner = OdometerTests.running(at: [3, 3, 3, 3, 3])
        corner.integrate(time: 65, speed: 3)
        let arc = 40 * (100 * Double.pi / 360) / sin(100 * Double.pi / 360)
        #expect(abs(corner.count(chord: 40, duration: 61, turn: 100) - arc) < 1e-9)
        var braked = OdometerTests.running(at: [3, 3, 3, 3, 1])
        braked.integrate(time: 65, speed: 3)
        #expect(braked.count(chord: 40, duration: 61, turn: 175) < 50)
    }

    /// A turn-around whose first reading back (1.85 m/s) passes against the 3 m/s before but,
    /// once the running after it is in (3.5 m/s), reads getting going: the runner stood until
    /// the signal came back, so the revision takes the arc.
    @Test func aTurnAroundWhoseFirstReadingBackProvesGettingGoingIsAStop() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 3, 3])
        let before = odometer.distance
        odometer.integrate(time: 65, speed: 1.85)
        #expect(odometer.count(chord: 40, duration: 61, turn: 175) > 140)
        var counted = 0.0
        for t in 66...69 {
            odometer.integrate(time: Double(t), speed: 3.5)
            counted += odometer.count(chord: 3, duration: 1)
        }
        let arc = 40 * (Double.pi / 3) / sin(Double.pi / 3)
        #expect(abs(odometer.distance - before - arc - counted) < 1e-6, "\(odometer.distance - before)")
    }

    /// The kept-going rule is judged again when the speed after is revised: 95 m of chord in
    /// 60 s passes on 3 m/s before and one 2 m/s reading after (0.55 × 2.5 × 60 = 82.5 m), but
    /// not once four 3.4 m/s readings make the speed after 3.12 (101 m): the arc, here the chord.
    @Test func theKeptGoingRuleIsJudgedAgainOnTheRevisedSpeeds() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 3, 3])
        let before = odometer.distance
        odometer.integrate(time: 64, speed: 2)
        #expect(abs(odometer.count(chord: 95, duration: 60, turn: 0) - 150) < 1e-9)
        var counted = 0.0
        for t in 65...68 {
            odometer.integrate(time: Double(t), speed: 3.4)
            counted += odometer.count(chord: 3, duration: 1)
        }
        #expect(abs(odometer.distance - before - 95 - counted) < 1e-6, "\(odometer.distance - before)")
    }

    @Test func roughFixesUnderTreesAreNoSignalLoss() {
        // 20 s of fixes claiming 60 m (beyond the 50 m gate) in the middle of a run: nothing
        // said, nothing paused (the runner heard "signal lost" under every canopy).
        var computer = FlightComputer()
        computer.rotate()
        var out: [EngineOutput] = []
        for t in 0...120 {
            let rough = (50..<70).contains(t)
            out += computer.handle(
                .fix(Track.fix(Double(t), east: 3 * Double(t), speed: 3, accuracy: rough ? 60 : 8)))
        }
        let pauses = out.compactMap { output -> Callout? in
            guard case .callout(let timed) = output else { return nil }
            switch timed.callout {
            case .pause, .signalLost: return timed.callout
            default: return nil
            }
        }
        #expect(pauses.isEmpty, "\(pauses)")
        let flight = computer.land()
        #expect(flight?.pauses.isEmpty == true, "\(flight?.pauses ?? [])")
        #expect(flight.map { abs($0.movingTime - 120) < 1 } == true)
    }

    /// Under trees `eph` reads 30–60 m while the fixes are good: once the receiver has been
    /// reading ~45 m, a 60 m fix is its usual, not a stale one. Before, every fix over 50 m was
    /// rejected (a third of tree cover's fixes).
    @Test func accuracyIsJudgedAgainstWhatTheReceiverHasBeenAchieving() {
        var filter = MovementFilter()
        for t in 0..<20 { _ = filter.assess(Track.fix(Double(t), east: 3 * Double(t), accuracy: 45)) }
        #expect(filter.assess(Track.fix(20, east: 60, accuracy: 60)).isAccepted)
        // A stale fix far beyond the usual is still rejected.
        #expect(filter.assess(Track.fix(21, east: 63, accuracy: 200)) == .rejected(.poorAccuracy(200)))
        // In the open (typical 8 m) the floor holds.
        var open = MovementFilter()
        for t in 0..<20 { _ = open.assess(Track.fix(Double(t), east: 3 * Double(t))) }
        #expect(open.assess(Track.fix(20, east: 60, accuracy: 60)) == .rejected(.poorAccuracy(60)))
    }

    /// A run that starts under trees, every fix reading 55 m: the gate learns the receiver's
    /// usual from the fixes it refuses too, and lets them in within seconds (it learnt only from
    /// fixes it let in, so none ever was: the first 40 s of a run went uncounted).
    @Test func aRunStartingUnderTreesIsCountedWithinSeconds() {
        var filter = MovementFilter()
        var firstAccepted: Int?
        for t in 0..<40 where firstAccepted == nil {
            if filter.assess(Track.fix(Double(t), east: 3 * Double(t), accuracy: 55)).isAccepted {
                firstAccepted = t
            }
        }
        #expect((firstAccepted ?? 99) <= 10, "\(String(describing: firstAccepted))")
    }

    /// A cold start whose offset (200 m ahead of the runner) decays at 3.5 m/s while the runner
    /// runs east at 3 m/s: for 57 s the fixes crawl back 0.5 m/s against the runner's way, then
    /// follow the truth. Doppler reads 3 m/s east throughout. The live distance is the runner's
    /// (it was the fixes': 150 m short at 90 s).
    @Test func aColdStartDecayingAgainstTheRunnerCountsTheRunning() {
        var computer = FlightComputer()
        computer.rotate()
        for t in 0...90 {
            let offset = max(0, 200 - 3.5 * Double(t))
            var fix = Track.fix(Double(t), east: 3 * Double(t) + offset, speed: 3, accuracy: 30)
            fix.track = 90
            _ = computer.handle(.fix(fix))
        }
        #expect(abs(computer.pfd.distance - 270) < 15, "\(computer.pfd.distance)")
    }

    /// A receiver reading 140 m and worse (indoors, gpsd's haicom-305N) is never let in, however
    /// long it reads so: the learnt limit stops at 80 m.
    @Test func aReceiverReadingHundredsOfMetresIsNeverLetIn() {
        var filter = MovementFilter()
        for t in 0..<200 {
            #expect(!filter.assess(Track.fix(Double(t), east: Double(t % 5), accuracy: 142.5)).isAccepted)
        }
    }
}

/// A fix rejected as a jump is a fix with a speed (helper-4's rule from wt/gate, fa112e7).
@Suite("Live rules: a jumped position keeps its speed")
struct JumpedFixTests {
    /// Fixes snapping 400 m away for 30 s mid-run, rejected as jumps, while Doppler reads a
    /// steady 3 m/s: the runner ran on. The distance shown goes on with speed, nothing pauses.
    /// Before, the rejected spell was silence: the distance froze and "signal lost" was said.
    @Test func fixesRejectedAsJumpsStillGiveTheirSpeed() throws {
        var computer = FlightComputer()
        computer.rotate()
        var out: [EngineOutput] = []
        for t in 0...120 {
            let snapped = (61...90).contains(t)
            out += computer.handle(
                .fix(Track.fix(Double(t), east: 3 * Double(t), north: snapped ? 400 : 0, speed: 3)))
            if t == 90 {
                #expect(abs(computer.pfd.distance - 270) < 6, "\(computer.pfd.distance)")
            }
        }
        let pauses = callouts(out).filter {
            if case .pause = $0 { true } else { $0 == .signalLost }
        }
        #expect(pauses.isEmpty, "\(pauses)")
        let landed = computer.land()
        let flight = try #require(landed)
        #expect(abs(flight.distance - 360) < 3, "\(flight.distance)")
    }
}
