/// One position report from gpsd (a TPV with mode ≥ 2), or a mode-1 "no fix" report.
///
/// `time` is GPS time in seconds since the Unix epoch, taken from the report and never
/// from the wall clock. Every other input to the engine carries its time on this same axis;
/// the daemon maps monotonic clocks onto it.
public struct Fix: Sendable, Equatable {
    public var time: Double
    public var coordinate: Coordinate
    /// Horizontal accuracy in metres (gpsd `eph`); `nil` when the receiver does not say.
    public var horizontalAccuracy: Double?
    /// Speed over ground in m/s; `nil` when unknown (gpsd NaN).
    public var speed: Double?
    /// Course over ground, degrees from true north.
    public var track: Double?
    /// Altitude above mean sea level in metres.
    public var altitude: Double?
    /// gpsd fix mode: 1 no fix, 2 two-dimensional, 3 three-dimensional.
    public var mode: Int

    public init(
        time: Double, coordinate: Coordinate, horizontalAccuracy: Double? = nil, speed: Double? = nil,
        track: Double? = nil, altitude: Double? = nil, mode: Int = 3
    ) {
        self.time = time
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy.flatMap { $0.isFinite ? $0 : nil }
        self.speed = speed.flatMap { $0.isFinite ? $0 : nil }
        self.track = track.flatMap { $0.isFinite ? $0 : nil }
        self.altitude = altitude.flatMap { $0.isFinite ? $0 : nil }
        self.mode = mode
    }

    public var hasPosition: Bool { mode >= 2 && coordinate.isValid && time.isFinite }

    /// gpsd's horizontal accuracy: `eph`, or the larger of `epx` and `epy` when gpsd gives no
    /// `eph`; `nil` when neither is known. The live client and the trace reader both use this, so
    /// a replayed fix is judged exactly as the live one was.
    public static func horizontalAccuracy(eph: Double?, epx: Double?, epy: Double?) -> Double? {
        if let eph { return eph }
        guard let epx, let epy else { return nil }
        return max(epx, epy)
    }
}

/// One barometer reading in pascals.
public struct PressureSample: Sendable, Equatable {
    public var time: Double
    public var pascals: Double

    public init(time: Double, pascals: Double) {
        self.time = time
        self.pascals = pascals
    }

    /// Inside the BMP280's specified range (300–1100 hPa) and finite.
    public var isPlausible: Bool { pascals.isFinite && pascals >= 30_000 && pascals <= 110_000 }
}

/// Heart rate and cadence from optional sensors, and a footpod's own speed and distance. Each
/// is `nil` when that sensor said nothing: a missing value is missing, never 0.
public struct BodySample: Sendable, Equatable {
    public var time: Double
    public var heartRate: Double?
    /// Steps per minute (both feet).
    public var cadence: Double?
    /// A footpod's instantaneous speed, m/s. Kept in the raw log as an input for where GPS is
    /// lost (tunnels): the saved flight bridges an outage with the pod's metres
    /// (`FootpodOdometer`), the live odometer its step across a silence and the display through
    /// it (`LiveFootpod`).
    public var footpodSpeed: Double?
    /// A footpod's total distance since its own reset, metres (its odometer: differences count).
    public var footpodDistance: Double?

    /// The fastest a footpod's speed is believed: 12.5 m/s, past the 100 m world record's mean
    /// (10.4 m/s); beyond it the pod is wrong.
    public static let footpodSpeedRange: ClosedRange<Double> = 0...12.5

    public init(
        time: Double, heartRate: Double? = nil, cadence: Double? = nil, footpodSpeed: Double? = nil,
        footpodDistance: Double? = nil
    ) {
        self.time = time
        // A heart rate of 0 is a sensor that lost contact, not a stopped heart.
        self.heartRate = heartRate.flatMap { $0.isFinite && $0 >= 20 && $0 <= 250 ? $0 : nil }
        self.cadence = cadence.flatMap { $0.isFinite && $0 >= 0 && $0 <= 300 ? $0 : nil }
        self.footpodSpeed = footpodSpeed.flatMap { Self.footpodSpeedRange.contains($0) ? $0 : nil }
        // RSC's total distance is a 32-bit count of decimetres: at most 429 496 729.5 m.
        self.footpodDistance = footpodDistance.flatMap {
            $0.isFinite && $0 >= 0 && $0 <= 429_496_730 ? $0 : nil
        }
    }
}

/// GPS signal quality as the takeoff checklist reads it (seed 004).
public enum SignalQuality: String, Sendable, CaseIterable {
    case noSignal = "NO SIGNAL"
    case strong = "STRONG"
    case good = "GOOD"
    case weak = "WEAK"

    /// Unknown or non-positive accuracy → NO SIGNAL; < 10 m STRONG; < 30 m GOOD; else WEAK.
    public init(accuracy: Double?) {
        guard let accuracy, accuracy.isFinite, accuracy > 0 else {
            self = .noSignal
            return
        }
        if accuracy < 10 {
            self = .strong
        } else if accuracy < 30 {
            self = .good
        } else {
            self = .weak
        }
    }

    /// STRONG and GOOD pass the takeoff checklist.
    public var passesChecklist: Bool { self == .strong || self == .good }
}
