/// The saved distance's drift taken out by the positions (issue 26's split times).
///
/// The saved distance sums Doppler speeds second by second; their noise (±0.1 m/s a reading)
/// adds up as a random walk, ±4 m by the fifth kilometre in open sky and ±5 m at a slow jog:
/// the kilometre splits' ends came out 3–8 s off at worst. The dead-reckoned route carries the
/// same error as a displacement: each second's error lies along that second's heading, so the
/// route drifts off the fixes by the sum of them as vectors. That drift `E` is estimated here
/// from the fixes by a Kalman filter and a Rauch–Tung–Striebel pass:
/// - `E` moves each second along the heading by the speed's error (σ `speedSigma` × dt) and
///   across it by the heading's (σ `headingSigma` × the step);
/// - a fix measures the route's position plus `E` and the receiver's wander; the wander, a
///   minute-long correlated error, counts as white noise of the same information per second
///   (variance 2 σ² τ per second: σ `wanderSigma`, τ `wanderTau`).
/// Each second's distance error is then the smoothed drift's change along that second's heading.
/// Fixes whose offset from the route moves faster than `settledRate` over `settledWindow`
/// seconds (a cold start's offset decaying) measure nothing.
///
/// `runway-bench conditions --seeds 20`: split ends' worst open sky 3.2 → 2.5 s, slow jog
/// 8.0 → 7.5 s, tree cover's distance 0.15 → 0.10 % (median). Only part of the walk comes out
/// on a park loop: a closed lap hides the speeds' error from the positions.
///
/// Memory: the samples, the filtered state and covariance, ~110 bytes a second of a stretch
/// (a 24 h stretch ~9 MB at landing, freed with it); time linear (24 h at 1 Hz: the whole
/// landing 1.8 s, `runway-bench landing`).
public enum AlongTrackCorrection {
    public struct Configuration: Sendable, Equatable {
        /// σ of one Doppler reading (m/s), when the readings themselves do not say (see
        /// `estimatedSpeedSigma`).
        public var speedSigma = 0.1
        /// σ of the route's heading each second (radians): the smoothed velocity's few tenths
        /// of a track's 3°. From 0.01 to 0.1 no condition's split figure moved more than 0.3 s.
        public var headingSigma = 0.03
        /// The receiver's wander per axis (m) and its time constant (s): a healthy receiver's,
        /// as `TrackSmoother` takes it (eph ≈ 21 m × 0.12; about a minute).
        public var wanderSigma = 2.5
        public var wanderTau = 60.0
        /// A fix's offset from the route moving faster than this (m/s) over `settledWindow`
        /// seconds either side is a receiver's solution moving, not wander (a minute's wander
        /// moves it ~0.15 m/s over 10 s; a cold start's offset decays at 3–17 m/s).
        public var settledRate = 1.0
        public var settledWindow = 10
        /// σ of the route's start (m): the smoothed point it is reckoned from, a few metres of
        /// wander or tens where a cold start's pieces were joined. Pinned at 1 m, a decaying cold
        /// start's split ends came out 0.9 / 3.3 → 1.6 / 4.8 s; 10 m is as good as free.
        public var startSigma = 10.0

        public init() {}
    }

    /// One second of the route: its time, where the fix put the runner less where the route
    /// reckoned it (nil where no fix measured it), the heading (a unit vector, or zero) and the
    /// step's length into it.
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var offset: SIMD2<Double>?
        public var heading: SIMD2<Double>
        public var step: Double

