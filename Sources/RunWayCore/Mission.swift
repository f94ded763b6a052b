/// A Mission Flight's targets (seed 003). Distances are metres inside the engine; the seed mixed
/// kilometres and metres here and missed its MINIMUMS.
public struct Mission: Sendable, Equatable {
    public var targetPace: Double
    public var allowedDeviation: Double
    public var targetDistance: Double

    /// - Parameters:
    ///   - targetPace: seconds per kilometre.
    ///   - allowedDeviation: seconds per kilometre either side of the target.
    ///   - targetDistance: metres.
    public init(targetPace: Double, allowedDeviation: Double, targetDistance: Double) {
        self.targetPace = targetPace
        self.allowedDeviation = allowedDeviation
        self.targetDistance = targetDistance
    }

    public var slowestAllowedPace: Double { targetPace + allowedDeviation }
    public var fastestAllowedPace: Double { targetPace - allowedDeviation }

    /// Target pace, s/km: 2:00/km (faster than the marathon world record's 2:53) to 20:00/km (a
    /// walk). Past these no runner means it, and the alerts' arithmetic stays far from overflow.
    public static let paceRange: ClosedRange<Double> = 120...1200
    /// Allowed deviation, s/km: 1 s (the alert's own hysteresis is finer than that) to 2 minutes.
    public static let deviationRange: ClosedRange<Double> = 1...120
    /// Target distance: 100 m (the shortest flight that is recorded) to 500 km (past the longest
    /// ultramarathons run in one go).
    public static let distanceRange: ClosedRange<Double> = 100...500_000

    /// A target outside its range (or not a number): which one, and what was given.
    public enum Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        case pace(Double)
        case deviation(Double)
        case distance(Double)

        public var description: String {
            switch self {
            case .pace(let v): "target pace \(Self.show(v)) s/km is outside 2:00–20:00 per km"
            case .deviation(let v): "allowed deviation \(Self.show(v)) s/km is outside 1–120 s per km"
            case .distance(let v): "target distance \(Self.show(v)) m is outside 100 m–500 km"
            }
        }

        static func show(_ v: Double) -> String {
            v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
        }
    }

    /// A mission from outside (the socket, the configuration, `--mission`, a stored row): each
    /// target checked against its range before anything computes with it.
    public init(checkedPace pace: Double, deviation: Double, distance: Double) throws(Invalid) {
        guard Self.paceRange.contains(pace) else { throw .pace(pace) }
        guard Self.deviationRange.contains(deviation) else { throw .deviation(deviation) }
        guard Self.distanceRange.contains(distance) else { throw .distance(distance) }
        self.init(targetPace: pace, allowedDeviation: deviation, targetDistance: distance)
    }

    /// `M:SS` (minutes one or two ASCII digits, seconds two, 00–59) as seconds per km; nil for
    /// anything else. Total: no input can overflow it. The range is the caller's check.
    public static func pace(parsing text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), (1...2).contains(colon),
            bytes.count == colon + 3, bytes.allSatisfy({ $0 == UInt8(ascii: ":") || (48...57).contains($0) })
        else { return nil }
        func number(_ digits: ArraySlice<UInt8>) -> Int { digits.reduce(0) { $0 * 10 + Int($1 - 48) } }
        let minutes = number(bytes[..<colon])
        let seconds = number(bytes[(colon + 1)...])
        guard seconds < 60 else { return nil }
        return Double(minutes * 60 + seconds)
    }
}

/// The GPWS alerts.
public enum GPWSAlert: String, Sendable, Equatable, CaseIterable {
    case sinkRate = "SINK RATE"
    case overspeed = "OVERSPEED"
    case minimums = "MINIMUMS"
}

/// One SINK RATE or OVERSPEED episode, as the flight's details list it.
public struct AlertEpisode: Sendable, Equatable {
    public var kind: GPWSAlert
    public var startElapsed: Double
    public var endElapsed: Double?
    public var coordinate: Coordinate?

    public init(kind: GPWSAlert, startElapsed: Double, endElapsed: Double? = nil, coordinate: Coordinate?) {
        self.kind = kind
        self.startElapsed = startElapsed
        self.endElapsed = endElapsed
        self.coordinate = coordinate
    }
}

/// MINIMUMS: `target − 50 m ≤ distance < target`, whether or not pace alerts ever armed.
public struct MinimumsMonitor: Sendable {
    public let targetDistance: Double
    public let window: Double
    public private(set) var hasSounded = false

    public init(targetDistance: Double, window: Double = 50) {
        self.targetDistance = targetDistance
        self.window = window
    }

    public func isInApproach(distance: Double) -> Bool {
        distance >= targetDistance - window && distance < targetDistance
    }

    /// True once, the first time the distance is inside the approach window.
    public mutating func shouldSound(distance: Double) -> Bool {
        guard !hasSounded, isInApproach(distance: distance) else { return false }
        hasSounded = true
        return true
    }
}

/// A stop/end command carries the time it was sent; one sent before the current flight started
/// is stale and ignored. A command without a time is obeyed: a run that cannot end is worse
/// than one that ends (seed 002).
public enum StaleStopRule {
    public static func obeys(sentAt: Double?, flightStartedAt: Double?) -> Bool {
        guard let sentAt, let flightStartedAt else { return true }
        return sentAt >= flightStartedAt
    }
}
