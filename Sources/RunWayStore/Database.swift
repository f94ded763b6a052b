import CSQLite

/// A SQLite failure: the result code and SQLite's own message, plus what we were doing.
public struct StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public var code: Int32
    public var message: String
    public var context: String

    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    public var description: String { "\(context): \(message) (SQLite \(code))" }

    /// The disk is full: recording pauses, the flight keeps flying in memory.
    public var isDiskFull: Bool { code & 0xFF == SQLITE_FULL }
    /// Not a database, or damaged: keep the file, open nothing over it.
    public var isCorrupt: Bool { code & 0xFF == SQLITE_CORRUPT || code & 0xFF == SQLITE_NOTADB }
}

/// A value bound to or read from a statement. Values are always bound, never spliced into SQL.
public enum SQLValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

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

/// A small, typed SQLite connection: prepared statements with bound parameters, and typed
/// errors carrying SQLite's message. The C handle never leaves this class.
public final class Database {
    let handle: OpaquePointer
    public let path: String
    private var statements: [String: OpaquePointer] = [:]

    public init(path: String, readOnly: Bool = false) throws(StoreError) {
        self.path = path
        var db: OpaquePointer?
        let flags =
            readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let status = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw StoreError(code: status, message: message, context: "opening \(path)")
        }
        handle = db
        sqlite3_busy_timeout(db, 2000)
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    func error(_ status: Int32, _ context: String) -> StoreError {
        StoreError(code: status, message: String(cString: sqlite3_errmsg(handle)), context: context)
    }

    /// Runs SQL without parameters (schema, pragmas, transactions).
    public func execute(_ sql: String) throws(StoreError) {
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status, sql) }
    }

    /// Runs one statement with bound parameters; returns the rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        let (rows, failure) = try run(sql, parameters)
        if let failure { throw failure }
        return rows
    }

    /// The rows a query yields before it fails, and the failure: reading a damaged file keeps
    /// everything up to the damage.
    public func readableRows(_ sql: String, _ parameters: [SQLValue] = []) -> (
        rows: [[SQLValue]], failure: StoreError?
    ) {
        do {
            return try run(sql, parameters)
        } catch {
            return ([], error)
        }
    }

    private func run(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> (
        rows: [[SQLValue]], failure: StoreError?
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
            }
            guard status == SQLITE_OK else { throw error(status, "binding \(index) of \(sql)") }
        }
        var rows: [[SQLValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { return (rows, error(status, sql)) }
            let count = sqlite3_column_count(statement)
            rows.append(
                (0..<count).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                    case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                    default: .null
                    }
                })
        }
        return (rows, nil)
    }

    public var lastInsertID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open (what it writes is not durable until it commits).
    public var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    private var transactionDepth = 0

    /// Runs `body` in one transaction: committed if it returns, rolled back if it throws. Nested
    /// calls join the outer transaction.
    public func transaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        if transactionDepth > 0 {
            transactionDepth += 1
            defer { transactionDepth -= 1 }
            return try body()
        }
        try execute("BEGIN IMMEDIATE")
        transactionDepth = 1
        defer { transactionDepth = 0 }
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
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