        public init(time: Double, offset: SIMD2<Double>?, heading: SIMD2<Double>, step: Double) {
            self.time = time
            self.offset = offset
            self.heading = heading
            self.step = step
        }
    }

    /// σ of one Doppler reading from the readings: successive differences hold twice its
    /// variance (a runner's own speed changes far more slowly); their median absolute value,
    /// scaled to σ for Gaussian noise. Nil under 30 pairs.
    public static func estimatedSpeedSigma(_ speeds: [Double]) -> Double? {
        guard speeds.count > 30 else { return nil }
        return speedSigma(differences: zip(speeds, speeds.dropFirst()).map { abs($1 - $0) })
    }

    /// σ of one reading from the absolute differences of successive readings (nil: none).
    static func speedSigma(differences: [Double]) -> Double? {
        guard !differences.isEmpty else { return nil }
        let sorted = differences.sorted()
        return speedSigma(medianDifference: sorted[sorted.count / 2])
    }

    /// σ of one reading from the median absolute difference of successive readings (for
    /// Gaussian noise, 1.4826 × the median absolute value is σ of the difference, √2 σ).
    static func speedSigma(medianDifference: Double) -> Double {
        1.4826 * medianDifference / 2.0.squareRoot()
    }

    /// The metres to add to each step (index k: the step from sample k − 1 to k; 0 for k = 0).
    public static func corrections(
        _ samples: [Sample], speedSigma: Double, configuration: Configuration = Configuration()
    ) -> [Double] {
        let n = samples.count
        guard n >= 3 else { return [Double](repeating: 0, count: n) }
        let settled = settledFixes(samples, configuration: configuration)
        let r = 2 * configuration.wanderSigma * configuration.wanderSigma * configuration.wanderTau
        func noise(_ k: Int) -> Matrix2 {
            Self.noise(samples[k], dt: samples[k].time - samples[k - 1].time, speedSigma, configuration)
        }
        // Forward: E is a random walk; each fix measures E (its offset from the route).
        var filtered = [SIMD2<Double>](repeating: .zero, count: n)
        var covariance = [Matrix2](repeating: .zero, count: n)
        // The route is reckoned from the stretch's first point: no drift there yet, only that
        // point's own error (`startSigma`).
        var x = SIMD2<Double>.zero
        let start = configuration.startSigma * configuration.startSigma
        var p = Matrix2.diagonal(start, start)
        for k in 0..<n {
            if k > 0 { p = p + noise(k) }
            if settled[k], let z = samples[k].offset {
                let dt = k > 0 ? max(samples[k].time - samples[k - 1].time, 0.05) : 1
                let s = p + Matrix2.diagonal(r / dt, r / dt)
                if let inverse = s.inverse {
                    let gain = p * inverse
                    x = x + gain * (z - x)
                    p = (Matrix2.identity - gain) * p
                }
            }
            filtered[k] = x
            covariance[k] = p
        }
        // Backward (RTS): the transition is the identity.
        var smoothed = filtered
        if n >= 2 {
            for k in stride(from: n - 2, through: 0, by: -1) {
                guard let inverse = (covariance[k] + noise(k + 1)).inverse else { continue }
                let gain = covariance[k] * inverse
                smoothed[k] = filtered[k] + gain * (smoothed[k + 1] - filtered[k])
            }
        }
        var result = [Double](repeating: 0, count: n)
        for k in 1..<n {
            let change = smoothed[k] - smoothed[k - 1]
            let along = (change * samples[k].heading).sum()
            result[k] = along.isFinite ? along : 0
        }
        return result
    }

    /// The drift's noise over one step: along the heading the speed's error × dt, across it the
    /// heading's error × the step.
    static func noise(_ sample: Sample, dt: Double, _ speedSigma: Double, _ configuration: Configuration)
        -> Matrix2
    {
        let h = sample.heading
        let along = speedSigma * speedSigma * max(dt, 0) * max(dt, 0)
        let acrossSigma = configuration.headingSigma * sample.step
        let across = acrossSigma * acrossSigma
        guard (h * h).sum() > 0.5 else {
            // No heading: either way.
            let v = along + across
            return .diagonal(v, v)
        }
        let normal = SIMD2(-h.y, h.x)
        return Matrix2.outer(h, h) * along + Matrix2.outer(normal, normal) * across
    }

    /// Fixes whose offset from the route holds still enough to be wander.
    static func settledFixes(_ samples: [Sample], configuration: Configuration) -> [Bool] {
        let n = samples.count
        var settled = [Bool](repeating: false, count: n)
        let w = configuration.settledWindow
        for k in 0..<n where samples[k].offset != nil {
            var lo = max(0, k - w)
            while lo < k, samples[lo].offset == nil { lo += 1 }
            var hi = min(n - 1, k + w)
            while hi > k, samples[hi].offset == nil { hi -= 1 }
            guard let a = samples[lo].offset, let b = samples[hi].offset else { continue }
            let span = samples[hi].time - samples[lo].time
            guard span > 0 else {
                settled[k] = true
                continue
            }
            let drift = b - a
            settled[k] = (drift * drift).sum().squareRoot() / span <= configuration.settledRate
        }
        return settled
    }
}

/// A 2×2 matrix of doubles, by rows: what `AlongTrackCorrection` needs.
struct Matrix2: Sendable, Equatable {
    var r0: SIMD2<Double>
    var r1: SIMD2<Double>

    static let zero = Matrix2(r0: .zero, r1: .zero)
    static let identity = Matrix2(r0: SIMD2(1, 0), r1: SIMD2(0, 1))

    static func diagonal(_ a: Double, _ b: Double) -> Matrix2 { Matrix2(r0: SIMD2(a, 0), r1: SIMD2(0, b)) }

    static func outer(_ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Matrix2 { Matrix2(r0: a.x * b, r1: a.y * b) }

    var inverse: Matrix2? {
        let det = r0.x * r1.y - r0.y * r1.x
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        return Matrix2(r0: SIMD2(r1.y, -r0.y) / det, r1: SIMD2(-r1.x, r0.x) / det)
    }

    static func + (a: Matrix2, b: Matrix2) -> Matrix2 { Matrix2(r0: a.r0 + b.r0, r1: a.r1 + b.r1) }
    static func - (a: Matrix2, b: Matrix2) -> Matrix2 { Matrix2(r0: a.r0 - b.r0, r1: a.r1 - b.r1) }
    static func * (a: Matrix2, s: Double) -> Matrix2 { Matrix2(r0: a.r0 * s, r1: a.r1 * s) }
    static func * (m: Matrix2, v: SIMD2<Double>) -> SIMD2<Double> {
        SIMD2((m.r0 * v).sum(), (m.r1 * v).sum())
    }
    static func * (a: Matrix2, b: Matrix2) -> Matrix2 {
        let c0 = SIMD2(b.r0.x, b.r1.x)
        let c1 = SIMD2(b.r0.y, b.r1.y)
        return Matrix2(
            r0: SIMD2((a.r0 * c0).sum(), (a.r0 * c1).sum()), r1: SIMD2((a.r1 * c0).sum(), (a.r1 * c1).sum()))
    }
}
