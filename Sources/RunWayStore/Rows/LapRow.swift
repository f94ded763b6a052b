import RunWayCore

/// A flight's lap, as `laps` holds it (schema 10): a workout's step as it was run, or the run
/// after its last step. The step is kept as its text (`Workout`'s grammar), so a lap reads back
/// with the kind, length and target it was flown with.
struct LapRow: FlightChildRow {
    var lap: FlightLap

    enum Column: FlightChildColumn {
        case index, step, startElapsed, endElapsed, distance, movingTime, heartRate, cadence, completed

        static let spelled: [Self: String] = [
            .index: "idx", .step: "step", .startElapsed: "start_elapsed_s", .endElapsed: "end_elapsed_s",
            .distance: "distance_m", .movingTime: "moving_s", .heartRate: "avg_heart_rate",
            .cadence: "avg_cadence", .completed: "completed",
        ]
    }

    static let statements = FlightChildTable<Column>("laps", kind: "lap", order: .index)

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .index: .integer(Int64(lap.index))
        case .step: lap.step.map { .text(Workout(steps: [$0]).spec) } ?? .null
        case .startElapsed: .real(lap.startElapsed)
        case .endElapsed: .real(lap.endElapsed)
        case .distance: .real(lap.distance)
        case .movingTime: .real(lap.movingTime)
        case .heartRate: Logbook.value(lap.averageHeartRate)
        case .cadence: Logbook.value(lap.averageCadence)
        case .completed: .integer(lap.completed ? 1 : 0)
        }
    }

    /// A step whose text does not read back (a flipped bit) is the run after the workout: the
    /// lap keeps its figures.
    static func decode(_ r: LogbookRow) throws(StoreError) -> FlightLap? {
        let step = r[Column.step].string.flatMap { try? Workout(parsing: $0).steps.first }
        return FlightLap(
            index: Int(try r.integer(Column.index)), step: step,
            startElapsed: try r.number(Column.startElapsed, in: LogbookRow.duration),
            endElapsed: try r.number(Column.endElapsed, in: LogbookRow.duration),
            distance: try r.number(Column.distance, in: LogbookRow.distance),
            movingTime: try r.number(Column.movingTime, in: LogbookRow.duration),
            averageHeartRate: r.optional(Column.heartRate, in: LogbookRow.heartRate),
            averageCadence: r.optional(Column.cadence, in: LogbookRow.cadence),
            completed: r[Column.completed].int == 1)
    }
}
