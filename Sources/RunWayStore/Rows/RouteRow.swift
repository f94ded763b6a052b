import RunWayCore

/// A flight's full or simplified route as `routes` holds it (schema 12, issue 29): all its points
/// in one row, as differences deflated. One `route_points` row per point (and its index entry)
/// was ~50 bytes a point, the largest part of a 10 Hz touchdown after the raw log; this is
/// ~15. A flight stored before schema 12 keeps its `route_points` rows, and the reader takes
/// whichever is there.
///
/// The text (`compact`): the mark `R`, then one line per point, each of its three numbers
/// (elapsed seconds, latitude, longitude) as the difference of its IEEE bit pattern from the
/// previous point's (as 64-bit integers, wrapping; the first from 0), so every value comes back
/// bit for bit (the smoothed route's values are not whole counts of any unit).
struct RouteRow: FlightChildEncoding {
    var simplified: Bool
    var points: [RoutePoint]
    /// The points' text.
    let text: String
    /// The text deflated; empty when deflating failed (the route is then written as rows).
    let packed: [UInt8]

    init(simplified: Bool, points: [RoutePoint]) {
        self.simplified = simplified
        self.points = points
        text = Self.compact(points)
        packed = FlightJournal.packed(Array(text.utf8))
    }

    enum Column: FlightChildColumn {
        case simplified, points, textLength, packed

        static let spelled: [Self: String] = [
            .simplified: "simplified", .points: "points", .textLength: "text_length", .packed: "packed",
        ]
    }

    /// A flight's full route (`simplified` bound 0) or its simplified one (1).
    static let statements = FlightChildTable<Column>(
        "routes", kind: "route", reading: [.points, .textLength, .packed], filter: [.simplified],
        order: .simplified)
    static let simplifiedKind = "simplified route"
    /// Whether the logbook has the table (a file of schema 11 or before, read by salvage, has not).
    static let existsSQL = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'routes'"

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .simplified: .integer(simplified ? 1 : 0)
        case .points: .integer(Int64(points.count))
        case .textLength: .integer(Int64(text.utf8.count))
        case .packed: .blob(packed)
        }
    }

    /// The first line of a route's text.
    static let mark = "R"

    static func compact(_ points: [RoutePoint]) -> String {
        var lines = [mark]
        lines.reserveCapacity(points.count + 1)
        var last: (Int64, Int64, Int64) = (0, 0, 0)
        for point in points {
            let bits = (
                Int64(bitPattern: point.elapsed.bitPattern),
                Int64(bitPattern: point.coordinate.latitude.bitPattern),
                Int64(bitPattern: point.coordinate.longitude.bitPattern)
            )
            lines.append("\(bits.0 &- last.0),\(bits.1 &- last.1),\(bits.2 &- last.2)")
            last = bits
        }
        return lines.joined(separator: "\n")
    }

    /// What a route's text holds: its points in order, up to the first line that does not read
    /// (every later point is a difference from it, so they are lost with it), and how many
    /// points were read but left out (a value no route can have: not finite, out of range).
    static func decode(_ text: String) -> (points: [RoutePoint], leftOut: Int) {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.first == Substring(mark) else { return ([], 0) }
        lines = lines.dropFirst()
        var points: [RoutePoint] = []
        var leftOut = 0
        var last: (Int64, Int64, Int64) = (0, 0, 0)
        for line in lines {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3, let a = Int64(fields[0]), let b = Int64(fields[1]),
                let c = Int64(fields[2])
            else { break }
            last = (last.0 &+ a, last.1 &+ b, last.2 &+ c)
            let elapsed = Double(bitPattern: UInt64(bitPattern: last.0))
            let latitude = Double(bitPattern: UInt64(bitPattern: last.1))
            let longitude = Double(bitPattern: UInt64(bitPattern: last.2))
            guard elapsed.isFinite, LogbookRow.duration.contains(elapsed), latitude.isFinite,
                (-90...90).contains(latitude), longitude.isFinite, (-180...180).contains(longitude)
            else {
                leftOut += 1
                continue
            }
            points.append(
                RoutePoint(elapsed: elapsed, coordinate: Coordinate(latitude: latitude, longitude: longitude))
            )
        }
        return (points, leftOut)
    }

    /// The route a stored row holds. What it cost when the row is damaged (its deflated text
    /// does not inflate to its length, a line does not read, a value is impossible) is said in
    /// `log` as route points left out; a damaged length is refused before anything is allocated.
    static func route(_ r: LogbookRow) -> [RoutePoint] {
        let count = r[Column.points].int ?? 0
        guard case .blob(let packed) = r[Column.packed], let length = r[Column.textLength].int,
            let text = FlightJournal.unpacked(packed, length: length)
        else {
            r.log?.add(
                RowDamage(
                    flight: r.flight, row: r.kind + " point", column: Column.packed.name,
                    value: "a deflated text that does not inflate", cost: .rowLeftOut, rows: max(count, 1)))
            return []
        }
        let (points, leftOut) = decode(String(decoding: text, as: UTF8.self))
        let missing = max(count - points.count, leftOut)
        if missing > 0 || points.count > count {
            r.log?.add(
                RowDamage(
                    flight: r.flight, row: r.kind + " point", column: Column.packed.name,
                    value: "\(points.count) of \(count) points readable", cost: .rowLeftOut,
                    rows: max(missing, 1)))
        }
        return points
    }
}
