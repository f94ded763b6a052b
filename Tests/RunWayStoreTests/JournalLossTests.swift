import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// Where each record of a journal file lies: every sector that starts a record's header.
struct JournalLayout {
    struct Entry {
        var offset: Int
        var header: FlightJournal.Header
        /// The bytes its checksum covers: header and stored text.
        var covered: Range<Int> { offset..<offset + FlightJournal.headerSize + Int(header.length) }
    }

    var entries: [Entry] = []

    init(_ bytes: [UInt8]) {
        var offset = 0
        while offset + FlightJournal.headerSize <= bytes.count {
            let header = bytes.withUnsafeBytes {
                FlightJournal.Header(loading: $0.baseAddress!.advanced(by: offset))
            }
            if let header, header.span >= 512, offset + Int(header.span) <= bytes.count {
                entries.append(Entry(offset: offset, header: header))
                offset += Int(header.span)
            } else {
                offset += 512
            }
        }
    }

    init(file path: String) throws {
        self.init([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }
}

func truncate(_ path: String, to size: Int) throws {
    let handle = try #require(FileHandle(forUpdatingAtPath: path))
    try handle.truncate(atOffset: UInt64(size))
    try handle.close()
}

func fileSize(_ path: String) throws -> Int {
    try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
}

/// The journal's hottest sector — the first, rewritten at every start-over — zeroed while a
/// flight is in the air: the flight stays, less that record's seconds at most, and says so.
@Suite("Raw-log journal: a zeroed first sector costs at most its record, and is said")
struct JournalFirstSectorTests {
    @Test func aZeroedFirstRecordCostsItsSecondsAndTheFlightSaysSo() throws {
        let (path, id, reference) = try JournalDamageTests.cutFlight()
        let journal = Logbook.journalPath(forLogbook: path)
        let first = try #require(try JournalLayout(file: journal).entries.first)
        #expect(first.header.index == 0)
        let handle = try #require(FileHandle(forUpdatingAtPath: journal))
        try handle.seek(toOffset: UInt64(first.offset))
        handle.write(Data(count: 512))
        try handle.close()

        let logbook = try Logbook(path: path)
        let recovered = try logbook.recoverInterruptedFlights()
        #expect(recovered.map(\.id) == [id])
        #expect(recovered.first?.kept == true)
        let flight = try #require(try logbook.flight(id: id))
        #expect(flight.status == .recovered)
        #expect(abs(flight.flight.distance - reference) < 15, "\(flight.flight.distance) m of \(reference) m")
        let gaps = flight.rawLogGaps
        #expect(gaps.count == 1)
        #expect(
            gaps.first.map { $0.records == 1 && $0.fromElapsed == 0 && $0.seconds < 9 } == true, "\(gaps)")
        #expect(recovered.first?.gaps == gaps)
        // Said, once, by whoever opened the logbook.
        #expect(logbook.journalDamage == [.unreadableRecords(1, offset: first.offset, path: journal)])
        #expect(logbook.journalDamage.first.map { "\($0)".contains("could not be read") } == true)
    }

    @Test func aZeroedFirstSectorOfTheFileLosesAtMostOneRecord() throws {
        let (path, id, reference) = try JournalDamageTests.cutFlight()
        let journal = Logbook.journalPath(forLogbook: path)
        let handle = try #require(FileHandle(forUpdatingAtPath: journal))
        handle.write(Data(count: 512))
        try handle.close()

        let logbook = try Logbook(path: path)
        #expect(try logbook.recoverInterruptedFlights().map(\.kept) == [true])
        let flight = try #require(try logbook.flight(id: id))
        #expect(abs(flight.flight.distance - reference) < 15, "\(flight.flight.distance) m of \(reference) m")
        #expect(flight.rawLogGaps.reduce(0) { $0 + $1.records } <= 1)
        #expect(!logbook.journalDamage.isEmpty)
    }

    /// The start-over is the write that comes most (every touchdown, every open after a cut): it
    /// goes to the header block alone, never to a sector that can hold a record.
    @Test func aStartOverWritesNoSectorThatHoldsARecord() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        let journal = try FlightJournal(path: path, capacity: 65_536)
        for n in Int64(1)...3 {
            #expect(
                try journal.append(
                    FlightJournal.Record(flight: 1, seq: n, until: Double(n), inputs: "T,\(n)")))
        }
        let entries = try JournalLayout(file: path).entries
        #expect(entries.count == 3)
        #expect(entries.allSatisfy { $0.offset >= FlightJournal.headerBlock })
        let before = try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(FlightJournal.headerBlock)
        try journal.restart()
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(FlightJournal.headerBlock) == before)
        // Started over: nothing is read until the next record, though the old ones are still there.
        #expect(try journal.records().isEmpty)
        #expect(try FlightJournal(reading: path).records().isEmpty)
    }
}

