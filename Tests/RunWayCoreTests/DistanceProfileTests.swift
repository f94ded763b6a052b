import RunWayCore
import Testing

@Suite("The saved flight's distance profile: pauses that cover an outage")
struct DistanceProfileTests {
    let projection = LocalProjection(origin: Coordinate(latitude: 37.5, longitude: 127))

    func fix(_ t: Double, east: Double) -> Fix {
        Fix(
            time: t, coordinate: projection.coordinate(east: east, north: 0), horizontalAccuracy: 5,
            speed: 3, track: 90)
    }

    /// Running north at 3 m/s up the line `east`, `north` metres along it at `t`.
    func fix(_ t: Double, east: Double, north: Double) -> Fix {
        Fix(
            time: t, coordinate: projection.coordinate(east: east, north: north), horizontalAccuracy: 5,
            speed: 3, track: 0)
    }

    /// East at 3 m/s; an outage from 300 s to 375 s in which the runner runs 15 s (45 m),
    /// stands 45 s and runs 15 s (45 m) more; the live pause covers the whole gap.
    func smoothedProfile(paused: Bool = true) -> DistanceProfile? {
        var fixes = (0...300).map { fix(Double($0), east: 3 * Double($0)) }
        fixes += (375...675).map { fix(Double($0), east: 990 + 3 * Double($0 - 375)) }
        return profile(
            of: fixes, pauses: paused ? [PauseInterval(start: 300.5, end: 375, reason: .signalLost)] : [])
    }

    /// `fixes` through the track smoother into a profile, as the touchdown does.
    func profile(of fixes: [Fix], pauses: [PauseInterval] = []) -> DistanceProfile? {
        var smoother = TrackSmoother()
        var builder: DistanceProfile.Builder?
        func take(_ points: [TrackSmoother.Point]) {
            guard !points.isEmpty, let projection = smoother.projection else { return }
            if builder == nil {
                builder = DistanceProfile.Builder(projection: projection, startTime: 0, pauses: pauses)
            }
            for point in points { builder?.add(point) }
        }
        for f in fixes {
            smoother.add(f)
            take(smoother.drain())
        }
        smoother.finish()
        take(smoother.drain())
        builder?.finish()
        return builder?.profile
    }

    @Test func aPauseOverAnOutageCreditsTheDisplacementAcrossItAsDistanceAndRoute() throws {
        let profile = try #require(smoothedProfile())
        // 900 m, the 90 m across the gap, 900 m: dropping the gap left 1800.
        #expect(abs(profile.total - 1890) < 1890 * 0.005)
        // The route's own length, summed as an exported track's segments are (never across a
        // pause's end), is the distance.
        var length = 0.0
        for (a, b) in zip(profile.route, profile.route.dropFirst())
        where !(a.elapsed < 375 && b.elapsed >= 375) {
            length += Geodesy.distance(a.coordinate, b.coordinate)
        }
        #expect(abs(length - profile.total) < profile.total * 0.005)
    }

    /// No pause over the gap: the outage's points carry no speed, and the chord (90 m in 75 s,
    /// under `keptGoingShare` of 3 m/s) says the runner stopped, so the bridge is the distance.
    /// Holding the last fix's 3 m/s across it gave 900 + 225 + 900 m.
    @Test func anOutageWithAStopInsideIsTheBridgeNotTheHeldSpeed() throws {
        let profile = try #require(smoothedProfile(paused: false))
        #expect(abs(profile.total - 1890) < 1890 * 0.005)
    }

