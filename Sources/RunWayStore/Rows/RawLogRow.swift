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

    /// The values of the row, its flight's id first.
    var values: [SQLValue] { values(flight: record.flight) }

    /// The commit of flight `id` that `row` holds; nil when a value of it does not read.
    static func decode(_ row: Row, flight id: Int64) -> FlightJournal.Record? {
        guard let seq = row[Column.seq.name].int.map(Int64.init),
            let until = row[Column.until.name].double, let inputs = row[Column.inputs.name].string
        else { return nil }
        return FlightJournal.Record(flight: id, seq: seq, until: until, inputs: inputs)
    }
}
