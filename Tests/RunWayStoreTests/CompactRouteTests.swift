import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// Rewrites a logbook's packed routes (schema 12) as a row per point, as schema 11 stored them,
/// and drops `routes` when `dropTable` (the file is then schema 11).
func storeRoutesAsRows(_ path: String, dropTable: Bool = false) throws {
    let database = try Database(path: path)
    let rows = try database.query("SELECT flight_id, simplified, points, text_length, packed FROM routes")
    for row in rows {
        let r = LogbookRow(
            Row(values: Array(row[2...]), columns: ["points", "text_length", "packed"]), path: path,
            flight: row[0].int.map(Int64.init))
        for (seq, point) in RouteRow.route(r).enumerated() {
            try database.query(
                "INSERT INTO route_points (flight_id, simplified, seq, elapsed_s, lat, lon) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    row[0], row[1], .integer(Int64(seq)), .real(point.elapsed),
                    .real(point.coordinate.latitude),
                    .real(point.coordinate.longitude),
                ])
        }
    }
    try database.execute("DELETE FROM routes")
    if dropTable {
        try database.execute("DROP TABLE routes")
        try database.execute("PRAGMA user_version = 11")
    }
}

/// Issue 29: a flight's route stored as one row of deflated differences (schema 12), where it was
/// a row per point. Every point must come back bit for bit, a damaged row must be a hole that is
/// said (never a crash, never an allocation a length asks for), and a logbook of schema 11 (a
/// row per point) must open, migrate and read to the same flight.
@Suite("Compact route: one deflated row per route, schema 12")
struct CompactRouteTests {
    @Test func aRouteComesBackBitForBit() {
        let points = [
            RoutePoint(elapsed: 0, coordinate: Coordinate(latitude: -0.0, longitude: 179.999_999_999_9)),
            RoutePoint(
                elapsed: 0.123_456_789, coordinate: Coordinate(latitude: 47.376_887_123_4, longitude: -0.0)),
            RoutePoint(elapsed: 1.0e-300, coordinate: Coordinate(latitude: -90, longitude: -180)),
            RoutePoint(
                elapsed: 9_999_999, coordinate: Coordinate(latitude: 90, longitude: 8.541_694_000_000_1)),
            RoutePoint(
                elapsed: 3.5, coordinate: Coordinate(latitude: 47.376_887_123_5, longitude: 8.541_694)),
        ]
        let text = RouteRow.compact(points)
        let (read, leftOut) = RouteRow.decode(text)
        #expect(leftOut == 0)
        #expect(read.count == points.count)
        for (a, b) in zip(read, points) {
            #expect(a.elapsed.bitPattern == b.elapsed.bitPattern)
            #expect(a.coordinate.latitude.bitPattern == b.coordinate.latitude.bitPattern)
            #expect(a.coordinate.longitude.bitPattern == b.coordinate.longitude.bitPattern)
        }
        #expect(RouteRow.decode(RouteRow.compact([])).points.isEmpty)
        // Deflated and inflated again, through the row's own reading.
        let row = RouteRow(simplified: false, points: points)
        let logged = LogbookRow(
            Row(
                values: [.integer(5), .integer(Int64(row.text.utf8.count)), .blob(row.packed)],
                columns: ["points", "text_length", "packed"]), path: "", flight: 1)
        #expect(RouteRow.route(logged) == points)
    }