    /// City blocks: east 600 m, a 90° corner, north 600 m at 3 m/s, with a 60 s outage centred
    /// on the corner. The distance is the speeds held through it, and the exported track's own
    /// length is that distance: the bridge was drawn as a wide arc, 1.3 % short over a 5 km run
    /// with four such outages ("city outages on corners").
    @Test func aCornerOutagesRouteIsAsLongAsTheDistance() throws {
        func at(_ s: Double) -> (east: Double, north: Double) { s <= 600 ? (s - 600, 0) : (0, s - 600) }
        let fixes: [Fix] = (0...400).filter { $0 < 170 || $0 > 230 }.map { (t: Int) -> Fix in
            let s = 3 * Double(t)
            let p = at(s)
            return Fix(
                time: Double(t), coordinate: projection.coordinate(east: p.east, north: p.north),
                horizontalAccuracy: 5, speed: 3, track: s <= 600 ? 90 : 0)
        }
        let profile = try #require(self.profile(of: fixes))
        #expect(abs(profile.total - 1200) < 1200 * 0.005)
        var length = 0.0
        for (a, b) in zip(profile.route, profile.route.dropFirst()) {
            length += Geodesy.distance(a.coordinate, b.coordinate)
        }
        #expect(abs(length - profile.total) < profile.total * 0.005)
        // The route passes the corner (the middle of the outage, 200 s).
        let corner = try #require(profile.route.first { $0.elapsed >= 200 })
        let (east, north) = projection.project(corner.coordinate)
        #expect((east * east + north * north).squareRoot() < 10)
    }

    /// The chord across an outage judged by the room the headings leave for corners, as the
    /// live odometer judges it. Round one square corner (east, then north, 3 m/s, a 60 s
    /// outage on the corner), the fixes after it 12 m back and 6 m west of the path (a rough
    /// receiver's wander): the chord keeps 0.64 of the 180 m run, under the flat 0.65 that
    /// bridged it as a stop, 53 m short (a receiver with 1.9 times the wander over "city
    /// outages on corners"). On a straight, a 30 s stop in a 75 s outage keeps 0.6 and is
    /// still a stop: the headings leave no room for corners there.
    @Test func anOutagesChordIsJudgedByTheRoomTheHeadingsLeave() throws {
        func at(_ s: Double) -> (east: Double, north: Double) { s <= 600 ? (s - 600, 0) : (0, s - 600) }
        let corner: [Fix] = (0...400).filter { $0 < 170 || $0 > 230 }.map { (t: Int) -> Fix in
            let s = 3 * Double(t)
            let p = at(s)
            let off: (east: Double, north: Double) = t > 230 ? (-6, -12) : (0, 0)
            return Fix(
                time: Double(t),
                coordinate: projection.coordinate(east: p.east + off.east, north: p.north + off.north),
                horizontalAccuracy: 5, speed: 3, track: s <= 600 ? 90 : 0)
        }
        let round = try #require(profile(of: corner))
        #expect(abs(round.total - 1200) < 1200 * 0.005, "\(round.total)")
        // East at 3 m/s, silent from 300 s to 375 s: 45 s more running, 30 s standing.
        var straight = (0...300).map { fix(Double($0), east: 3 * Double($0)) }
        straight += (375...675).map { fix(Double($0), east: 1035 + 3 * Double($0 - 375)) }
        let stopped = try #require(profile(of: straight))
        #expect(abs(stopped.total - 1935) < 1935 * 0.005, "\(stopped.total)")
    }

    /// A 10 Hz receiver: the profile keeps one point a second, but every reading between two
    /// points is a measurement of the step. Here the reading at each whole second says 3.3 m/s
    /// and the nine after it 2.967 (3 m/s on the whole); the runner goes east at 3 m/s. On the
    /// kept points' own readings the distance was 10 % long; on all of them it is the run, and
    /// the route is as long as the distance.
    @Test func aFastReceiversReadingsBetweenPointsAllCount() throws {
        let fixes = (0...3000).map { (tenth: Int) -> Fix in
            let t = Double(tenth) / 10
            return Fix(
                time: t, coordinate: projection.coordinate(east: 3 * t, north: 0), horizontalAccuracy: 5,
                speed: tenth % 10 == 0 ? 3.3 : 2.967, track: 90)
        }
        let profile = try #require(self.profile(of: fixes))
        #expect(abs(profile.total - 900) < 900 * 0.002, "\(profile.total)")
        var length = 0.0
        for (a, b) in zip(profile.route, profile.route.dropFirst()) {
            length += Geodesy.distance(a.coordinate, b.coordinate)
        }
        #expect(abs(length - profile.total) < profile.total * 0.005, "\(length)")
    }

