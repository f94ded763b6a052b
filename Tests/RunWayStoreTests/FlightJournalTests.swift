import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

@Suite("Raw-log journal: committed records survive a cut, a torn or stale one is never read")
struct FlightJournalTests {
    func record(_ n: Int64, text: String = "T,1") -> FlightJournal.Record {
        FlightJournal.Record(flight: 7, seq: n, until: Double(n) * 4, inputs: "\(text)\n\(n)")
    }

    @Test func recordsReadBackInOrderFromANewlyOpenedJournal() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        let written = (1...5).map { record($0, text: String(repeating: "F,1,2,3", count: Int($0) * 30)) }
        do {
            let journal = try FlightJournal(path: path, capacity: 65_536)
            for r in written { #expect(try journal.append(r)) }
        }
        let reopened = try FlightJournal(path: path, capacity: 65_536)
        #expect(try reopened.records() == written)
        // Preallocated once (the records' room after the header block): recording never grows the file.
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
        #expect(size == FlightJournal.headerBlock + 65_536)
    }

    @Test func anExistingJournalKeepsItsSizeAndRecordsWhateverSizeIsAskedFor() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        do {
            let journal = try FlightJournal(path: path, capacity: 65_536)
            for n in 1...3 { #expect(try journal.append(record(Int64(n)))) }
        }
        let smaller = try FlightJournal(path: path, capacity: 4096)
        #expect(smaller.capacity == 65_536)
        #expect(try smaller.records() == (1...3).map { record(Int64($0)) })
    }

