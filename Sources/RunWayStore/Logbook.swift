import Glibc
import RunWayCore

/// How a flight in the logbook ended.
public enum LogbookStatus: String, Sendable, Equatable {
    case flying
    case finished
    /// Closed after a power cut, from everything recorded up to the cut.
    case recovered
    case tooShort = "too short"
}

/// The SQLite logbook, with `synchronous=FULL` and a rollback journal: a committed transaction
/// survives a power cut, and a cut never corrupts the file.
///
/// While a flight flies, its raw sensor log is committed every few seconds into a
/// `FlightJournal` beside the logbook (`<logbook>-rawlog`), not into SQLite: a durable SQLite
/// commit rewrites whole filesystem blocks and cost four times the SD card's write budget. The
/// journal's records move into `raw_log` at touchdown, when the journal fills, and when the
/// logbook is next opened for writing after a power cut. The rest of SQLite's writes are then a
/// few large transactions, so the rollback journal (which copies only pages that existed before)
/// writes about half of what WAL would (every page twice: WAL, then checkpoint), and new
/// logbooks use 4 KB pages, which hold a raw-log row without overflow pages.
///
/// This file is the storage: opening, the health check, migrations. The raw log is in
/// `Logbook+RawLog.swift`, recording in `Logbook+Recording.swift`, recovery and continuation
/// (which fly the engine) in `Logbook+Recovery.swift`, and queries in `Logbook+Queries.swift`.
public final class Logbook {
    /// How a logbook is opened. A read-only logbook never creates, migrates or writes anything
    /// (not even the raw-log journal): what `runway logbook` and export use.
    public enum Access: Sendable {
        case readWrite
        case readOnly
    }

    let database: Database
    public let access: Access
    /// The raw-log journal's size; 0 commits the raw log straight into SQLite.
    public let journalCapacity: Int
    public static let defaultJournalCapacity = 4 * 1_048_576
    /// How many bytes of records the journal holds before a commit moves them into SQLite in
    /// flight (issue 29): the touchdown then moves only the rest, so landing a long 10 Hz flight
    /// writes less than its raw log (it moved all of it, 0.76 MiB an hour into SQLite, at once).
    /// About 35 minutes at 10 Hz, an hour at 1 Hz.
    public static let defaultJournalAbsorbAt = 512 * 1024
    /// `defaultJournalAbsorbAt`, for this logbook (a test takes it in sooner).
    var journalAbsorbAt = Logbook.defaultJournalAbsorbAt
    var journal: FlightJournal?
    var journalFailure: StoreError?
    var nextSeq: [Int64: Int64] = [:]

    /// The logbook file.
    public var path: String { database.path }

    /// Where the raw-log journal lives.
    public var journalPath: String { Self.journalPath(forLogbook: database.path) }

    /// The raw-log journal beside the logbook at `path`.
    public static func journalPath(forLogbook path: String) -> String { path + "-rawlog" }

    /// Another process was recording a flight into this logbook when it was opened: its open
    /// flight is live, not interrupted, so `recoverInterruptedFlights` leaves open flights alone.
    public internal(set) var recordingElsewhere = false

    /// What the last take-in of the raw-log journal found wrong with it (damaged records, a cut
    /// file, an unreadable header): to be said once by whoever opened the logbook.
    public internal(set) var journalDamage: [JournalDamage] = []

    /// Impossible stored values the reads so far have met, and what each cost.
    public var damage: [RowDamage] { damageLog.entries }
    let damageLog = DamageLog()

    /// What opening had to do before it could read (a hot rollback journal rolled back), said
    /// once; nil when the file opened as it was.
    public internal(set) var openingNote: String?
    /// A private rolled-back copy this logbook reads (`openingNote`), removed when it closes.
    private var scratch: String?

    deinit {
        if let scratch { Self.removeScratch(scratch) }
    }

    /// Reads a logbook without checking or changing it (salvage).
    init(reading database: Database) {
        self.database = database
        access = .readOnly
        journalCapacity = 0
    }

