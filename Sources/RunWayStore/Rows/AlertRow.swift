import RunWayCore

/// A flight's alert episode, as `alerts` holds it (read back in the order written).
struct AlertRow: FlightChildRow {
    var alert: AlertEpisode

    enum Column: String, FlightChildColumn {
        static let table = "alerts"
        case kind, startElapsed = "start_elapsed_s", endElapsed = "end_elapsed_s", latitude = "lat"
        case longitude = "lon"
    }

    static let statements = FlightChildTable<Column>(kind: "alert", orderBy: "rowid")

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .kind: .text(alert.kind.rawValue)
        case .startElapsed: .real(alert.startElapsed)
        case .endElapsed: Logbook.value(alert.endElapsed)
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
            kind: kind, startElapsed: try r.number(Column.startElapsed, in: LogbookRow.duration),
            endElapsed: r.optional(Column.endElapsed, in: LogbookRow.duration), coordinate: coordinate)
    }
}
