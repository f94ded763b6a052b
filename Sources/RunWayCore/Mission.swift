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
