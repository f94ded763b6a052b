import RunWayCore

/// A point of a flight's full or simplified route, as `route_points` holds it.
struct RoutePointRow: FlightChildRow {
    enum Column: FlightChildColumn {
        case simplified, seq, elapsed, latitude, longitude

        static let spelled: [Self: String] = [
            .simplified: "simplified", .seq: "seq", .elapsed: "elapsed_s", .latitude: "lat",
            .longitude: "lon",
        ]
    }

    var simplified: Bool
    /// Its place in the route, from 0.
    var seq: Int
    var point: RoutePoint

    /// A flight's full route (`simplified` bound 0) or its simplified one (1).
    static let statements = FlightChildTable<Column>(
        "route_points", kind: "route point", reading: [.elapsed, .latitude, .longitude],
        filter: [.simplified], order: .seq)
    static let simplifiedKind = "simplified route point"

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .simplified: .integer(simplified ? 1 : 0)
        case .seq: .integer(Int64(seq))
        case .elapsed: .real(point.elapsed)
        case .latitude: .real(point.coordinate.latitude)
        case .longitude: .real(point.coordinate.longitude)
        }
    }

    static func decode(_ r: LogbookRow) throws(StoreError) -> RoutePoint? {
        RoutePoint(
            elapsed: try r.number(Column.elapsed, in: LogbookRow.duration),
            coordinate: Coordinate(
                latitude: try r.number(Column.latitude, in: -90...90),
                longitude: try r.number(Column.longitude, in: -180...180)))
    }
}
