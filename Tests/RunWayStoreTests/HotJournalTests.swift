import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// A logbook as a kill (or a full card) in the middle of a write leaves it: a copy of the file
/// and its rollback journal taken while a transaction that has spilled pages into the file is
/// open. Nobody holds a lock on the copy, so its journal is hot: SQLite rolls it back on the
/// next open that may write, and refuses a read-only one (SQLITE_READONLY_ROLLBACK, 776).
func hotJournalCopy(of path: String, to copy: String) throws {
    let db = try Database(path: path)
    try db.execute("PRAGMA cache_size = 2")  // pages spill into the file before the commit
    try db.execute("BEGIN IMMEDIATE")
    try db.execute("DELETE FROM samples")
    try db.execute("UPDATE flights SET distance_m = 0")
    for suffix in ["", "-journal"] {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
    }
    try db.execute("ROLLBACK")
}

@Suite("A reader reads a logbook a kill left mid-write, and says what it did")
struct HotJournalTests {
    let scenario = Scenario.flat5k.ending(at: 1200)

    func logbook() throws -> (path: String, flights: [Flight]) {
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        var flights: [Flight] = []
        for _ in 0..<2 { flights.append(try #require(try record(scenario, into: logbook).flight)) }
        return (path, flights)
    }

    @Test func aReadOnlyOpenRollsBackTheHotJournalToTheLastCommittedState() throws {
        let (path, landed) = try logbook()
        let copy = temporaryLogbookPath()
        try hotJournalCopy(of: path, to: copy)
        #expect(FileManager.default.fileExists(atPath: copy + "-journal"))
        let reader = try Logbook(path: copy, access: .readOnly)
        let note = try #require(reader.openingNote)
        #expect(note.contains("rolled back"), "\(note)")
        #expect(try reader.entries().map(\.distance) == landed.reversed().map(\.distance))
        #expect(try reader.flight(id: 1)?.flight == landed[0])
        #expect(!FileManager.default.fileExists(atPath: copy + "-journal"))
        #expect(!FileManager.default.fileExists(atPath: copy + "-rawlog"))
        // Nothing else changed: the file is the last committed state, byte for byte.
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: URL(fileURLWithPath: path)))
        // A second reader finds nothing to do and says nothing.
        #expect(try Logbook(path: copy, access: .readOnly).openingNote == nil)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func onReadOnlyStorageItReadsAPrivateCopyOfTheLastCommittedState() throws {
        let (path, landed) = try logbook()
        let mountPoint = NSTemporaryDirectory() + "runway-hot-ro-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        defer { _ = try? sh("umount '\(mountPoint)'; rmdir '\(mountPoint)'") }
        try #require(try sh("mount -t tmpfs -o size=32m tmpfs '\(mountPoint)'") == 0)
        let copy = mountPoint + "/logbook.sqlite"
        try hotJournalCopy(of: path, to: copy)
        let journal = try Data(contentsOf: URL(fileURLWithPath: copy + "-journal"))
        let file = try Data(contentsOf: URL(fileURLWithPath: copy))
        try #require(try sh("mount -o remount,ro '\(mountPoint)'") == 0)
        do {
            let reader = try Logbook(path: copy, access: .readOnly)
            let note = try #require(reader.openingNote)
            #expect(note.contains("copy"), "\(note)")
            #expect(try reader.entries().map(\.distance) == landed.reversed().map(\.distance))
            #expect(try reader.flight(id: 2)?.flight == landed[1])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy + "-journal")) == journal)
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == file)
    }

    func sh(_ script: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
