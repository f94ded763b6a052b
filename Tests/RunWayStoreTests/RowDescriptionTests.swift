import Foundation
import RunWayCore
import Testing

@testable import RunWayStore

/// Each table is described once (its row type names its columns, binds a value and reads one
/// back); these hold the descriptions to the schema as migrated, and each through a round trip.
@Suite("Logbook rows: one description per table")
struct RowDescriptionTests {
    /// The columns of `table` as SQLite has them, in order.
    func liveColumns(_ table: String, in database: Database) throws -> [String] {
        try database.query("PRAGMA table_info(\(table))").compactMap { $0["name"].string }
    }

    func tables(in database: Database) throws -> Set<String> {
        Set(
            try database.query(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).compactMap { $0["name"].string })
    }

    /// A column added to the schema but not to its description (or the other way) fails here.
    @Test func everyDescriptionMatchesTheSchemaAsMigrated() throws {
        let fresh = try Logbook(path: temporaryLogbookPath())
        let fixture = try #require(
            Bundle.module.url(forResource: "Fixtures/logbook/v1", withExtension: "sqlite"))
        let path = temporaryLogbookPath()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let migrated = try Logbook(path: path)
        for logbook in [fresh, migrated] {
            #expect(Set(Tables.all.map(\.table)) == (try tables(in: logbook.database)))
            for (table, columns) in Tables.all {
                #expect(columns == (try liveColumns(table, in: logbook.database)), "\(table)")
            }
        }
    }

    /// A logbook with one open flight, for the derived rows to belong to.
    func logbookWithAFlight() throws -> (Logbook, Int64) {
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: 0)
        return (logbook, try logbook.begin(startTime: 1_000, mission: nil))
    }

    func roundTrip<R: FlightChildRow>(
        _ rows: [R], _ more: [SQLValue] = [], in logbook: Logbook, flight id: Int64
    ) throws -> [R.Value] {
        for row in rows { try logbook.database.query(R.statements.insert, row.values(flight: id)) }
        let log = DamageLog()
        let read = try logbook.stored(R.self, flight: id, more, log: log)
        #expect(log.entries.isEmpty, "\(log.entries)")
        return read
    }

    @Test func aSplitRoundTrips() throws {
        let (logbook, id) = try logbookWithAFlight()
        let splits = [
            Split(
                order: 1, distance: 1000, movingDuration: 301.5, elapsedDuration: 310.25, elapsedEnd: 310.25,
                heartRate: 151.5, cadence: 172, elevationGain: 4.5),
            Split(
                order: 2, distance: 412.5, movingDuration: 120, elapsedDuration: 121, elapsedEnd: 431.25,
                heartRate: nil, cadence: nil, elevationGain: 0),
        ]
        let rows = splits.map { SplitRow(split: $0) }
        #expect(try roundTrip(rows, in: logbook, flight: id) == splits)
        #expect(try logbook.splits(flight: id) == splits)
    }

    @Test func aSampleRoundTrips() throws {
        let (logbook, id) = try logbookWithAFlight()
        let samples = [
            FDRSample(
                elapsed: 5, distance: 14.25, pace: 330.5, heartRate: 140, cadence: 170, altitude: 101.5,
                heading: 359.5, paused: false),
            FDRSample(
                elapsed: 10, distance: 14.25, pace: nil, heartRate: nil, cadence: nil, altitude: nil,
                heading: nil, paused: true),
        ]
        let rows = samples.map { SampleRow(sample: $0) }
        #expect(try roundTrip(rows, in: logbook, flight: id) == samples)
    }

    @Test func aRoutePointRoundTripsInItsOwnRoute() throws {
        let (logbook, id) = try logbookWithAFlight()
        let full = (0..<3).map {
            RoutePoint(
                elapsed: Double($0) * 5,
                coordinate: Coordinate(latitude: 47.25 + Double($0) / 1e4, longitude: -122.5))
        }
        let simplified = [full[0], full[2]]
        let rows =
            full.enumerated().map { RoutePointRow(simplified: false, seq: $0, point: $1) }
            + simplified.enumerated().map { RoutePointRow(simplified: true, seq: $0, point: $1) }
        #expect(try roundTrip(rows, [.integer(0)], in: logbook, flight: id) == full)
        #expect(try roundTrip([RoutePointRow](), [.integer(1)], in: logbook, flight: id) == simplified)
    }

    @Test func anAlertRoundTrips() throws {
        let (logbook, id) = try logbookWithAFlight()
        let alerts = [
            AlertEpisode(
                kind: .sinkRate, startElapsed: 60, endElapsed: 75.5,
                coordinate: Coordinate(latitude: -33.5, longitude: 151.25)),
            AlertEpisode(kind: .minimums, startElapsed: 900, endElapsed: nil, coordinate: nil),
        ]
        let rows = alerts.map { AlertRow(alert: $0) }
        #expect(try roundTrip(rows, in: logbook, flight: id) == alerts)
    }

    @Test func aPauseRoundTrips() throws {
        let (logbook, id) = try logbookWithAFlight()
        let pauses = [
            PauseInterval(start: 100, end: 130.5, reason: .manual),
            PauseInterval(start: 200, end: 260, reason: .signalLost),
        ]
        let rows = pauses.map { PauseRow(pause: $0) }
        #expect(try roundTrip(rows, in: logbook, flight: id) == pauses)
    }

    @Test func aRawLogCommitRoundTrips() throws {
        let (logbook, id) = try logbookWithAFlight()
        let records = (1...3).map {
            FlightJournal.Record(
                flight: id, seq: Int64($0), until: 1_000 + Double($0) * 4, inputs: "line \($0)\n")
        }
        for record in records {
            try logbook.database.query(RawLogRow.statements.insert, RawLogRow(record: record).values)
        }
        let read = try logbook.database.query(RawLogRow.statements.select, [.integer(id)])
            .compactMap { RawLogRow.decode($0, flight: id) }
        #expect(read == records)
    }

    /// The summary opened at ROTATE and completed at touchdown reads back as written: start,
    /// mission, source, the landed numbers and this engine's version.
    @Test func aFlightSummaryRoundTrips() throws {
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: 0)
        let mission = Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5_000)
        let opened = FlightRow(status: .flying, startTime: 1_000.5, mission: mission, source: "fly test.ubx")
        try logbook.database.query(FlightRow.openSQL, opened.values(FlightRow.opened))
        let id = logbook.database.lastInsertID
        let landed = Flight(
            mission: mission, startTime: 1_000.5, endTime: 2_801.25, distance: 5_012.5, elapsed: 1_800.75,
            movingTime: 1_750.5, splits: [], droppedTail: 12.5, samples: [], route: Route(points: []),
            simplifiedRoute: Route(points: []), alerts: [], averageHeartRate: 150.5, averageCadence: 171,
            pauses: [],
            elevation: FlightElevation(source: .gps, loss: 12.5, minimum: 10.25, maximum: 40.75))
        let summary = FlightRow(status: .finished, startTime: 1_000.5, mission: mission, landed: landed)
        try logbook.database.query(FlightRow.landSQL, summary.values(FlightRow.landing) + [.integer(id)])

        let logged = try #require(try logbook.flight(id: id))
        #expect(logged.flight == landed)
        #expect(logged.status == .finished && logged.source == "fly test.ubx" && logged.replaces == nil)
        #expect(logged.engineVersion == Schema.engineVersion && logged.damage.isEmpty)
        let entry = try #require(try logbook.entries().first)
        #expect(
            entry
                == LogbookEntry(
                    id: id, status: .finished, startTime: 1_000.5, distance: 5_012.5, elapsed: 1_800.75,
                    movingTime: 1_750.5))
        #expect(try logbook.sameRun(startingAt: 1_000.5) == id)
    }
}