/// A journal file cut short (a copy, a filesystem repair): every whole record before the cut is
/// read, the cut is said, and recording goes on in a journal of full size again.
@Suite("Raw-log journal: a truncated journal keeps every record before the cut, and says so")
struct JournalTruncationTests {
    enum Cut: String, CaseIterable, Sendable {
        case midRecord, sectorBoundary, zeroLength
    }

    @Test(arguments: Cut.allCases)
    func everyRecordBeforeTheCutIsTakenInAndTheCutIsSaid(_ cut: Cut) throws {
        let (path, id, _) = try JournalDamageTests.cutFlight()
        let journal = Logbook.journalPath(forLogbook: path)
        let written = try FlightJournal(reading: journal).records()
        let entries = try JournalLayout(file: journal).entries
        #expect(entries.count == written.count && written.count > 60)
        // A record in the middle that does not start a 4 KiB block.
        let k = try #require((written.count / 2..<written.count).first { entries[$0].offset % 4096 != 0 })
        let size: Int
        let kept: Int
        switch cut {
        case .midRecord: (size, kept) = (entries[k].offset + 100, k)
        case .sectorBoundary: (size, kept) = (entries[k].offset, k)
        case .zeroLength: (size, kept) = (0, 0)
        }
        let before = try fileSize(journal)
        try truncate(journal, to: size)

        let inputs = written.prefix(kept).flatMap { RawLog.decode($0.inputs) }
        let next: Int64
        do {
            let logbook = try Logbook(path: path)
            #expect(
                logbook.journalDamage.contains {
                    if case .truncated(size, _, journal) = $0 { true } else { false }
                })
            let recovered = try logbook.recoverInterruptedFlights()
            #expect(recovered.map(\.id) == [id])
            if kept > 0 {
                #expect(recovered.first?.kept == true)
                #expect(try logbook.rawInputs(flight: id) == inputs)
            } else {
                #expect(recovered.first?.kept == false)  // nothing of it was left to fly
            }
            // Writing goes on in a journal of full size again.
            #expect(try fileSize(journal) == before)
            let recorder = FlightRecorder(logbook: logbook)
            try recorder.begin(at: 10_000, mission: nil)
            next = try #require(recorder.flightID)
            for t in 1...400 { recorder.record(.tick(10_000 + Double(t))) }
        }  // the power goes again
        let again = try Logbook(path: path)
        #expect(again.journalDamage.isEmpty)
        #expect(try again.rawInputs(flight: next).map(\.time) == (1...400).map { 10_000 + Double($0) })
        if kept > 0 { #expect(try again.rawInputs(flight: id) == inputs) }
    }

    @Test func aJournalCutInsideItsHeaderIsSaidAndLosesNothingElse() throws {
        let path = temporaryLogbookPath()
        do {
            let logbook = try Logbook(path: path)
            #expect(logbook.prepareJournal() == nil)
        }
        let journal = Logbook.journalPath(forLogbook: path)
        try truncate(journal, to: 100)
        let logbook = try Logbook(path: path)
        #expect(logbook.journalDamage.contains { if case .truncated(100, _, _) = $0 { true } else { false } })
        #expect(logbook.prepareJournal() == nil)
        #expect(try fileSize(journal) == FlightJournal.headerBlock + Logbook.defaultJournalCapacity)
    }
}

