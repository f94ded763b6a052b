/// Turns counted movement into distance (SPEC "Beyond the seed").
///
/// A sum of position steps grows with position noise: every metre of sideways wander and every
/// multipath jump adds length. The receiver's Doppler speed is far less noisy and unbiased while
/// moving, so the odometer integrates speed over time (trapezoids between accepted fixes) and
/// spends that integral when the movement filter counts a step. Positions guard the integral:
/// when speeds are missing, span a long gap, or claim far more travel than the positions allow,
/// the great-circle step is used instead. A chord much *longer* than the integral is the
/// signature of a position jump, not of a lying speedometer, so it does not override speed.
public struct Odometer: Sendable {
    public struct Configuration: Sendable, Equatable {
        /// Below this, a reported speed is receiver noise at rest and integrates as 0.
        public var restSpeed: Double = 0.4
        /// Trapezoids never span a silence longer than this (the signal-loss limit).
        public var maxIntegrationGap: Double = 8
        /// The integral is rejected when it exceeds `chord × ratio + slack`.
        public var maxIntegralToChordRatio: Double = 2
        public var maxIntegralSlack: Double = 10
        /// Faster than this, a single speed sample is a spike and invalidates its interval.
        public var maxSpeed: Double = 12

        public init() {}
    }

    public let configuration: Configuration
    /// Total distance in metres.
    public private(set) var distance: Double = 0
    private var pending: Double = 0
    private var pendingValid = true
    private var last: (time: Double, speed: Double?)?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds every accepted fix (counted or held) in time order.
    public mutating func integrate(time: Double, speed: Double?) {
        let usable: Double? = speed.flatMap { s in
            guard s.isFinite, s <= configuration.maxSpeed else { return nil }
            return s < configuration.restSpeed ? 0 : s
        }
        defer { last = (time, usable) }
        guard let last else { return }
        let dt = time - last.time
        guard dt > 0, dt <= configuration.maxIntegrationGap, let v0 = last.speed, let v1 = usable else {
            pendingValid = false
            return
        }
        pending += (v0 + v1) / 2 * dt
    }

    /// Spends the pending integral (or the chord) for a counted step; returns the increment.
    @discardableResult
    public mutating func count(chord: Double) -> Double {
        let limit = chord * configuration.maxIntegralToChordRatio + configuration.maxIntegralSlack
        // A valid integral of 0 is the receiver saying "at rest": the step is position wander.
        let increment = pendingValid && pending <= limit ? pending : chord
        distance += increment
        pending = 0
        pendingValid = true
        return increment
    }

    /// Forgets travel since the last counted step without adding it (manual pause).
    public mutating func discardPending() {
        pending = 0
        pendingValid = true
    }
}
