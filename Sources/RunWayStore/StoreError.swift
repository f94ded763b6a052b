import CSQLite
import RunWayCore
import RunWaySystem

/// A SQLite result code (extended codes on): the primary code is the low byte.
public struct SQLiteCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    public var primary: Int32 { rawValue & 0xFF }

    public static let busy = SQLiteCode(rawValue: SQLITE_BUSY)
    public static let readOnly = SQLiteCode(rawValue: SQLITE_READONLY)
    public static let ioError = SQLiteCode(rawValue: SQLITE_IOERR)
    public static let corrupt = SQLiteCode(rawValue: SQLITE_CORRUPT)
    public static let full = SQLiteCode(rawValue: SQLITE_FULL)
    public static let cantOpen = SQLiteCode(rawValue: SQLITE_CANTOPEN)
    public static let notADatabase = SQLiteCode(rawValue: SQLITE_NOTADB)
    /// SQLITE_READONLY_ROLLBACK (776): a read-only connection met a hot rollback journal (a kill
    /// or a full card mid-write) that it may not roll back.
    public static let readOnlyRollback = SQLiteCode(rawValue: SQLITE_READONLY | (3 << 8))

    /// Whether this code is `other` or one of its extended codes.
    public func `is`(_ other: SQLiteCode) -> Bool { primary == other.primary }

    /// SQLite's own words for the code ("database or disk is full").
    public var description: String { String(cString: sqlite3_errstr(rawValue)) }

    /// What the code means for a runner, in words ("the card is full"); never a number.
    public var cause: String {
        if self == .readOnlyRollback {
            return "a write was cut short (a kill or a full card) and cannot be rolled back from here"
        }
        switch primary {
        case SQLITE_FULL: return "the card is full"
        case SQLITE_IOERR: return "the card could not be read or written"
        case SQLITE_CORRUPT, SQLITE_NOTADB: return "the file is damaged"
        case SQLITE_READONLY: return "the file cannot be written"
        case SQLITE_BUSY, SQLITE_LOCKED: return "another program is using the logbook"
        case SQLITE_CANTOPEN: return "the file cannot be opened"
        case SQLITE_PERM, SQLITE_AUTH: return "permission denied"
        case SQLITE_NOMEM: return "out of memory"
        case SQLITE_TOOBIG: return "a value too large for the logbook"
        case SQLITE_CONSTRAINT: return "a value the logbook does not accept"
        default: return description
        }
    }
}

/// Everything the logbook can fail with, one case per cause, each carrying what a runner or a
/// maintainer needs: SQLite failures keep SQLite's result code and message, I/O failures the
/// errno, and every case the file. Callers match cases, never numbers; `description` is one
/// sentence that names the cause and the file, never SQL.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLite failed while doing `operation` (a few words: "writing splits").
    case sqlite(SQLiteCode, message: String, operation: String, path: String)
    /// A system call failed while doing `operation` to the file at `path`.
    case io(Errno, operation: String, path: String)
    /// Another process holds the raw-log journal: it is recording a flight into this logbook.
    case recordingElsewhere(path: String)
    /// The file fails SQLite's health check; it is kept as it is.
    case damaged(reason: String, path: String)
    /// Written by a newer RunWay; nothing was changed.
    case newerSchema(found: Int, known: Int, path: String)
    /// A SQLite file that is not a RunWay logbook (or not SQLite at all); nothing was changed.
    case notALogbook(reason: String, path: String)
    /// There is no file at `path` (a read-only command never creates one).
    case noLogbook(path: String)
    /// The logbook cannot be written there: read-only storage, or a folder that cannot be.
    case unwritable(path: String)
    /// The path is a directory, not a logbook file.
    case isADirectory(path: String)
    case noFlight(Int64, path: String)
    /// The file where the raw-log journal belongs is not one RunWay made (`reason`): it is left as
    /// it is, and the raw log is committed straight into the logbook.
    case notAJournal(reason: String, path: String)

    /// The storage is full: recording keeps the flight in memory and tries again.
    public var isDiskFull: Bool {
        switch self {
        case .sqlite(let code, _, _, _): code.is(.full)
        case .io(let errno, _, _): errno.isNoSpace
        default: false
        }
    }

    /// The file is damaged or not a database: keep it, open nothing over it.
    public var isCorrupt: Bool {
        switch self {
        case .sqlite(let code, _, _, _): code.is(.corrupt) || code.is(.notADatabase)
        case .damaged: true
        default: false
        }
    }

    public var path: String {
        switch self {
        case .sqlite(_, _, _, let path), .io(_, _, let path), .recordingElsewhere(let path),
            .damaged(_, let path), .newerSchema(_, _, let path), .notALogbook(_, let path),
            .noLogbook(let path), .unwritable(let path), .isADirectory(let path), .noFlight(_, let path),
            .notAJournal(_, let path):
            path
        }
    }

    /// The description with SQLite's result code and message or the errno: for the system log
    /// and a maintainer (`--json`), never for the runner, who reads `description`.
    public var logDescription: String {
        switch self {
        case .sqlite(let code, let message, let operation, let path):
            "\(path): \(operation): \(message) (SQLite \(code.rawValue))"
        case .io(let errno, let operation, let path):
            "\(path): \(operation): \(errno) (errno \(errno.rawValue))"
        default: description
        }
    }

    public var description: String {
        switch self {
        case .sqlite(let code, _, let operation, let path):
            "\(path): \(code.cause): \(operation)"
        case .io(let errno, let operation, let path):
            "\(path): \(operation): \(errno)"
        case .recordingElsewhere(let path):
            "\(path): another RunWay is recording a flight into this logbook"
        case .damaged(let reason, let path):
            "\(path): the file is damaged (\(reason)); it was kept as it is, and "
                + "`runway salvage \(path) --to NEW` copies every flight that can still be read"
        case .newerSchema(let found, let known, let path):
            "\(path): written by a newer RunWay (schema \(found), this one knows \(known)); nothing was changed"
        case .notALogbook(let reason, let path):
            "\(path): not a RunWay logbook (\(reason)); nothing was changed"
        case .noLogbook(let path):
            "no logbook at \(path)"
        case .unwritable(let path):
            "\(path): cannot be written (read-only storage, or a folder that does not exist or is not "
                + "writable); nothing can be recorded there"
        case .isADirectory(let path):
            "\(path) is a directory, not a logbook file"
        case .noFlight(let id, let path):
            "\(path): no flight \(id)"
        case .notAJournal(let reason, let path):
            "\(path): not a RunWay raw-log journal (\(reason)); it was left as it is and the raw log "
                + "goes straight into the logbook (more writes to the card) until it is moved away"
        }
    }
}
