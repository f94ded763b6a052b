/// A landed flight's smoothed track as the saved flight uses it: the route (at most one point a
/// second, none inside a pause) and the distance at each point, counted only within moving
/// stretches, as a service measuring the exported GPX adds up its segments. Between two points
/// with Doppler speeds the distance is their trapezoid (the receiver's best measurement: the
/// route's own steps come out 0.1 % shorter on the park loop, each corner's vertices averaged),
/// less the drift the fixes show their sum took (`AlongTrackCorrection`); elsewhere (an outage's
/// bridge) it is the route's own step. `runway-bench accuracy`: the exported track's length is
/// within 0.13 % (median) and 0.46 % (worst) of the stated distance.
public struct DistanceProfile: Sendable, Equatable {
    /// GPS times of the points, increasing.
    public private(set) var times: [Double] = []
    /// Metres travelled up to each point.
    public private(set) var distances: [Double] = []
    public private(set) var route: [RoutePoint] = []

    public var total: Double { distances.last ?? 0 }

    init() {}

    /// The distance at `time`: linear between points, flat before the first and after the last.
    public func distance(at time: Double) -> Double {
        guard let first = times.first, time > first else { return 0 }
        let low = times.firstIndex(notBelow: time)
        guard low < times.count else { return total }
        let span = times[low] - times[low - 1]
        let f = span > 0 ? (time - times[low - 1]) / span : 1
        return distances[low - 1] + (distances[low] - distances[low - 1]) * f
    }

    /// Adds smoothed points one at a time (the smoother hands them out window by window), then
    /// `finish()`.
    ///
    /// Each moving stretch (between pauses) becomes route points by **dead reckoning** the
    /// smoothed velocity (trapezoids, their drift taken out) and pulling that toward the smoothed
    /// positions through a forward–backward exponential low-pass of their difference
    /// (`correctionTau`): the velocity carries the shape second by second (Doppler, corners and
    /// all), the positions fix its slow drift. Summing the smoothed positions' own steps instead
    /// would add their remaining jitter to the distance (+1 % for a walker), and smoothing harder
    /// cuts corners.
    public struct Builder: Sendable {
        /// The low-pass's time constant, seconds: long enough that the smoothed positions'
        /// jitter and their pull inside each corner average out (60 s left a −0.1 % bias on the
        /// park loop, 200 s none), short enough to hold the track on its fixes over a run.
        public static let correctionTau = 200.0

        let projection: LocalProjection
        let startTime: Double
        let pauses: [PauseInterval]
        public private(set) var profile = DistanceProfile()
        var pauseIndex = 0
        var lastSecond = -Double.infinity
        var stretch: [TrackSmoother.Point] = []
        var stretchIndex = 0
        /// The pause the stretch's first point follows.
        var firstIndex = 0
        /// The last pause an outage's point was kept in (the stretch runs on through it).
        var bridgedPause = -1
        /// Fixes inside such a pause were left out since the stretch's last point.
        var skipped = false
        /// Where in the stretch an outage's points began that came inside a pause after fixes of
        /// the stand were left out: if the outage also ends inside the pause, the runner stood
        /// through it, and they come out again (`standThroughOutage`).
        var outageInStand: (start: Int, bridgedPause: Int)?
        /// Stretch points that follow left-out fixes: reckoned from the positions' step.
        var jumped: Set<Int> = []
        /// The readings of the points not kept since the last one that was (one a second is
        /// kept): their trapezoids summed from that point's time (nil metres once a step lacked a
        /// speed), and the last point's time and speed.
        var sinceKept: (from: Double, metres: Double?)?
        var lastReading: (time: Double, speed: Double?)?
        /// A paired footpod's distance, and GPS metres per pod metre (from a first pass's
        /// `calibration`): with both, an outage the pod covered is bridged with its metres.
        public var footpod = FootpodOdometer()
        public var footpodScale: Double?
        /// What GPS and the pod measured over the same seconds, stretch by stretch.
        public private(set) var calibration = FootpodOdometer.Calibration()

        public init(projection: LocalProjection, startTime: Double, pauses: [PauseInterval]) {
            self.projection = projection
            self.startTime = startTime
            self.pauses = pauses
        }

