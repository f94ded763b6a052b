/// The columns of a table whose rows belong to one flight, after its first column: the flight's
/// id, named here once for them all (the rows are deleted with their flight).
protocol FlightChildColumn: TableColumn {}

extension FlightChildColumn {
    static var flightKey: String { "flight_id" }
    static var names: [String] { [flightKey] + allCases.map(\.name) }
}

/// A table of a flight's rows: its name, what a row is called, and its statements, made once
/// from its columns.
struct FlightChildTable<Column: FlightChildColumn>: Sendable {
    let table: String
    /// What one row is, in words, for the damage said about it ("sample").
    let kind: String
    /// One row, every column, the flight's id first.
    let insert: String
    /// A flight's rows in order, by its id and then `filter`'s values.
    let select: String
    /// Every row of a flight.
    let delete: String

    init(
        _ table: String, kind: String, reading: [Column] = Column.allCases, filter: [Column] = [],
        order: Column
    ) {
        self.init(table, kind: kind, reading: reading, filter: filter, orderBy: order.name)
    }

    init(
        _ table: String, kind: String, reading: [Column] = Column.allCases, filter: [Column] = [],
        orderBy order: String
    ) {
        self.table = table
        self.kind = kind
        insert = SQL.insert(into: table, Column.names)
        let keys = ([Column.flightKey] + filter.map(\.name)).map { "\($0) = ?" }.joined(separator: " AND ")
        select = SQL.select(reading.map(\.name), from: table, "WHERE \(keys) ORDER BY \(order)")
        delete = SQL.delete(from: table, where: Column.flightKey)
    }
}

/// How a row of a flight's table binds when it is written.
protocol FlightChildEncoding {
    associatedtype Column: FlightChildColumn
    static var statements: FlightChildTable<Column> { get }
    /// The value `column` binds (the flight's id binds before them all).
    func value(_ column: Column) -> SQLValue
}

extension FlightChildEncoding {
    /// The values of the row of flight `id`, in `statements.insert`'s order.
    func values(flight id: Int64) -> [SQLValue] { [.integer(id)] + Column.allCases.map(value) }
}

/// The row type of a table of a flight's derived rows (samples, splits, …): read back all of a
/// flight's at once, each checked as `LogbookRow` checks a value.
protocol FlightChildRow: FlightChildEncoding {
    associatedtype Value
    /// The row's value; nil when it is to be passed over without a word (an alert of a kind
    /// this build does not know). Throws when a required value is impossible: the row is left out.
    static func decode(_ r: LogbookRow) throws(StoreError) -> Value?
}
