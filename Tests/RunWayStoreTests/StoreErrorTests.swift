import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// Errors carry what happened: a case per cause, SQLite's code or the errno, the file.
@Suite("Store errors: typed causes, one sentence, no SQL")
struct StoreErrorTests {
    /// A flight cut mid-run: its raw log waits in the journal.
    static func cutFlight() throws -> (path: String, id: Int64) {
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        let cut = try record(.walker.ending(at: 600), into: logbook, stopAfter: 300)
        return (path, cut.id)
    }

    /// The bug this replaced: any failure with code 5 while taking the journal in was read as
    /// "another process is recording", so a genuine SQLITE_BUSY (another program holding the
    /// database) skipped the journal and recovery without a word.
    @Test func aBusyDatabaseIsNotMistakenForAnotherRecorder() throws {
        let (path, id) = try Self.cutFlight()
        let holder = try Database(path: path)
        try holder.execute("BEGIN IMMEDIATE")  // another program writes to the logbook
        #expect {
            _ = try Logbook(path: path)
        } throws: { error in
            guard case .sqlite(let code, _, _, let where_) = error as? StoreError else { return false }
            return code.is(.busy) && where_ == path
        }
        try holder.execute("ROLLBACK")
        // Once free, the journal is taken in and the flight recovered.
        let logbook = try Logbook(path: path)
        #expect(!logbook.recordingElsewhere)
        #expect(try logbook.recoverInterruptedFlights().map(\.id) == [id])
    }

    @Test func aRecorderHoldingTheJournalIsItsOwnCase() throws {
        let (path, _) = try Self.cutFlight()
        let recording = try Logbook(path: path)
        #expect(recording.prepareJournal() == nil)  // this process now holds the journal's lock
        #expect(try Logbook(path: path).recordingElsewhere)
        #expect {
            _ = try FlightJournal(path: Logbook.journalPath(forLogbook: path), capacity: 4096)
        } throws: { ($0 as? StoreError) == .recordingElsewhere(path: Logbook.journalPath(forLogbook: path)) }
    }

    @Test func messagesNameTheCauseAndTheFileNeverSQL() throws {
        let directory = NSTemporaryDirectory()
        let missing = directory + "runway-mistyped-\(UUID().uuidString).sqlite"
        #expect(throws: StoreError.noLogbook(path: missing)) { try Logbook(path: missing, access: .readOnly) }
        #expect(!FileManager.default.fileExists(atPath: missing))  // reading created nothing
        #expect(throws: StoreError.isADirectory(path: directory)) { try Logbook(path: directory) }
        try Data("hello, this is not a database at all".utf8).write(to: URL(fileURLWithPath: missing))
        #expect {
            _ = try Logbook(path: missing)
        } throws: { error in
            guard case .notALogbook = error as? StoreError else { return false }
            return !"\(error)".contains("SELECT") && !"\(error)".contains("PRAGMA")
        }
        try? FileManager.default.removeItem(atPath: missing)
    }

    @Test func sqliteFailuresSayWhatWasBeingDoneInWords() {
        #expect(
            Database.operation("INSERT INTO samples (flight_id) VALUES (?)") == "writing the flight's samples"
        )
        #expect(Database.operation("SELECT id FROM flights WHERE x = ?") == "reading the flights")
        #expect(Database.operation("PRAGMA quick_check") == "checking the file")
        #expect(Database.operation("UPDATE flights SET status = ?") == "updating the flight")
        // In words for the runner; SQLite's code and message for the log.
        let full = StoreError.sqlite(
            .full, message: "database or disk is full", operation: "writing the flight's samples", path: "/x")
        #expect("\(full)" == "/x: the card is full: writing the flight's samples")
        #expect(
            full.logDescription == "/x: writing the flight's samples: database or disk is full (SQLite 13)")
        #expect(full.isDiskFull)
        #expect(StoreError.io(.noSpace, operation: "syncing", path: "/x-rawlog").isDiskFull)
    }

    /// A nested transaction is a savepoint: its failure undoes its own work only.
    @Test func aNestedTransactionIsASavepoint() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let db = logbook.database
        try db.transaction { () throws(StoreError) in
            _ = try logbook.begin(startTime: 1, mission: nil)
            #expect(throws: StoreError.self) {
                try db.transaction { () throws(StoreError) in
                    _ = try logbook.begin(startTime: 2, mission: nil)
                    throw StoreError.io(.ioError, operation: "test", path: "t")
                }
            }
        }
        #expect(try db.query("SELECT start_time FROM flights").map { $0["start_time"].double } == [1])
    }
}
