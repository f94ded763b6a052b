import RunWayCore

/// A workout's laps in the flight's JSON and summary (issue 27).
extension FlightReport {
    /// `laps`: one per step run and one for the run after the last, each with its step's kind,
    /// length and target (null for the run after), its figures and whether it reached its length.
    static func lapsJSON(_ flight: Flight) -> [(String, JSONValue)] {
        func n(_ value: Double?, _ places: Int = 1) -> JSONValue { .number(value, places: places) }
        let laps: [JSONValue] = flight.laps.map { lap in
            .object([
                ("index", .number(Double(lap.index))),
                ("kind", lap.step.map { .string($0.kind.rawValue) } ?? .string("after")),
                ("step", lap.step.map { .string(Workout(steps: [$0]).spec) } ?? .null),
                (
                    "target_distance_m",
                    n(lap.step.flatMap { if case .distance(let m) = $0.length { m } else { nil } })
                ),
                ("target_s", n(lap.step.flatMap { if case .duration(let s) = $0.length { s } else { nil } })),
                ("target_pace_s_per_km", n(lap.step?.pace?.targetPace)),
                ("target_deviation_s_per_km", n(lap.step?.pace?.allowedDeviation)),
                ("target_hr_low", n(lap.step?.heartRate?.low, 0)),
                ("target_hr_high", n(lap.step?.heartRate?.high, 0)),
                ("start_elapsed_s", n(lap.startElapsed)),
                ("end_elapsed_s", n(lap.endElapsed)),
                ("distance_m", n(lap.distance)),
                ("moving_s", n(lap.movingTime)),
                ("pace_s_per_km", n(lap.pace)),
                ("avg_heart_rate", n(lap.averageHeartRate, 0)),
                ("avg_cadence", n(lap.averageCadence, 0)),
                ("completed", .bool(lap.completed)),
            ])
        }
        let decisions: [JSONValue] = flight.decisions.map {
            .object([
                ("elapsed_s", n($0.elapsed)), ("kind", .string($0.kind.rawValue)), ("value", n($0.value)),
            ])
        }
        return [
            ("run", flight.runName.map { .string($0) } ?? .null),
            ("workout", flight.workout.map { .string($0.spec) } ?? .null), ("laps", .array(laps)),
            ("decisions", .array(decisions)),
        ]
    }

    /// The laps as a table under the splits; none for a flight without a workout.
    static func lapLines(_ flight: Flight, units: DistanceUnit) -> [String] {
        guard !flight.laps.isEmpty else { return [] }
        var lines = ["", "  LAP  STEP                          DIST       TIME      PACE     BPM"]
        for lap in flight.laps {
            let step = lap.step.map { Workout(steps: [$0]).spec } ?? "after the workout"
            let short = lap.completed || lap.step == nil ? "" : " (cut short)"
            lines.append(
                "  " + padRight("\(lap.index + 1)", 5) + padRight(step + short, 30)
                    + padRight(
                        units == .kilometre
                            ? "\(Int(lap.distance.rounded())) m"
                            : "\(km(lap.distance * 1000 / units.metres)) mi", 11)
                    + padRight(UTCTime.duration(lap.movingTime), 10)
                    + padRight(Pace.format(lap.pace.map(units.pace)), 9) + whole(lap.averageHeartRate))
        }
        return lines
    }
}
