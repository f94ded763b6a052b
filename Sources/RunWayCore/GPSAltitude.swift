/// Where a flight's elevation came from.
public enum ElevationSource: String, Sendable, Equatable {
    /// The BMP280: relative altitude from pressure (SPEC "Altitude and elevation gain").
    case barometer
    /// The receiver's `altMSL`, on a board without a working barometer.
    case gps
}

/// Relative altitude from the GPS receiver's `altMSL`, for a board without a barometer (SPEC:
/// "the receiver's altitude, filtered for its larger correlated error, is the fallback").
///
/// GPS altitude wanders by metres over minutes (the simulator: σ 4 m, τ 120 s) and jumps with
/// multipath; the zero is the first altitude at or after ROTATE. A sample implying more than
/// `spikeLimit` m/s of vertical speed since the last accepted one is dropped; the rest go through
/// an exponential average over `seconds`. `ElevationGain` then counts climbs with the GPS
/// configuration (`ElevationGain.Configuration.gps`): a larger hysteresis, and slow changes
/// booked as wander rather than terrain.
public struct GPSAltitudeFilter: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var seconds: Double = 20
        public var spikeLimit: Double = 5

        public init() {}
    }

    public let configuration: Configuration
    public private(set) var reference: Double?
    private var smoothed: Double?
    private var lastAccepted: (time: Double, altitude: Double)?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Feeds a fix's altitude at `time`; the smoothed relative altitude, or nil when dropped.
    public mutating func add(time: Double, altitude: Double) -> Double? {
        guard altitude.isFinite, (-500...9000).contains(altitude) else { return nil }
        let reference = self.reference ?? altitude
        self.reference = reference
        let relative = altitude - reference
        if let last = lastAccepted {
            guard time > last.time else { return nil }
            if abs(relative - last.altitude) / (time - last.time) > configuration.spikeLimit { return nil }
            let weight = 1 - CMath.exp(-(time - last.time) / configuration.seconds)
            smoothed = (smoothed ?? relative) + (relative - (smoothed ?? relative)) * weight
        } else {
            smoothed = relative
        }
        lastAccepted = (time, relative)
        return smoothed
    }
}
