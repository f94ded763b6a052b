import RunWayCore

/// A flight's alert episode, as `alerts` holds it (read back in the order written).
struct AlertRow: FlightChildRow {
    var alert: AlertEpisode

    enum Column: FlightChildColumn {
        case kind, start, end, latitude, longitude

        static let spelled: [Self: String] = [
            .kind: "kind", .start: "start_elapsed_s", .end: "end_elapsed_s", .latitude: "lat",
            .longitude: "lon",
        ]
    }

    static let statements = FlightChildTable<Column>("alerts", kind: "alert", orderBy: "rowid")

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .kind: .text(alert.kind.rawValue)
        case .start: .real(alert.startElapsed)
        case .end: Logbook.value(alert.endElapsed)
        case .latitude: Logbook.value(alert.coordinate?.latitude)
        case .longitude: Logbook.value(alert.coordinate?.longitude)
        }
    }

    /// Nil for a kind this build does not know (passed over, not damage); a position with an
    /// impossible half reads as none.
    static func decode(_ r: LogbookRow) throws(StoreError) -> AlertEpisode? {
        guard let kind = r[Column.kind].string.flatMap(GPWSAlert.init(rawValue:)) else { return nil }
        let coordinate = r.optional(Column.latitude, in: -90...90).flatMap { lat in
            r.optional(Column.longitude, in: -180...180).map { Coordinate(latitude: lat, longitude: $0) }
        }
        return AlertEpisode(
            kind: kind, startElapsed: try r.number(Column.start, in: LogbookRow.duration),
            endElapsed: r.optional(Column.end, in: LogbookRow.duration), coordinate: coordinate)
    }
}
