/// One commit of a flight's raw sensor log, as `raw_log` holds it: the journal's record, its
/// text deflated as the journal stores it (schema 11; `inputs` is then ''). A row written before
/// schema 11 has its text in `inputs` and no `packed`.
struct RawLogRow: FlightChildEncoding {
    var record: FlightJournal.Record
    /// The text deflated; empty when deflating failed (the text is then stored as it is).
    let packed: [UInt8]

    init(record: FlightJournal.Record) {
        self.record = record
        packed = FlightJournal.packed(Array(record.inputs.utf8))
    }

    enum Column: FlightChildColumn {
        case seq, until, inputs, packed, textLength

        static let spelled: [Self: String] = [
            .seq: "seq", .until: "until", .inputs: "inputs", .packed: "packed", .textLength: "text_length",
        ]
        /// What a commit's text is read from.
        static let text: [Self] = [.inputs, .packed, .textLength]
    }

    static let statements = FlightChildTable<Column>("raw_log", kind: "raw log commit", order: .seq)

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .seq: .integer(record.seq)
        case .until: .real(record.until)
        case .inputs: .text(packed.isEmpty ? record.inputs : "")
        case .packed: packed.isEmpty ? .null : .blob(packed)
        case .textLength: packed.isEmpty ? .null : .integer(Int64(record.inputs.utf8.count))
        }
    }

    // The raw log's own reads and the journal's absorb (Logbook+RawLog).

    /// A journal record's row, unless it is there already or its flight is not (deleted, or an
    /// older flight whose id a newer one took: the record ends before that flight began). Binds
    /// the row's values, then the flight's id and the record's end.
    static let absorbSQL: String = {
        let flights = FlightRow.Column.self
        return "INSERT OR IGNORE INTO \(statements.table) (\(Column.names.joined(separator: ", "))) "
            + "SELECT \(Column.names.map { _ in "?" }.joined(separator: ", ")) WHERE EXISTS (SELECT 1 FROM \(FlightRow.table) "
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
    /// One commit's inputs, by its flight and sequence number.
    static let inputsAtSQL = SQL.select(
        Column.names(Column.text), from: statements.table,
        "WHERE \(Column.flightKey) = ? AND \(Column.seq) = ?")
    /// A page of a flight's commits after a sequence number (binds: flight, seq, page size).
    static let inputsPageSQL = SQL.select(
        Column.names([.seq, .until] + Column.text), from: statements.table,
        "WHERE \(Column.flightKey) = ? AND \(Column.seq) > ? ORDER BY \(Column.seq) LIMIT ?")
    /// A flight's inputs, commit by commit in order.
    static let inputsSQL = SQL.select(
        Column.names(Column.text), from: statements.table,
        "WHERE \(Column.flightKey) = ? ORDER BY \(Column.seq)")

    /// A flight's commits copied to another flight (binds: the copy's id, the original's).
    static let copySQL: String = {
        let columns = Column.allCases.map(\.name).joined(separator: ", ")
        return "INSERT INTO \(statements.table) (\(Column.flightKey), \(columns)) SELECT ?, \(columns) "
            + "FROM \(statements.table) WHERE \(Column.flightKey) = ?"
    }()
    /// A flight's commits as a logbook before schema 11 holds them (salvage of an older file).
    static let plainSelectSQL = SQL.select(
        Column.names([.seq, .until, .inputs]), from: statements.table,
        "WHERE \(Column.flightKey) = ? ORDER BY \(Column.seq)")

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

    /// A commit's text: inflated from `packed` when the row has it, else `inputs` as it is. Nil
    /// when neither reads (a damaged deflate stream or length: that commit's inputs are missing).
    static func inputs(_ row: Row) -> String? {
        if row.columns.contains(Column.packed.name), case .blob(let packed) = row[Column.packed.name] {
            guard let length = row[Column.textLength.name].int,
                let text = FlightJournal.unpacked(packed, length: length)
            else { return nil }
            return String(decoding: text, as: UTF8.self)
        }
        return row[Column.inputs.name].string
    }

}
