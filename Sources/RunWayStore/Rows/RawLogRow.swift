/// One commit of a flight's raw sensor log, as `raw_log` holds it: the journal's record.
struct RawLogRow: FlightChildEncoding {
    var record: FlightJournal.Record

    enum Column: FlightChildColumn {
        case seq, until, inputs

        static let spelled: [Self: String] = [.seq: "seq", .until: "until", .inputs: "inputs"]
    }

    static let statements = FlightChildTable<Column>("raw_log", kind: "raw log commit", order: .seq)

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .seq: .integer(record.seq)
        case .until: .real(record.until)
        case .inputs: .text(record.inputs)
        }
    }

    // The raw log's own reads and the journal's absorb (Logbook+RawLog).

    /// A journal record's row, unless it is there already or its flight is not (deleted, or an
    /// older flight whose id a newer one took: the record ends before that flight began). Binds
    /// the row's values, then the flight's id and the record's end.
    static let absorbSQL: String = {
        let flights = FlightRow.Column.self
        return "INSERT OR IGNORE INTO \(statements.table) (\(Column.names.joined(separator: ", "))) "
            + "SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM \(FlightRow.table) "
            + "WHERE \(flights.id) = ? AND \(flights.startTime) <= ?)"
    }()
    /// The next sequence number of a flight's commits, as `next`.
    static let nextSeqSQL = SQL.select(
        ["COALESCE(MAX(\(Column.seq)), 0) + 1 AS next"], from: statements.table,
        "WHERE \(Column.flightKey) = ?")
    /// The flight time up to which a flight's raw log is committed (its start when nothing is), as `until`.
    static let recordedUntilSQL: String = {
        let flights = FlightRow.Column.self
        return "SELECT COALESCE((SELECT MAX(\(Column.until)) FROM \(statements.table) "
            + "WHERE \(Column.flightKey) = f.\(flights.id)), f.\(flights.startTime)) AS \(Column.until) "
            + "FROM \(FlightRow.table) f WHERE f.\(flights.id) = ?"
    }()
    /// A flight's commits' sequence numbers and ends, in order (no inputs).
    static let timesSQL = SQL.select(
        Column.names([.seq, .until]), from: statements.table,
        "WHERE \(Column.flightKey) = ? ORDER BY \(Column.seq)")
    /// One commit's inputs, by its flight and sequence number.
    static let inputsAtSQL = SQL.select(
        [Column.inputs.name], from: statements.table, "WHERE \(Column.flightKey) = ? AND \(Column.seq) = ?")
    /// A page of a flight's commits after a sequence number (binds: flight, seq, page size).
    static let inputsPageSQL = SQL.select(
        Column.names([.seq, .inputs]), from: statements.table,
        "WHERE \(Column.flightKey) = ? AND \(Column.seq) > ? ORDER BY \(Column.seq) LIMIT ?")
    /// A flight's inputs, commit by commit in order.
    static let inputsSQL = SQL.select(
        [Column.inputs.name], from: statements.table, "WHERE \(Column.flightKey) = ? ORDER BY \(Column.seq)")

    /// The values of the row, its flight's id first.
    var values: [SQLValue] { values(flight: record.flight) }

    /// The commit of flight `id` that `row` holds; nil when a value of it does not read.
    static func decode(_ row: Row, flight id: Int64) -> FlightJournal.Record? {
        guard let (seq, until) = time(row), let inputs = inputs(row) else { return nil }
        return FlightJournal.Record(flight: id, seq: seq, until: until, inputs: inputs)
    }

    /// A commit's sequence number and end, if they read.
    static func time(_ row: Row) -> (seq: Int64, until: Double)? {
        guard let seq = row[Column.seq.name].int.map(Int64.init), let until = row[Column.until.name].double
        else { return nil }
        return (seq, until)
    }

    static func inputs(_ row: Row) -> String? { row[Column.inputs.name].string }

}