    /// A landed flight's routes are two rows, no row per point, and read back bit-equal; a
    /// reprocessed copy's too.
    @Test func newFlightsStoreEachRouteAsOneRow() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(Scenario.flat5k.ending(at: 1500), into: logbook)
        let flight = try #require(landed)
        #expect(flight.route.points.count > 100)
        let rows = try logbook.database.query(
            "SELECT simplified, points FROM routes WHERE flight_id = ? ORDER BY simplified", [.integer(id)])
        #expect(rows.map { $0[1].int } == [flight.route.points.count, flight.simplifiedRoute.points.count])
        #expect(try logbook.database.query("SELECT COUNT(*) FROM route_points").first?.first?.int == 0)
        let read = try #require(try logbook.flight(id: id))
        #expect(read.flight == flight)
        #expect(read.damage.isEmpty)
        let copy = try #require(try logbook.reprocess(flight: id))
        #expect(try logbook.flight(id: copy)?.flight.route == flight.route)
        // Deleting the flight deletes its routes.
        try logbook.delete(flight: id)
        #expect(
            try logbook.database.query("SELECT COUNT(*) FROM routes WHERE flight_id = ?", [.integer(id)])
                .first?.first?.int == 0)
    }

    /// A route row that does not inflate, claims an impossible length, or holds a line that does
    /// not read is a hole in that route, said in the flight's damage; the rest of the flight reads.
    @Test func aDamagedRouteRowIsASaidHoleNeverACrash() throws {
        let path = temporaryLogbookPath()
        let flight: Flight
        do {
            let logbook = try Logbook(path: path)
            flight = try #require(try record(Scenario.flat5k.ending(at: 1500), into: logbook).flight)
        }
        let poke = try Database(path: path)
        // A deflate stream of zeros: the full route is missing, the simplified one reads.
        try poke.execute("UPDATE routes SET packed = zeroblob(40) WHERE simplified = 0")
        var logged = try #require(try Logbook(path: path, access: .readOnly).flight(id: 1))
        #expect(logged.flight.route.points.isEmpty)
        #expect(logged.flight.simplifiedRoute == flight.simplifiedRoute)
        #expect(logged.flight.splits == flight.splits && logged.flight.distance == flight.distance)
        #expect(logged.damage.contains { $0.row == "route point" && $0.cost == .rowLeftOut })
        // A length no deflate stream of that size can give is refused before allocating it.
        try poke.execute("UPDATE routes SET text_length = 4611686018427387904 WHERE simplified = 1")
        logged = try #require(try Logbook(path: path, access: .readOnly).flight(id: 1))
        #expect(logged.flight.simplifiedRoute.points.isEmpty)
        #expect(logged.damage.contains { $0.row == "simplified route point" })
        // A line that does not read: the points before it are kept; an impossible value costs its point.
        var lines = RouteRow.compact(flight.route.points).split(separator: "\n").map(String.init)
        lines[8] = "x"
        let text = lines.joined(separator: "\n")
        let packed = FlightJournal.packed(Array(text.utf8))
        try poke.query(
            "UPDATE routes SET packed = ?, text_length = ? WHERE simplified = 0",
            [.blob(packed), .integer(Int64(text.utf8.count))])
        logged = try #require(try Logbook(path: path, access: .readOnly).flight(id: 1))
        #expect(logged.flight.route.points == Array(flight.route.points.prefix(7)))
        let said = try #require(logged.damage.first { $0.row == "route point" })
        #expect(said.rows == flight.route.points.count - 7, "\(said)")
        var impossible = flight.route.points
        impossible[3].coordinate.latitude = 1e300
        let wrong = RouteRow(simplified: false, points: impossible)
        try poke.query(
            "UPDATE routes SET packed = ?, text_length = ? WHERE simplified = 0",
            [.blob(wrong.packed), .integer(Int64(wrong.text.utf8.count))])
        logged = try #require(try Logbook(path: path, access: .readOnly).flight(id: 1))
        var expected = flight.route.points
        expected.remove(at: 3)
        #expect(logged.flight.route.points == expected)
        #expect(logged.damage.first { $0.row == "route point" }?.rows == 1)
    }

    /// A logbook of schema 11 (a row per route point, no `routes`) opens, is migrated to schema 12
    /// with its rows as they were, and reads to the same flight; salvage reads such a file;
    /// `reprocess --replace` stores the route packed and leaves no rows behind.
    @Test func aSchemaElevenLogbookIsMigratedAndReadsTheSameFlight() throws {
        let path = temporaryLogbookPath()
        let (id, landed) = try recordAndClose(Scenario.flat5k.ending(at: 1500), at: path)
        try storeRoutesAsRows(path, dropTable: true)
        let old = try Database(path: path)
        #expect(try old.query("PRAGMA user_version").first?.first?.int == 11)
        #expect(try old.query("SELECT COUNT(*) FROM route_points").first?.first?.int ?? 0 > 100)
        let salvageTarget = try Logbook(path: temporaryLogbookPath())
        let salvaged = try salvageTarget.salvage(from: path).flights
        #expect(salvaged.count == 1 && salvaged.first?.newID != nil, "\(salvaged)")
        #expect(try salvageTarget.flight(id: 1)?.flight.route == landed.route)

        let logbook = try Logbook(path: path)
        #expect(logbook.schemaVersion == Schema.version)
        let migrated = try #require(try logbook.flight(id: id))
        #expect(migrated.flight == landed && migrated.damage.isEmpty)
        let replaced = try #require(try logbook.reprocess(flight: id, replace: true))
        #expect(try logbook.flight(id: replaced)?.flight.route == landed.route)
        #expect(try logbook.database.query("SELECT COUNT(*) FROM route_points").first?.first?.int == 0)
        #expect(try logbook.database.query("SELECT COUNT(*) FROM routes").first?.first?.int == 2)
    }
}