    @Test func recordsAreStoredDeflatedAndAFourSecondBatchTakesOneSector() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        let journal = try FlightJournal(path: path, capacity: 65_536)
        // 4 s of a run: 4 fixes, 8 pressure samples, 4 heart-rate samples, as the board gives them.
        var inputs: [EngineInput] = []
        for s in 0..<4 {
            let t = 1_791_011_203.0 + Double(s)
            inputs.append(.pressure(PressureSample(time: t, pascals: 100_894.3046875 - Double(s) * 0.25)))
            inputs.append(.body(BodySample(time: t + 0.25, heartRate: 161, cadence: 175)))
            inputs.append(.pressure(PressureSample(time: t + 0.5, pascals: 100_893.61328125)))
            let coordinate = Coordinate(latitude: 37.529090529 + Double(s) * 1e-5, longitude: 126.934382093)
            inputs.append(
                .fix(
                    Fix(
                        time: t + 1, coordinate: coordinate, horizontalAccuracy: 21.9, speed: 3.101,
                        track: 269.0878, altitude: 36.317, mode: 3)))
        }
        let batch = FlightJournal.Record(
            flight: 1, seq: 1, until: 1_791_011_207, inputs: RawLog.encode(inputs))
        #expect(batch.inputs.utf8.count > 512)
        #expect(try journal.append(batch))
        #expect(journal.offset == FlightJournal.headerBlock + 512)
        #expect(try journal.records() == [batch])
    }

    @Test func aPlainRecordOfTheFirstJournalFormatStillReads() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        _ = try FlightJournal(path: path, capacity: 4096)
        let text = Array("T,1\nT,2".utf8)
        var header = FlightJournal.Header(
            epoch: 42, index: 0, flight: 3, seq: 1, until: 2, length: UInt32(text.count), span: 512,
            textLength: UInt32(text.count))
        header.plain = true
        header.checksum = header.crc(text)
        var sector = [UInt8](repeating: 0, count: 512)
        sector.withUnsafeMutableBytes { header.store(into: $0.baseAddress!) }
        sector.replaceSubrange(56..<56 + text.count, with: text)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.write(contentsOf: Data(sector))
        try handle.close()
        let records = try FlightJournal(path: path, capacity: 4096).records()
        #expect(records == [FlightJournal.Record(flight: 3, seq: 1, until: 2, inputs: "T,1\nT,2")])
    }

    @Test func aTornRecordEndsTheJournalAndTheRecordsBeforeItStand() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        do {
            let journal = try FlightJournal(path: path, capacity: 65_536)
            for n in 1...3 { #expect(try journal.append(record(Int64(n)))) }
        }
        // The third record's sector was half-written when the power went.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for i in FlightJournal.headerBlock + 1024 + 60..<FlightJournal.headerBlock + 1024 + 64 {
            bytes[i] ^= 0xFF
        }
        try bytes.write(to: URL(fileURLWithPath: path))
        let journal = try FlightJournal(path: path, capacity: 65_536)
        #expect(try journal.records() == [record(1), record(2)])
    }

    @Test func afterARestartRecordsFromTheOldEpochAreNeverReadAgain() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        let journal = try FlightJournal(path: path, capacity: 65_536)
        for n in 1...4 { #expect(try journal.append(record(Int64(n)))) }
        try journal.restart()
        #expect(try journal.append(record(9)))
        // Records 2–4 still sit on the disk after record 9; they belong to the old epoch.
        #expect(try journal.records() == [record(9)])
    }

    @Test func whileFlyingTheRawLogGoesToTheJournalAndAnotherProcessLeavesTheLiveFlightAlone() throws {
        let path = temporaryLogbookPath()
        let reader = try Database(path: path)
        let id: Int64
        do {
            let logbook = try Logbook(path: path)
            let recorder = FlightRecorder(logbook: logbook)
            try recorder.begin(at: 0, mission: nil)
            id = try #require(recorder.flightID)
            for t in 1...60 { recorder.record(.tick(Double(t))) }
            // No raw-log rows in SQLite yet: the commits went to the journal, durably.
            #expect(try reader.query("SELECT COUNT(*) FROM raw_log").first?.first?.int == 0)
            #expect(try FlightJournal(reading: logbook.journalPath).records().count == 15)
            // `runway logbook` opening it now must not close the live flight as interrupted.
            let other = try Logbook(path: path)
            #expect(other.recordingElsewhere)
            #expect(try other.recoverInterruptedFlights() == [])
            #expect(try other.entries().first?.status == .flying)
        }  // the power goes
        let again = try Logbook(path: path)
        #expect(!again.recordingElsewhere)
        #expect(try again.rawInputs(flight: id).count == 60)
        #expect(try reader.query("SELECT COUNT(*) FROM raw_log").first?.first?.int == 15)
        // Taken in, the journal was started over on the device: the next open has nothing to take.
        #expect(try FlightJournal(reading: again.journalPath).records().isEmpty)
    }

    @Test func aFullJournalRefusesARecordAndWritesNothing() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        let journal = try FlightJournal(path: path, capacity: 4096)
        for n in 1...8 { #expect(try journal.append(record(Int64(n)))) }  // 8 sectors of 512 bytes
        #expect(try !journal.append(record(9)))
        #expect(try journal.records() == (1...8).map { record(Int64($0)) })
    }

    @Test func aFullJournalMovesIntoSQLiteAndRecordingGoesOn() throws {
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: 4096)
        let recorder = FlightRecorder(logbook: logbook)
        try recorder.begin(at: 0, mission: nil)
        for t in 1...400 { recorder.record(.tick(Double(t))) }  // 100 commits, 8 sectors of journal
        #expect(recorder.pending.isEmpty)
        let ticks = try logbook.rawInputs(flight: recorder.flightID!).map(\.time)
        #expect(ticks == (1...400).map(Double.init))
    }

    @Test func withoutAJournalTheRawLogCommitsStraightIntoSQLite() throws {
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        // The journal cannot be made (its name leads into a folder that does not exist).
        try FileManager.default.createSymbolicLink(
            atPath: logbook.journalPath, withDestinationPath: "/nonexistent-\(UUID().uuidString)/rawlog")
        #expect(logbook.prepareJournal() != nil)
        let recorder = FlightRecorder(logbook: logbook)
        try recorder.begin(at: 0, mission: nil)
        for t in 1...20 { recorder.record(.tick(Double(t))) }
        let reader = try Database(path: path, readOnly: true)
        #expect(try reader.query("SELECT COUNT(*) FROM raw_log").first?.first?.int == 5)
        #expect(try logbook.rawInputs(flight: recorder.flightID!).count == 20)
    }

    @Test func recordsTakenInByATransactionThatRollsBackStayInTheJournal() throws {
        let path = temporaryLogbookPath()
        let id: Int64
        do {
            let logbook = try Logbook(path: path)
            id = try logbook.begin(startTime: 0, mission: nil)
            for t in 1...3 { try logbook.append(flight: id, inputs: [.tick(Double(t))], until: Double(t)) }
            #expect(throws: StoreError.self) {
                try logbook.database.transaction { () throws(StoreError) in
                    _ = try logbook.rawInputs(flight: id)  // takes the journal in…
                    throw StoreError.io(.noSpace, operation: "test", path: path)  // …and rolls back
                }
            }
            try logbook.append(flight: id, inputs: [.tick(4)], until: 4)
        }
        // Nothing was lost: the next commit did not start the journal over.
        #expect(try Logbook(path: path).rawInputs(flight: id).map(\.time) == [1, 2, 3, 4])
    }

    @Test func aTouchdownOnAFullDiskLosesNothing() throws {
        let path = temporaryLogbookPath()
        let scenario = Scenario.flat5k.ending(at: 1200)
        let landed: Flight
        do {
            let logbook = try Logbook(path: path)
            let recorder = FlightRecorder(logbook: logbook)
            var computer = FlightComputer()
            var flight: Flight?
            for event in ScenarioRunner.events(for: scenario).events {
                switch event {
                case .input(let input):
                    _ = recorder.take(.flew(input, computer.handle(input)), after: computer)
                case .end(let sentAt):
                    flight = computer.end(sentAt: sentAt).result.flight
                }
            }
            landed = try #require(flight)
            // The card fills just before touchdown: SQLite cannot take the raw log or the splits.
            let pages = try logbook.database.query("PRAGMA page_count").first?.first?.int ?? 0
            try logbook.database.execute("PRAGMA max_page_count = \(pages)")
            #expect {
                try recorder.land(landed, configuration: EngineConfiguration())
            } throws: { ($0 as? StoreError)?.isDiskFull == true }
        }
        // The raw log waited in the journal: the next start closes the flight from it.
        let logbook = try Logbook(path: path)
        let id = try #require(try logbook.entries().first?.id)
        #expect(try logbook.recoverInterruptedFlights().map(\.id) == [id])
        let recovered = try #require(try logbook.flight(id: id))
        #expect(recovered.status == .recovered)
        // The flight the touchdown would have saved, smoothed over the whole raw log.
        let expected = saved(landed, inputs: try logbook.rawInputs(flight: id))
        #expect(recovered.flight.splits == expected.splits)
        #expect(abs(recovered.flight.distance - expected.distance) < 1e-9)
    }

    @Test func aDeletedFlightsJournalRecordsDoNotComeBack() throws {
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        let first = try logbook.begin(startTime: 0, mission: nil)
        try logbook.append(flight: first, inputs: [.tick(1)], until: 1)
        try logbook.delete(flight: first)
        let again = try Logbook(path: path)
        #expect(try again.database.query("SELECT COUNT(*) FROM raw_log").first?.first?.int == 0)
    }
}
