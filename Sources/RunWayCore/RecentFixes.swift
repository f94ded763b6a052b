/// The last seconds of accepted fixes, to say where the runner was at one of their times by all
/// of them rather than by the one fix taken then (issue 26: the ends of a step across a silence).
///
/// Across a GPS silence the live odometer measures the chord from the anchor before it to the
/// first fix after it, and one multipath fix there (15–40 m off for 2–6 s, several an hour) is
/// the whole chord's error: on one "stop in an outage" seed the anchor was the first of two
/// fixes 24 m off just before the silence, and the bridge came out 13 m short (the live
/// distance 1 % short at the next kilometre mark, the stop booked 4 s long). Each fix here is
/// carried to the asked time along the Doppler velocities between (dead reckoning, so a corner
/// in the window is followed: ±0.4 m over 15 s at ±0.1 m/s), and the answer is the median of
/// those places, east and north apart: a spell of jumped fixes shorter than half the window is
/// outvoted wherever it falls.
public struct RecentFixes: Sendable {
    /// Seconds of fixes that vote: more than twice the longest multipath spell (6 s), so a spell
    /// that ends at the asked time is still outvoted (with five fixes, a 6 s spell ending at
    /// the anchor moved the anchor onto it: 13 m long on an "outages on a straight" seed).
    public static let window = 15.0

    /// Seconds of fixes after a silence's exit before they vote on where it was: more than
    /// twice the longest multipath spell, inside `window`.
    public static let exitVote = 13.0

    /// At most this many fixes are kept (10 Hz over `window`).
    static let capacity = 160

    /// A fix further than this from where the others put it is a jump, not wander: a healthy
    /// receiver's fix moves ~1 m a second about its neighbours (0.7 m white, a wander of 2.5 m
    /// over a minute), under trees ~2.5 m; a multipath jump is 15–40 m. The vote is used only
    /// past it: elsewhere the fix itself is the better place (the median lags the wander by a
    /// few seconds: "outages on a straight" live worst 0.72 → 0.92 % with it always).
    public static let outlier = 10.0

    /// Fixes further apart than this are on either side of a silence: none carries across it.
    /// The odometer's own limit, so the vote and the step it measures agree on what a silence is.
    static let silence = Odometer.Configuration().maxIntegrationGap

    struct Sample: Sendable {
        var time: Double
        var coordinate: Coordinate
        /// Doppler velocity, metres a second east and north; zero without speed and track.
        var velocity: SIMD2<Double>
    }

    private(set) var samples: [Sample] = []

    public init() {}

    /// The newest fix's time, nil before any.
    public var latestTime: Double? { samples.last?.time }

    /// Remembers an accepted fix; fixes older than `window` before it are forgotten.
    public mutating func add(_ fix: Fix) {
        guard fix.hasPosition, fix.time > (samples.last?.time ?? -.infinity) else { return }
        var velocity = SIMD2<Double>.zero
        if let speed = fix.speed, let track = fix.track, speed.isFinite, track.isFinite {
            velocity = speed * Geodesy.direction(ofTrack: track)
        }
        samples.append(Sample(time: fix.time, coordinate: fix.coordinate, velocity: velocity))
        let keep = samples.firstIndex { $0.time >= fix.time - Self.window } ?? 0
        let excess = max(keep, samples.count - Self.capacity)
        if excess > 0 { samples.removeFirst(excess) }
    }

    /// Where the fixes put the runner at `time` (one of their times, or between two): each fix
    /// of the unbroken run (no silence) that holds `time` carried there by dead reckoning, the
    /// median east and north of the places. Nil when no run holds `time`.
    public func position(at time: Double) -> Coordinate? {
        guard let run = run(holding: time) else { return nil }
        let projection = LocalProjection(origin: samples[run.lowerBound].coordinate)
        // The reckoned track: each fix's place by the velocities from the run's first.
        var reckoned = [SIMD2<Double>](repeating: .zero, count: run.count)
        for k in 1..<max(run.count, 1) {
            let a = samples[run.lowerBound + k - 1]
            let b = samples[run.lowerBound + k]
            reckoned[k] = reckoned[k - 1] + (a.velocity + b.velocity) / 2 * (b.time - a.time)
        }
        // The reckoned place at `time`, between the two fixes around it (the first's before the
        // run, the last's after it).
        var at = reckoned[run.count - 1]
        for k in 1..<max(run.count, 1) where samples[run.lowerBound + k].time >= time {
            let a = samples[run.lowerBound + k - 1]
            let span = samples[run.lowerBound + k].time - a.time
            let f = span > 0 ? min(max((time - a.time) / span, 0), 1) : 1
            at = reckoned[k - 1] + (reckoned[k] - reckoned[k - 1]) * f
            break
        }
        var easts: [Double] = []
        var norths: [Double] = []
        for k in 0..<run.count {
            let place = projection.project(samples[run.lowerBound + k].coordinate)
            easts.append(place.east + at.x - reckoned[k].x)
            norths.append(place.north + at.y - reckoned[k].y)
        }
        guard let east = easts.median, let north = norths.median else { return nil }
        return projection.coordinate(east: east, north: north)
    }

    /// The indices of the unbroken run of fixes whose span holds `time` (within a second of
    /// its ends).
    func run(holding time: Double) -> Range<Int>? {
        var start = 0
        for k in samples.indices {
            if k > 0, samples[k].time - samples[k - 1].time > Self.silence { start = k }
            let end = k + 1 == samples.count || samples[k + 1].time - samples[k].time > Self.silence
            if end, time >= samples[start].time - 1, time <= samples[k].time + 1 { return start..<(k + 1) }
        }
        return nil
    }
}
