import Foundation

/// SplitMix64: a small, fast, seedable generator, so every simulated run is reproducible.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A standard normal deviate (Box–Muller).
    public mutating func gaussian() -> Double {
        let u1 = Double.random(in: Double.ulpOfOne..<1, using: &self)
        let u2 = Double.random(in: 0..<1, using: &self)
        return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * .pi * u2)
    }
}

/// A first-order Gauss–Markov process: noise with standard deviation `sigma` whose memory fades
/// with time constant `tau`. GPS position error looks like this — a slow wander, not white noise.
public struct GaussMarkov: Sendable {
    public let sigma: Double
    public let tau: Double
    public private(set) var value: Double

    public init(sigma: Double, tau: Double, generator: inout SeededGenerator) {
        self.sigma = sigma
        self.tau = tau
        value = sigma * generator.gaussian()
    }

    public mutating func step(_ dt: Double, generator: inout SeededGenerator) -> Double {
        guard tau > 0 else {
            value = sigma * generator.gaussian()
            return value
        }
        let decay = Foundation.exp(-dt / tau)
        value = value * decay + sigma * (1 - decay * decay).squareRoot() * generator.gaussian()
        return value
    }
}