/// Damage anywhere, many times over (seeded, so each failure is reproducible): what is lost is
/// exactly the records whose checked bytes were hit, never a record beside them.
@Suite("Raw-log journal: random damage costs the damaged records and nothing more")
struct JournalRandomDamageTests {
    enum Hit: CaseIterable {
        case zeroedSector, flippedBit, garbage
    }

    /// 1–3 hits on `bytes[range]`, each a zeroed sector, a flipped bit or a few garbage bytes.
    static func damage(
        _ bytes: inout [UInt8], within range: Range<Int>, using generator: inout SeededGenerator
    ) {
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
            let at = Int.random(in: range, using: &generator)
            switch Hit.allCases.randomElement(using: &generator)! {
            case .zeroedSector:
                let sector = at / 512 * 512
                for i in sector..<min(sector + 512, bytes.count) { bytes[i] = 0 }
            case .flippedBit:
                bytes[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
            case .garbage:
                for i in at..<min(at + Int.random(in: 1...64, using: &generator), bytes.count) {
                    bytes[i] = UInt8.random(in: 0...255, using: &generator)
                }
            }
        }
    }

    /// A power cut can lose a card's whole erase block (128 KiB and more): the records past it
    /// are still read (the reader used to look only 64 KiB past damage and lose the rest).
    @Test func recordsPastALostEraseBlockAreRead() throws {
        let path = temporaryLogbookPath() + "-rawlog"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var written: [FlightJournal.Record] = []
        do {
            let journal = try FlightJournal(path: path, capacity: 1 << 20)
            for n in 0..<700 {
                let record = FlightJournal.Record(
                    flight: 1, seq: Int64(n + 1), until: Double(n), inputs: "T,\(n)")
                #expect(try journal.append(record))
                written.append(record)
            }
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let hole = (64 << 10)..<(192 << 10)
        for i in hole { bytes[i] = 0 }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let entries = JournalLayout(bytes).entries
        let read = try FlightJournal(reading: path).records()
        let survivors = written.indices.filter { i in
            entries.first { $0.header.seq == written[i].seq }.map { !hole.overlaps($0.covered) } ?? false
        }
        #expect(read.count == survivors.count && !survivors.isEmpty, "\(read.count) of \(survivors.count)")
        #expect(read.last == written.last)
    }

    @Test func inAJournalTheUndamagedRecordsAreAllReadAndNothingElse() throws {
        for seed in UInt64(0)..<150 {
            var generator = SeededGenerator(seed: seed)
            let path = temporaryLogbookPath() + "-rawlog"
            defer { try? FileManager.default.removeItem(atPath: path) }
            var stale: [FlightJournal.Record] = []
            var written: [FlightJournal.Record] = []
            do {
                let journal = try FlightJournal(path: path, capacity: 131_072)
                // An older epoch left behind the current one, as after every start-over.
                for n in 0..<Int.random(in: 0...30, using: &generator) {
                    let record = FlightJournal.Record(
                        flight: 1, seq: Int64(n + 1), until: Double(n), inputs: "T,\(n)")
                    #expect(try journal.append(record))
                    stale.append(record)
                }
                try journal.restart()
                for n in 0..<Int.random(in: 1...40, using: &generator) {
                    // Up to a few sectors of text that deflates little.
                    let text = (0..<Int.random(in: 1...600, using: &generator)).map { _ in
                        "\(UInt8.random(in: 0...255, using: &generator))"
                    }.joined(separator: ",")
                    let record = FlightJournal.Record(
                        flight: 2, seq: Int64(n + 1), until: Double(n), inputs: text)
                    #expect(try journal.append(record))
                    written.append(record)
                }
            }
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            let current = JournalLayout(bytes).entries.filter { $0.header.flight == 2 }
            #expect(current.count == written.count, "seed \(seed)")
            let original = bytes
            Self.damage(
                &bytes, within: 0..<(current.last.map { $0.offset + Int($0.header.span) } ?? 512),
                using: &generator)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let hit = Set(
                current.indices.filter { i in current[i].covered.contains { bytes[$0] != original[$0] } })
            let expected = written.indices.filter { !hit.contains($0) }.map { written[$0] }

            let read = try FlightJournal(reading: path).records()
            #expect(read.filter { $0.flight == 2 } == expected, "seed \(seed): hit \(hit.sorted())")
            // Anything else read is a stale record already taken in (taking it again changes nothing).
            #expect(read.filter { $0.flight != 2 }.allSatisfy(stale.contains), "seed \(seed)")
        }
    }

    @Test func aRecoveredFlightLosesOnlyTheDamagedRecordsSeconds() throws {
        let (path, id, _) = try JournalDamageTests.cutFlight()
        let source = Logbook.journalPath(forLogbook: path)
        let pristine = [UInt8](try Data(contentsOf: URL(fileURLWithPath: source)))
        let entries = JournalLayout(pristine).entries
        let written = try FlightJournal(reading: source).records()
        for seed in UInt64(0)..<24 {
            var generator = SeededGenerator(seed: seed)
            let copy = temporaryLogbookPath()
            defer {
                for suffix in ["", "-journal", "-rawlog"] {
                    try? FileManager.default.removeItem(atPath: copy + suffix)
                }
            }
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            var bytes = pristine
            Self.damage(&bytes, within: 0..<entries.last!.offset + 512, using: &generator)
            try Data(bytes).write(to: URL(fileURLWithPath: copy + "-rawlog"))
            let hit = Set(
                entries.indices.filter { i in entries[i].covered.contains { bytes[$0] != pristine[$0] } })

            let logbook = try Logbook(path: copy)
            let recovered = try logbook.recoverInterruptedFlights()
            #expect(recovered.map(\.kept) == [true], "seed \(seed)")
            let seqs = try logbook.database.query(
                "SELECT seq FROM raw_log WHERE flight_id = ? ORDER BY seq", [.integer(id)]
            ).compactMap { $0["seq"].int.map(Int64.init) }
            #expect(
                seqs == written.indices.filter { !hit.contains($0) }.map { written[$0].seq }, "seed \(seed)")
            // The holes said are the damaged records with a good one after them (a lost tail is
            // a cut's, which no later record can show).
            let inside = hit.filter { i in (i + 1..<written.count).contains { !hit.contains($0) } }.count
            #expect(
                try logbook.rawLogGaps(flight: id).reduce(0) { $0 + $1.records } == inside, "seed \(seed)")
            #expect(hit.isEmpty || !logbook.journalDamage.isEmpty, "seed \(seed)")
        }
    }
}

