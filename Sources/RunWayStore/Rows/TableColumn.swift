/// A table's columns, each named once, in the order the schema as migrated has them (a test
/// holds them to `PRAGMA table_info`). The SQL that writes and reads the table is made from them,
/// so a column's name is spelled in its description and in the schema's history, nowhere else.
/// Interpolated into SQL, a column is its name.
///
/// A table's row type pairs its columns with how a value binds to them (`value(_:)`, GRDB's
/// `encode(to:)`) and how a read row becomes the value (its `decode`, GRDB's `init(row:)`).
protocol TableColumn: RawRepresentable<String>, CaseIterable, CustomStringConvertible, Sendable
where AllCases == [Self] {
    /// The table's name.
    static var table: String { get }
    /// Every column's name, in the schema's order.
    static var names: [String] { get }
}

extension TableColumn {
    var description: String { rawValue }

    static var names: [String] { allCases.map(\.rawValue) }

    /// `a, b, c`
    static func list(_ columns: [Self]) -> String { columns.map(\.rawValue).joined(separator: ", ") }

    /// `SELECT a, b FROM table` and then `rest` (its WHERE, ORDER BY).
    static func select(_ columns: [Self], _ rest: String) -> String {
        "SELECT \(list(columns)) FROM \(table) \(rest)"
    }

    /// `INSERT INTO table (a, b) VALUES (?, ?)`
    static func insert(_ columns: [Self]) -> String { insert(names: columns.map(\.rawValue)) }

    static func insert(names: [String]) -> String {
        let places = names.map { _ in "?" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(names.joined(separator: ", "))) VALUES (\(places))"
    }

    /// `UPDATE table SET a = ?, b = ? WHERE key = ?`
    static func update(_ columns: [Self], where key: Self) -> String {
        "UPDATE \(table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(key) = ?"
    }
}

/// The columns of a table whose rows belong to one flight, after its first column: the flight's
/// id, named here once for them all (the rows are deleted with their flight).
protocol FlightChildColumn: TableColumn {}

extension FlightChildColumn {
    static var flightKey: String { "flight_id" }
    static var names: [String] { [flightKey] + allCases.map(\.rawValue) }
}

/// The statements of a table of a flight's rows, made once from its columns.
struct FlightChildTable<Column: FlightChildColumn>: Sendable {
    /// What one row is, in words, for the damage said about it ("sample").
    let kind: String
    /// One row, every column, the flight's id first.
    let insert: String
    /// A flight's rows in order, by its id and then `filter`'s values.
    let select: String
    /// Every row of a flight.
    let delete: String

    init(kind: String, reading: [Column] = Column.allCases, filter: [Column] = [], order: Column) {
        self.init(kind: kind, reading: reading, filter: filter, orderBy: order.rawValue)
    }

    init(kind: String, reading: [Column] = Column.allCases, filter: [Column] = [], orderBy order: String) {
        self.kind = kind
        insert = Column.insert(names: Column.names)
        let keys = [Column.flightKey] + filter.map(\.rawValue)
        select = Column.select(
            reading, "WHERE \(keys.map { "\($0) = ?" }.joined(separator: " AND ")) ORDER BY \(order)")
        delete = "DELETE FROM \(Column.table) WHERE \(Column.flightKey) = ?"
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

/// Every table's description, in the schema's order.
enum Tables {
    static var all: [any TableColumn.Type] {
        [
            FlightRow.Column.self, SplitRow.Column.self, SampleRow.Column.self, RoutePointRow.Column.self,
            AlertRow.Column.self, RawLogRow.Column.self, PauseRow.Column.self,
        ]
    }

    /// The statements that delete a flight's derived data, which touchdown writes afresh.
    static var derivedDeletes: [String] {
        [
            SplitRow.statements.delete, SampleRow.statements.delete, RoutePointRow.statements.delete,
            AlertRow.statements.delete, PauseRow.statements.delete,
        ]
    }
}
