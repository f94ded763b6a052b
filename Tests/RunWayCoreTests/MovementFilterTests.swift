import RunWayCore
import Testing

@Suite("Movement filter: 5 m anchor, accuracy gate, impossible jumps, mode < 2")
struct MovementFilterTests {
    @Test func firstFixAnchorsAndFixesWithinFiveMetresAreHeld() {
        var filter = MovementFilter()
        #expect(filter.assess(Track.fix(0, east: 0)) == .first)
        guard case .held(let d) = filter.assess(Track.fix(1, east: 4.9)) else {
            Issue.record("4.9 m must be held")
            return
        }
        #expect(abs(d - 4.9) < 0.01)
    }

    @Test func aFixFiveMetresFromTheAnchorCountsAndMovesTheAnchor() {
        var filter = MovementFilter()
        _ = filter.assess(Track.fix(0, east: 0))
        _ = filter.assess(Track.fix(1, east: 3))
        guard case .counted(let step) = filter.assess(Track.fix(2, east: 5.2)) else {
            Issue.record("5.2 m from the anchor must count")
            return
        }
        #expect(abs(step - 5.2) < 0.01)
        #expect(filter.assess(Track.fix(3, east: 8)).isAccepted)  // 2.8 m from the new anchor: held
        if case .held = filter.assess(Track.fix(4, east: 9)) {} else { Issue.record("held from new anchor") }
    }

    @Test func poorAccuracyIsRejected() {
        var filter = MovementFilter()
        _ = filter.assess(Track.fix(0, east: 0))
        #expect(filter.assess(Track.fix(1, east: 10, accuracy: 80)) == .rejected(.poorAccuracy(80)))
        // gpsd's usual 15–30 m for a healthy NMEA fix passes.
        #expect(filter.assess(Track.fix(2, east: 10, accuracy: 25)).isAccepted)
    }

    @Test func modeBelowTwoIsIgnored() {
        var filter = MovementFilter()
        #expect(filter.assess(Track.fix(0, east: 0, mode: 1)) == .rejected(.noFix))
        #expect(filter.assess(Track.fix(1, east: 0, mode: 2)) == .first)
    }

    @Test func anImpossibleJumpIsRejectedAndHealsAsTimePasses() {
        var filter = MovementFilter()
        _ = filter.assess(Track.fix(0, east: 0))
        guard case .rejected(.impossibleJump) = filter.assess(Track.fix(1, east: 60)) else {
            Issue.record("60 m in 1 s is no runner")
            return
        }
        // 60 m over 6 s is 10 m/s: a sprinter, but possible.
        if case .counted = filter.assess(Track.fix(6, east: 60)) {} else { Issue.record("must heal") }
    }

    /// At 10 Hz a fix 0.1 s after the anchor and 5–6 m off it is the positions' noise, not a
    /// jump: the jump test allows the anchor's radius for it (a run of such "jumps" made the
    /// step that healed them count its chord, 11 m short). 30 m in a second still is a jump.
    @Test func noiseAFewTenthsOfASecondAfterTheAnchorIsNoJump() {
        var filter = MovementFilter()
        _ = filter.assess(Track.fix(0, east: 0))
        guard case .counted = filter.assess(Track.fix(0.1, east: 5.6)) else {
            Issue.record("5.6 m 0.1 s after the anchor is noise: it counts")
            return
        }
        #expect(filter.assess(Track.fix(0.2, east: 11.5)).isAccepted)
        guard case .rejected(.impossibleJump) = filter.assess(Track.fix(1.2, east: 11.5 + 30)) else {
            Issue.record("30 m in a second is a jump")
            return
        }
    }

    @Test func timeThatDoesNotAdvanceIsRejected() {
        var filter = MovementFilter()
        _ = filter.assess(Track.fix(5, east: 0))
        #expect(filter.assess(Track.fix(4, east: 10)) == .rejected(.timeNotAdvancing))
    }
}

@Suite("gpsd accuracy: eph, else the larger of epx and epy")
struct HorizontalAccuracyTests {
    @Test func ephWinsThenTheLargerOfEpxAndEpy() {
        #expect(Fix.horizontalAccuracy(eph: 11.4, epx: 7.4, epy: 8.8) == 11.4)
        #expect(Fix.horizontalAccuracy(eph: nil, epx: 7.4, epy: 8.8) == 8.8)
        #expect(Fix.horizontalAccuracy(eph: nil, epx: 7.4, epy: nil) == nil)
    }
}