/// What is at the journal's place but is not a journal is left exactly as it is.
@Suite("Raw-log journal: a file that is not a journal is refused and kept")
struct JournalBadInputTests {
    @Test func aForeignFileIsKeptAndTheRawLogGoesIntoSQLite() throws {
        let path = temporaryLogbookPath()
        let journal = Logbook.journalPath(forLogbook: path)
        let foreign = Data((0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
        try foreign.write(to: URL(fileURLWithPath: journal))
        let logbook = try Logbook(path: path)
        let failure = logbook.prepareJournal()
        #expect(
            failure.map { if case .notAJournal = $0 { true } else { false } } == true,
            "\(String(describing: failure))")
        let recorder = FlightRecorder(logbook: logbook)
        try recorder.begin(at: 0, mission: nil)
        for t in 1...20 { recorder.record(.tick(Double(t))) }
        #expect(try logbook.rawInputs(flight: recorder.flightID!).count == 20)
        #expect(try Data(contentsOf: URL(fileURLWithPath: journal)) == foreign)
    }

    @Test func aFIFOInTheJournalsPlaceIsRefusedWithoutHanging() throws {
        let path = temporaryLogbookPath()
        let journal = Logbook.journalPath(forLogbook: path)
        #expect(mkfifo(journal, 0o644) == 0)
        defer { unlink(journal) }
        let logbook = try Logbook(path: path)
        #expect(logbook.prepareJournal().map { if case .notAJournal = $0 { true } else { false } } == true)
    }
}
