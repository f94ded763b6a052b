/// A Mission Flight's targets (seeds 003 and 000): a pace band, a heart-rate band, or both, over
/// a distance or a time. Distances are metres inside the engine (the seed mixed kilometres and
/// metres here and missed its MINIMUMS); times are seconds of moving time, as a watch's timer
/// counts them (a pause does not bring a time goal closer).
public struct Mission: Sendable, Equatable {
    /// Target pace and the deviation allowed either side, seconds per kilometre.
    public struct PaceBand: Sendable, Equatable {
        public var targetPace: Double
        public var allowedDeviation: Double

        public init(targetPace: Double, allowedDeviation: Double) {
            self.targetPace = targetPace
            self.allowedDeviation = allowedDeviation
        }

        public var slowestAllowedPace: Double { targetPace + allowedDeviation }
        public var fastestAllowedPace: Double { targetPace - allowedDeviation }
    }

    /// The heart rate to stay inside, beats per minute.
    public struct HeartRateBand: Sendable, Equatable {
        public var low: Double
        public var high: Double
        /// The zone (1…5) the band was taken from when the runner named one (`zone=2`); nil for
        /// a band given in beats per minute.
        public var zone: Int?

        public init(low: Double, high: Double, zone: Int? = nil) {
            self.low = low
            self.high = high
            self.zone = zone
        }

        /// Zone `zone` of `zones`, in whole beats (what the runner hears and reads), checked.
        public init(zone: Int, of zones: HeartRateZones) throws(Invalid) {
            guard let range = zones.range(of: zone) else { throw .zone(zone) }
            self.init(low: range.lowerBound.rounded(), high: range.upperBound.rounded(), zone: zone)
            try check()
        }

        /// A band given in beats per minute, checked.
        public init(checkedLow low: Double, high: Double) throws(Invalid) {
            self.init(low: low, high: high)
            try check()
        }

        func check() throws(Invalid) {
            guard Mission.heartRateRange.contains(low), Mission.heartRateRange.contains(high),
                high - low >= Mission.minimumHeartRateWidth
            else { throw .heartRate(low: low, high: high) }
        }
    }

    /// What ends the mission: MISSION COMPLETE, and MINIMUMS just before it.
    public enum Goal: Sendable, Equatable {
        /// Metres.
        case distance(Double)
        /// Seconds of moving time.
        case duration(Double)
    }

    public var pace: PaceBand?
    public var heartRate: HeartRateBand?
    public var goal: Goal

    public init(pace: PaceBand?, heartRate: HeartRateBand? = nil, goal: Goal) {
        self.pace = pace
        self.heartRate = heartRate
        self.goal = goal
    }

    /// A pace mission over a distance (seed 003's).
    /// - Parameters:
    ///   - targetPace: seconds per kilometre.
    ///   - allowedDeviation: seconds per kilometre either side of the target.
    ///   - targetDistance: metres.
    public init(targetPace: Double, allowedDeviation: Double, targetDistance: Double) {
        self.init(
            pace: PaceBand(targetPace: targetPace, allowedDeviation: allowedDeviation),
            goal: .distance(targetDistance))
    }

    /// Seconds per km; nil without a pace band.
    public var targetPace: Double? { pace?.targetPace }
    /// Seconds per km either side; nil without a pace band.
    public var allowedDeviation: Double? { pace?.allowedDeviation }
    /// Metres; nil for a time goal.
    public var targetDistance: Double? {
        if case .distance(let metres) = goal { return metres }
        return nil
    }
    /// Seconds of moving time; nil for a distance goal.
    public var targetDuration: Double? {
        if case .duration(let seconds) = goal { return seconds }
        return nil
    }

    /// Target pace, s/km: 2:00/km (faster than the marathon world record's 2:53) to 20:00/km (a
    /// walk). Past these no runner means it, and the alerts' arithmetic stays far from overflow.
    public static let paceRange: ClosedRange<Double> = 120...1200
    /// Allowed deviation, s/km: 1 s (the alert's own hysteresis is finer than that) to 2 minutes.
    public static let deviationRange: ClosedRange<Double> = 1...120
    /// Target distance: 100 m (the shortest flight that is recorded) to 500 km (past the longest
    /// ultramarathons run in one go).
    public static let distanceRange: ClosedRange<Double> = 100...500_000
    /// Target time, s: 1 minute (a strides' interval) to 48 hours (500 km at a walk's 10:00/km
    /// takes 83 h, but no one runs that without sleeping, and the battery would not last).
    public static let durationRange: ClosedRange<Double> = 60...172_800
    /// A heart-rate band's edges, bpm: 60 (a resting heart is not a target) to 230 (past any
    /// adult's maximum; the strap's readings stop at 250).
    public static let heartRateRange: ClosedRange<Double> = 60...230
    /// A band narrower than this (bpm) cannot be held: the alert's hysteresis enters 3 bpm outside
    /// and leaves 2 bpm inside each edge, and a strap's beat-to-beat noise is ±2–3 bpm.
    public static let minimumHeartRateWidth = 5.0

