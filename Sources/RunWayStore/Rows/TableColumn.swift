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
}

extension TableColumn {
    var description: String { rawValue }

    /// The column names, in order.
    static var names: [String] { allCases.map(\.rawValue) }

    /// `a, b, c`
    static func list(_ columns: [Self]) -> String { columns.map(\.rawValue).joined(separator: ", ") }

    /// `INSERT INTO table (a, b) VALUES (?, ?)`
    static func insert(_ columns: [Self] = allCases) -> String {
        "INSERT INTO \(table) (\(list(columns))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }

    /// `SELECT a, b FROM table` and then `rest` (its WHERE, ORDER BY).
    static func select(_ columns: [Self], _ rest: String) -> String {
        "SELECT \(list(columns)) FROM \(table) \(rest)"
    }

    /// `UPDATE table SET a = ?, b = ? WHERE key = ?`
    static func update(_ columns: [Self], where key: Self) -> String {
        "UPDATE \(table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(key) = ?"
    }
}

/// The columns of a table whose rows belong to one flight (`flight_id`, deleted with it).
protocol FlightChildColumn: TableColumn {
    static var flight: Self { get }
}

extension FlightChildColumn {
    /// `DELETE FROM table WHERE flight_id = ?`
    static var deleteFlight: String { "DELETE FROM \(table) WHERE \(flight) = ?" }
}

/// A table's row type: its columns, and the value each binds when the row is written.
protocol TableRow {
    associatedtype Column: TableColumn
    func value(_ column: Column) -> SQLValue
}

extension TableRow {
    /// The values `columns` bind, in their order.
    func values(_ columns: [Column] = Column.allCases) -> [SQLValue] { columns.map(value) }
}

/// The row type of a table of a flight's derived rows (samples, splits, …): read back all of a
/// flight's at once, each checked as `LogbookRow` checks a value.
protocol FlightChildRow: TableRow where Column: FlightChildColumn {
    associatedtype Value
    /// What one row is, in words, for the damage said about it ("sample").
    static var kind: String { get }
    /// A flight's rows, in order: `flight_id = ?` is its first parameter.
    static var selectSQL: String { get }
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

    /// The tables of a flight's derived data, which touchdown writes afresh.
    static var derived: [any FlightChildColumn.Type] {
        [SplitRow.Column.self, SampleRow.Column.self, RoutePointRow.Column.self, AlertRow.Column.self, PauseRow.Column.self]
    }
}
