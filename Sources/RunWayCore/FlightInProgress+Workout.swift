/// A workout flown step by step: each step's bands become the alerts', each step is said as it
/// begins, and the step's end is a lap.
extension FlightInProgress {
    /// ROTATE with a workout: its first step is said and its bands set.
    mutating func beginWorkout(at time: Double, _ out: inout [EngineOutput]) {
        guard let tracker = workout, let step = tracker.current else { return }
        setBands(for: step)
        decide(.step, at: time, value: 0)
        out.append(
            .callout(TimedCallout(.workoutStep(index: 0, of: tracker.workout.steps.count, step), at: time)))
    }

    /// The steps the flight's progress has carried past their length: each next step's bands
    /// replace the last's (its episodes ended first), and the step is said.
    mutating func updateWorkout(at time: Double, _ out: inout [EngineOutput]) {
        guard var tracker = workout else { return }
        let events = tracker.update(progress(at: time))
        workout = tracker
        follow(events, at: time, &out)
    }

    /// The runner's lap: in a workout the step ends there; in a free run (whose laps begin with
    /// the first press) the lap ends there and is said with its time and pace.
    mutating func lap(at time: Double, _ out: inout [EngineOutput]) {
        var tracker = workout ?? WorkoutTracker(workout: Workout(steps: []))
        let events = tracker.lap(at: progress(at: time))
        workout = tracker
        follow(events, at: time, &out)
    }

    private mutating func follow(
        _ events: [WorkoutTracker.Event], at time: Double, _ out: inout [EngineOutput]
    ) {
        for event in events {
            switch event {
            case .stepEnded: silenceBandAlerts(at: time, &out)
            case .stepBegan(let index):
                guard let tracker = workout, let step = tracker.current else { continue }
                setBands(for: step)
                decide(.step, at: time, value: Double(index))
                out.append(
                    .callout(
                        TimedCallout(
                            .workoutStep(index: index, of: tracker.workout.steps.count, step), at: time)))
            case .finished:
                silenceBandAlerts(at: time, &out)
                paceAlerts = nil
                heartRateAlerts = nil
                decide(.workoutComplete, at: time)
                out.append(.callout(TimedCallout(.workoutComplete, at: time)))
            case .lapped(let lap):
                decide(.lap, at: time, value: Double(lap.index + 1))
                out.append(
                    .callout(
                        TimedCallout(
                            .lap(number: lap.index + 1, time: lap.movingTime, pace: lap.pace), at: time)))
            }
        }
    }

    /// The step being run and what is left of it, for the PFD.
    func workoutStep(at time: Double) -> WorkoutStepStatus? {
        guard let tracker = workout, let step = tracker.current,
            let remaining = tracker.remaining(at: progress(at: time))
        else { return nil }
        return WorkoutStepStatus(
            index: tracker.index, count: tracker.workout.steps.count, step: step, remaining: remaining)
    }

    /// A new monitor per step: its verdict starts afresh on the step's own target, and it arms
    /// within the step even if the runner never reaches the band (see `stepPaceArmSeconds`).
    private mutating func setBands(for step: Workout.Step) {
        var pace = configuration.paceAlerts
        pace.armAfterSeconds = Self.stepPaceArmSeconds
        paceAlerts = step.pace.map { PaceAlertMonitor(band: $0, configuration: pace) }
        var heart = configuration.heartRateAlerts
        heart.warmUpSeconds = Self.stepHeartRateWarmUp
        heartRateAlerts = step.heartRate.map { HeartRateAlertMonitor(band: $0, configuration: heart) }
    }

    /// Pace: two of the verdict's 15 s time constants (`PaceAlertMonitor.armAfterSeconds`).
    static let stepPaceArmSeconds = 30.0
    /// Heart rate, moving seconds from the step's start: the simulator's 45 s lag twice over,
    /// 86 % of the way from the last step's effort (a flight's own 5-minute warm-up is for a
    /// heart at rest; a step starts from the last step's).
    static let stepHeartRateWarmUp = 90.0

    /// Moving seconds since the current step began: what a step's heart-rate warm-up counts.
    func stepMovingTime(_ movingTime: Double) -> Double {
        guard let workout else { return movingTime }
        return movingTime - workout.stepStart.movingTime
    }
}
