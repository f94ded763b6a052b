import RunWayCore

/// A flight's split, as `splits` holds it.
struct SplitRow: FlightChildRow {
    var split: Split

    enum Column: FlightChildColumn {
        case order, distance, movingDuration, elapsedDuration, elapsedEnd, heartRate, cadence, elevationGain,
            maxHeartRate

        static let spelled: [Self: String] = [
            .order: "ord", .distance: "distance_m", .movingDuration: "moving_s",
            .elapsedDuration: "elapsed_s", .elapsedEnd: "elapsed_end_s", .heartRate: "heart_rate",
            .cadence: "cadence", .elevationGain: "elevation_gain_m", .maxHeartRate: "max_heart_rate",
        ]
    }

    static let statements = FlightChildTable<Column>("splits", kind: "split", order: .order)

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .order: .integer(Int64(split.order))
        case .distance: .real(split.distance)
        case .movingDuration: .real(split.movingDuration)
        case .elapsedDuration: .real(split.elapsedDuration)
        case .elapsedEnd: .real(split.elapsedEnd)
        case .heartRate: Logbook.value(split.heartRate)
        case .cadence: Logbook.value(split.cadence)
        case .elevationGain: .real(split.elevationGain)
        case .maxHeartRate: Logbook.value(split.maxHeartRate)
        }
    }

    static func decode(_ r: LogbookRow) throws(StoreError) -> Split? {
        var split = Split(
            order: Int(try r.integer(Column.order)), distance: try r.number(Column.distance, in: 0...1_001),
            movingDuration: try r.number(Column.movingDuration, in: LogbookRow.duration),
            elapsedDuration: try r.number(Column.elapsedDuration, in: LogbookRow.duration),
            elapsedEnd: try r.number(Column.elapsedEnd, in: LogbookRow.duration),
            heartRate: r.optional(Column.heartRate, in: LogbookRow.heartRate),
            cadence: r.optional(Column.cadence, in: LogbookRow.cadence),
            elevationGain: try r.number(Column.elevationGain, in: 0...100_000))
        split.maxHeartRate = r.optional(Column.maxHeartRate, in: LogbookRow.heartRate)
        return split
    }
}
