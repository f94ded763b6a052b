import Foundation

/// A heart rate good enough to fly heart-rate missions with: the runner's heart follows the
/// effort they hold with a lag, drifts upward over a long run, and a strap reads it with noise.
///
/// - **Effort**: the heart rate the runner means to hold, by moving time (`Effort`): a runner
///   who runs by heart rate eases off as their heart drifts, so what they hold is the heart
///   rate, not a pace. Standing, the target falls to `resting`.
/// - **Lag**: a first-order response with time constant `lagSeconds` (45 s: heart rate reaches
///   63 % of a step in effort in 30–60 s, the range the issue gives; from rest to 150 bpm it is
///   within a beat of its level after 3.4 min).
/// - **Drift**: `driftPerHour` bpm an hour of moving time that the runner does not correct
///   (cardiac drift: 5–10 bpm an hour at a steady effort; the runner corrects most of it).
/// - **Noise**: a slow wander (Gauss–Markov, `wanderBPM` over `wanderSeconds`: breathing,
///   terrain) and the strap's beat-to-beat jitter (`jitterBPM`, white), rounded to whole beats
///   as a strap reports them; a reading is missing `dropout` of the time (contact lost).
public struct HeartRateModel: Sendable {
    /// From `from` seconds of moving time, the runner holds `heartRate` bpm.
    public struct Effort: Sendable {
        public var from: Double
        public var heartRate: Double

        public init(from: Double, heartRate: Double) {
            self.from = from
            self.heartRate = heartRate
        }
    }

    public var efforts: [Effort]
    public var resting = 60.0
    public var lagSeconds = 45.0
    public var driftPerHour = 2.0
    public var wanderBPM = 1.5
    public var wanderSeconds = 20.0
    public var jitterBPM = 1.5
    public var dropout = 0.01

    public init(efforts: [Effort]) {
        self.efforts = efforts
    }

    /// The heart rate the runner holds after `movingTime` seconds of moving.
    public func effort(at movingTime: Double) -> Double {
        var held = efforts.first?.heartRate ?? resting
        for effort in efforts where effort.from <= movingTime { held = effort.heartRate }
        return held
    }

    /// The model's state along a run.
    public struct State: Sendable {
        var heart: Double
        var movingTime = 0.0
        var wander: GaussMarkov

        public init(model: HeartRateModel, generator: inout SeededGenerator) {
            heart = model.resting
            wander = GaussMarkov(sigma: model.wanderBPM, tau: model.wanderSeconds, generator: &generator)
        }

        /// `dt` seconds on (moving or not); the strap's reading now, nil when it has none.
        public mutating func step(
            _ dt: Double, moving: Bool, model: HeartRateModel, generator: inout SeededGenerator
        ) -> Double? {
            if moving { movingTime += dt }
            let target =
                moving ? model.effort(at: movingTime) + model.driftPerHour * movingTime / 3600 : model.resting
            heart += (target - heart) * (1 - Foundation.exp(-dt / model.lagSeconds))
            let reading =
                heart + wander.step(dt, generator: &generator) + model.jitterBPM * generator.gaussian()
            guard Double.random(in: 0..<1, using: &generator) >= model.dropout else { return nil }
            return reading.rounded()
        }
    }
}
