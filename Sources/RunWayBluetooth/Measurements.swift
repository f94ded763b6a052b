/// Heart Rate Measurement (characteristic 0x2A37), as the Heart Rate Service specification
/// defines it. Decoded by `HeartRateMeasurement.decode` (HeartRateDecoding.swift).
public struct HeartRateMeasurement: Sendable, Equatable {
    /// The Sensor Contact Status bits of the flags.
    public enum Contact: Sendable, Equatable {
        /// The strap does not report contact.
        case notSupported
        case notDetected
        case detected
    }

    /// Beats per minute as sent (8- or 16-bit).
    public var beatsPerMinute: Int
    public var contact: Contact
    /// Kilojoules since the last reset, when the flags say it is present.
    public var energyExpended: Int?
    /// RR intervals in seconds (sent in 1/1024 s), oldest first.
    public var rrIntervals: [Double]

    public init(beatsPerMinute: Int, contact: Contact, energyExpended: Int?, rrIntervals: [Double]) {
        self.beatsPerMinute = beatsPerMinute
        self.contact = contact
        self.energyExpended = energyExpended
        self.rrIntervals = rrIntervals
    }

    /// The heart rate the engine may use: nil when the strap says it has no skin contact, or the
    /// value is not a heart rate (0, or past 250): missing, never 0.
    public var usableHeartRate: Double? {
        guard contact != .notDetected, (20...250).contains(beatsPerMinute) else { return nil }
        return Double(beatsPerMinute)
    }
}

/// RSC Measurement (characteristic 0x2A53) of a footpod, as the Running Speed and Cadence
/// specification defines it. Decoded by `RSCMeasurement.decode` (RSCDecoding.swift).
public struct RSCMeasurement: Sendable, Equatable {
    /// Instantaneous speed, m/s (sent in 1/256 m/s).
    public var speed: Double
    /// Steps per minute as runners count them (both feet).
    public var cadence: Double
    /// Metres (sent in 1/100 m), when the flags say it is present.
    public var strideLength: Double?
    /// Metres since the pod's reset (sent in 1/10 m), when present.
    public var totalDistance: Double?
    /// The pod says the runner is running, not walking (flag bit 2).
    public var isRunning: Bool

    public init(
        speed: Double, cadence: Double, strideLength: Double?, totalDistance: Double?, isRunning: Bool
    ) {
        self.speed = speed
        self.cadence = cadence
        self.strideLength = strideLength
        self.totalDistance = totalDistance
        self.isRunning = isRunning
    }
}
