/// Everything the buzzer can say. Each has its own pattern on the board.
public enum Callout: Sendable, Equatable {
    case countdown(Int)
    case rotate
    case split(order: Int, pace: Double?)
    case sinkRate
    case overspeed
    case minimums
    /// A heart-rate mission's heart rate above / below its band.
    case heartRateHigh
    case heartRateLow
    /// The mission's target distance is reached: pace alerts stop, the flight goes on free.
    case missionComplete
    case pause(PauseReason)
    case resume
    case signalLost
    case touchdown
    case error(String)
    /// Running while manually paused (`SlipWatch`): the reminder to resume.
    case stillPaused
    /// A long standstill (`StandstillWatch`): the reminder, or (`landing`) the flight landed.
    case standstill(minutes: Int, landing: Bool)
    /// A workout's step began (`index` from 0, of `count`): its kind, length and target.
    case workoutStep(index: Int, of: Int, Workout.Step)
    /// The workout's last step ended: the flight goes on free until END.
    case workoutComplete
    /// The runner's lap (`number` from 1) ended: its moving time and pace.
    case lap(number: Int, time: Double, pace: Double?)

    /// SINK RATE, OVERSPEED, HR HIGH, HR LOW, MINIMUMS and signal lost pre-empt a split or
    /// countdown beep.
    public var isUrgent: Bool {
        switch self {
        case .sinkRate, .overspeed, .heartRateHigh, .heartRateLow, .minimums, .signalLost: true
        default: false
        }
    }

    /// The words a runner would read on a log line.
    public var text: String {
        switch self {
        case .countdown(let n): "\(n)"
        case .rotate: "ROTATE"
        case .split(let order, let pace): "SPLIT \(order) KM \(Pace.format(pace))"
        case .sinkRate: "SINK RATE"
        case .overspeed: "OVERSPEED"
        case .minimums: "MINIMUMS"
        case .heartRateHigh: "HR HIGH"
        case .heartRateLow: "HR LOW"
        case .missionComplete: "MISSION COMPLETE"
        case .pause(let reason): "PAUSE (\(reason.rawValue))"
        case .resume: "RESUME"
        case .signalLost: "SIGNAL LOST"
        case .touchdown: "TOUCHDOWN"
        case .error(let message): "ERROR \(message)"
        case .stillPaused: "STILL PAUSED"
        case .standstill(let minutes, let landing):
            landing ? "LANDED AFTER \(minutes) MIN STANDING" : "STANDING \(minutes) MIN"
        case .workoutStep(let index, let count, let step):
            "STEP \(index + 1)/\(count) \(WorkoutText.spec(step).uppercased())"
        case .workoutComplete: "WORKOUT COMPLETE"
        case .lap(let number, let time, let pace):
            "LAP \(number) \(UTCTime.duration(time)) \(Pace.format(pace))"
        }
    }
}

/// A callout and the moment it was due, on the flight's time axis.
public struct TimedCallout: Sendable, Equatable {
    public var callout: Callout
    public var time: Double

    public init(_ callout: Callout, at time: Double) {
        self.callout = callout
        self.time = time
    }
}

/// GPWS state as the PFD shows it.
public enum GPWSState: String, Sendable, Equatable {
    case normal = "NORMAL"
    case sinkRate = "SINK RATE"
    case overspeed = "OVERSPEED"
    case minimums = "MINIMUMS"
    case heartRateHigh = "HR HIGH"
    case heartRateLow = "HR LOW"
}

/// The live readout (Primary Flight Display).
public struct PFD: Sendable, Equatable {
    public var time: Double
    public var phase: FlightPhase
    public var elapsed: Double
    public var movingTime: Double
    public var distance: Double
    /// Smoothed speed, m/s.
    public var speed: Double
    /// Seconds per kilometre; `nil` when there is no speed.
    public var pace: Double?
    public var altitude: Double?
    public var heading: Double?
    public var gpws: GPWSState
    public var pauseReason: PauseReason?
    public var signal: SignalQuality
    public var heartRate: Double?
    public var cadence: Double?
    public var completedSplits: Int
    /// The pace SINK RATE and OVERSPEED judge (s/km): the verdict's average, steadier than `pace`,
    /// so the voice says the pace that triggered the alert. Nil without a mission's pace alerts,
    /// or while standing.
    public var alertPace: Double? = nil
    /// The heart rate HR HIGH and HR LOW judge (bpm): the verdict's average, so the voice says the
    /// heart rate that triggered the alert. Nil without a heart-rate mission, or without a reading.
    public var alertHeartRate: Double? = nil
    /// The workout step being run, and what is left of it; nil without a workout (or after it).
    public var workoutStep: WorkoutStepStatus? = nil

    public static func idle(at time: Double) -> PFD {
        PFD(
            time: time, phase: .preflight, elapsed: 0, movingTime: 0, distance: 0, speed: 0, pace: nil,
            altitude: nil, heading: nil, gpws: .normal, pauseReason: nil, signal: .noSignal, heartRate: nil,
            cadence: nil, completedSplits: 0)
    }
}

/// Where a workout is, as the PFD shows it: the step (from 0) of how many, the step itself, and
/// what is left of it (metres for a distance step, moving seconds for a time step).
public struct WorkoutStepStatus: Sendable, Equatable {
    public var index: Int
    public var count: Int
    public var step: Workout.Step
    public var remaining: Double

    public init(index: Int, count: Int, step: Workout.Step, remaining: Double) {
        self.index = index
        self.count = count
        self.step = step
        self.remaining = remaining
    }

    /// The step as its text (`work 400m @3:50±10`).
    public var text: String { Workout(steps: [step]).spec }
}

/// What the engine hands out after each input.
public enum EngineOutput: Sendable, Equatable {
    case callout(TimedCallout)
    case state(PFD)
    /// A flight began: ROTATE at `rotate`, START pressed at `pressedAt`, with its mission. A
    /// recorder opens the flight's row here.
    case began(
        rotate: Double, pressedAt: Double, mission: Mission?, workout: Workout? = nil, run: String? = nil)
    /// What an END did (`EngineInput.end`); a landed flight comes whole in `.landed`.
    case ended(EndResult)
}

/// What an END command did.
public enum EndResult: Sendable, Equatable {
    /// The flight touched down; here it is, whole.
    case landed(Flight)
    /// END during the countdown: back to preflight without a flight.
    case abandonedTakeoff
    /// The command was sent before the current flight started.
    case ignoredStale
    /// Nothing was flying.
    case notFlying

    public var flight: Flight? {
        if case .landed(let flight) = self { return flight }
        return nil
    }
}
