/// The touchdown smoother (issue 26): a forward Kalman filter over a flight's fixes and a
/// Rauch–Tung–Striebel pass backward over it, so every point of the saved track is estimated from
/// the fixes before *and* after it. The live engine stays causal; this runs once the flight has
/// landed (and again on `reprocess`), over the raw log.
///
/// Per axis the model is `KalmanAxis`: position, velocity and the receiver's correlated wander.
/// What it takes from each fix:
/// - the position, with noise scaled by the fix's `eph` **relative** to gpsd's healthy reading
///   (eph ≈ HDOP × 19 m reads ~21 m when the real error is ~2.5 m: `wanderScale` 0.12), so a
///   tree-cover fix reading 45 m still counts, with less weight, instead of being thrown away;
/// - Doppler speed and track as a velocity, and a speed under `restSpeed` as "standing": a stop
///   is a stop when Doppler says so, however the positions wander;
/// - outages (no fix for more than `outageAfter`) are bridged by the motion model, a point every
///   second, so the route bends from the entry's heading to the exit's instead of cutting a chord.
///
/// **Outliers and cold starts.** A fix further than `gateSigmas` from the prediction (and at least
/// `gateFloor` metres) is not used. Rejected fixes that agree with each other (the filter's own
/// velocity between them) for `breakAfter` seconds mean the receiver's position moved, not the
/// runner: the track breaks there, the jump is never travelled, and the pieces are joined by
/// shifting — pieces before the first piece that lasts `anchorPiece` seconds (a cold start's
/// first fixes, hundreds of metres off) are moved onto the settled track; pieces after it are
/// moved to continue it.
///
/// Memory is bounded: forward records are kept for at most `window` seconds (plus the span before
/// the first anchor piece, capped at twice that), smoothed, and the older part handed out.
public struct TrackSmoother: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// σ of the receiver's correlated wander per metre of `eph` (21 m → 2.5 m, the wander of
        /// a healthy NMEA receiver), and of its white noise (21 m → 0.8 m).
        public var wanderScale = 0.12
        public var whiteScale = 0.04
        /// The `eph` assumed when a fix gives none.
        public var defaultAccuracy = 20.0
        public var minimumWander = 1.0
        public var maximumWander = 60.0
        /// The wander's time constant (receivers' multipath and ionosphere: about a minute).
        public var wanderTau = 60.0
        /// White-acceleration density of the runner (m²/s³). 0.5 averaged the velocity through
        /// corners (−0.1 % on the park loop); 3 lets it turn with the runner, and the position
        /// jitter that lets in is taken out by `DistanceProfile`'s low-pass.
        public var acceleration = 3.0
        /// Doppler's σ per axis: a floor and a share of the speed (the track's few degrees).
        public var speedSigma = 0.15
        public var speedSigmaShare = 0.04
        /// Under this, Doppler says "standing": velocity 0 with `restSigma`.
        public var restSpeed = 0.4
        public var restSigma = 0.05
        /// A Doppler speed given with a track is taken × this (`FlightSmoothing` sets it from a
        /// first pass's `headingAgreement`): velocity vectors whose direction carries the
        /// track's noise average to less than their speed (a 3° track noise is −0.14 %).
        public var speedScale = 1.0
        /// Faster than any runner: a Doppler spike, not a velocity.
        public var maxSpeed = 12.0
        /// A fix more than this many σ from the prediction, and `gateFloor` metres, is rejected.
        public var gateSigmas = 5.0
        public var gateFloor = 12.0
        /// While fixes keep coming (even rejected ones), the prediction's own σ counts at most
        /// this much in the gate, so a run of rejected fixes does not widen it until it lets a
        /// cold start's offset in.
        public var gateCap = 20.0
        /// Rejected fixes that agree for this long (and this many) break the track.
        public var breakAfter = 8.0
        public var breakFixes = 4
        /// How close a rejected fix must come to the one before it (moved by the velocity).
        public var shadowTolerance = 15.0
        /// A silence longer than this is an outage, bridged with a point every `outageStep` s.
        public var outageAfter = 2.5
        public var outageStep = 1.0
        /// A piece this long anchors the track: pieces before it are moved onto it.
        public var anchorPiece = 300.0
        /// Seconds of forward records smoothed together before the oldest are handed out, and
        /// how many of them are held back for the next window.
        public var window = 900.0
        public var holdBack = 300.0

        public init() {}
    }

    /// One smoothed point: local east/north metres from `origin`, and the velocity there.
    public struct Point: Sendable, Equatable {
        public var time: Double
        public var east: Double
        public var north: Double
        public var velocityEast: Double
        public var velocityNorth: Double
        /// The fix's Doppler speed as the smoother took it (0 under `restSpeed`); nil without one.
        public var measuredSpeed: Double?
        /// Placed by the motion model across an outage, measured by no fix.
        public var bridged = false
        /// The receiver's smoothed wander here (east, north): the point plus it is where the
        /// fix put the runner, less the fix's white noise.
        public var wander: SIMD2<Double> = .zero
        /// The Doppler readings' metres from the point kept before this one (`from`) to this
        /// one, every reading between counted: set by `DistanceProfile.Builder`, which keeps one
        /// point a second of a faster receiver (nil where a step between them had no speed).
        public var readings: Readings?

        /// The trapezoids of consecutive readings from `from` to a point, summed.
        public struct Readings: Sendable, Equatable {
            public var from: Double
            public var metres: Double
        }

        public var speed: Double {
            (velocityEast * velocityEast + velocityNorth * velocityNorth).squareRoot()
        }
    }

    struct Record: Sendable {
        var time: Double
        var east: KalmanAxis
        var north: KalmanAxis
        var predictedEast: KalmanAxis
        var predictedNorth: KalmanAxis
        /// The RTS chain does not cross into this record from the one before (a break).
        var breakBefore: Bool
        var piece: Int
        /// The fix's track (degrees) when its speed was at least `headingSpeed`; NaN otherwise.
        var track = Double.nan
        /// The speed taken from the fix; NaN without one.
        var speed = Double.nan
        /// An outage's point: no fix measured it.
        var bridged = false
    }

    /// Heading agreement is measured at or above this speed, within `headingWindow` degrees.
    static let headingSpeed = 1.5
    static let headingWindow = 20.0

    struct Shadow: Sendable {
        var start: Double
        var count: Int
        var last: SIMD2<Double>
        var lastTime: Double
    }

    public let configuration: Configuration
    public private(set) var projection: LocalProjection?
    /// Breaks made (the receiver's position jumped and the pieces were joined).
    public private(set) var breaks = 0
    var cosineSum = 0.0
    var cosineCount = 0

    /// The mean cosine between the fixes' tracks and the smoothed heading (moving fixes, within
    /// 20°): what averaging velocity vectors shrinks a speed by. Nil under 30 such fixes.
    public var headingAgreement: Double? { cosineCount >= 30 ? cosineSum / Double(cosineCount) : nil }
    var records: [Record] = []
    var output: [Point] = []
    var current: Record?
    var shadow: Shadow?
    var lastFixTime: Double?
    var pieceStart: Double = 0
    var piece = 0
    /// The jumps the breaks carried, summed: element k is the sum of the jumps into pieces 1…k
    /// (a jump: where piece k began, less where piece k − 1 said the runner was).
    var cumulativeJumps: [SIMD2<Double>] = [.zero]
    var anchor: Int?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Points smoothed so far, in time order; takes them out.
    public mutating func drain() -> [Point] {
        defer { output.removeAll(keepingCapacity: true) }
        return output
    }

    /// Smooths what is left: call once after the last fix, then `drain()`.
    public mutating func finish() {
        if anchor == nil { anchor = piece }
        emit(before: .infinity)
    }

    /// Feeds one fix (fixes must come in time order; one not later than the last is ignored).
    public mutating func add(_ fix: Fix) {
        guard fix.hasPosition else { return }
        if let last = current?.time, fix.time <= last { return }
        if projection == nil { projection = LocalProjection(origin: fix.coordinate) }
        guard let projection else { return }
        let (e, n) = projection.project(fix.coordinate)
        let z = SIMD2(e, n)
        let eph = fix.horizontalAccuracy.map { max($0, 0.1) } ?? configuration.defaultAccuracy
        let wander = min(
            max(eph * configuration.wanderScale, configuration.minimumWander), configuration.maximumWander)
        let white = max(eph * configuration.whiteScale, configuration.minimumWander * 0.3)
        guard var record = current else {
            start(at: fix, z: z, wander: wander, white: white)
            return
        }
        // An outage: points every second along the motion model, measured by nothing.
        if fix.time - record.time > configuration.outageAfter {
            var t = record.time + configuration.outageStep
            while t < fix.time - configuration.outageStep / 2 {
                record = predicted(from: record, to: t, wander: wander)
                // No fix measured it: the last fix's speed and track are not carried across.
                record.bridged = true
                record.speed = .nan
                record.track = .nan
                push(record)
                t += configuration.outageStep
            }
        }
        record = predicted(from: record, to: fix.time, wander: wander)
        record.track = .nan
        record.speed = .nan
        record.bridged = false
        measureVelocity(fix, into: &record)
        measurePosition(z, at: fix.time, white: white, wander: wander, into: &record)
        lastFixTime = fix.time
        push(record)
        if anchor == nil, fix.time - pieceStart >= configuration.anchorPiece { anchor = piece }
        if let first = records.first?.time, fix.time - first > configuration.window {
            if anchor == nil, fix.time - first > 2 * configuration.window { anchor = piece }
            if anchor != nil { emit(before: fix.time - configuration.holdBack) }
        }
    }

    private mutating func start(at fix: Fix, z: SIMD2<Double>, wander: Double, white: Double) {
        var east = KalmanAxis()
        var north = KalmanAxis()
        east.x = SIMD3(z.x, 0, 0)
        north.x = SIMD3(z.y, 0, 0)
        let big = 1e6
        east.covariance = .diagonal(big, 25, wander * wander)
        north.covariance = east.covariance
        var record = Record(
            time: fix.time, east: east, north: north, predictedEast: east, predictedNorth: north,
            breakBefore: true, piece: 0)
        measureVelocity(fix, into: &record)
        let h = SIMD3<Double>(1, 0, 1)
        record.east.update(z.x, h: h, variance: white * white)
        record.north.update(z.y, h: h, variance: white * white)
        pieceStart = fix.time
        lastFixTime = fix.time
        push(record)
    }

    private func predicted(from record: Record, to time: Double, wander: Double) -> Record {
        let dt = time - record.time
        let transition = KalmanAxis.transition(dt: dt, tau: configuration.wanderTau)
        let noise = KalmanAxis.processNoise(
            dt: dt, q: configuration.acceleration, tau: configuration.wanderTau, wanderSigma: wander)
        var next = record
        next.time = time
        next.east.predict(transition, noise)
        next.north.predict(transition, noise)
        next.predictedEast = next.east
        next.predictedNorth = next.north
        next.breakBefore = false
        next.piece = piece
        return next
    }

    private func measureVelocity(_ fix: Fix, into record: inout Record) {
        guard let speed = fix.speed, speed.isFinite, speed >= 0, speed <= configuration.maxSpeed else {
            return
        }
        let h = SIMD3<Double>(0, 1, 0)
        record.speed = speed < configuration.restSpeed ? 0 : speed * configuration.speedScale
        if speed < configuration.restSpeed {
            let r = configuration.restSigma * configuration.restSigma
            record.east.update(0, h: h, variance: r)
            record.north.update(0, h: h, variance: r)
            return
        }
        var direction: SIMD2<Double>
        var measured = speed
        if let track = fix.track {
            let radians = track * .pi / 180
            direction = SIMD2(CMath.sin(radians), CMath.cos(radians))
            measured *= configuration.speedScale
            if speed >= Self.headingSpeed { record.track = track }
        } else {
            let v = SIMD2(record.east.x.y, record.north.x.y)
            let length = (v * v).sum().squareRoot()
            guard length > 0.3 else { return }
            direction = v / length
        }
        let sigma = configuration.speedSigma + configuration.speedSigmaShare * speed
        record.east.update(measured * direction.x, h: h, variance: sigma * sigma)
        record.north.update(measured * direction.y, h: h, variance: sigma * sigma)
    }

    private mutating func measurePosition(
        _ z: SIMD2<Double>, at time: Double, white: Double, wander: Double, into record: inout Record
    ) {
        let h = SIMD3<Double>(1, 0, 1)
        let r = white * white
        let (re, se) = record.east.innovation(z.x, h: h, variance: r)
        let (rn, sn) = record.north.innovation(z.y, h: h, variance: r)
        let distance = (re * re + rn * rn).squareRoot()
        // The gate: the prediction's σ capped while fixes keep coming (see `gateCap`).
        let continuous = lastFixTime.map { time - $0 <= configuration.outageAfter + 0.5 } ?? false
        let cap = configuration.gateCap * configuration.gateCap + r + wander * wander
        let sigma = (continuous ? min(max(se, sn), cap) : max(se, sn)).squareRoot()
        if distance > max(configuration.gateSigmas * sigma, configuration.gateFloor) {
            follow(z, at: time, into: &record)
            return
        }
        shadow = nil
        // Huber: a fix between 2.5 σ and the gate counts, with its weight cut.
        let normalised = distance / sigma
        let inflate = normalised > 2.5 ? (normalised / 2.5) * (normalised / 2.5) : 1
        record.east.update(z.x, h: h, variance: r * inflate + (inflate - 1) * wander * wander)
        record.north.update(z.y, h: h, variance: r * inflate + (inflate - 1) * wander * wander)
    }

    /// A rejected fix: it continues the shadow track of rejected fixes, or begins one; a shadow
    /// that has held long enough breaks the track onto it.
    private mutating func follow(_ z: SIMD2<Double>, at time: Double, into record: inout Record) {
        let velocity = SIMD2(record.east.x.y, record.north.x.y)
        if var s = shadow {
            let expected = s.last + velocity * (time - s.lastTime)
            let miss = z - expected
            if (miss * miss).sum().squareRoot() <= configuration.shadowTolerance {
                s.count += 1
            } else {
                s = Shadow(start: time, count: 1, last: z, lastTime: time)
            }
            s.last = z
            s.lastTime = time
            shadow = s
        } else {
            shadow = Shadow(start: time, count: 1, last: z, lastTime: time)
        }
        guard let s = shadow, s.count >= configuration.breakFixes, time - s.start >= configuration.breakAfter
        else { return }
        // The break: the receiver's position moved. Position restarts at the fix, velocity and
        // its certainty carry on, and the jump is kept to join the pieces.
        shadow = nil
        breaks += 1
        let pieceStartOfPrevious = pieceStart
        piece += 1
        pieceStart = time
        let previous = piece - 1
        if anchor == nil, time - pieceStartOfPrevious >= configuration.anchorPiece { anchor = previous }
        let jump = z - SIMD2(record.east.x.x, record.north.x.x)
        cumulativeJumps.append((cumulativeJumps.last ?? .zero) + jump)
        restart(&record.east, at: z.x)
        restart(&record.north, at: z.y)
        record.predictedEast = record.east
        record.predictedNorth = record.north
        record.breakBefore = true
        record.piece = piece
    }

    /// One axis after a break: its position at the fix, its wander gone, its velocity kept.
    private func restart(_ axis: inout KalmanAxis, at position: Double) {
        axis.x = SIMD3(position, axis.x.y, 0)
        let white = configuration.minimumWander
        axis.covariance = Matrix3.diagonal(
            configuration.gateFloor * configuration.gateFloor, axis.covariance.r1.y, white * white)
    }

    private mutating func push(_ record: Record) {
        if let current { records.append(current) }
        current = record
    }

    /// Smooths every held record backward from the newest and hands out those before `time`.
    private mutating func emit(before time: Double) {
        var all = records
        if let current { all.append(current) }
        guard !all.isEmpty, let anchor else { return }
        var smoothedEast = [SIMD3<Double>](repeating: .zero, count: all.count)
        var smoothedNorth = smoothedEast
        smoothedEast[all.count - 1] = all[all.count - 1].east.x
        smoothedNorth[all.count - 1] = all[all.count - 1].north.x
        if all.count > 1 {
            for k in stride(from: all.count - 2, through: 0, by: -1) {
                let next = all[k + 1]
                guard !next.breakBefore else {
                    smoothedEast[k] = all[k].east.x
                    smoothedNorth[k] = all[k].north.x
                    continue
                }
                let transition = KalmanAxis.transition(
                    dt: next.time - all[k].time, tau: configuration.wanderTau)
                smoothedEast[k] = Self.rts(all[k].east, next.predictedEast, smoothedEast[k + 1], transition)
                smoothedNorth[k] = Self.rts(
                    all[k].north, next.predictedNorth, smoothedNorth[k + 1], transition)
            }
        }
        var handed = 0
        for k in all.indices where all[k].time < time {
            agree(track: all[k].track, velocity: SIMD2(smoothedEast[k].y, smoothedNorth[k].y))
            let shift = offset(of: all[k].piece, anchor: anchor)
            output.append(
                Point(
                    time: all[k].time, east: smoothedEast[k].x + shift.x, north: smoothedNorth[k].x + shift.y,
                    velocityEast: smoothedEast[k].y, velocityNorth: smoothedNorth[k].y,
                    measuredSpeed: all[k].speed.isNaN ? nil : all[k].speed, bridged: all[k].bridged,
                    wander: SIMD2(smoothedEast[k].z, smoothedNorth[k].z)))
            handed += 1
        }
        // Handing out past the held records hands out the newest (`current`) too: at `finish`.
        let held = records.count
        records.removeFirst(min(handed, held))
        if handed > held { current = nil }
    }

    /// Counts how far a fix's track (NaN: none) lies from the smoothed heading, for
    /// `headingAgreement`.
    private mutating func agree(track: Double, velocity: SIMD2<Double>) {
        guard !track.isNaN else { return }
        let heading = CMath.atan2(velocity.x, velocity.y) * 180 / .pi
        var difference = (track - heading).truncatingRemainder(dividingBy: 360)
        if difference > 180 { difference -= 360 }
        if difference < -180 { difference += 360 }
        guard abs(difference) < Self.headingWindow else { return }
        cosineSum += CMath.cos(difference * .pi / 180)
        cosineCount += 1
    }

    /// One RTS step: the smoothed state at k from the filtered state at k, the prediction of k + 1
    /// and the smoothed state at k + 1.
    static func rts(
        _ filtered: KalmanAxis, _ predicted: KalmanAxis, _ smoothedNext: SIMD3<Double>, _ transition: Matrix3
    )
        -> SIMD3<Double>
    {
        guard let inverse = predicted.covariance.inverse else { return filtered.x }
        let gain = filtered.covariance * transition.transposed * inverse
        let result = filtered.x + gain * (smoothedNext - predicted.x)
        return result.x.isFinite && result.y.isFinite ? result : filtered.x
    }

    /// How far piece `k` is moved to join the anchor piece (see the type's comment).
    /// Earlier pieces move forward by the jumps between them and the anchor; later ones back by
    /// the jumps since it: both are the anchor's sum less the piece's own.
    func offset(of k: Int, anchor: Int) -> SIMD2<Double> {
        cumulativeJumps[anchor] - cumulativeJumps[k]
    }
}
