/// The live distance's Doppler drift taken out by the fixes as they come (issue 26: the live
/// distance within 1 % at every kilometre).
///
/// The live odometer spends the receiver's Doppler speeds second by second, and their noise
/// adds up as a random walk: under trees (σ 0.3 m/s a reading) ±5.5 m by the first kilometre at
/// 3 m/s, so one run in twenty read more than 1 % off there ("tree cover, 2 stops", 100 seeds:
/// 2.14 % at worst, six runs over 1 %). The fixes say where the runner is, to a few metres,
/// whatever the sum of speeds says; this is the forward half of `AlongTrackCorrection` run live.
///
/// The credited steps, laid end to end where the readings' velocity went over each (speed ×
/// track, `Sweep`), make a reckoned route. The
/// state is where the runner is less where that route reckoned (`D`, east and north) and the
/// metres the steps have missed in all (`c`): each step's error moves `D` along its heading and
/// adds to `c` alike (σ `speedSigma` a reading), and the heading's error moves `D` across it. A
/// fix measures `D` through the receiver's wander, counted as white noise of the same
/// information per second (variance 2 σ² τ per second, σ `eph` × 0.12 as `TrackSmoother`
/// scales it), never more than one fix's own error. The odometer is amended by each change of `c`'s estimate: a few centimetres a step, so
/// the shown distance (which never goes back) stays smooth.
///
/// What the route cannot follow starts it again at the fix (`forgetPosition`: a step across a
/// silence, a manual pause, a vehicle taken back, chords counted while speed is not trusted; a
/// moving reading without a track) and so does a fix persistently far from it (`gateSigmas`,
/// `gateFloor`); `c` is kept either way, and the fix it starts from counts as `startSigma` off. Fixes whose
/// offset from the route moves faster than `settledRate` over the last `settledWindow` seconds
/// (a cold start's offset decaying) measure nothing.
///
/// `runway-bench conditions --seeds 100`: the live error's RMS over every kilometre mark falls in
/// 16 of 17 conditions (tree cover 0.367 → 0.351 %, slow jog 0.192 → 0.173 %, open sky 0.132 →
/// 0.124 %; 10 Hz as it was), its mean toward 0 in every one (the odometer reads short: open
/// sky −0.053 → −0.043 %); under trees the worst 2.14 → 1.97 %, runs over 1 % at a mark 6 → 4.
/// Only part of the walk comes out: on a park loop a closed lap hides the speeds' error from the
/// positions (as it does from `AlongTrackCorrection`), and a walk far beyond the readings' σ
/// (tree cover's seed 34: 20 m in 200 s, 4.7 σ) is split between the speeds and the error of the
/// fix the route started from, as the model weighs the two.
///
/// Memory: a fixed state and the last `settledWindow` seconds of offsets, `speedWindow` speed
/// differences and `intervalWindow` intervals.
public struct LiveDriftCorrection: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// σ of one Doppler reading (m/s) until `speedWindow / 2` moving readings say their own.
        public var speedSigma = 0.1
        /// The moving readings whose successive differences estimate σ (as
        /// `AlongTrackCorrection.estimatedSpeedSigma`).
        public var speedWindow = 120
        /// …and no less than this: readings that never change (a receiver's fixed output, a
        /// replayed constant) still walk by their rounding and the runner's own stride.
        public var minimumSpeedSigma = 0.05
        /// σ of a step's heading (radians): the receiver's track, a few degrees.
        public var headingSigma = 0.05
        /// The receiver's wander per metre of `eph` (`TrackSmoother`'s scale) and its bounds (m),
        /// and its time constant (s): between the open sky's minute and a canopy's 20 s (from
        /// 20 to 60 s tree cover's worst moved 1.87–2.03 %, every other condition's by hundredths).
        public var wanderScale = 0.12
        public var minimumWander = 1.5
        public var maximumWander = 15.0
        public var wanderTau = 30.0
        /// `eph` when a fix gives none.
        public var defaultAccuracy = 20.0
        /// A settled fix further than this many σ from where the state puts it, `gateRun` times
        /// running, starts the route again there (a cold start's offset snapping away); fewer is
        /// a multipath excursion, left out.
        public var gateSigmas = 5.0
        public var gateRun = 5
        /// …and further than this (m): a drift of the speeds the model thought unlikely (a
        /// receiver whose readings run 0.1 m/s slow for minutes) grows slowly, and restarting
        /// the route on it would throw away the evidence of it; a solution snapping away moves
        /// hundreds of metres.
        public var gateFloor = 30.0
        /// σ of where the route starts (m), at least: the fix it starts from, which may be a
        /// multipath fix 20–40 m off at a silence's exit (`AlongTrackCorrection`'s `startSigma`).
        public var startSigma = 10.0
        /// See `AlongTrackCorrection.Configuration.settledRate`.
        public var settledRate = 1.0
        public var settledWindow = 10.0
        /// Amendments are handed out in no smaller steps than this (m).
        public var smallestAmendment = 0.001
        /// Below this a step's reading is standing (the odometer's rest speed): it adds no error.
        public var runningSpeed = 0.5

        public init() {}
    }

    public let configuration: Configuration
    private var projection: LocalProjection?
    /// The reckoned route's last point, east and north of `projection`; nil: start again at the
    /// next fix.
    private var reckoned: SIMD2<Double>?
    /// (D east, D north, c) and its covariance, by rows.
    private var state = SIMD3<Double>.zero
    private var covariance = Matrix3.diagonal(0, 0, 0)
    private var lastTime: Double?
    private var lastReading: (time: Double, speed: Double?, heading: SIMD2<Double>?)?
    /// The readings' velocity since the last counted step.
    private var sweep = Sweep()
    /// The last intervals between readings (their median is the receiver's rate: ten readings
    /// a second walk a tenth as far as one).
    private var intervals = SortedWindow(capacity: LiveDriftCorrection.intervalWindow)
    private var offsets: [(time: Double, offset: SIMD2<Double>)] = []
    private var speedDifferences: SortedWindow
    private var gateMisses = 0
    /// The part of `c` already handed to the odometer.
    private var applied = 0.0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        speedDifferences = SortedWindow(capacity: configuration.speedWindow)
    }

    /// The metres the steps have missed so far, as estimated (positive: the odometer is short).
    public var estimatedShortfall: Double { state.z }

    /// The route starts again at the next fix: what came since the last one is not a step along
    /// it (a silence, a manual pause, a vehicle taken back).
    public mutating func forgetPosition() {
        reckoned = nil
        offsets.removeAll()
        gateMisses = 0
    }

    /// A counted step: `credited` metres spent by the odometer from the last counted fix to this
    /// one, at `time`, whose position is `coordinate` with `eph` (its reading given to
    /// `reading` first). Returns the metres to amend the odometer by.
    public mutating func step(time: Double, credited: Double, coordinate: Coordinate, eph: Double?) -> Double
    {
        let origin = projection ?? LocalProjection(origin: coordinate)
        projection = origin
        let place = origin.project(coordinate)
        let z = SIMD2(place.east, place.north)
        let swept = sweep
        defer {
            lastTime = time
            sweep = Sweep()
        }
        let wander = min(
            max(
                (eph.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? configuration.defaultAccuracy)
                    * configuration.wanderScale, configuration.minimumWander),
            configuration.maximumWander)
        guard var route = reckoned, let before = lastTime, time > before, credited.isFinite, credited >= 0
        else {
            start(at: z, wander: wander)
            return 0
        }
        // Where the step went is where the readings' velocity went: without a track for every
        // moving reading the route cannot follow, and starts again at the fix.
        guard let along = swept.direction(for: credited) else {
            start(at: z, wander: wander)
            return handOut()
        }
        let dt = time - before
        route += along * credited
        reckoned = route
        let length = (along * along).sum().squareRoot()
        predict(dt: dt, credited: credited, direction: length > 0 ? along / length : .zero)
        let offset = z - route
        offsets.append((time, offset))
        offsets.removeAll { time - $0.time > configuration.settledWindow }
        guard settled(offset, at: time) else { return handOut() }
        // A standing runner's fixes wander; the route has not moved.
        guard (lastReading?.speed ?? 0) >= configuration.runningSpeed else { return handOut() }
        let measured = measure(offset, wander: wander, dt: dt)
        if measured {
            gateMisses = 0
        } else {
            gateMisses += 1
            if gateMisses >= configuration.gateRun { start(at: z, wander: wander) }
        }
        return handOut()
    }

    private mutating func start(at z: SIMD2<Double>, wander: Double) {
        reckoned = z
        offsets.removeAll()
        gateMisses = 0
        state.x = 0
        state.y = 0
        // D is the fix's own error, which may be far more than its wander (a multipath fix at a
        // silence's exit); c keeps what it knew and no longer correlates with D.
        let sigma = max(wander, configuration.startSigma)
        let v = sigma * sigma
        covariance = .diagonal(v, v, covariance.r2.z)
    }

    /// The change of `c`'s estimate not yet handed out, once it reaches a millimetre (rounding
    /// in the projection is no drift: a run whose fixes and speeds agree keeps its distance to
    /// the last digit).
    private mutating func handOut() -> Double {
        let amend = state.z - applied
        guard amend.isFinite, abs(amend) >= configuration.smallestAmendment else { return 0 }
        applied = state.z
        return amend
    }

    /// Each reading's error over the step moves D along it and adds to c; the heading's moves D
    /// across it. A step spent standing adds nothing (the readings say 0 at rest).
    private mutating func predict(dt: Double, credited: Double, direction: SIMD2<Double>) {
        let sigma = speedSigma
        let running = min(dt, credited / configuration.runningSpeed)
        let along = sigma * sigma * running * min(readingInterval, dt)
        let acrossSigma = configuration.headingSigma * credited
        let across = acrossSigma * acrossSigma
        let h = direction
        let n = SIMD2(-h.y, h.x)
        let dd = Matrix2.outer(h, h) * along + Matrix2.outer(n, n) * across
        let q = Matrix3(
            rows: SIMD3(dd.r0.x, dd.r0.y, along * h.x), SIMD3(dd.r1.x, dd.r1.y, along * h.y),
            SIMD3(along * h.x, along * h.y, along))
        covariance = covariance + q
    }

    /// The Kalman update with the offset (a direct measure of D); false when the fix is beyond
    /// the gate and left out.
    private mutating func measure(_ offset: SIMD2<Double>, wander: Double, dt: Double) -> Bool {
        let p = covariance
        let pdd = Matrix2(r0: SIMD2(p.r0.x, p.r0.y), r1: SIMD2(p.r1.x, p.r1.y))
        let innovation = offset - SIMD2(state.x, state.y)
        // The gate weighs one fix's own error; the update, its information per second.
        let single = pdd + Matrix2.diagonal(wander * wander, wander * wander)
        guard let singleInverse = single.inverse else { return true }
        let distance = (innovation * (singleInverse * innovation)).sum()
        let reach = innovation * innovation
        guard
            distance <= configuration.gateSigmas * configuration.gateSigmas
                || reach.sum() <= configuration.gateFloor * configuration.gateFloor
        else { return false }
        // The wander's information per second, but never more than one fix's own error says.
        let r = max(2 * wander * wander * configuration.wanderTau / max(dt, 0.05), wander * wander)
        guard let inverse = (pdd + Matrix2.diagonal(r, r)).inverse else { return true }
        // The gain's rows (P's row × the inverse), one per state.
        func gain(_ row: SIMD3<Double>) -> SIMD2<Double> { row.x * inverse.r0 + row.y * inverse.r1 }
        let (k0, k1, k2) = (gain(p.r0), gain(p.r1), gain(p.r2))
        state += SIMD3((k0 * innovation).sum(), (k1 * innovation).sum(), (k2 * innovation).sum())
        func updated(_ k: SIMD2<Double>, _ row: SIMD3<Double>) -> SIMD3<Double> {
            row - k.x * p.r0 - k.y * p.r1
        }
        covariance = Matrix3(rows: updated(k0, p.r0), updated(k1, p.r1), updated(k2, p.r2)).symmetrized
        return true
    }

    /// The offset held still enough over the last `settledWindow` seconds to be wander.
    private func settled(_ offset: SIMD2<Double>, at time: Double) -> Bool {
        guard let first = offsets.first, time > first.time else { return true }
        let drift = offset - first.offset
        return (drift * drift).sum().squareRoot() / (time - first.time) <= configuration.settledRate
    }

    private var speedSigma: Double {
        guard speedDifferences.count >= configuration.speedWindow / 2 else { return configuration.speedSigma }
        let measured =
            speedDifferences.upperMiddle.map(AlongTrackCorrection.speedSigma(medianDifference:))
            ?? configuration.speedSigma
        return max(measured, configuration.minimumSpeedSigma)
    }

    /// Every reading the odometer integrates, counted or not (none while the button or a
    /// vehicle pauses the flight): its speed and track (degrees). The readings' noise comes from
    /// their successive differences, their rate from their intervals, and each step's way from
    /// their velocity.
    public mutating func reading(time: Double, speed: Double?, track: Double?) {
        let heading = track.flatMap { $0.isFinite ? Geodesy.direction(ofTrack: $0) : nil }
        let usable = speed.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        defer { lastReading = (time, usable, heading) }
        guard let before = lastReading, time > before.time, time.isFinite else { return }
        let dt = time - before.time
        if dt <= Self.longestInterval {
            intervals.add(dt)
        }
        guard let v0 = before.speed, let v1 = usable else { return }
        let running = configuration.runningSpeed
        sweep.add(from: (v0, before.heading), to: (v1, heading), dt: dt, running: running)
        guard v0 >= running, v1 >= running else { return }
        speedDifferences.add(abs(v1 - v0))
    }

    static let intervalWindow = 31
    /// Longer than this between readings is a gap, not the receiver's rate.
    static let longestInterval = 5.0

    private var readingInterval: Double {
        intervals.upperMiddle ?? 1
    }
}

