/// How the saved flight's distance profile crosses an outage (issue 26): whether the runner
/// kept going through it (the speeds either side held, `creditKeptGoing`), turned back, ran it
/// on a paired footpod (`creditFootpod`), or stopped in it (the arc its headings make,
/// `bridgeStops`); and the speeds held either side.
extension DistanceProfile.Builder {
    /// The share of the speed held across an outage that its chord must keep for the runner
    /// to have kept going where the headings leave room for a √2 path (a single corner of up
    /// to 90° keeps 0.71 of the path; a stop inside the gap keeps less, "stop in an outage":
    /// 90 m across 75 s at 3 m/s, 0.4); more where they leave less (`keptGoingShare(_:_:chord:)`).
    /// The live odometer's figure (`Odometer.Configuration.keptGoingShare`). A flat 0.65 left
    /// 0.06 of room for the chord's error round one corner: a receiver with 1.9 times the
    /// bench's wander and 13 multipath jumps an hour bridged a corner outage as a stop, the
    /// saved distance 1.3 % short (`runway-bench conditions --varied-receiver`, 100 seeds).
    public static let keptGoingShare = 0.55

    /// The share of the speeds held that the chord from `a` to `b` must keep, by the room the
    /// smoothed headings at the edges leave for corners (`GapJudgement.keptGoingShare`, the live
    /// odometer's rule): `keptGoingShare` where a path round one square corner or a block's
    /// staircase could be √2 × the chord, more where the headings say the chord lies along the
    /// runner's way.
    static func keptGoingShare(_ a: TrackSmoother.Point, _ b: TrackSmoother.Point, chord: Double) -> Double {
        func heading(_ v: SIMD2<Double>) -> Double? {
            RouteShape.norm(v) > 0 ? CMath.atan2(v.x, v.y) * 180 / .pi : nil
        }
        let entry = heading(velocity(a))
        let exit = heading(velocity(b))
        let bearing = CMath.atan2(b.east - a.east, b.north - a.north) * 180 / .pi
        let turn = entry.flatMap { entry in exit.map { Geodesy.turn(from: entry, to: $0) } }
        return GapJudgement.keptGoingShare(
            keptGoingShare, chord: chord, turn: turn,
            staircase: GapJudgement.staircase(bearing: bearing, entry: entry, exit: exit))
    }

    /// Whether the runner went into an outage at `a` and came out at `b` running the other
    /// way (`Odometer.Configuration.turnedBack`): headings more than
    /// `RouteShape.largestArcTurn` apart, and each edge's own reading at least
    /// `edgeShare` of the faster side's held speed (`sa`, `sb`), so neither edge is a stop's.
    /// Across a turn-around the chord is the path's width: a riverside hairpin's kept 0.22
    /// of a minute's running, and the arc left the saved distance 4.2 % short ("outages on a
    /// hairpin").
    static func turnedBack(_ a: TrackSmoother.Point, _ b: TrackSmoother.Point, _ sa: Double, _ sb: Double)
        -> Bool
    {
        let entry = velocity(a)
        let exit = velocity(b)
        guard runningAtBothEdges(a, b, sa, sb), RouteShape.norm(entry) > 0, RouteShape.norm(exit) > 0
        else { return false }
        return abs(turn(from: entry, to: exit)) > RouteShape.largestArcTurn
    }

    /// Whether the readings at an outage's edges `a` and `b` both say running: each at least
    /// `edgeShare` of the faster side's held speed (`sa`, `sb`), as the live odometer judges
    /// (`Odometer.Configuration.edgeShare`). A reading at rest or braking at one edge puts
    /// a stop there, and the speeds held across the gap are no measure of it: a gap ending
    /// as the runner came to a light was credited at half the pace, 16 m short ("short
    /// outages at stops").
    static func runningAtBothEdges(
        _ a: TrackSmoother.Point, _ b: TrackSmoother.Point, _ sa: Double, _ sb: Double
    ) -> Bool {
        guard let va = a.measuredSpeed, let vb = b.measuredSpeed else { return false }
        return min(va, vb) >= Odometer.Configuration().edgeShare * max(sa, sb)
    }

    /// The signed angle (radians) from the `entry` velocity to the `exit` one.
    static func turn(from entry: SIMD2<Double>, to exit: SIMD2<Double>) -> Double {
        CMath.atan2(entry.x * exit.y - entry.y * exit.x, RouteShape.dot(entry, exit))
    }

    /// An outage's points carry no speed (no fix measured them). Where the chord across the
    /// outage says the runner kept going, the distance across it is the speeds either side
    /// held through it (the chord cuts the corners: "city outages on corners" came out
    /// 2.8 % short on the chord); where it says the runner stopped, the arc `bridgeStops`
    /// measures (holding the speed credited the stop: "stop in an outage" was 4.7 % long).
    @discardableResult
    mutating func creditKeptGoing(_ outages: [Range<Int>]) -> [Range<Int>] {
        var credited: [Range<Int>] = []
        for outage in outages {
            let (k, end) = (outage.lowerBound, outage.upperBound)
            guard let sa = speedHeld(before: k), let sb = speedHeld(from: end) else { continue }
            let a = stretch[k - 1]
            let b = stretch[end]
            if creditFootpod(k..<end) {
                credited.append(k..<end)
                continue
            }
            let span = b.time - a.time
            let chord = RouteShape.norm(SIMD2(b.east - a.east, b.north - a.north))
            guard span > 0, Self.runningAtBothEdges(a, b, sa, sb),
                chord >= Self.keptGoingShare(a, b, chord: chord) * (sa + sb) / 2 * span
                    || Self.turnedBack(a, b, sa, sb)
            else { continue }
            for j in k..<end {
                let f = (stretch[j].time - a.time) / span
                stretch[j].measuredSpeed = sa + (sb - sa) * f
            }
            credited.append(k..<end)
        }
        return credited
    }

