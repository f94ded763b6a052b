import RunWayCore

/// A flight's FDR sample, as `samples` holds it.
struct SampleRow: FlightChildRow {
    var sample: FDRSample

    enum Column: FlightChildColumn {
        case elapsed, distance, pace, heartRate, cadence, altitude, heading, paused

        static let spelled: [Self: String] = [
            .elapsed: "elapsed_s", .distance: "distance_m", .pace: "pace", .heartRate: "heart_rate",
            .cadence: "cadence", .altitude: "altitude", .heading: "heading", .paused: "paused",
        ]
    }

    static let statements = FlightChildTable<Column>("samples", kind: "sample", order: .elapsed)

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .elapsed: .real(sample.elapsed)
        case .distance: .real(sample.distance)
        case .pace: Logbook.value(sample.pace)
        case .heartRate: Logbook.value(sample.heartRate)
        case .cadence: Logbook.value(sample.cadence)
        case .altitude: Logbook.value(sample.altitude)
        case .heading: Logbook.value(sample.heading)
        case .paused: .integer(sample.paused ? 1 : 0)
        }
    }

    static func decode(_ r: LogbookRow) throws(StoreError) -> FDRSample? {
        FDRSample(
            elapsed: try r.number(Column.elapsed, in: LogbookRow.duration),
            distance: try r.number(Column.distance, in: LogbookRow.distance),
            pace: r.optional(Column.pace, in: LogbookRow.pace),
            heartRate: r.optional(Column.heartRate, in: LogbookRow.heartRate),
            cadence: r.optional(Column.cadence, in: LogbookRow.cadence),
            altitude: r.optional(Column.altitude, in: LogbookRow.altitude),
            heading: r.optional(Column.heading, in: LogbookRow.heading), paused: r[Column.paused].int == 1)
    }
}
