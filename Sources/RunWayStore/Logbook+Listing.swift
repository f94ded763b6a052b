import RunWayCore

/// One line of the logbook.
public struct LogbookEntry: Sendable, Equatable {
    public var id: Int64
    public var status: LogbookStatus
    public var startTime: Double
    public var distance: Double
    public var elapsed: Double
    public var movingTime: Double
    /// The flight this one was reprocessed from.
    public var replaces: Int64? = nil
    /// A newer flight reprocessed from this one: this one no longer counts in totals.
    public var supersededBy: Int64? = nil
    /// What was wrong with its stored summary, and what reading it cost (empty: nothing).
    public var damage: [RowDamage] = []
}

/// The logbook's list of flights, and its size.
extension Logbook {
    /// Most recent first. A flight superseded by a reprocessed one is left out unless asked for
    /// (it stays reachable by its id), so one run counts once. A flight whose stored summary
    /// holds an impossible value is flown again from its raw sensor log (or, without one, left
    /// out); either way it is said in its entry's and the logbook's `damage`, and no other flight
    /// pays for it.
    public func entries(includingSuperseded: Bool = false) throws(StoreError) -> [LogbookEntry] {
        let rows = try database.query(FlightRow.listSQL)
        var entries: [LogbookEntry] = []
        for row in rows {
            guard let id = FlightRow.id(row) else { continue }
            let found = DamageLog()
            let r = LogbookRow(row, path: path, flight: id, kind: FlightRow.kind, log: found)
            var entry: LogbookEntry
            do {
                entry = try FlightRow.entry(r, id: id)
            } catch {
                guard let flight = try flownAgain(r, error: error) else { continue }
                entry = LogbookEntry(
                    id: id, status: (try? FlightRow.status(r)) ?? .recovered, startTime: flight.startTime,
                    distance: flight.distance, elapsed: flight.elapsed, movingTime: flight.movingTime)
            }
            entry.replaces = FlightRow.replaces(r)
            entry.supersededBy = FlightRow.supersededBy(r)
            entry.damage = found.entries
            damageLog.merge(found.entries)
            if includingSuperseded || entry.supersededBy == nil { entries.append(entry) }
        }
        entries.sort { ($0.startTime, $0.id) > ($1.startTime, $1.id) }  // a flown-again start may differ
        return entries
    }

    /// Rows per table, for the bench and a maintainer's look at a logbook's size.
    public func tableSizes() throws(StoreError) -> [String: Int] {
        var sizes: [String: Int] = [:]
        let tables = [
            FlightRow.table, SplitRow.statements.table, SampleRow.statements.table,
            RoutePointRow.statements.table, AlertRow.statements.table, RawLogRow.statements.table,
            RouteRow.statements.table,
        ]
        for table in tables {
            sizes[table] = try database.query("SELECT COUNT(*) AS n FROM \(table)").first?["n"].int ?? 0
        }
        return sizes
    }

    /// Bytes of pages per table and index (SQLite's `dbstat`), for the bench's breakdown of what
    /// a touchdown writes; empty where SQLite was built without it.
    public func pageBytes() -> [String: Int] {
        guard let rows = try? database.query("SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name")
        else { return [:] }
        var bytes: [String: Int] = [:]
        for row in rows {
            if let name = row["name"].string, let n = row["bytes"].int { bytes[name] = n }
        }
        return bytes
    }

    /// Deletes a flight and everything recorded for it.
    public func delete(flight id: Int64) throws(StoreError) {
        try discard(flight: id)
    }
}
