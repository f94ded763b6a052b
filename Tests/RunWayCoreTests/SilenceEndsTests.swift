import Foundation
import Testing

@testable import RunWayCore

/// A fix east at `east`, `north` metres, running `speed` m/s on `track` degrees.
private func fix(_ t: Double, east: Double, north: Double = 0, speed: Double = 3, track: Double = 90) -> Fix {
    Fix(
        time: Track.t0 + t, coordinate: Track.coordinate(east: east, north: north), horizontalAccuracy: 8,
        speed: speed, track: track, altitude: nil, mode: 3)
}

private func metres(_ a: Coordinate?, east: Double, north: Double = 0) -> Double {
    a.map { Geodesy.distance($0, Track.coordinate(east: east, north: north)) } ?? .infinity
}

@Suite("Where the last fixes put the runner (the ends of a step across a silence)")
struct RecentFixesTests {
    /// A multipath spell of 6 s (the longest the simulator draws), 24 m off, that ends at the
    /// asked time: the fixes of the window before it outvote it.
    @Test func aJumpedSpellEndingAtTheAskedTimeIsOutvoted() {
        var recent = RecentFixes()
        for t in 0...20 {
            let jumped = t >= 15
            recent.add(fix(Double(t), east: 3 * Double(t) + (jumped ? 18 : 0), north: jumped ? 16 : 0))
        }
        #expect(metres(recent.position(at: Track.t0 + 20), east: 60) < 0.5)
        #expect(metres(recent.position(at: Track.t0 + 17.5), east: 52.5) < 0.5)
    }

    /// Seven seconds east, then north round a corner: each fix is carried along the velocities
    /// between, so every true place stays where it is.
    @Test func aCornerInTheWindowIsFollowed() {
        var recent = RecentFixes()
        for t in 0...14 {
            let north = max(Double(t) - 7, 0) * 3
            recent.add(fix(Double(t), east: 3 * Double(min(t, 7)), north: north, track: t < 7 ? 90 : 0))
        }
        // The track at the corner's fix reads north: the step into it is the mean of east and
        // north (the trapezoid), so the places either side are off by its chord, a metre or two.
        #expect(metres(recent.position(at: Track.t0 + 14), east: 21, north: 21) < 2.2)
        #expect(metres(recent.position(at: Track.t0 + 2), east: 6) < 2.2)
    }

    /// Fixes either side of a silence are separate runs: neither votes on the other, and a time
    /// inside the silence has no answer.
    @Test func fixesAcrossASilenceDoNotVote() {
        var recent = RecentFixes()
        for t in 0...4 { recent.add(fix(Double(t), east: 3 * Double(t))) }
        for t in 13...15 { recent.add(fix(Double(t), east: 500 + 3 * Double(t))) }
        #expect(metres(recent.position(at: Track.t0 + 4), east: 12) < 1e-6)
        #expect(metres(recent.position(at: Track.t0 + 14), east: 542) < 1e-6)
        #expect(recent.position(at: Track.t0 + 8) == nil)
        #expect(RecentFixes().position(at: Track.t0) == nil)
    }

    /// A day at 10 Hz keeps no more than the window's fixes, and a fix out of order is ignored.
    @Test func theWindowIsBounded() {
        var recent = RecentFixes()
        for k in 0..<3000 { recent.add(fix(Double(k) / 10, east: 0.3 * Double(k))) }
        #expect(recent.samples.count <= RecentFixes.capacity)
        #expect(recent.samples.first.map { $0.time >= Track.t0 + 299.9 - RecentFixes.window } == true)
        recent.add(fix(10, east: 0))
        #expect(recent.latestTime == Track.t0 + 299.9)
    }
}

@Suite("Live distance: a jumped fix at either end of a silence")
struct SilenceEndsTests {
    /// East at 3 m/s for 100 s; no fix from 101 to 159 s while the runner ran 30 m, stood 40 s
    /// and ran 30 m more (a stop in a tunnel); then on at 3 m/s to 200 s: 480 m in all. The
    /// fixes in `jumped` are 14 m further east than the runner (multipath along the road).
    func fly(jumped: ClosedRange<Int>) -> Double {
        var computer = FlightComputer()
        computer.rotate()
        for t in 0...200 where t <= 100 || t >= 160 {
            let east = t <= 100 ? 3 * Double(t) : 360 + 3 * Double(t - 160)
            _ = computer.handle(.fix(fix(Double(t), east: east + (jumped.contains(t) ? 14 : 0))))
        }
        // The flight's distance, not the display: the display was carried through the silence
        // at the speed held (177 m for the runner's 60) and holds until the runner passes it.
        return computer.land()?.distance ?? 0
    }

    /// The anchor before the silence jumped: the step across it was measured from there, 14 m
    /// short.
    @Test func aJumpedAnchorBeforeTheSilenceIsOutvoted() {
        let distance = fly(jumped: 98...100)
        #expect(abs(distance - 480) < 3, "\(distance)")
    }

    /// The first fixes after it jumped: the step was 14 m long until the fixes after it said
    /// where the exit was; by 200 s the distance is the runner's.
    @Test func aJumpedExitIsMeasuredAgainOnceTheFixesAfterItVote() {
        let distance = fly(jumped: 160...163)
        #expect(abs(distance - 480) < 3, "\(distance)")
    }

    /// Without a jump nothing moves: the same run, measured as before.
    @Test func cleanEndsAreTheirOwnFixes() {
        let distance = fly(jumped: 1000...1000)
        #expect(abs(distance - 480) < 3, "\(distance)")
    }
}
