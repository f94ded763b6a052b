import Glibc
import RunWaySystem

/// Opening a logbook for reading when a kill or a full card cut a write short: the file then
/// has a hot rollback journal, which only a connection that may write can roll back, so a
/// read-only open fails with SQLITE_READONLY_ROLLBACK (776) until some writing command comes.
/// A reader rolls it back itself — in place when the file and its folder can be written (a
/// rollback changes nothing but undoing the cut write), else in a private copy — and says so.
extension Logbook {
    struct Reading {
        var database: Database
        var note: String?
        /// The private folder holding a rolled-back copy, removed when the logbook closes.
        var scratch: String?
    }

    static func openForReading(_ path: String) throws(StoreError) -> Reading {
        let database = try Database(path: path, readOnly: true)
        guard hasHotJournal(database) else { return Reading(database: database) }
        if rollBack(path) {
            let reopened = try Database(path: path, readOnly: true)
            if !hasHotJournal(reopened) {
                return Reading(
                    database: reopened,
                    note: "\(path) had a write cut short (a kill or a full card): it was rolled back to its "
                        + "last committed state before reading, and nothing else was changed")
            }
        }
        let scratch = try privateCopy(of: path)
        let copy = scratch + "/logbook.sqlite"
        guard rollBack(copy) else {
            removeScratch(scratch)
            throw .sqlite(
                .readOnlyRollback, message: "hot journal", operation: "reading the logbook", path: path)
        }
        do {
            return Reading(
                database: try Database(path: copy, readOnly: true),
                note: "\(path) has a write cut short (a kill or a full card) and cannot be written here: "
                    + "read from a private copy rolled back to its last committed state; the next writing "
                    + "command that can write it rolls the logbook itself back",
                scratch: scratch)
        } catch {
            removeScratch(scratch)
            throw error
        }
    }

    /// Whether the file's first read meets a hot journal this read-only connection may not roll back.
    private static func hasHotJournal(_ database: Database) -> Bool {
        do {
            try database.query("PRAGMA user_version")
            return false
        } catch {
            if case .sqlite(let code, _, _, _) = error { return code == .readOnlyRollback }
            return false
        }
    }

    /// Opens the file for writing just long enough for SQLite to roll its hot journal back (the
    /// first read does it), writing nothing else. False when it cannot be written.
    private static func rollBack(_ path: String) -> Bool {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        guard Glibc.access(path, W_OK) == 0, Glibc.access(folder, W_OK) == 0 else { return false }
        do {
            let database = try Database(path: path, readOnly: false, create: false)
            try database.query("PRAGMA user_version")
            return !database.isReadOnly
        } catch {
            return false
        }
    }

    /// The file and its rollback journal, copied into a new private folder.
    private static func privateCopy(of path: String) throws(StoreError) -> String {
        let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/runway-read-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw .io(.current, operation: "making a private copy to read", path: path)
        }
        let scratch = String(cString: made)
        do {
            try copy(path, to: scratch + "/logbook.sqlite")
            try copy(path + "-journal", to: scratch + "/logbook.sqlite-journal")
        } catch {
            removeScratch(scratch)
            throw error
        }
        return scratch
    }

    private static func copy(_ source: String, to target: String) throws(StoreError) {
        func reading<T>(_ call: () throws(Errno) -> T) throws(StoreError) -> T {
            do throws(Errno) { return try call() } catch {
                throw .io(error, operation: "reading it for a private copy", path: source)
            }
        }
        func writing<T>(_ call: () throws(Errno) -> T) throws(StoreError) -> T {
            do throws(Errno) { return try call() } catch {
                throw .io(error, operation: "making a private copy", path: target)
            }
        }
        let input = try reading { () throws(Errno) in try FileDescriptor.open(source, O_RDONLY | O_CLOEXEC) }
        defer { try? input.close() }
        let output = try writing { () throws(Errno) in
            try FileDescriptor.open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions: 0o600)
        }
        defer { try? output.close() }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try reading { () throws(Errno) in try input.read(into: &buffer) }
            if n == 0 { return }
            try writing { () throws(Errno) in try output.writeAll(buffer[..<n]) }
        }
    }

    static func removeScratch(_ scratch: String) {
        for name in ["logbook.sqlite", "logbook.sqlite-journal"] { unlink(scratch + "/" + name) }
        rmdir(scratch)
    }
}
