/// The touchdown smoother's model of one horizontal axis (east or north), as a 3-state Kalman
/// filter: the runner's position `p`, velocity `v`, and the receiver's slowly wandering position
/// error `b` (a first-order Gauss–Markov process, the correlated wander every GPS shows).
///
/// A fix measures `p + b` (plus a little white noise); Doppler measures `v`. Modelling the wander
/// as a state of its own is what lets the smoother keep a few metres of correlated wander out of
/// the runner's path (a sum of fix-to-fix steps adds it to the distance; SPEC "Beyond the seed").
struct KalmanAxis: Sendable, Equatable {
    var x = SIMD3<Double>(0, 0, 0)
    var covariance = Matrix3.diagonal(0, 0, 0)

    /// The transition over `dt` seconds with wander time constant `tau`.
    static func transition(dt: Double, tau: Double) -> Matrix3 {
        let phi = CMath.exp(-dt / tau)
        return Matrix3(rows: SIMD3(1, dt, 0), SIMD3(0, 1, 0), SIMD3(0, 0, phi))
    }

    /// White-acceleration process noise of density `q` (m²/s³) for the runner, and the wander's
    /// own noise that keeps its variance at `wanderSigma²`.
    static func processNoise(dt: Double, q: Double, tau: Double, wanderSigma: Double) -> Matrix3 {
        let phi = CMath.exp(-dt / tau)
        let dt2 = dt * dt
        return Matrix3(
            rows: SIMD3(q * dt2 * dt / 3, q * dt2 / 2, 0), SIMD3(q * dt2 / 2, q * dt, 0),
            SIMD3(0, 0, wanderSigma * wanderSigma * (1 - phi * phi)))
    }

    mutating func predict(_ transition: Matrix3, _ noise: Matrix3) {
        x = transition * x
        covariance = transition * covariance * transition.transposed + noise
    }

    /// The innovation and its variance of a measurement `z` of `h · x`.
    func innovation(_ z: Double, h: SIMD3<Double>, variance r: Double) -> (residual: Double, variance: Double)
    {
        ((z - (h * x).sum()), (h * (covariance * h)).sum() + r)
    }

    /// A scalar measurement update.
    mutating func update(_ z: Double, h: SIMD3<Double>, variance r: Double) {
        let (residual, s) = innovation(z, h: h, variance: r)
        guard s > 0, s.isFinite else { return }
        let ph = covariance * h
        let gain = ph / s
        x += gain * residual
        covariance = covariance - Matrix3.outer(gain, ph)
        covariance = covariance.symmetrized
    }
}

/// A 3×3 matrix of doubles, by rows: just what `KalmanAxis` and the RTS pass need.
struct Matrix3: Sendable, Equatable {
    var r0: SIMD3<Double>
    var r1: SIMD3<Double>
    var r2: SIMD3<Double>

    init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        self.r0 = r0
        self.r1 = r1
        self.r2 = r2
    }

    static func diagonal(_ a: Double, _ b: Double, _ c: Double) -> Matrix3 {
        Matrix3(rows: SIMD3(a, 0, 0), SIMD3(0, b, 0), SIMD3(0, 0, c))
    }

    static func outer(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: a.x * b, a.y * b, a.z * b)
    }

    var transposed: Matrix3 {
        Matrix3(
            rows: SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
    }

    var symmetrized: Matrix3 {
        let t = transposed
        return Matrix3(rows: (r0 + t.r0) / 2, (r1 + t.r1) / 2, (r2 + t.r2) / 2)
    }

    /// The inverse, or nil when the matrix is singular (or not finite).
    var inverse: Matrix3? {
        let c0 = cross(r1, r2)
        let det = (r0 * c0).sum()
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let c1 = cross(r2, r0)
        let c2 = cross(r0, r1)
        // The adjugate's columns are the cofactor rows.
        return Matrix3(rows: c0 / det, c1 / det, c2 / det).transposed
    }

    private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.r0 * v).sum(), (m.r1 * v).sum(), (m.r2 * v).sum())
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3((r * t.r0).sum(), (r * t.r1).sum(), (r * t.r2).sum())
        }
        return Matrix3(rows: row(a.r0), row(a.r1), row(a.r2))
    }

    static func + (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2) }
    static func - (a: Matrix3, b: Matrix3) -> Matrix3 { Matrix3(rows: a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2) }
}
