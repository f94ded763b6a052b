/// The international barometric formula (troposphere, ISA lapse rate).
public enum BarometricFormula {
    /// Height in metres of `pressure` above the level where the pressure is `reference`.
    public static func altitude(pressure: Double, reference: Double) -> Double {
        44_330 * (1 - CMath.pow(pressure / reference, 1 / 5.255))
    }

    /// Pressure at `altitude` metres above the level whose pressure is `reference`.
    public static func pressure(altitude: Double, reference: Double) -> Double {
        reference * CMath.pow(1 - altitude / 44_330, 5.255)
    }
}

/// Relative altitude from the barometer (seed 000).
///
/// The zero is the pressure of the first sample at or after ROTATE: the seed started the
/// barometer during the countdown, mixed the runner's movements into the zero, and began runs at
/// −4 m. A sample implying more than `spikeLimit` m/s of vertical speed since the last accepted
/// one is dropped. Accepted samples go through a double EMA (0.8/0.2) seeded by a flag — the first
/// sample is 0 m, and 0 is a value, not "missing".
public struct AltitudeFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var spikeLimit: Double = 3
        public var keep: Double = 0.8

        public init() {}
    }

    public let configuration: Configuration
    public let rotateAt: Double
    public private(set) var reference: Double?
    private var lastAccepted: (time: Double, altitude: Double)?
    private var seeded = false
    private var s1: Double = 0
    private var s2: Double = 0

    public init(configuration: Configuration = Configuration(), rotateAt: Double) {
        self.configuration = configuration
        self.rotateAt = rotateAt
    }

    /// Smoothed altitude relative to ROTATE; `nil` until the zero is taken.
    public var altitude: Double? { seeded ? s2 : nil }
    /// The last accepted sample's altitude before smoothing (`SmoothedAltitude` averages these).
    public var rawAltitude: Double? { lastAccepted?.altitude }

    public enum Outcome: Sendable, Equatable {
        case beforeRotate
        case implausible
        case spike
        case accepted(Double)
    }

    public mutating func add(_ sample: PressureSample) -> Outcome {
        guard sample.isPlausible else { return .implausible }
        guard sample.time >= rotateAt else { return .beforeRotate }
        guard let reference else {
            reference = sample.pascals
            lastAccepted = (sample.time, 0)
            seeded = true
            s1 = 0
            s2 = 0
            return .accepted(0)
        }
        let raw = BarometricFormula.altitude(pressure: sample.pascals, reference: reference)
        if let last = lastAccepted {
            let dt = sample.time - last.time
            guard dt > 0 else { return .spike }
            if abs(raw - last.altitude) / dt > configuration.spikeLimit { return .spike }
        }
        lastAccepted = (sample.time, raw)
        let keep = configuration.keep
        s1 = keep * s1 + (1 - keep) * raw
        s2 = keep * s2 + (1 - keep) * s1
        return .accepted(s2)
    }
}