    /// The speed held through an outage is the mean of the last (and first) few readings beside
    /// it, not the one fix's: here the fix before a 60 s outage on a straight reads 2.4 m/s of a
    /// steady 3. Holding that one reading made the bridge 19 m short (1.5 % of this run).
    @Test func anOutageIsBridgedAtTheMeanSpeedBesideIt() throws {
        let fixes: [Fix] = (0...400).filter { $0 < 170 || $0 > 230 }.map { (t: Int) -> Fix in
            let speed: Double = t == 169 ? 2.4 : 3
            return Fix(
                time: Double(t), coordinate: projection.coordinate(east: 3 * Double(t), north: 0),
                horizontalAccuracy: 5, speed: speed, track: 90)
        }
        let profile = try #require(self.profile(of: fixes))
        #expect(abs(profile.total - 1200) < 1200 * 0.005, "\(profile.total)")
    }

    /// The flight starts at 0 (START's countdown ends), the first fix comes at 1 s reading 3 m/s:
    /// the runner set off from standing in that second, 1.5 m on the trapezoid from 0. A first
    /// fix at the start itself has nothing before it.
    @Test func theSecondBeforeTheFirstFixIsRunFromStanding() throws {
        func fixes(from first: Int) -> [Fix] {
            (first...300).map { fix(Double($0), east: 3 * Double($0) - 1.5) }
        }
        let late = try #require(profile(of: fixes(from: 1)))
        #expect(abs(try #require(late.distances.first) - 1.5) < 1e-9)
        let prompt = try #require(profile(of: fixes(from: 0)))
        #expect(try #require(prompt.distances.first) == 0)
        // The prompt flight's first second was run at 3 m/s (3 m); the late one's from standing.
        #expect(abs(prompt.total - late.total - 1.5) < 1e-6, "\(late.total) \(prompt.total)")
    }

    /// A straight at 3 m/s whose fixes' tracks swing ±8° from one second to the next (a
    /// receiver's track noise): the route reckoned on the speeds is as long as the distance they
    /// state. Reckoned on the mean of each step's two velocity vectors, it was shorter by the
    /// cosine of half the swing (here 0.38 %, 6.8 m; 0.1 % in every bench condition).
    @Test func aRouteReckonedThroughTrackNoiseIsAsLongAsItsSpeeds() throws {
        let fixes = (0...600).map { t in
            Fix(
                time: Double(t), coordinate: projection.coordinate(east: 3 * Double(t), north: 0),
                horizontalAccuracy: 5, speed: 3, track: t % 2 == 0 ? 82 : 98)
        }
        let profile = try #require(self.profile(of: fixes))
        var length = 0.0
        for (a, b) in zip(profile.route, profile.route.dropFirst()) {
            length += Geodesy.distance(a.coordinate, b.coordinate)
        }
        #expect(abs(length - profile.total) < profile.total * 0.0005, "\(length) for \(profile.total)")
    }

    /// The route's own length: great-circle steps summed, as a service measuring a track does.
    func length(_ route: [RoutePoint]) -> Double {
        zip(route, route.dropFirst()).reduce(0) { $0 + Geodesy.distance($1.0.coordinate, $1.1.coordinate) }
    }

    /// East at 3 m/s through a 10 s outage whose exit fix the wander puts 1.5 m short of where
    /// the runner was: the 30 m the speeds credit and the 28.5 m chord differ by what wander
    /// does, not by a corner, so the bridge stays on the chord. Drawn out to 30 m, it was a
    /// 4.7 m kink to the side, and only shortfalls were drawn (the track longer than the
    /// distance by the wander's shortfalls: +0.14 % with random short outages over open sky).
    @Test func aStraightOutageShortByWanderStaysOnItsChord() throws {
        var fixes = (0...300).map { fix(Double($0), east: 3 * Double($0)) }
        fixes += (310...600).map { fix(Double($0), east: 3 * Double($0) - 1.5) }
        let profile = try #require(self.profile(of: fixes))
        let projection = self.projection
        let sideways = profile.route.filter { $0.elapsed > 300 && $0.elapsed < 310 }
            .map { abs(projection.project($0.coordinate).north) }
        #expect(try #require(sideways.max()) < 0.5, "\(sideways)")
    }

