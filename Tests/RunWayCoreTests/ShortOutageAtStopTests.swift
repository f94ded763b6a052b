import RunWayCore
import Testing

/// Issue 26: short outages (12–16 s) at a city light, found by random outages over "stops in
/// urban wander" (`Scenario.outagesAtStops` flies them): a reading at rest at a silence's edge
/// says where the runner stood, and the distance across the silence must not be taken from
/// speeds or headings that the stand makes meaningless.
@Suite("Short outages at a stop")
struct ShortOutageAtStopTests {
    /// Standing before and after a 15 s silence: the 8 m between the fixes either side is the
    /// wander's. It was counted (7–11 m a run inside a light's wait).
    @Test func aSilenceWithTheRunnerAtRestAtBothEdgesAddsNothing() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 0.2, 0, 0, 0, 0])
        let before = odometer.distance
        odometer.integrate(time: 22, speed: 0)
        #expect(odometer.count(chord: 8, duration: 15) == 0)
        #expect(odometer.distance == before)
        // Further than a stand's wander goes, the runner went somewhere: the chord.
        odometer.integrate(time: 40, speed: 0)
        #expect(odometer.count(chord: 40, duration: 18) == 40)
    }

    /// At rest before the silence and running after it, round a corner's light (the headings
    /// 116° apart): neither the speeds held (the mean of 0 and 3 m/s over 27 s, 40 m) nor the
    /// arc of the turn (30 m) — the runner turned where it stood — but the chord, 25.5 m.
    @Test func aSilenceFromAStandIsItsChord() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 0.2, 0, 0, 0, 0])
        let before = odometer.distance
        odometer.integrate(time: 34, speed: 2.97)
        #expect(odometer.count(chord: 25.5, duration: 27, turn: 116) == 25.5)
        #expect(odometer.distance - before == 25.5)
    }

    /// The saved flight: east at 3 m/s into a 13 s outage that ends as the runner comes to a
    /// light 35 m on (the reading back 0), 20 s standing, then east again. The speeds either side
    /// held through the gap credited half the pace (19.5 m); with the reading at rest at the exit
    /// the gap is a stop's, and its distance the chord.
    @Test func theSavedBridgeOfAGapEndingAtAStandIsItsChord() throws {
        let base = DistanceProfileTests()
        var fixes = (0...300).map { base.fix(Double($0), east: 3 * Double($0)) }
        fixes += (313...333).map { t in
            Fix(
                time: Double(t), coordinate: base.projection.coordinate(east: 935, north: 0),
                horizontalAccuracy: 5, speed: 0, track: nil)
        }
        fixes += (334...500).map { base.fix(Double($0), east: 935 + 3 * Double($0 - 333)) }
        let profile = try #require(base.profile(of: fixes))
        let truth = 900 + 35 + 3 * 167.0
        #expect(abs(profile.total - truth) < 3, "\(profile.total) for \(truth)")
    }

    /// East at 3 m/s to a light at 900 m (300 s), 60 s standing (paused from 300.5 s), then east
    /// again; at the stand the fixes read at rest, `standing` says where (the receiver's wander),
    /// and those in `silent` never come. The running fixes after the stand carry the wander the
    /// stand ended on, as a correlated wander does.
    func profileOfAStand(silent: Range<Int>, standing: (Int) -> SIMD2<Double>) -> DistanceProfile? {
        let base = DistanceProfileTests()
        func at(_ t: Int, _ p: SIMD2<Double>, speed: Double) -> Fix {
            Fix(
                time: Double(t), coordinate: base.projection.coordinate(east: p.x, north: p.y),
                horizontalAccuracy: 5, speed: speed, track: speed > 0 ? 90 : nil)
        }
        var fixes = (0...300).map { base.fix(Double($0), east: 3 * Double($0)) }
        fixes += (301...360).map { at($0, standing($0), speed: 0) }
        fixes += (361...600).map { at($0, standing(360) + SIMD2(3 * Double($0 - 360), 0), speed: 3) }
        return base.profile(
            of: fixes.filter { !silent.contains(Int($0.time)) },
            pauses: [PauseInterval(start: 300.5, end: 360, reason: .stopped)])
    }

    /// A silence inside a light's wait, the runner at rest before and after it: what the fixes
    /// either side of the silence say moved is the wander's (here 8 m), not distance. The
    /// silence carried the stretch through the pause, and the step from where the stand began to
    /// where it ended was counted ("short outages at stops": +2.7 m a stop on average over 100
    /// seeds, up to 8 m).
    @Test func aSilenceInsideAStandAddsNothing() throws {
        func wander(_ t: Int) -> SIMD2<Double> { SIMD2(900, t < 315 ? 0 : 8) }
        let silent = try #require(profileOfAStand(silent: 310..<323, standing: wander))
        let heard = try #require(profileOfAStand(silent: 0..<0, standing: wander))
        #expect(abs(silent.total - heard.total) < 0.5, "\(silent.total) for \(heard.total)")
        #expect(abs(heard.total - (900 + 3 * 240)) < 3, "\(heard.total)")
    }

    /// Standing at a light from 300 s; the signal goes at 331 s, the runner sets off inside the
    /// silence and is 45 m on when the first fix comes back at 350 s, a slow first reading
    /// (0.3 m/s) that kept the pause on to 350.5 s. The fixes either side are further apart than
    /// a stand wanders: the silence is run, not stood through, and its 45 m are distance.
    @Test func aSilenceInAStandThatEndsFarOnIsRun() throws {
        let base = DistanceProfileTests()
        func at(_ t: Int, east: Double, speed: Double) -> Fix {
            Fix(
                time: Double(t), coordinate: base.projection.coordinate(east: east, north: 0),
                horizontalAccuracy: 5, speed: speed, track: speed > 0 ? 90 : nil)
        }
        var fixes = (0...300).map { base.fix(Double($0), east: 3 * Double($0)) }
        fixes += (301...330).map { at($0, east: 900, speed: 0) }
        fixes.append(at(350, east: 945, speed: 0.3))
        fixes += (351...600).map { at($0, east: 945 + 3 * Double($0 - 350), speed: 3) }
        let profile = try #require(
            base.profile(of: fixes, pauses: [PauseInterval(start: 300.5, end: 350.5, reason: .stopped)]))
        let truth = 945 + 3 * 250.0
        #expect(abs(profile.total - truth) < 3, "\(profile.total) for \(truth)")
    }

    /// A silence from running into a stand (the runner brakes at 900 m inside it) whose fixes
    /// after it wander 6 m on along the way while the runner waits: the distance across the
    /// silence ends where its first fix put the runner, not where the stand's wander had got to
    /// when the runner set off (6 m more).
    @Test func aSilenceIntoAStandEndsAtItsFirstFix() throws {
        func wander(_ t: Int) -> SIMD2<Double> { SIMD2(900 + 6 * Double(max(t - 305, 0)) / 55, 0) }
        let profile = try #require(profileOfAStand(silent: 291..<305, standing: wander))
        #expect(abs(profile.total - (900 + 3 * 240)) < 3, "\(profile.total)")
    }
}

