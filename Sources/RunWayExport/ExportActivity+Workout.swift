import RunWayCore

/// A flight's own laps (a workout's steps, or the laps the runner pressed) as the files' laps,
/// each with the intensity and the trigger a Garmin writes for it (FIT profile: `intensity`,
/// `lap_trigger`; TCX: `Intensity`, `TriggerMethod`).
extension ExportActivity {
    /// What a lap was for, as FIT's `intensity` numbers it.
    public enum Intensity: Int64, Sendable, Equatable {
        case active = 0
        case rest = 1
        case warmup = 2
        case cooldown = 3
        case recovery = 4

        init(_ kind: Workout.Kind?) {
            switch kind {
            case .warmup: self = .warmup
            case .cooldown: self = .cooldown
            case .recover: self = .recovery
            case .walk: self = .rest
            case .work, .run, nil: self = .active
            }
        }

        /// TCX knows two: a rest (a recovery, a walk) or not.
        public var tcx: String { self == .rest || self == .recovery ? "Resting" : "Active" }
    }

    /// What ended a lap, as FIT's `lap_trigger` numbers it.
    public enum LapTrigger: Int64, Sendable, Equatable {
        case manual = 0
        case time = 1
        case distance = 2
        case sessionEnd = 7

        /// TCX's `TriggerMethod`.
        public var tcx: String {
            switch self {
            case .manual, .sessionEnd: "Manual"
            case .time: "Time"
            case .distance: "Distance"
            }
        }
    }

    /// The flight's laps; each lap's climb is its share of the splits' (by the time they share),
    /// so the laps' climbs add up to the flight's.
    static func workoutLaps(_ flight: Flight) -> [Lap] {
        flight.laps.enumerated().map { index, lap in
            let trigger: LapTrigger
            switch (lap.completed, lap.step?.length) {
            case (true, .distance?): trigger = .distance
            case (true, .duration?): trigger = .time
            default: trigger = index == flight.laps.count - 1 ? .sessionEnd : .manual
            }
            var exported = Lap(
                startElapsed: lap.startElapsed, endElapsed: lap.endElapsed, distance: lap.distance,
                movingTime: lap.movingTime, heartRate: lap.averageHeartRate,
                maximumHeartRate: maximumHeartRate(flight, from: lap.startElapsed, to: lap.endElapsed),
                cadence: lap.averageCadence,
                ascent: ascent(flight, from: lap.startElapsed, to: lap.endElapsed))
            exported.intensity = Intensity(lap.step?.kind)
            exported.trigger = trigger
            exported.workoutStep = lap.step == nil ? nil : lap.index
            return exported
        }
    }

    /// The highest heart rate among the flight's samples inside a lap; nil without any.
    static func maximumHeartRate(_ flight: Flight, from start: Double, to end: Double) -> Double? {
        flight.samples.lazy.filter { $0.elapsed >= start && $0.elapsed <= end }.compactMap(\.heartRate).max()
    }

    /// The splits' climb that falls inside a lap, each split's spread over its time.
    static func ascent(_ flight: Flight, from start: Double, to end: Double) -> Double {
        flight.splits.reduce(0) { total, split in
            let splitStart = split.elapsedEnd - split.elapsedDuration
            let shared = min(end, split.elapsedEnd) - max(start, splitStart)
            guard shared > 0, split.elapsedDuration > 0 else { return total }
            return total + split.elevationGain * shared / split.elapsedDuration
        }
    }
}
