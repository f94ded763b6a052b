import RunWayCore

/// A flight's alert episode, as `alerts` holds it (read back in the order written).
struct AlertRow: FlightChildRow {
    enum Column: String, FlightChildColumn {
        static let table = "alerts"
        case flight = "flight_id", kind, startElapsed = "start_elapsed_s", endElapsed = "end_elapsed_s"
        case latitude = "lat", longitude = "lon"
    }

    var flight: Int64
    var alert: AlertEpisode

    static let kind = "alert"
    static let insertSQL = Column.insert()
    static let selectSQL = Column.select(
        Array(Column.allCases.dropFirst()), "WHERE \(Column.flight) = ? ORDER BY rowid")

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .flight: .integer(flight)
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
