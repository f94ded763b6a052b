import CSQLite

/// A value bound to or read from a statement. Values are always bound, never spliced into SQL.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Bytes (a raw-log commit's deflated text, schema 11).
    case blob([UInt8])

    public var double: Double? {
        switch self {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }

    public var int: Int? {
        if case .integer(let v) = self { return Int(v) }
        return nil
    }

    public var string: String? {
        if case .text(let s) = self { return s }
        return nil
    }
}

/// One result row: values by column name (as GRDB reads them) or by position.
public struct Row: Sendable, RandomAccessCollection {
    public let values: [SQLValue]
    let columns: [String]

    public var startIndex: Int { 0 }
    public var endIndex: Int { values.count }
    public subscript(position: Int) -> SQLValue { values[position] }

    /// The value of the column named `column` (as the statement names it); NULL when the
    /// statement has no such column.
    public subscript(column: String) -> SQLValue {
        guard let i = columns.firstIndex(of: column) else {
            assertionFailure("no column \(column) in \(columns)")
            return .null
        }
        return values[i]
    }
}

/// A small, typed SQLite connection: prepared statements with bound parameters, and typed
/// errors carrying SQLite's message. The C handle never leaves this class.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    private var statements: [String: OpaquePointer] = [:]

    /// - Parameter create: for writing, create the file when there is none (else `SQLITE_CANTOPEN`).
    public init(path: String, readOnly: Bool = false, create: Bool = true) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        let flags =
            readOnly
            ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI
            : (SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0))
        let status = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw .sqlite(SQLiteCode(rawValue: status), message: message, operation: "opening", path: path)
        }
        handle = db
        sqlite3_busy_timeout(db, 2000)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func error(_ status: Int32, _ sql: String) -> StoreError {
        .sqlite(
            SQLiteCode(rawValue: status), message: String(cString: sqlite3_errmsg(handle)),
            operation: Self.operation(sql), path: path)
    }

    /// What a statement does, in a few words for an error message ("writing the flight's
    /// route"): errors say what was being written or read, never the SQL nor a table's name.
    static func operation(_ sql: String) -> String {
        let words = sql.split(whereSeparator: { " \n(;,=".contains($0) }).map(String.init)
        func after(_ keyword: String) -> String? {
            guard let i = words.firstIndex(where: { $0.uppercased() == keyword }), i + 1 < words.count else {
                return nil
            }
            return words[i + 1]
        }
        func what(_ table: String?, list: Bool = false) -> String {
            switch table ?? "" {
            case "flights": list ? "the flights" : "the flight"
            case "splits": "the flight's splits"
            case "samples": "the flight's samples"
            case "route_points", "routes": "the flight's route"
            case "alerts": "the flight's alerts"
            case "pauses": "the flight's pauses"
            case "raw_log": "the flight's raw sensor log"
            default: "the logbook"
            }
        }
        switch words.first?.uppercased() ?? "" {
        case "SELECT": return "reading \(what(after("FROM"), list: true))"
        case "INSERT": return "writing \(what(after("INTO")))"
        case "UPDATE": return "updating \(what(words.count > 1 ? words[1] : nil))"
        case "DELETE": return "deleting \(what(after("FROM")))"
        case "PRAGMA":
            let name = words.count > 1 ? words[1] : "pragma"
            if name == "quick_check" || name == "integrity_check" { return "checking the file" }
            return name == "user_version" ? "reading the logbook's version" : "setting up the logbook"
        case "BEGIN": return "starting a transaction"
        case "COMMIT": return "committing"
        case "ROLLBACK": return "rolling back"
        case "SAVEPOINT", "RELEASE": return "nesting a transaction"
        case "CREATE", "ALTER", "DROP": return "changing the schema"
        default: return "running a statement"
        }
    }

    /// Runs SQL without parameters (schema, pragmas, transactions).
    public func execute(_ sql: String) throws(StoreError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status, sql) }
    }

    /// Runs one statement with bound parameters; returns the rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> [Row] {
        let (rows, failure) = try run(sql, parameters)
        if let failure { throw failure }
        return rows
    }

    /// The rows a query yields before it fails, and the failure: reading a damaged file keeps
    /// everything up to the damage.
    public func readableRows(_ sql: String, _ parameters: [SQLValue] = []) -> (
        rows: [Row], failure: StoreError?
    ) {
        do {
            return try run(sql, parameters)
        } catch {
            return ([], error)
        }
    }

    private func run(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> (
        rows: [Row], failure: StoreError?
    ) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (i, value) in parameters.enumerated() {
            let index = Int32(i + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let v): status = sqlite3_bind_int64(statement, index, v)
            case .real(let v): status = sqlite3_bind_double(statement, index, v)
            case .text(let s): status = rw_sqlite_bind_text(statement, index, s)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    rw_sqlite_bind_blob(statement, index, $0.baseAddress, Int32($0.count))
                }
            }
            guard status == SQLITE_OK else { throw error(status, sql) }
        }
        var rows: [Row] = []
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { return (rows, error(status, sql)) }
            rows.append(
                Row(
                    values: (0..<count).map { column in
                        switch sqlite3_column_type(statement, column) {
                        case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                        case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                        case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                        case SQLITE_BLOB: .blob(Self.bytes(statement, column))
                        default: .null
                        }
                    }, columns: columns))
        }
        return (rows, nil)
    }

    /// A BLOB column's bytes (none for an empty one: SQLite gives no pointer then).
    private static func bytes(_ statement: OpaquePointer, _ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let base = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    public var lastInsertID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether SQLite opened the file read-only (asked to, or because the storage is read-only:
    /// SQLite then falls back without an error).
    public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Whether a transaction is open (what it writes is not durable until it commits).
    public var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    private var transactionDepth = 0

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws. A nested
    /// call is a savepoint, as GRDB does it: its failure rolls back its own work only, and the
    /// outer transaction decides about the rest.
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        guard transactionDepth > 0 else {
            return try bracket(body, begin: "BEGIN IMMEDIATE", commit: "COMMIT", rollback: ["ROLLBACK"])
        }
        let name = "nested\(transactionDepth)"
        return try bracket(
            body, begin: "SAVEPOINT \(name)", commit: "RELEASE \(name)",
            rollback: ["ROLLBACK TO \(name)", "RELEASE \(name)"])
    }

    /// `body` between `begin` and `commit`, one level deeper; if `body` or `commit` throws, the
    /// `rollback` statements run (their own failures ignored) and the error goes on.
    private func bracket<T>(
        _ body: () throws(StoreError) -> T, begin: String, commit: String, rollback: [String]
    ) throws(StoreError) -> T {
        try execute(begin)
        transactionDepth += 1
        defer { transactionDepth -= 1 }
        do {
            let result = try body()
            try execute(commit)
            return result
        } catch {
            for statement in rollback { try? execute(statement) }
            throw error
        }
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, "preparing \(sql)") }
        statements[sql] = statement
        return statement
    }
}