    /// East at 3 m/s into a 4 s outage at a 60° bend to the left, out of it on the new heading
    /// with every fix 1.5 m further on than the runner: the 12 m credited, a 13.5 m chord. Within
    /// the wander the bridge is the arc its headings make, but never longer than the distance
    /// it states: drawn on the arc, the track gained what the distance never had.
    @Test func aBridgeWithinTheWanderIsNeverLongerThanItStates() throws {
        let heading = SIMD2(0.5, 0.75.squareRoot())
        var fixes = (0...300).map { fix(Double($0), east: 3 * Double($0)) }
        fixes += (304...600).map { t in
            let p = SIMD2(900, 0) + heading * (3 * Double(t - 300) + 1.5)
            return Fix(
                time: Double(t), coordinate: projection.coordinate(east: p.x, north: p.y),
                horizontalAccuracy: 5, speed: 3, track: 30)
        }
        let profile = try #require(self.profile(of: fixes))
        let gap = profile.route.filter { $0.elapsed >= 300 && $0.elapsed <= 304 }
        let stated = profile.distance(at: 304) - profile.distance(at: 300)
        let chord = Geodesy.distance(try #require(gap.first).coordinate, try #require(gap.last).coordinate)
        // The chord itself (12.7 m, the smoothed exit) is longer than the 12 m stated: that much
        // wander stays; the arc's 13.1 m was drawn past it.
        #expect(length(gap) < max(stated, chord) + 0.3, "\(length(gap)) for \(stated), chord \(chord)")
    }

    /// The signal goes as the runner comes to a halt at 898 m (the last fix at rest), it stands
    /// 30 s and runs on 90 m, bending north, before the fixes come back: the distance across
    /// the gap is its chord, and the route is drawn on it. The smoother's own bridge, leaving at
    /// rest and arriving at 3 m/s, swung wide of it (5.3 m here; "outage from a stop": 7 m a stop
    /// more track than distance).
    @Test func anOutageFromAStandIsDrawnOnTheDistanceItStates() throws {
        var fixes = (0...297).map { fix(Double($0), east: 3 * Double($0)) }
        fixes += [(298, 893.5, 2), (299, 896.5, 1), (300, 898, 0)].map { t, east, speed in
            Fix(
                time: t, coordinate: projection.coordinate(east: east, north: 0), horizontalAccuracy: 5,
                speed: speed, track: speed > 0 ? 90 : nil)
        }
        fixes += (360...660).map { fix(Double($0), east: 943, north: 78 + 3 * Double($0 - 360)) }
        let profile = try #require(self.profile(of: fixes))
        let gap = profile.route.filter { $0.elapsed >= 300 && $0.elapsed <= 360 }
        let stated = profile.distance(at: 360) - profile.distance(at: 300)
        #expect(abs(length(gap) - stated) < 0.5, "\(length(gap)) for \(stated)")
    }

    /// A stop inside an outage at a corner: east at 3 m/s, into the gap (300–375 s), 45 m on,
    /// 45 s standing, a left turn and 45 m north, then north. The runner stopped (the 64 m chord is
    /// far under the speeds either side held), so nothing credits the speeds: the bridge is the
    /// curve the entry and exit headings meet on, 71 m here, the true path's 90 m cut short, but
    /// not the smoother's own bridge, which leaves at 3 m/s for 75 s and swings wide (102 m).
    @Test func aStopInAnOutageIsBridgedOnTheTurnItsHeadingsMake() throws {
        var fixes = (0...300).map { fix(Double($0), east: 3 * Double($0) - 945) }
        fixes += (375...675).map { fix(Double($0), east: 0, north: 45 + 3 * Double($0 - 375)) }
        let profile = try #require(self.profile(of: fixes))
        // A quarter circle from (−45, 0) to (0, 45): radius 45.
        let arc = 45 * Double.pi / 2
        #expect(abs(profile.total - (1800 + arc)) < 3, "\(profile.total)")
    }
}
