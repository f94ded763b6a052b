/// A table's columns, in the order the schema as migrated has them, each spelled once (`spelled`;
/// a test holds them to `PRAGMA table_info`). The SQL that writes and reads the table is made
/// from them, so a column's name is written in its description and in the schema's history,
/// nowhere else. Interpolated into SQL, a column is its name.
///
/// A table's row type pairs its columns with how a value binds to them (`value(_:)`, GRDB's
/// `encode(to:)`) and how a read row becomes the value (its `decode`, GRDB's `init(row:)`).
protocol TableColumn: CaseIterable, Hashable, CustomStringConvertible, Sendable where AllCases == [Self] {
    /// Each column's name in SQL.
    static var spelled: [Self: String] { get }
    /// Every column's name, in the schema's order.
    static var names: [String] { get }
}

extension TableColumn {
    /// The column's name in SQL.
    var name: String {
        guard let name = Self.spelled[self] else { preconditionFailure("no name for the column \(self)") }
        return name
    }

    var description: String { name }

    static var names: [String] { allCases.map(\.name) }

    /// The names of `columns`, in their order.
    static func names(_ columns: [Self]) -> [String] { columns.map(\.name) }
}

/// The statements made from a table's columns.
enum SQL {
    /// `SELECT a, b FROM table` and then `rest` (its WHERE, ORDER BY).
    static func select(_ columns: [String], from table: String, _ rest: String) -> String {
        "SELECT \(columns.joined(separator: ", ")) FROM \(table) \(rest)"
    }

    /// `INSERT INTO table (a, b) VALUES (?, ?)`
    static func insert(into table: String, _ columns: [String]) -> String {
        let places = columns.map { _ in "?" }.joined(separator: ", ")
        return "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(places))"
    }

    /// `UPDATE table SET a = ?, b = ? WHERE key = ?`
    static func update(_ table: String, _ columns: [String], where key: String) -> String {
        "UPDATE \(table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(key) = ?"
    }

    /// `DELETE FROM table WHERE key = ?`
    static func delete(from table: String, where key: String) -> String {
        "DELETE FROM \(table) WHERE \(key) = ?"
    }
}

/// Every table's description, in the schema's order: its name and its columns'.
enum Tables {
    static var all: [(table: String, columns: [String])] {
        [
            (FlightRow.table, FlightRow.Column.names), (SplitRow.statements.table, SplitRow.Column.names),
            (SampleRow.statements.table, SampleRow.Column.names),
            (RoutePointRow.statements.table, RoutePointRow.Column.names),
            (AlertRow.statements.table, AlertRow.Column.names),
            (RawLogRow.statements.table, RawLogRow.Column.names),
            (PauseRow.statements.table, PauseRow.Column.names),
            (LapRow.statements.table, LapRow.Column.names),
            (DecisionRow.statements.table, DecisionRow.Column.names),
            (RouteRow.statements.table, RouteRow.Column.names),
        ]
    }

    /// The statements that delete a flight's derived data, which touchdown writes afresh.
    static var derivedDeletes: [String] {
        [
            SplitRow.statements.delete, SampleRow.statements.delete, RoutePointRow.statements.delete,
            AlertRow.statements.delete, PauseRow.statements.delete, LapRow.statements.delete,
            DecisionRow.statements.delete, RouteRow.statements.delete,
        ]
    }
}
