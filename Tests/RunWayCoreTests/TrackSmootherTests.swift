import RunWayCore
import Testing

@Suite("The touchdown smoother: bounded on bad raw logs, standing when Doppler says so, cold starts joined")
struct TrackSmootherTests {
    let projection = LocalProjection(origin: Coordinate(latitude: 37.5, longitude: 127))

    func fix(_ t: Double, east: Double, north: Double = 0, speed: Double? = 3, track: Double? = 90) -> Fix {
        Fix(
            time: t, coordinate: projection.coordinate(east: east, north: north), horizontalAccuracy: 20,
            speed: speed, track: track)
    }

    func smooth(_ fixes: [Fix]) -> (points: [TrackSmoother.Point], smoother: TrackSmoother) {
        var smoother = TrackSmoother()
        var points: [TrackSmoother.Point] = []
        for f in fixes {
            smoother.add(f)
            points += smoother.drain()
        }
        smoother.finish()
        points += smoother.drain()
        return (points, smoother)
    }

    @Test func aSteadyRunComesOutAtItsSpeedAndEveryFixIsHandedOut() {
        let (points, _) = smooth((0...600).map { fix(Double($0), east: 3 * Double($0)) })
        #expect(points.count == 601)
        #expect(points.map(\.time) == (0...600).map(Double.init))
        for p in points[10..<590] { #expect(abs(p.speed - 3) < 0.05) }
    }

    @Test func oneFixOnlyOrAllFixesIdenticalFinishAtRest() {
        #expect(smooth([fix(0, east: 0)]).points.count == 1)
        let (points, _) = smooth((0..<100).map { fix(Double($0), east: 0, speed: 0, track: nil) })
        #expect(points.count == 100)
        #expect(points.allSatisfy { $0.speed < 0.01 })
    }

    @Test func aClockThatGoesBackIsIgnoredAndAGapOfHoursIsBridgedBoundedly() {
        var fixes = (0..<60).map { fix(Double($0), east: 3 * Double($0)) }
        fixes.append(fix(30, east: 500))  // back in time: ignored
        fixes += (0..<60).map { fix(4 * 3600 + Double($0), east: 180 + 3 * Double($0)) }
        let (points, _) = smooth(fixes)
        #expect(points.count < 60 + 60 + 4 * 3600 + 10)
        #expect(points.allSatisfy { $0.east.isFinite && $0.north.isFinite })
        #expect(zip(points, points.dropFirst()).allSatisfy { $0.time < $1.time })
    }

    @Test func aStopInWanderIsAStopWhenDopplerSaysSo() {
        // Standing for 60 s while the fixes wander ±4 m.
        var fixes = (0..<60).map { fix(Double($0), east: 3 * Double($0)) }
        fixes += (60..<120).map { t in
            fix(
                Double(t), east: 180 + 4 * ((Double(t) * 0.37).truncatingRemainder(dividingBy: 2) - 1),
                north: 4 * ((Double(t) * 0.61).truncatingRemainder(dividingBy: 2) - 1), speed: 0.05,
                track: nil)
        }
        let (points, _) = smooth(fixes)
        let standing = points.filter { $0.time >= 65 && $0.time <= 115 }
        #expect(standing.allSatisfy { $0.speed < 0.2 })
    }

    @Test func aColdStartsOffsetPieceIsMovedOntoTheSettledTrack() throws {
        // 40 s of fixes 300 m north of the truth, then the truth, running east at 3 m/s.
        let fixes = (0..<400).map { t in
            fix(Double(t), east: 3 * Double(t), north: t < 40 ? 300 : 0)
        }
        let (points, smoother) = smooth(fixes)
        #expect(smoother.breaks == 1)
        // Every point, the early ones included, lies on the settled track, and no jump is run.
        // The smoother's own frame has its origin at the first fix (here one of the offset
        // ones): the settled track is where the last points lie.
        let settled = try #require(points.last).north
        let worst = points.map { abs($0.north - settled) }.max() ?? 0
        #expect(worst < 15, "worst \(worst) m off the settled track")
        let steps = zip(points, points.dropFirst()).map { a, b in
            ((b.east - a.east) * (b.east - a.east) + (b.north - a.north) * (b.north - a.north)).squareRoot()
        }
        #expect(steps.max() ?? 0 < 10)
    }

    @Test func aLongFlightIsHandedOutWindowByWindow() {
        var smoother = TrackSmoother()
        var handed = 0
        var largestHeld = 0
        for t in 0..<7200 {
            smoother.add(fix(Double(t), east: 3 * Double(t)))
            handed += smoother.drain().count
            largestHeld = max(largestHeld, t + 1 - handed)
        }
        smoother.finish()
        handed += smoother.drain().count
        #expect(handed == 7200)
        // Never more than the window (900 s) and a fix or two held at 1 Hz.
        #expect(largestHeld <= 902)
    }
}
