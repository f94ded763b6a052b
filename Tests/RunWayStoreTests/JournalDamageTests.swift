import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// One damaged raw-log record costs its own seconds, never the rest of the flight, and the
/// flight says what is missing.
@Suite("Raw-log journal: a damaged record is skipped, the rest is read")
struct JournalDamageTests {
    enum Damage: String, CaseIterable, Sendable {
        case zeroedSector, flippedBit, garbageAtStart
    }

    /// A 10-minute walk cut at 8 minutes: its raw log waits in the journal (about 120 records).
    static func cutFlight() throws -> (path: String, id: Int64, reference: Double) {
        let path = temporaryLogbookPath()
        let cut = try record(.walker.ending(at: 780), into: try Logbook(path: path), stopAfter: 1_800)
        // What the undamaged journal recovers to: a copy of both files, recovered.
        let copy = temporaryLogbookPath()
        for suffix in ["", "-rawlog"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        let intact = try Logbook(path: copy)
        _ = try intact.recoverInterruptedFlights()
        let reference = try #require(try intact.flight(id: cut.id)).flight.distance
        return (path, cut.id, reference)
    }

    static func damage(_ damage: Damage, journal path: String) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        switch damage {
        case .zeroedSector:
            try handle.seek(toOffset: UInt64(FlightJournal.headerBlock + 40 * 512))
            handle.write(Data(count: 512))
        case .flippedBit:
            try handle.seek(toOffset: UInt64(FlightJournal.headerBlock + 40 * 512) + 100)
            let byte = try #require(handle.readData(ofLength: 1).first)
            try handle.seek(toOffset: UInt64(FlightJournal.headerBlock + 40 * 512) + 100)
            handle.write(Data([byte ^ 0x10]))
        case .garbageAtStart:  // of the records, after the header block
            try handle.seek(toOffset: UInt64(FlightJournal.headerBlock))
            handle.write(Data((0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }))
        }
    }

    @Test(arguments: Damage.allCases)
    func aDamagedRecordCostsItsSecondsNotTheRestOfTheFlight(_ damage: Damage) throws {
        let (path, id, reference) = try Self.cutFlight()
        try Self.damage(damage, journal: Logbook.journalPath(forLogbook: path))
        let logbook = try Logbook(path: path)
        let recovered = try logbook.recoverInterruptedFlights()
        #expect(recovered.map(\.id) == [id])
        let flight = try #require(try logbook.flight(id: id))
        #expect(flight.status == .recovered)
        // One record is 4 s of walking: a few metres, not the rest of the flight.
        #expect(abs(flight.flight.distance - reference) < 15, "\(flight.flight.distance) m of \(reference) m")
        // The flight says what was missing, and where.
        let gaps = flight.rawLogGaps
        #expect(gaps.count == 1)
        #expect(gaps.first.map { $0.records == 1 && $0.seconds > 2 && $0.seconds < 9 } == true, "\(gaps)")
        if damage == .garbageAtStart { #expect(gaps.first?.fromElapsed == 0) }
        #expect(recovered.first?.gaps == gaps)
    }

    @Test func anIntactJournalHasNoGaps() throws {
        let (path, id, reference) = try Self.cutFlight()
        let logbook = try Logbook(path: path)
        _ = try logbook.recoverInterruptedFlights()
        let flight = try #require(try logbook.flight(id: id))
        #expect(flight.rawLogGaps.isEmpty)
        #expect(abs(flight.flight.distance - reference) < 0.01)
    }

    /// A record of an older flight left in the journal must not join a newer flight that took
    /// its id (SQLite gives the highest id again once its row is gone).
    @Test func aStaleRecordNeverJoinsANewerFlight() throws {
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        let old = try logbook.begin(startTime: 1_000, mission: nil)
        try logbook.append(flight: old, inputs: [.tick(1_002), .tick(1_004)], until: 1_004)
        // Deleted behind the journal's back: its records are still there.
        try logbook.database.query("DELETE FROM flights WHERE id = ?", [.integer(old)])
        let new = try logbook.begin(startTime: 5_000, mission: nil)
        #expect(new == old)
        #expect(try logbook.rawInputs(flight: new).isEmpty)
    }
}