/// The readings' velocity between two counted steps: summed as vectors (trapezoids of speed ×
/// track) and as speeds. Their ratio is where a metre of the step went: along the way, shortened
/// where the way turned within the step (a corner run in a second is shorter as a line).
struct Sweep: Sendable {
    var vector = SIMD2<Double>.zero
    var length = 0.0
    /// A moving reading came without a track.
    var untracked = false

    /// Two successive readings `dt` apart. Below `running` a receiver may give no track (a
    /// creep of centimetres); at a run's speed it must.
    mutating func add(
        from start: (speed: Double, heading: SIMD2<Double>?),
        to end: (speed: Double, heading: SIMD2<Double>?),
        dt: Double, running: Double
    ) {
        guard start.speed > 0 || end.speed > 0 else { return }
        guard let h0 = start.heading, let h1 = end.heading else {
            if max(start.speed, end.speed) >= running { untracked = true }
            return
        }
        vector += (h0 * start.speed + h1 * end.speed) / 2 * dt
        length += (start.speed + end.speed) / 2 * dt
    }

    /// Where a metre of `credited` went; nil when the readings cannot say (an untracked one, or
    /// metres credited where they read standing).
    func direction(for credited: Double) -> SIMD2<Double>? {
        guard !untracked else { return nil }
        guard length > 0 else { return credited > 0 ? nil : .zero }
        let unit = vector / length
        return unit.x.isFinite && unit.y.isFinite ? unit : nil
    }
}
