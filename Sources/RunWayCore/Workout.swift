/// A structured workout (issue 27): steps flown one after another, each over a distance or a
/// time, each with its own pace or heart-rate band (or none). Repeats are written once and
/// expanded here, so the engine, the laps and the FIT's workout see one flat list of steps.
///
/// `spec` is the workout as text, the one form it has outside the engine: the configuration's
/// `runs`, `runway start --workout`, `runway fly --workout` and the logbook's `workout` column
/// all hold it, and `Workout(parsing:)` gives back the same steps from it.
public struct Workout: Sendable, Equatable {
    /// What a step is for; the FIT's lap and workout-step intensity follow it.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        case warmup, work, recover, cooldown, run, walk
    }

    /// How long a step lasts: metres of distance, or seconds of moving time (a pause does not
    /// bring a step's end closer, as for a mission's time goal).
    public enum Length: Sendable, Equatable {
        case distance(Double)
        case duration(Double)
    }

    public struct Step: Sendable, Equatable {
        public var kind: Kind
        public var length: Length
        public var pace: Mission.PaceBand?
        public var heartRate: Mission.HeartRateBand?

        public init(
            kind: Kind, length: Length, pace: Mission.PaceBand? = nil, heartRate: Mission.HeartRateBand? = nil
        ) {
            self.kind = kind
            self.length = length
            self.pace = pace
            self.heartRate = heartRate
        }
    }

    public var steps: [Step]
    /// The text the steps were parsed from, normalised (`Workout(parsing: spec)` gives them back).
    public var spec: String

    /// A step's distance: 50 m (a stride) to 100 km (past any one step a runner means).
    public static let stepDistanceRange: ClosedRange<Double> = 50...100_000
    /// A step's time: 10 s (a sprint) to 24 h.
    public static let stepDurationRange: ClosedRange<Double> = 10...86_400
    /// Steps after repeats are expanded: a long run/walk (4 min + 1 min for 10 hours is 120
    /// steps) fits; past 200 nobody is counting, and every step is a lap in the FIT.
    public static let maximumSteps = 200
    /// A repeat's count: 1 to 99.
    public static let repeatRange: ClosedRange<Int> = 1...99
    /// A pace band given without its deviation allows this either side, s/km: about the
    /// hysteresis a runner feels on a track at 4:00/km.
    public static let defaultPaceDeviation = 10.0

    /// A workout built from steps; `spec` is made from them.
    public init(steps: [Step]) {
        self.steps = steps
        spec = steps.map(WorkoutText.spec).joined(separator: "; ")
    }

    /// Parses `text` (see `WorkoutParser` for the grammar); zones resolve `z2` targets.
    public init(parsing text: String, zones: HeartRateZones = .unconfigured) throws(Invalid) {
        var parser = WorkoutParser(text: text, zones: zones)
        let steps = try parser.parse()
        self.init(steps: steps)
    }

    /// Why a workout's text is refused: which part, and what was wrong with it.
    public enum Invalid: Error, Sendable, Equatable, CustomStringConvertible {
        /// No steps at all.
        case empty
        /// More than `maximumSteps` once repeats are expanded.
        case tooManySteps(Int)
        /// A repeat count outside 1…99.
        case repeatCount(Int)
        /// Something other than a step kind where one was expected.
        case unknownKind(String)
        /// A length with a unit that is not m, km, mi, s, min or h.
        case unknownUnit(String)
        /// Step `step` (1-based, in the written order) with a length outside its range.
        case length(step: Int, String)
        /// Step `step`'s band refused by the mission's own checks.
        case band(step: Int, Mission.Invalid)
        /// The text does not follow the grammar at `offset` (characters from its start).
        case syntax(offset: Int, expected: String)

        public var description: String {
            switch self {
            case .empty: "a workout needs at least one step"
            case .tooManySteps(let n):
                "a workout has at most \(Workout.maximumSteps) steps once repeated, got \(n)"
            case .repeatCount(let n): "a repeat count is 1–99, got \(n)"
            case .unknownKind(let word):
                "\"\(word)\" is not a step (\(Workout.Kind.allCases.map(\.rawValue).joined(separator: ", ")))"
            case .unknownUnit(let word): "\"\(word)\" has no known unit (m, km, mi, s, min, h)"
            case .length(let step, let what): "step \(step): \(what)"
            case .band(let step, let invalid): "step \(step): \(invalid)"
            case .syntax(let offset, let expected): "at character \(offset + 1): expected \(expected)"
            }
        }
    }
}

extension Workout.Step {
    /// Whether it lasts a distance (else a moving time).
    public var isDistance: Bool {
        if case .distance = length { return true }
        return false
    }

    /// The step's length in its own unit: metres or moving seconds.
    public var target: Double {
        switch length {
        case .distance(let metres): metres
        case .duration(let seconds): seconds
        }
    }
}

/// The normalised text of a step, as `WorkoutParser` reads it back.
enum WorkoutText {
    static func spec(_ step: Workout.Step) -> String {
        var text = "\(step.kind.rawValue) \(length(step.length))"
        if let pace = step.pace {
            text += " @\(Pace.format(pace.targetPace))±\(number(pace.allowedDeviation))"
        }
        if let band = step.heartRate {
            // A zone keeps its beats: the text flies the same band whatever the zones are later.
            let bpm = "\(number(band.low))-\(number(band.high))"
            text += band.zone.map { " @z\($0):\(bpm)" } ?? " @hr\(bpm)"
        }
        return text
    }

    static func length(_ length: Workout.Length) -> String {
        switch length {
        case .distance(let metres):
            metres >= 1000 && metres.truncatingRemainder(dividingBy: 100) == 0
                ? "\(number(metres / 1000))km" : "\(number(metres))m"
        case .duration(let seconds):
            seconds.truncatingRemainder(dividingBy: 60) == 0
                ? "\(number(seconds / 60))min" : "\(number(seconds))s"
        }
    }

    /// A number without a needless ".0", to a tenth at most.
    static func number(_ value: Double) -> String {
        DecimalText.format((value * 10).rounded() / 10)
    }
}
