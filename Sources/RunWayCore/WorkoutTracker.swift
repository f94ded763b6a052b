/// One lap of a flight: a workout's step as it was run, or what came after the last step.
public struct FlightLap: Sendable, Equatable {
    /// 0-based: the lap's place in the flight (a workout's step's place, until a lap pressed
    /// after its last step).
    public var index: Int
    /// The step this lap flew; nil for the run after the workout's last step.
    public var step: Workout.Step?
    public var startElapsed: Double
    public var endElapsed: Double
    /// Metres: the flight's distance at the lap's end less its distance at the start, so the
    /// laps add up to the flight's distance exactly.
    public var distance: Double
    /// Seconds of moving time inside the lap.
    public var movingTime: Double
    public var averageHeartRate: Double?
    public var averageCadence: Double?
    /// The step reached its length (false: END or the flight's end came first).
    public var completed: Bool

    public init(
        index: Int, step: Workout.Step?, startElapsed: Double, endElapsed: Double, distance: Double,
        movingTime: Double, averageHeartRate: Double? = nil, averageCadence: Double? = nil, completed: Bool
    ) {
        self.index = index
        self.step = step
        self.startElapsed = startElapsed
        self.endElapsed = endElapsed
        self.distance = distance
        self.movingTime = movingTime
        self.averageHeartRate = averageHeartRate
        self.averageCadence = averageCadence
        self.completed = completed
    }

    public var elapsed: Double { endElapsed - startElapsed }
    /// Seconds per km over the lap's moving time; nil for a lap without distance.
    public var pace: Double? { distance >= 1 ? movingTime / distance * 1000 : nil }
}

/// Where a workout is: the step being run, where it began, and the laps behind it. Pure: fed
/// the flight's progress at each fix and its body samples, it says when a step ends and the
/// next begins, so a replay of the raw log gives the same laps as the live run.
public struct WorkoutTracker: Sendable, Equatable {
    public enum Event: Sendable, Equatable {
        /// Step `index` began (0 at ROTATE).
        case stepBegan(Int)
        /// A step reached its length; its lap.
        case stepEnded(FlightLap)
        /// The last step ended: the flight goes on free until END.
        case finished
        /// The runner's lap ended a lap that was no step (a free run's, or one after the workout).
        case lapped(FlightLap)
    }

    public let workout: Workout
    /// The step being run; `workout.steps.count` once the workout is done.
    public private(set) var index = 0
    public private(set) var laps: [FlightLap] = []
    /// Where the current step (or the run after the last) began.
    public private(set) var stepStart: Progress
    private var heartRate = RunningMean()
    private var cadence = RunningMean()

    public init(workout: Workout) {
        self.workout = workout
        stepStart = Progress(elapsed: 0, distance: 0, movingTime: 0, elevationGain: 0)
    }

    /// The step being run; nil after the last.
    public var current: Workout.Step? { workout.steps.indices.contains(index) ? workout.steps[index] : nil }
    public var isFinished: Bool { index >= workout.steps.count }

    /// What is left of the current step at `progress`: metres or moving seconds (nil when done).
    public func remaining(at progress: Progress) -> Double? {
        guard let step = current else { return nil }
        return max(0, step.target - done(of: step, at: progress))
    }

    private func done(of step: Workout.Step, at progress: Progress) -> Double {
        switch step.length {
        case .distance: progress.distance - stepStart.distance
        case .duration: progress.movingTime - stepStart.movingTime
        }
    }

    /// Ends every step that `progress` has carried past its length.
    public mutating func update(_ progress: Progress) -> [Event] {
        var events: [Event] = []
        while let step = current, done(of: step, at: progress) >= step.target {
            let lap = close(at: progress, completed: true)
            events.append(.stepEnded(lap))
            index += 1
            events.append(isFinished ? .finished : .stepBegan(index))
        }
        return events
    }

    /// The runner's lap at `progress`: a step is cut short there and the next begins; after the
    /// last step (or in a free run) the lap ends and the next begins.
    public mutating func lap(at progress: Progress) -> [Event] {
        guard progress.elapsed > stepStart.elapsed else { return [] }
        guard current != nil else { return [.lapped(close(at: progress, completed: false))] }
        let lap = close(at: progress, completed: false)
        index += 1
        return [.stepEnded(lap), isFinished ? .finished : .stepBegan(index)]
    }

    public mutating func add(_ sample: BodySample) {
        heartRate.add(sample.heartRate)
        cadence.add(sample.cadence)
    }

    /// The laps at touchdown: every one run, the open one ended at `progress` (a step cut short
    /// is not completed; the run after the workout, or a free run's last lap, is a lap when it
    /// has any time in it).
    public func finish(at progress: Progress) -> [FlightLap] {
        var copy = self
        if progress.elapsed > stepStart.elapsed || current != nil {
            _ = copy.close(at: progress, completed: false)
        }
        return copy.laps
    }

    private mutating func close(at progress: Progress, completed: Bool) -> FlightLap {
        let lap = FlightLap(
            index: laps.count, step: current, startElapsed: stepStart.elapsed, endElapsed: progress.elapsed,
            distance: max(0, progress.distance - stepStart.distance),
            movingTime: max(0, progress.movingTime - stepStart.movingTime), averageHeartRate: heartRate.mean,
            averageCadence: cadence.mean, completed: completed)
        laps.append(lap)
        stepStart = progress
        heartRate = RunningMean()
        cadence = RunningMean()
        return lap
    }
}