/// Issue 26: a silence inside which the receiver's solution moved (found by random short
/// outages over the cold starts).
@Suite("A jump hidden in a silence")
struct SilenceJumpTests {
    /// Running at 3 m/s into a 7 s silence, out of it 230 m from where it went in: a cold start's
    /// offset snapped away while no fix came. At most the speeds' 21 m (× 1.5, + 20 m of
    /// wander) could have been run: the step is the speeds held, not the chord (it was 230 m).
    @Test func aChordNoSpeedCouldRunIsTheSpeedsHeld() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 3, 3])
        let before = odometer.distance
        odometer.integrate(time: 11, speed: 3)
        #expect(abs(odometer.count(chord: 230, duration: 7) - 21) < 1e-9)
        #expect(abs(odometer.distance - before - 21) < 1e-9)
    }

    /// Within what the speeds allow (a corner's chord, 40 m in 15 s at 3 m/s), the rules for a
    /// kept-going silence stand: the speeds held, 45 m.
    @Test func aChordTheSpeedsCouldRunIsJudgedAsBefore() {
        var odometer = OdometerTests.running(at: [3, 3, 3, 3, 3])
        odometer.integrate(time: 19, speed: 3)
        #expect(abs(odometer.count(chord: 40, duration: 15, turn: 90) - 45) < 1e-9)
    }
}