    /// The stretch's outages: each run of bridged points, with a measured point either side.
    func outages() -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var k = 1
        while k < stretch.count - 1 {
            guard stretch[k].bridged, !stretch[k - 1].bridged else {
                k += 1
                continue
            }
            var end = k
            while end < stretch.count, stretch[end].bridged { end += 1 }
            if end < stretch.count { ranges.append(k..<end) }
            k = end + 1
        }
        return ranges
    }

    /// An outage the footpod covered: each of its points gets the pod's speed there, scaled
    /// to GPS metres, so the bridge's length is the steps the pod counted (a stop inside
    /// the gap included) whatever the chord says. False when there is no calibrated pod or
    /// it was silent across the gap.
    mutating func creditFootpod(_ range: Range<Int>) -> Bool {
        guard let scale = footpodScale, range.lowerBound >= 1, range.upperBound < stretch.count,
            footpod.distance(from: stretch[range.lowerBound - 1].time, to: stretch[range.upperBound].time)
                != nil
        else { return false }
        for j in range {
            let t = stretch[j].time
            stretch[j].measuredSpeed =
                max(footpod.metres(at: t + 0.5) - footpod.metres(at: t - 0.5), 0) * scale
        }
        return true
    }

    /// How many measured speeds either side of an outage its held speed is the mean of: one
    /// fix's Doppler is ±0.1 m/s, ±4 m over a minute's outage, and the ends of one outage
    /// differed by up to 17 m ("city outages on corners"); five seconds of running are
    /// steadier, and short enough to keep an interval's change of pace out.
    static let heldSpeedSamples = 5

    /// The mean measured speed of the points just before `index` (not bridged, with a speed).
    func speedHeld(before index: Int) -> Double? {
        meanSpeed(stride(from: index - 1, through: 0, by: -1))
    }

    /// The mean measured speed from `index` on (not bridged, with a speed).
    func speedHeld(from index: Int) -> Double? {
        meanSpeed(stride(from: index, to: stretch.count, by: 1), afterExit: true)
    }

    /// The first of `indices` must have a speed (the outage's own neighbour); the mean runs
    /// on until `heldSpeedSamples`, a point without one, or the next outage; after the outage
    /// (`afterExit`) also until a reading under `edgeShare` of the first: the braking and the
    /// stand that follow a running exit are not the pace held through it (an outage ending
    /// just before a finish held 3.6 m/s for 5.5, 10 m short, with random short outages over
    /// "fast 5.5 m/s"). Before the entry the same cut, the getting going from a stand left out,
    /// made "short outages at stops" longer (median 0.17 → 0.20 %), and is not made. The indices are
    /// walked, never gathered (an array of every index back to the stretch's start, for
    /// each outage, was quadratic in a long stretch).
    private func meanSpeed(_ indices: some Sequence<Int>, afterExit: Bool = false) -> Double? {
        var walk = indices.makeIterator()
        guard let first = walk.next(), let speed = stretch[first].measuredSpeed, !stretch[first].bridged
        else { return nil }
        var sum = speed
        var count = 1
        let floor: Double? = afterExit ? Odometer.Configuration().edgeShare * speed : nil
        while let j = walk.next() {
            guard count < Self.heldSpeedSamples, !stretch[j].bridged, let v = stretch[j].measuredSpeed,
                floor.map({ v >= $0 }) ?? true
            else { break }
            sum += v
            count += 1
        }
        return sum / Double(count)
    }

    /// An outage the runner stopped in (`creditKeptGoing` did not credit it): its distance is
    /// the arc from the entry to the exit that turns evenly from the entry's heading to the
    /// exit's (`RouteShape.arcLength`; the chord where they agree). The smoother's own bridge
    /// leaves and arrives at running speed, so over a gap much longer than its chord needs it
    /// swings wide: "stop in an outage" was saved 0.13 % long (median, 0.31 % worst) and its
    /// later splits 2–5 s early; on the arc 0.08 / 0.22 %.
    func bridgeStops(_ stated: inout [Double], outages: [Range<Int>], credited: [Range<Int>]) {
        for outage in outages where !credited.contains(outage) {
            let (k, end) = (outage.lowerBound, outage.upperBound)
            let a = stretch[k - 1]
            let b = stretch[end]
            let entry = Self.velocity(a)
            let exit = Self.velocity(b)
            let chord = RouteShape.norm(SIMD2(b.east - a.east, b.north - a.north))
            let drawn = stated[k...end].reduce(0, +)
            guard chord > 1, drawn > 0 else { continue }
            // Standing at an edge, the runner has no heading there to turn from or to: the
            // chord. The speeds' trapezoid a bridge draws from a running edge to a standing
            // one ran half the pace for the whole gap ("short outages at stops": a gap ending
            // as the runner came to a light, 16 m short at the first kilometre).
            let rest = Odometer.Configuration().restSpeed
            let arc =
                min(RouteShape.norm(entry), RouteShape.norm(exit)) >= rest
                ? RouteShape.arcLength(chord: chord, turn: Self.turn(from: entry, to: exit)) : chord
            for j in k...end { stated[j] *= arc / drawn }
        }
    }
}