    /// A target outside its range (or not a number): which one, and what was given.
    public enum Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        case pace(Double)
        case deviation(Double)
        case distance(Double)
        case duration(Double)
        case heartRate(low: Double, high: Double)
        /// Not one of the five zones.
        case zone(Int)
        /// Neither a pace nor a heart-rate band: nothing to fly the mission by.
        case noTarget

        public var description: String {
            switch self {
            case .pace(let v): "target pace \(Self.show(v)) s/km is outside 2:00–20:00 per km"
            case .deviation(let v): "allowed deviation \(Self.show(v)) s/km is outside 1–120 s per km"
            case .distance(let v): "target distance \(Self.show(v)) m is outside 100 m–500 km"
            case .duration(let v): "target time \(Self.show(v)) s is outside 1 minute–48 hours"
            case .heartRate(let low, let high):
                "heart rate \(Self.show(low))–\(Self.show(high)) bpm is not a band inside 60–230 bpm at least 5 bpm wide"
            case .zone(let n): "zone \(n) is not a heart-rate zone 1–5"
            case .noTarget: "a mission needs a pace or a heart-rate target"
            }
        }

        static func show(_ v: Double) -> String {
            v.isFinite && v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : "\(v)"
        }
    }

    /// A mission from outside (the socket, the configuration, `--mission`, a stored row): each
    /// target checked against its range before anything computes with it.
    public init(checkedPace pace: PaceBand?, heartRate: HeartRateBand?, goal: Goal) throws(Invalid) {
        if let pace {
            guard Self.paceRange.contains(pace.targetPace) else { throw .pace(pace.targetPace) }
            guard Self.deviationRange.contains(pace.allowedDeviation) else {
                throw .deviation(pace.allowedDeviation)
            }
        }
        try heartRate?.check()
        guard pace != nil || heartRate != nil else { throw .noTarget }
        switch goal {
        case .distance(let metres): guard Self.distanceRange.contains(metres) else { throw .distance(metres) }
        case .duration(let seconds):
            guard Self.durationRange.contains(seconds) else { throw .duration(seconds) }
        }
        self.init(pace: pace, heartRate: heartRate, goal: goal)
    }

    /// A pace mission over a distance, checked.
    public init(checkedPace pace: Double, deviation: Double, distance: Double) throws(Invalid) {
        try self.init(
            checkedPace: PaceBand(targetPace: pace, allowedDeviation: deviation), heartRate: nil,
            goal: .distance(distance))
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
    /// A heart-rate mission's heart rate above its band.
    case heartRateHigh = "HR HIGH"
    /// A heart-rate mission's heart rate below its band.
    case heartRateLow = "HR LOW"
}

/// One SINK RATE, OVERSPEED, HR HIGH or HR LOW episode, as the flight's details list it.
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

/// MINIMUMS: `target − window ≤ progress < target`, whether or not the band's alerts ever armed.
/// Progress is metres for a distance goal (window 50 m, the seed's) and moving seconds for a
/// time goal (window 30 s: the 50 m at 5:30/km take 16 s and at a 10:00/km walk 30 s, so 30 s
/// gives every runner at least the distance goal's warning, and time to hear it).
public struct MinimumsMonitor: Sendable {
    public let target: Double
    public let window: Double
    public private(set) var hasSounded = false

    public init(target: Double, window: Double) {
        self.target = target
        self.window = window
    }

    public init(targetDistance: Double, window: Double = 50) {
        self.init(target: targetDistance, window: window)
    }

    public init(goal: Mission.Goal) {
        switch goal {
        case .distance(let metres): self.init(target: metres, window: 50)
        case .duration(let seconds): self.init(target: seconds, window: 30)
        }
    }

    public func isInApproach(_ progress: Double) -> Bool {
        progress >= target - window && progress < target
    }

    /// True once, the first time the progress is inside the approach window.
    public mutating func shouldSound(_ progress: Double) -> Bool {
        guard !hasSounded, isInApproach(progress) else { return false }
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
