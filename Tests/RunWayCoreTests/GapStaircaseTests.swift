import Testing

@testable import RunWayCore

/// A signal gap's running judged against the street grid its headings allow (issue 26: moving
/// time ≤ 2 s a stop, also for stops inside outages), and a stop at a gap's end found when fixes
/// between two silences came first.
@Suite struct GapStaircaseTests {
    /// Running at 3 m/s for 100 s.
    func running(for seconds: Int) -> PauseDetector {
        var pause = PauseDetector(startedAt: 0)
        for t in 1...seconds {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        return pause
    }

    @Test func aStaircaseIsAsLongAsTheChordsAngleToTheRunnersWayAllows() throws {
        // Along the way in and out: a straight.
        let along = try #require(GapJudgement.staircase(bearing: 92, entry: 90, exit: 91))
        #expect(abs(along - 1.03) < 0.01)
        // Two corners of a 125 m block: 100 m east, 125 m north, the chord 51° off east.
        let block = try #require(GapJudgement.staircase(bearing: 39, entry: 90, exit: 90))
        #expect(abs(block - 1.41) < 0.01)
        // Round one square corner: in east, out north, the chord between them.
        let corner = try #require(GapJudgement.staircase(bearing: 45, entry: 90, exit: 0))
        #expect(abs(corner - 2.0.squareRoot()) < 0.001)
        // In mid-turn on a park's rounded corner, out on the straight 50° on: no one grid.
        #expect(GapJudgement.staircase(bearing: 80, entry: 40, exit: 90) == 1)
        // One heading: its own grid; none: nothing said (√2).
        let one = try #require(GapJudgement.staircase(bearing: 135, entry: nil, exit: 90))
        #expect(abs(one - 2.0.squareRoot()) < 0.001)
        #expect(GapJudgement.staircase(bearing: 45, entry: nil, exit: nil) == nil)
    }

    /// 80 s without a fix, 150 m on, the chord along the way the runner ran in and out, the
    /// first reading back 2.54 m/s and 3 after it: 51 s of running at the readings' mean and a
    /// 28 s stop. The
    /// flat √2 (× 10 % headroom) let those 53 s fill the gap as a staircase (random short
    /// outages over "outage to a stop": 31 s of a run booked as moving); it still does where
    /// the headings do not say.
    @Test func aStopInAGapAlongTheRunnersWayIsNoStaircase() {
        func flown(staircase: Double?) -> PauseDetector {
            var pause = running(for: 100)
            _ = pause.advance(to: 109)
            _ = pause.observeFix(
                time: 180, speed: 2.54, moved: true, step: 150, speedIsDoppler: true, turn: 3,
                staircase: staircase)
            for t in 181...183 {
                _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
            }
            return pause
        }
        let stood = 183 - flown(staircase: 1.02).movingTime(at: 183)
        #expect(stood > 20 && stood < 30, "\(flown(staircase: 1.02).pauses)")
        #expect(abs(flown(staircase: nil).movingTime(at: 183) - 183) < 1)
    }

    /// The same gap on a short chord: its ends may read 10 m short (`chordNoise`), so a 16 s gap
    /// round a corner with 34 m of chord under trees is still all running.
    @Test func aShortChordKeepsRoomForItsEndsNoise() {
        var pause = running(for: 100)
        _ = pause.advance(to: 109)
        _ = pause.observeFix(
            time: 116, speed: 3.3, moved: true, step: 34, speedIsDoppler: true, turn: 51, staircase: 1)
        for t in 117...119 {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        #expect(abs(pause.movingTime(at: 119) - 119) < 1, "\(pause.pauses)")
    }

    /// A 9 s silence, two fixes (the pause it began not yet resumed), then 75 s without a fix
    /// from which the runner comes back getting going (1.15 m/s): it ran 40 s into the second
    /// silence and stood until the signal came back. The two fixes' moving streak had dated the
    /// set-off before the second silence: the 35 s stop was all running.
    @Test func aStopAtAGapsEndIsNotDatedByFixesBetweenTwoSilences() {
        var pause = running(for: 100)
        _ = pause.advance(to: 109)
        #expect(pause.pauseReason == .signalLost)
        _ = pause.observeFix(time: 110, speed: 3, moved: true, step: 30, speedIsDoppler: true)
        _ = pause.observeFix(time: 111, speed: 3, moved: true, step: 3, speedIsDoppler: true)
        _ = pause.advance(to: 120)
        _ = pause.observeFix(time: 186, speed: 1.15, moved: true, step: 120, speedIsDoppler: true)
        for t in 187...190 {
            _ = pause.observeFix(time: Double(t), speed: 3, moved: true, step: 3, speedIsDoppler: true)
        }
        #expect(!pause.isPaused)
        let stood = 190 - pause.movingTime(at: 190)
        #expect(stood > 28 && stood < 40, "\(pause.pauses)")
        #expect((pause.pauses.last?.end ?? 0) >= 185, "\(pause.pauses)")
    }

    /// The runner stood as the signal went and ran 30 s at 3 m/s before it came back 75 s later;
    /// the reading back is 2.7, the two after it 3.15 (the last before it 0.2: standing, the
    /// stop at the gap's start). The running is the step at their mean:
    /// at the one reading back it was 3.3 s longer and the stop 3.3 s shorter ("outage from a
    /// stop": moving time 3.1 s a stop at worst over 100 seeds, 2.9 with the mean).
    @Test func aGapsRunningIsTimedAtTheReadingsAfterItNotTheFirstAlone() {
        var pause = running(for: 100)
        _ = pause.observeFix(time: 101, speed: 0.2, moved: false, step: 0, speedIsDoppler: true)
        _ = pause.advance(to: 110)
        #expect(pause.pauseReason == .signalLost)
        _ = pause.observeFix(time: 176, speed: 2.7, moved: true, step: 90, speedIsDoppler: true)
        for t in 177...180 {
            _ = pause.observeFix(time: Double(t), speed: 3.15, moved: true, step: 3, speedIsDoppler: true)
        }
        #expect(!pause.isPaused)
        let resumed = 176 - 90 / 3.0 - pause.configuration.gettingGoingCost(speed: 3)
        #expect(abs((pause.pauses.last?.end ?? 0) - resumed) < 0.01, "\(pause.pauses)")
    }

    /// The live odometer's kept-going rule with the same room: a 65 s silence on a straight,
    /// 110 m of chord for speeds of 2.84 and 2.91 m/s either side (0.58 of them held), holds a
    /// 30 s stop; with no headings (√2) it passed for running, and the live distance ran 94 m
    /// long (random short outages over "stop in an outage"). Round two corners of a block, and
    /// straight through with running all along, it is still running.
    @Test func aSilenceAlongTheRunnersWayKeepsLessOfTheSpeedsRoomForCorners() {
        let rule = Odometer.Configuration()
        #expect(
            !rule.keptGoing(chord: 110, duration: 65, before: 2.84, after: 2.91, turn: 3, staircase: 1.03))
        #expect(rule.keptGoing(chord: 110, duration: 65, before: 2.84, after: 2.91, turn: 3, staircase: nil))
        #expect(rule.keptGoing(chord: 161, duration: 75, before: 3.15, after: 3.19, turn: 2, staircase: 1.41))
        #expect(rule.keptGoing(chord: 170, duration: 60, before: 3, after: 3, turn: 2, staircase: 1.02))
    }
}
