/// What the board decided for the runner during a flight, when (issue 27: "every decision in
/// the FDR"): the reminders, the pauses and resumes it made by itself, a forgotten stop's
/// landing, and the laps and steps. A flight's pauses say why each began; these say what the
/// board did about the runner, so a replay shows the same and a runner can see what was said.
public struct FlightDecision: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// STILL PAUSED: running while paused by the button.
        case stillPaused = "still-paused"
        /// A flight paused by the button resumed by itself (`value`: the metres credited).
        case autoResume = "auto-resume"
        /// A vehicle's speed paused the flight (`value`: the metres taken back).
        case vehiclePause = "vehicle-pause"
        /// Running again after a vehicle resumed it (`value`: the metres credited).
        case vehicleResume = "vehicle-resume"
        /// A standstill was reminded (`value`: minutes standing).
        case standstillReminder = "standstill-reminder"
        /// A forgotten stop landed the flight at its last movement (`value`: minutes standing).
        case standstillLanding = "standstill-landing"
        /// A workout's step began (`value`: its index from 0).
        case step
        /// The runner's lap (`value`: the lap's number from 1).
        case lap
        /// The workout's last step ended.
        case workoutComplete = "workout-complete"
    }

    /// Seconds from ROTATE.
    public var elapsed: Double
    public var kind: Kind
    /// What the kind says it is; nil when it has none.
    public var value: Double?

    public init(elapsed: Double, kind: Kind, value: Double? = nil) {
        self.elapsed = elapsed
        self.kind = kind
        self.value = value
    }
}

extension FlightInProgress {
    /// Notes a decision at `time` (kept at most `maximumDecisions`: a board left paused for a
    /// day reminds every 10 minutes, 144 times, far inside it).
    mutating func decide(_ kind: FlightDecision.Kind, at time: Double, value: Double? = nil) {
        guard decisions.count < Self.maximumDecisions else { return }
        decisions.append(FlightDecision(elapsed: max(0, time - rotateAt), kind: kind, value: value))
    }

    /// 48 hours of a step or a lap every 30 s is 5760; beyond this no record is worth its room.
    static let maximumDecisions = 10_000
}