        public mutating func add(_ point: TrackSmoother.Point) {
            guard point.time >= startTime, point.east.isFinite, point.north.isFinite,
                point.velocityEast.isFinite, point.velocityNorth.isFinite
            else { return }
            let metres = sumReadings(to: point)
            // At most one point a second: the first of each whole second, as the exporters keep.
            let second = point.time.rounded(.down)
            guard second > lastSecond else { return }
            lastSecond = second
            var point = point
            // The readings between it and the last point kept are still measurements: at 10 Hz
            // one reading in ten stated the distance, its noise unaveraged.
            if let from = sinceKept?.from, let metres { point.readings = .init(from: from, metres: metres) }
            sinceKept = (point.time, 0)
            while pauseIndex < pauses.count, pauses[pauseIndex].end <= point.time { pauseIndex += 1 }
            // The pause this point's outage was carried through before it began in a stand.
            var standingBefore: Int?
            if pauseIndex < pauses.count, pauses[pauseIndex].start < point.time {
                // Inside a pause a fix is the runner standing: not on the route, not travelled,
                // unless it ends an outage that came into the pause.
                guard point.bridged else {
                    standThroughOutage(endingAt: point)
                    return
                }
                if skipped, outageInStand == nil, stretch.last?.bridged != true {
                    standingBefore = bridgedPause
                }
                // An outage's point inside a pause: the pause covers a gap in which the runner
                // also ran (to the stop and away from it), so the smoother's path across it is
                // route and distance. The last fix's speed held across the gap is no measure
                // of it (the runner stood part of the time): its displacement is ("stop in an
                // outage": the saved distance was 4.7 % short with the gap dropped).
                point.measuredSpeed = nil
                bridgedPause = pauseIndex
            }
            // A new stretch after a pause, unless an outage's points carried the stretch into
            // it (then the stretch runs on through it).
            if pauseIndex != stretchIndex, !(bridgedPause == stretchIndex && pauseIndex == stretchIndex + 1) {
                flush()
                firstIndex = pauseIndex
            } else if skipped {
                jumped.insert(stretch.count)
            }
            skipped = false
            if !point.bridged { outageInStand = nil }
            if let before = standingBefore { outageInStand = (stretch.count, before) }
            stretchIndex = pauseIndex
            stretch.append(point)
        }

        /// A fix inside a pause `point` (the runner standing) that ends an outage. If the outage
        /// began inside the pause too, and the fixes either side of it are no further apart than
        /// a stand's wander (`Odometer.Configuration.standingWander`, as the live odometer
        /// judges it; further, the runner went somewhere, and the pause rule's resume came late),
        /// the runner stood through it: its points come out of the stretch, which ends at the
        /// pause as it would have without the outage (the step from where the stand began to
        /// where it ended was the wander's, and was counted: "short outages at stops" +2.7 m a
        /// stop on average, up to 8 m). If the runner went into the outage running, the fix is
        /// where it stopped: it ends the stretch, which does not run on through the pause (the
        /// stand's later wander, up to the set-off, was counted too).
        mutating func standThroughOutage(endingAt point: TrackSmoother.Point) {
            defer { skipped = true }
            guard stretchIndex == pauseIndex, stretch.last?.bridged == true else { return }
            if let (start, before) = outageInStand, start < stretch.count,
                RouteShape.norm(SIMD2(point.east - stretch[start].east, point.north - stretch[start].north))
                    <= Odometer.Configuration().standingWander
            {
                stretch.removeSubrange(start...)
                jumped = jumped.filter { $0 < start }
                bridgedPause = before
            } else {
                stretch.append(point)
                bridgedPause = -1
            }
            outageInStand = nil
        }

        public mutating func finish() { flush() }

        /// Adds the trapezoid from the last reading to `point`'s to the readings since the last
        /// point kept; returns their metres (nil when a step lacked a speed or crossed an outage).
        mutating func sumReadings(to point: TrackSmoother.Point) -> Double? {
            defer { lastReading = (point.time, point.measuredSpeed) }
            guard var since = sinceKept, let last = lastReading else { return nil }
            if let metres = since.metres, let a = last.speed, let b = point.measuredSpeed, !point.bridged {
                since.metres = metres + (a + b) / 2 * (point.time - last.time)
            } else {
                since.metres = nil
            }
            sinceKept = since
            return since.metres
        }

        /// The smoothed velocity's direction at the fix's own Doppler speed (an average of
        /// vectors is shorter than their speeds, by the track's noise and through corners; the
        /// speed itself is what the receiver measures best); the smoothed velocity where the fix
        /// had no speed, or the smoother placed the point.
        static func velocity(_ point: TrackSmoother.Point) -> SIMD2<Double> {
            let v = SIMD2(point.velocityEast, point.velocityNorth)
            guard let speed = point.measuredSpeed else { return v }
            let length = point.speed
            guard length > 0.05 else { return speed == 0 ? .zero : v }
            return v * (speed / length)
        }

