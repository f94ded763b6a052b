/// One commit of a flight's raw sensor log, as `raw_log` holds it: the journal's record.
struct RawLogRow: TableRow {
    enum Column: String, FlightChildColumn {
        static let table = "raw_log"
        case flight = "flight_id", seq, until, inputs
    }

    var record: FlightJournal.Record

    static let insertSQL = Column.insert()
    /// A flight's commits in order, inputs and all.
    static let selectSQL = Column.select(
        Array(Column.allCases.dropFirst()), "WHERE \(Column.flight) = ? ORDER BY \(Column.seq)")

    func value(_ column: Column) -> SQLValue {
        switch column {
        case .flight: .integer(record.flight)
        case .seq: .integer(record.seq)
        case .until: .real(record.until)
        case .inputs: .text(record.inputs)
        }
    }

    /// The commit of flight `id` that `row` holds; nil when a value of it does not read.
    static func decode(_ row: Row, flight id: Int64) -> FlightJournal.Record? {
        guard let seq = row[Column.seq.rawValue].int.map(Int64.init),
            let until = row[Column.until.rawValue].double, let inputs = row[Column.inputs.rawValue].string
        else { return nil }
        return FlightJournal.Record(flight: id, seq: seq, until: until, inputs: inputs)
    }
}