    /// Opens a logbook. For writing, it is created if needed, checked, migrated, and the records
    /// a power cut left in the raw-log journal are taken in. Read-only, a missing file is
    /// `noLogbook` and nothing is created or changed. Either way a logbook from a newer schema,
    /// a file that is not a logbook and a damaged file are refused and left untouched. A write a
    /// kill cut short (a hot rollback journal) is rolled back before reading, said in
    /// `openingNote`. Without `create`, a missing file is `noLogbook` for writing too (a command
    /// that changes flights never makes a logbook at a mistyped path).
    public init(
        path: String, access: Access = .readWrite, journalCapacity: Int = Logbook.defaultJournalCapacity,
        create: Bool = true
    ) throws(StoreError) {
        self.access = access
        self.journalCapacity = access == .readOnly ? 0 : journalCapacity
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { throw .isADirectory(path: path) }
        } else if errno == ENOENT, access == .readOnly || !create {
            throw .noLogbook(path: path)
        }
        do {
            if access == .readOnly {
                let reading = try Self.openForReading(path)
                database = reading.database
                openingNote = reading.note
                scratch = reading.scratch
            } else {
                database = try Database(path: path, readOnly: false, create: create)
            }
        } catch {
            throw Self.unwritable(error, path: path)
        }
        if access == .readWrite && database.isReadOnly { throw .unwritable(path: path) }
        let version = try checkHealth()
        if access == .readOnly {
            guard version == Schema.version else {
                throw .notALogbook(
                    reason: version == 0
                        ? "no RunWay schema"
                        : "schema \(version) needs upgrading, which a read-only command does not do; "
                            + "any recording command upgrades it", path: path)
            }
            return
        }
        try prepareForWriting(version: version)
        // A power cut mid-flight leaves committed records in the journal: take them in first —
        // unless another process holds the journal, recording a flight right now.
        if Glibc.access(journalPath, F_OK) == 0 {
            do {
                journal = try FlightJournal(path: journalPath, capacity: self.journalCapacity)
            } catch .recordingElsewhere {
                recordingElsewhere = true
                return
            } catch .notAJournal(let reason, let path) {
                // Left as it is: the raw log goes straight into SQLite, and `prepareJournal`
                // says why.
                journalFailure = .notAJournal(reason: reason, path: path)
                return
            }
            try absorbJournal()
            journal = nil  // the lock is taken again when this logbook records
        }
    }

    /// The schema version, after checking that the file is a healthy logbook this build can
    /// read. Nothing is changed: a damaged file is kept exactly as it is.
    private func checkHealth() throws(StoreError) -> Int {
        func reading(_ pragma: String) throws(StoreError) -> [Row] {
            do {
                return try database.query("PRAGMA \(pragma)")
            } catch {
                if case .sqlite(let code, let message, _, _) = error {
                    if code.is(.notADatabase) { throw .notALogbook(reason: message, path: path) }
                    if code.is(.corrupt) { throw .damaged(reason: message, path: path) }
                }
                throw error
            }
        }
        let version = try reading("user_version").first?["user_version"].int ?? 0
        if version < 0 {
            // Four bytes of the header, written by something that is not RunWay.
            throw .notALogbook(reason: "schema version \(version)", path: path)
        }
        if version > Schema.version {
            throw .newerSchema(found: version, known: Schema.version, path: path)
        }
        let problems = try reading("quick_check").compactMap { $0.first?.string }
        guard problems == ["ok"] else {
            let first = problems.first ?? "no answer"
            let more = problems.count > 1 ? " and \(problems.count - 1) more problems" : ""
            throw .damaged(reason: first + more, path: path)
        }
        return version
    }

    /// SQLite's page cache for a writing logbook, KiB as SQLite's negative `cache_size` takes
    /// it: 512 KiB instead of its default 2 MiB. The recorder appends and the reads are a flight
    /// at a time; the heap profile of a 24 h 10 Hz run (issue 29) had the default cache as the
    /// largest holder left, 2.26 MiB.
    static let pageCacheKiB = -512

    /// Page size, rollback journal, durability, foreign keys, the page cache, then each missing
    /// migration in its own transaction.
    private func prepareForWriting(version: Int) throws(StoreError) {
        do {
            if version == 0 { try database.execute("PRAGMA page_size = 4096") }
            // Logbooks written before the raw-log journal are WAL; DELETE converts them.
            try database.execute("PRAGMA journal_mode = DELETE")
        } catch {
            throw Self.unwritable(error, path: path)
        }
        try database.execute("PRAGMA synchronous = FULL")
        try database.execute("PRAGMA foreign_keys = ON")
        try database.execute("PRAGMA cache_size = \(Self.pageCacheKiB)")
        for index in version..<Schema.version {
            try database.transaction { () throws(StoreError) in
                try database.execute(Schema.migrations[index])
                try database.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    /// Read-only storage (or a folder that cannot be written) said plainly, at start.
    static func unwritable(_ error: StoreError, path: String) -> StoreError {
        guard case .sqlite(let code, _, _, _) = error, code.is(.readOnly) || code.is(.cantOpen) else {
            return error
        }
        return .unwritable(path: path)
    }

    public var schemaVersion: Int {
        (try? database.query("PRAGMA user_version").first?["user_version"].int) ?? 0
    }

    func requireWritable() throws(StoreError) {
        if access == .readOnly { throw .unwritable(path: path) }
    }

    static func value(_ v: Double?) -> SQLValue { v.map { .real($0) } ?? .null }
}
