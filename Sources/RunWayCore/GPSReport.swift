/// One TPV as gpsd reported it, before anything trusts it. The live gpsd client and the trace
/// reader both build one and call `checked()`, so a replayed report is judged exactly as the live
/// one was, and a report that fails never reaches the engine (nor displaces the valid report of
/// the same epoch, which is chosen after this check).
public struct GPSReport: Sendable, Equatable {
    /// Seconds since the Unix epoch (GPS time as gpsd gives it); `nil` when the TPV had none.
    public var time: Double?
    public var mode: Int
    public var latitude: Double?
    public var longitude: Double?
    public var eph: Double?
    public var epx: Double?
    public var epy: Double?
    public var speed: Double?
    public var track: Double?
    public var altitude: Double?

    public init(
        time: Double?, mode: Int, latitude: Double? = nil, longitude: Double? = nil, eph: Double? = nil,
        epx: Double? = nil, epy: Double? = nil, speed: Double? = nil, track: Double? = nil,
        altitude: Double? = nil
    ) {
        self.time = time
        self.mode = mode
        self.latitude = latitude
        self.longitude = longitude
        self.eph = eph
        self.epx = epx
        self.epy = epy
        self.speed = speed
        self.track = track
        self.altitude = altitude
    }

    /// A field that, when out of range, is dropped (unknown) while the report is kept.
    public enum Field: String, Sendable, CaseIterable {
        case speed, track, eph, epx, epy
        case altitude = "altMSL"

        /// What a receiver can truthfully report. Speed: gpsd reports ground speed of aircraft
        /// too, and receivers are limited to 515 m/s (COCOM), so anything faster is a corrupt
        /// value — the engine has its own, far lower, limit for a runner. Accuracy: gpsd's error
        /// estimates are metres, never negative; beyond 1 000 km they say nothing. Altitude:
        /// the Dead Sea shore to the COCOM ceiling.
        public var range: ClosedRange<Double> {
            switch self {
            case .speed: 0...600
            case .track: 0...360
            case .eph, .epx, .epy: 0...1_000_000
            case .altitude: -1_000...18_000
            }
        }
    }

    public enum Problem: Sendable, Equatable, CustomStringConvertible {
        /// The report is dropped.
        case noTime
        case timeOutOfRange(Double)
        case unknownMode(Int)
        case noPosition(mode: Int)
        case offEarth(latitude: Double, longitude: Double)
        /// The report is kept without this field.
        case outOfRange(Field, Double)

        public var dropsReport: Bool {
            if case .outOfRange = self { return false }
            return true
        }

        public var description: String {
            switch self {
            case .noTime: "no time"
            case .timeOutOfRange(let t): "time \(t) s is not between 1980 and 2200"
            case .unknownMode(let m): "mode \(m) is not a gpsd fix mode (0–3)"
            case .noPosition(let m): "mode \(m) TPV without a numeric lat and lon"
            case .offEarth(let lat, let lon): "position \(lat), \(lon) is not on Earth"
            case .outOfRange(let field, let value):
                "\(field.rawValue) \(value) is outside \(Self.format(field.range)) — treated as unknown"
            }
        }

        static func format(_ range: ClosedRange<Double>) -> String {
            func n(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
            return "\(n(range.lowerBound))…\(n(range.upperBound))"
        }
    }

    public enum Checked: Sendable, Equatable {
        /// Mode ≥ 2 with a position: a fix, with the problems of the fields dropped from it.
        case fix(Fix, dropped: [Problem])
        /// Mode 0 or 1: no fix. Counts toward signal loss.
        case noFix(time: Double?)
        case rejected(Problem)
    }

    /// GPS time cannot be before the GPS epoch (1980-01-06), and a receiver that reports a date
    /// after 2200 is corrupt.
    public static let timeRange: ClosedRange<Double> = 315_964_800...7_258_118_400

    public func checked() -> Checked {
        if let time, !(time.isFinite && Self.timeRange.contains(time)) {
            return .rejected(.timeOutOfRange(time))
        }
        guard (0...3).contains(mode) else { return .rejected(.unknownMode(mode)) }
        if mode < 2 { return .noFix(time: time) }
        guard let time else { return .rejected(.noTime) }
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else {
            return .rejected(.noPosition(mode: mode))
        }
        let coordinate = Coordinate(latitude: latitude, longitude: longitude)
        guard coordinate.isValid else {
            return .rejected(.offEarth(latitude: latitude, longitude: longitude))
        }
        var dropped: [Problem] = []
        func keep(_ field: Field, _ value: Double?) -> Double? {
            guard let value else { return nil }
            guard value.isFinite, field.range.contains(value) else {
                dropped.append(.outOfRange(field, value))
                return nil
            }
            return value
        }
        let accuracy = Fix.horizontalAccuracy(
            eph: keep(.eph, eph), epx: keep(.epx, epx), epy: keep(.epy, epy))
        let fix = Fix(
            time: time, coordinate: coordinate, horizontalAccuracy: accuracy, speed: keep(.speed, speed),
            track: keep(.track, track), altitude: keep(.altitude, altitude), mode: mode)
        return .fix(fix, dropped: dropped)
    }
}