        /// A step's displacement from the velocities at its ends: along their mean direction, as
        /// long as the mean of their speeds (the speeds' trapezoid, the metres the step states).
        /// The mean of the two vectors is shorter than that by the cosine of half the angle
        /// between them, and the smoothed velocity's direction turns a few degrees from one
        /// second to the next even on a straight: the reckoned route came out 0.1 % shorter
        /// than the distance it was reckoned from, and so did the exported track, in every
        /// condition (open sky −0.12 % on average over 100 seeds).
        static func trapezoid(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> SIMD2<Double> {
            let sum = a + b
            let length = RouteShape.norm(sum)
            guard length > 1e-9 else { return sum }
            return sum / length * (RouteShape.norm(a) + RouteShape.norm(b))
        }

        /// Adds the steps GPS measured with its speeds where the pod also counted, to learn the
        /// pod's scale: only in the pass that learns it (with a scale given, nobody reads it).
        mutating func calibrate(stated: [Double]) {
            guard !footpod.isEmpty, footpodScale == nil else { return }
            for k in 1..<max(stretch.count, 1) where stated[k] > 0 {
                let a = stretch[k - 1]
                let b = stretch[k]
                guard !a.bridged, !b.bridged, !jumped.contains(k), a.measuredSpeed != nil,
                    b.measuredSpeed != nil,
                    let pod = footpod.distance(from: a.time, to: b.time)
                else { continue }
                calibration.add(gps: stated[k], pod: pod)
            }
        }

        /// The dead-reckoned route: each step the speeds' trapezoid along the smoothed velocity
        /// (× `scales[k]`, the drift taken out), from the stretch's first point.
        func reckoned(scales: [Double]? = nil) -> [SIMD2<Double>] {
            let n = stretch.count
            guard let first = stretch.first else { return [] }
            var reckoned = [SIMD2<Double>](repeating: SIMD2(first.east, first.north), count: n)
            for k in 1..<max(n, 1) {
                let a = stretch[k - 1]
                let b = stretch[k]
                // Across the fixes left out inside a pause, the runner stood: the positions say
                // where it went on from. Across an outage too: the speeds say how far the runner
                // ran, not where (reckoning the bridge at them overshot the fixes beyond it, and
                // the low-pass spread that over the stretch, 10 m off a city corner's legs).
                let step =
                    jumped.contains(k) || a.bridged || b.bridged
                    ? SIMD2(b.east - a.east, b.north - a.north)
                    : Self.trapezoid(Self.velocity(a), Self.velocity(b))
                        * ((b.time - a.time) / 2 * (scales?[k] ?? 1))
                reckoned[k] = reckoned[k - 1] + step
            }
            return reckoned
        }

        /// The reckoned route pulled toward the smoothed positions by a forward–backward
        /// exponential low-pass of their difference (`correctionTau`; no lag either way).
        func pulledToPositions(_ reckoned: [SIMD2<Double>]) -> [SIMD2<Double>] {
            let n = stretch.count
            let difference = (0..<n).map { SIMD2(stretch[$0].east, stretch[$0].north) - reckoned[$0] }
            var forward = difference
            for k in 1..<max(n, 1) {
                let alpha = 1 - CMath.exp(-(stretch[k].time - stretch[k - 1].time) / Self.correctionTau)
                forward[k] = forward[k - 1] + (difference[k] - forward[k - 1]) * alpha
            }
            var smooth = forward
            if n >= 2 {
                for k in stride(from: n - 2, through: 0, by: -1) {
                    let alpha = 1 - CMath.exp(-(stretch[k + 1].time - stretch[k].time) / Self.correctionTau)
                    smooth[k] = smooth[k + 1] + (forward[k] - smooth[k + 1]) * alpha
                }
            }
            return (0..<n).map { reckoned[$0] + smooth[$0] }
        }

        /// The metres to add to each speed trapezoid for the Doppler sum's drift
        /// (`AlongTrackCorrection`): where the fixes (the smoothed point plus the receiver's
        /// smoothed wander: where the fix put the runner) say the reckoned route ran ahead or fell
        /// behind along its heading. Only steps with a speed at both ends, not after fixes left
        /// out, and not into or out of an outage; the readings' own noise, from their successive
        /// differences, sets how far the sum may drift.
        func driftCorrections(reckoned: [SIMD2<Double>], trapezoids: [Double?]) -> [Double] {
            let n = stretch.count
            var result = [Double](repeating: 0, count: n)
            guard n >= 3 else { return result }
            var speeds: [Double] = []
            for point in stretch where !point.bridged {
                if let v = point.measuredSpeed, v > 0 { speeds.append(v) }
            }
            let configuration = AlongTrackCorrection.Configuration()
            let sigma = AlongTrackCorrection.estimatedSpeedSigma(speeds) ?? configuration.speedSigma
            let samples = (0..<n).map { k in
                let point = stretch[k]
                let v = Self.velocity(point)
                let length = RouteShape.norm(v)
                return AlongTrackCorrection.Sample(
                    time: point.time,
                    offset: point.bridged ? nil : SIMD2(point.east, point.north) + point.wander - reckoned[k],
                    heading: length > 0.3 ? v / length : .zero, step: trapezoids[k] ?? 0)
            }
            let corrections = AlongTrackCorrection.corrections(samples, speedSigma: sigma)
            for k in 1..<n
            where trapezoids[k] != nil && !stretch[k - 1].bridged && !stretch[k].bridged
                && !jumped.contains(k)
            {
                result[k] = corrections[k]
            }
            return result
        }

        /// How much shorter than the distance credited across an outage its chord may come out
        /// from the receiver's wander alone: twice the σ of the change in a healthy receiver's
        /// wander (`AlongTrackCorrection.Configuration`: 2.5 m, τ 60 s) over `seconds`, 2.9 m
        /// across 10 s. A credited outage's bridge is drawn to the credited length only past
        /// it, and to the arc its headings make within it: a bridge can lengthen a chord but
        /// never shorten one, so drawing every shortfall made the track longer than the
        /// distance by the wander's shortfalls and none of its excesses (random 3–15 s outages
        /// over open sky: +0.14 % on average over 20 seeds, +0.04 % now).
        static func chordWander(seconds: Double) -> Double {
            let receiver = AlongTrackCorrection.Configuration()
            let change = 2 * (1 - CMath.exp(-max(seconds, 0) / receiver.wanderTau))
            return 2 * receiver.wanderSigma * change.squareRoot()
        }

        /// An outage's points drawn `length` long from its entry to its exit: on the chord at
        /// their share of the stated metres (`distances`), then, if `length` is longer, out to
        /// the two legs its headings make (`RouteShape.bridge`). An outage the runner stopped
        /// in is drawn as long as `bridgeStops` states it (the chord, or the arc its headings
        /// make): the smoother's own bridge leaves and arrives at the edges' speeds and swings
        /// wide over a gap much longer than its chord needs ("outage from a stop" drew 7 m more
        /// than it stated a stop, +0.28 %).
        func drawOutage(
            _ positions: inout [SIMD2<Double>], _ range: Range<Int>, distances: [Double], length: Double
        ) {
            let (k, end) = (range.lowerBound, range.upperBound)
            let a = positions[k - 1]
            let b = positions[end]
            let stated = distances[end] - distances[k - 1]
            guard stated > 0, length > 0 else { return }
            for j in range { positions[j] = a + (b - a) * ((distances[j] - distances[k - 1]) / stated) }
            let entry = Self.velocity(stretch[k - 1])
            let exit = Self.velocity(stretch[end])
            guard RouteShape.norm(entry) > 0, RouteShape.norm(exit) > 0 else { return }
            RouteShape.bridge(
                &positions, range, distances: distances, length: length,
                entry: entry / RouteShape.norm(entry), exit: exit / RouteShape.norm(exit))
        }

        mutating func flush() {
            defer {
                stretch.removeAll(keepingCapacity: true)
                jumped.removeAll()
                outageInStand = nil
            }
            guard let first = stretch.first else { return }
            let n = stretch.count
            let outages = outages()
            let credited = creditKeptGoing(outages)
            // The speeds' trapezoids, their drift taken out where the fixes say so, and the route
            // dead-reckoned on them and pulled to the positions. From a receiver faster than
            // one point a second, a step is the trapezoids of every reading between its points
            // (10 Hz, 100 seeds: split ends 0.61 / 3.59 → 0.24 / 1.97 s), and the route is
            // reckoned on those metres.
            var trapezoids = [Double?](repeating: nil, count: n)
            var readingScales = [Double](repeating: 1, count: n)
            for k in 1..<max(n, 1) {
                guard let a = stretch[k - 1].measuredSpeed, let b = stretch[k].measuredSpeed else { continue }
                let points = (a + b) / 2 * (stretch[k].time - stretch[k - 1].time)
                trapezoids[k] = points
                if let readings = stretch[k].readings, readings.from == stretch[k - 1].time {
                    trapezoids[k] = readings.metres
                    if points > 0 { readingScales[k] = readings.metres / points }
                }
            }
            let drift = driftCorrections(reckoned: reckoned(scales: readingScales), trapezoids: trapezoids)
            var scales = readingScales
            for k in 1..<max(n, 1) {
                guard let step = trapezoids[k], step > 0 else { continue }
                let metres = max(step + drift[k], 0)
                trapezoids[k] = metres
                scales[k] = metres / step * readingScales[k]
            }
            let corrected = reckoned(scales: scales)
            // The metres between a pause's end and the stretch's first point (and its last point
            // and the next pause's start) are run at the speed the fix says: under a second each.
            // Between the flight's start and its first fix the runner set off from standing: the
            // trapezoid from 0 to the fix's speed (without it the saved distance was 1.1 m short
            // 5 s into every open-sky seed, and the first kilometre's split 0.5 s late on average).
            var lead = 0.0
            if firstIndex > 0, let speed = first.measuredSpeed {
                lead = speed * min(max(first.time - pauses[firstIndex - 1].end, 0), 1)
            } else if firstIndex == 0, profile.times.isEmpty, let speed = first.measuredSpeed {
                lead = speed * min(max(first.time - startTime, 0), 1) / 2
            }
            var trail = 0.0
            if stretchIndex < pauses.count, let last = stretch.last, let speed = last.measuredSpeed {
                trail = speed * min(max(pauses[stretchIndex].start - last.time, 0), 1)
            }
            var positions = pulledToPositions(corrected)
            // The metres stated from one point to the next: the speeds' trapezoid, or the
            // route's own step where a point has no speed.
            var stated = [Double](repeating: 0, count: n)
            var cumulative = [Double](repeating: 0, count: n)
            for k in 1..<max(n, 1) {
                stated[k] = trapezoids[k] ?? RouteShape.norm(positions[k] - positions[k - 1])
            }
            bridgeStops(&stated, outages: outages, credited: credited)
            for k in 1..<max(n, 1) { cumulative[k] = cumulative[k - 1] + stated[k] }
            calibrate(stated: stated)
            var fixed: Set<Int> = [0, n - 1]
            for range in credited {
                fixed.formUnion(range)
                let entry = Self.velocity(stretch[range.lowerBound - 1])
                let exit = Self.velocity(stretch[range.upperBound])
                guard RouteShape.norm(entry) > 0, RouteShape.norm(exit) > 0 else { continue }
                let length = cumulative[range.upperBound] - cumulative[range.lowerBound - 1]
                let chord = RouteShape.norm(positions[range.upperBound] - positions[range.lowerBound - 1])
                let seconds = stretch[range.upperBound].time - stretch[range.lowerBound - 1].time
                // Within the wander, the arc its headings make, never longer than it states.
                let drawn =
                    length - chord > Self.chordWander(seconds: seconds)
                    ? length
                    : min(length, RouteShape.arcLength(chord: chord, turn: Self.turn(from: entry, to: exit)))
                drawOutage(&positions, range, distances: cumulative, length: drawn)
            }
            for range in outages where !credited.contains(range) {
                // Under a metre `bridgeStops` leaves the smoother's own path as the distance.
                let chord = RouteShape.norm(positions[range.upperBound] - positions[range.lowerBound - 1])
                let length = cumulative[range.upperBound] - cumulative[range.lowerBound - 1]
                guard chord > 1 else { continue }
                drawOutage(&positions, range, distances: cumulative, length: length)
            }
            for k in 0..<n where stretch[k].bridged || jumped.contains(k) { fixed.insert(k) }
            RouteShape.sharpen(&positions, stated: stated, fixed: fixed)
            for k in 0..<n {
                let position = positions[k]
                var step = stated[k]
                profile.times.append(stretch[k].time)
                if k == 0 { step += lead }
                if k == n - 1 { step += trail }
                profile.distances.append(profile.total + step)
                profile.route.append(
                    RoutePoint(
                        elapsed: stretch[k].time - startTime,
                        coordinate: projection.coordinate(east: position.x, north: position.y)))
            }
        }
    }
}
