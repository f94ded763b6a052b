import Foundation
import Testing

@testable import RunWayCore

@Suite("The saved distance's drift taken out by the positions")
struct AlongTrackCorrectionTests {
    /// East at 3 m/s for `seconds`, the speeds reading `speedError(t)` too fast (the reckoned
    /// route runs ahead by their sum), the fixes where the runner was plus `fixOffset(t)`.
    func samples(
        seconds: Int, speedError: (Double) -> Double, fixOffset: (Double) -> SIMD2<Double>? = { _ in .zero }
    ) -> [AlongTrackCorrection.Sample] {
        var reckoned = 0.0
        return (0...seconds).map { k in
            let t = Double(k)
            let step = k > 0 ? 3 + speedError(t) : 0
            reckoned += step
            return AlongTrackCorrection.Sample(
                time: t, offset: fixOffset(t).map { SIMD2(3 * t, 0) + $0 - SIMD2(reckoned, 0) },
                heading: SIMD2(1, 0), step: step)
        }
    }

    /// Speeds 0.06 m/s fast for five minutes in the middle of an hour: the sum 18 m too far, six
    /// times what the filter lets it drift in that time (0.1 m/s a second). The fixes, each where
    /// the runner was, take it back. (The filter's time constant, a fix's wander counting as
    /// 2 σ² τ of white noise a second, is √(750 / 0.01) ≈ 270 s: a drift in a run's first or last
    /// minutes is only partly taken out, 13 of these 18 m five minutes from the end.)
    @Test func speedsThatReadFastAreBroughtBackToTheFixes() {
        let fast = samples(seconds: 3600) { t in t > 1500 && t <= 1800 ? 0.06 : 0 }
        let total = AlongTrackCorrection.corrections(fast, speedSigma: 0.1).reduce(0, +)
        #expect(abs(total + 18) < 1, "\(total)")
        let late = samples(seconds: 1200) { t in t > 600 && t <= 900 ? 0.06 : 0 }
        let partly = AlongTrackCorrection.corrections(late, speedSigma: 0.1).reduce(0, +)
        #expect(partly < -12 && partly > -18.5, "\(partly)")
    }

    /// The fixes of a cold start 200 m ahead, the offset shrinking to nothing over 40 s while the
    /// speeds are right: they measure the receiver's solution converging, not the runner.
    @Test func aColdStartsDecayingOffsetMeasuresNothing() {
        let settling = samples(
            seconds: 600, speedError: { _ in 0 },
            fixOffset: { t in SIMD2(t < 40 ? 200 * (1 - t / 40) : 0, 0) })
        let total = AlongTrackCorrection.corrections(settling, speedSigma: 0.1).reduce(0, +)
        #expect(abs(total) < 1, "\(total)")
    }

    /// Without a fix there is nothing to correct by: every step stays as the speeds say.
    @Test func withoutFixesNothingMoves() {
        let blind = samples(seconds: 300, speedError: { _ in 0.03 }, fixOffset: { _ in nil })
        #expect(AlongTrackCorrection.corrections(blind, speedSigma: 0.1).allSatisfy { $0 == 0 })
        #expect(AlongTrackCorrection.corrections(Array(blind.prefix(2)), speedSigma: 0.1) == [0, 0])
    }

    /// The readings' own noise from their successive differences: a steady 3 m/s read with
    /// σ 0.1 (a fixed sequence of Gaussian draws) gives about 0.1; under 31 readings, nothing.
    @Test func theReadingsNoiseIsMeasuredFromTheirDifferences() throws {
        var state: UInt64 = 0x2026_1206
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) + 0.5) / Double(1 << 53)
        }
        let speeds = (0..<2000).map { _ in
            3 + 0.1 * (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
        }
        let sigma = try #require(AlongTrackCorrection.estimatedSpeedSigma(speeds))
        #expect(abs(sigma - 0.1) < 0.01, "\(sigma)")
        #expect(AlongTrackCorrection.estimatedSpeedSigma(Array(speeds.prefix(30))) == nil)
    }
}
