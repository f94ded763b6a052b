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

/// SINK RATE / OVERSPEED (SPEC "GPWS and missions").
///
/// Alerts arm only once the runner first reaches the target band, so a warm-up never sounds
/// SINK RATE. Armed: slower than target + deviation → SINK RATE, faster than target − deviation
/// → OVERSPEED. No pace (standing, paused) is normal. A change of state must hold for
/// `confirmSeconds` before it takes effect, so pace noise at a band edge does not chatter the
/// buzzer; the episode's times are backdated to when the change began.
public struct PaceAlertMonitor: Sendable {
    public enum State: Sendable, Equatable {
        case normal
        case alerting(GPWSAlert)
    }

    public enum Change: Sendable, Equatable {
        case began(GPWSAlert, at: Double)
        case ended(GPWSAlert, at: Double)
    }

    public let mission: Mission
    public let confirmSeconds: Double
    public private(set) var isArmed = false
    public private(set) var state: State = .normal
    private var candidate: (state: State, since: Double)?

    public init(mission: Mission, confirmSeconds: Double = 3) {
        self.mission = mission
        self.confirmSeconds = confirmSeconds
    }

    /// The state this pace implies, arming the monitor on first reaching the band.
    public mutating func classify(pace: Double?) -> State {
        guard let pace else { return .normal }
        if pace >= mission.fastestAllowedPace && pace <= mission.slowestAllowedPace {
            isArmed = true
            return .normal
        }
        guard isArmed else { return .normal }
        return pace > mission.slowestAllowedPace ? .alerting(.sinkRate) : .alerting(.overspeed)
    }

    public mutating func update(pace: Double?, at time: Double) -> [Change] {
        let raw = classify(pace: pace)
        guard raw != state else {
            candidate = nil
            return []
        }
        if candidate?.state != raw {
            candidate = (raw, time)
        }
        guard let candidate, time - candidate.since >= confirmSeconds else { return [] }
        return transition(to: raw, at: candidate.since)
    }

    /// Ends any episode at once (pause, touchdown).
    public mutating func silence(at time: Double) -> [Change] {
        candidate = nil
        return transition(to: .normal, at: time)
    }

    private mutating func transition(to next: State, at time: Double) -> [Change] {
        var changes: [Change] = []
        if case .alerting(let old) = state { changes.append(.ended(old, at: time)) }
        if case .alerting(let new) = next { changes.append(.began(new, at: time)) }
        state = next
        candidate = nil
        return changes
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
