import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// Issue 29: the raw log as differences (`RawLog.compact`), stored deflated in `raw_log`
/// (schema 11). Every input must come back bit for bit, damage must cost only its own batch,
/// and a logbook of schema 10 (plain text rows) must open, migrate and fly as before.
@Suite("Compact raw log: differences, deflated rows, schema 11")
struct CompactRawLogTests {
    /// The plain form of each input: shortest round-trip text, so -0.0 and 0.0 differ.
    func plain(_ inputs: [EngineInput]) -> [String] { inputs.compactMap { RawLog.encode($0) } }

    @Test func theBoardsValuesAndOddOnesComeBackBitForBit() {
        let inputs: [EngineInput] = [
            .fix(
                Fix(
                    time: 1_791_011_199.1,
                    coordinate: Coordinate(latitude: 37.528526152, longitude: 126.935036494),
                    horizontalAccuracy: 22.9, speed: 2.705, track: 359.633, altitude: 36.747, mode: 3)),
            // The simulator's 17 digits, a negative zero, a missing field, a huge and a tiny value.
            .fix(
                Fix(
                    time: 1_791_011_199.2,
                    coordinate: Coordinate(latitude: 37.52852537512345, longitude: -0.0),
                    horizontalAccuracy: nil, speed: 1e300, track: .leastNonzeroMagnitude, altitude: -12.25,
                    mode: 2)),
            .pressure(PressureSample(time: 1_791_011_199.25, pascals: 100_894.82421875)),
            .pressure(PressureSample(time: 1_791_011_199.75, pascals: 101_325.123)),
            .body(BodySample(time: 3, heartRate: 150, cadence: nil)),
            .body(
                BodySample(
                    time: 4, heartRate: 151.5, cadence: 172, footpodSpeed: 3.25, footpodDistance: 1234.5)),
            .tick(4), .pause(at: 5), .resume(at: 6), .togglePause(at: 7), .barometerLost(at: 8), .lap(at: 9),
        ]
        let text = RawLog.compact(inputs)
        #expect(text.hasPrefix("D\n"))
        let decoded = RawLog.decode(text)
        #expect(decoded == inputs)
        #expect(plain(decoded) == plain(inputs))
        #expect(RawLog.decode(RawLog.compact([])) == [])
    }

    /// A 10 Hz fix as the board delivers it is ~70 characters plain and far fewer compact.
    @Test func aTenHertzBatchIsSmallerCompactThanPlain() {
        var scenario = Scenario.endurance(hours: 1, rate: 10)
        scenario.barometer.rate = 2
        var runner = ScenarioRunner(scenario)
        var inputs: [EngineInput] = []
        while inputs.count < 2_000, let event = runner.next() {
            if case .input(let input) = event { inputs.append(input) }
        }
        let plainText = RawLog.encode(inputs)
        let compact = RawLog.compact(inputs)
        #expect(RawLog.decode(compact) == RawLog.decode(plainText))
        // The simulator's values carry 17 digits (they are written after `=`), yet still smaller.
        #expect(compact.utf8.count < plainText.utf8.count)
    }

    /// A field a flipped byte spoiled is that value missing (its input dropped where it is
    /// required); the lines after it still read, and nothing traps.
    @Test func aSpoiledCompactFieldCostsItsOwnInput() {
        let inputs: [EngineInput] = (0..<5).map { i in
            .fix(
                Fix(
                    time: 100 + Double(i),
                    coordinate: Coordinate(latitude: 37 + Double(i) * 1e-5, longitude: 127),
                    horizontalAccuracy: 5, speed: 3, mode: 3))
        }
        var lines = RawLog.compact(inputs).split(separator: "\n").map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: "F,", with: "F,x")  // the second fix's time
        #expect(RawLog.decode(lines.joined(separator: "\n")).count == 4)
        let overflow = "D\nF,9223372036854775807,1,1,1,1,1,1,3\nF,9223372036854775807,1,1,1,1,1,1,0"
        #expect(RawLog.decode(overflow).isEmpty)
        #expect(RawLog.decode("D\nF,=1e300,1,1,,,,,3\nZ,1\n\nF").isEmpty)
    }

    /// The byte reader (`decodeCompact`) reads what the field reader before it read (each line
    /// split at its commas, each field read as `Int64` or, after `=`, `Double`): over the board's
    /// 10 Hz values and over thousands of texts with bytes spoiled (digits, signs, commas, line
    /// breaks, `=`, letters).
    @Test func theByteReaderReadsAsTheFieldReaderDid() {
        var scenario = Scenario.endurance(hours: 1, rate: 10)
        scenario.barometer.rate = 2
        var runner = ScenarioRunner(scenario)
        var inputs: [EngineInput] = [.tick(1), .pause(at: 2), .resume(at: 3), .lap(at: 4)]
        while inputs.count < 600, let event = runner.next() {
            if case .input(let input) = event { inputs.append(input) }
        }
        let text = RawLog.compact(inputs)
        #expect(plain(RawLog.decodeCompact(text)) == plain(Self.fieldReader(text)))
        var generator = SeededGenerator(seed: 29)  // the same spoiled texts every run
        let spoilers = Array("0123456789-+=,\nFPBTLAREx.e ".utf8)
        var bytes = Array(text.utf8)
        for round in 0..<3_000 {
            if round % 50 == 0 { bytes = Array(text.utf8) }
            let at = Int(generator.next() % UInt64(bytes.count))
            bytes[at] = spoilers[Int(generator.next() % UInt64(spoilers.count))]
            let spoiled = String(decoding: bytes, as: UTF8.self)
            let read = plain(RawLog.decodeCompact(spoiled))
            let before = plain(Self.fieldReader(spoiled))
            if read != before {
                Issue.record("round \(round): \(read.count) inputs against \(before.count)")
                return
            }
        }
    }

    /// The compact reader as schema 11 shipped it: the reference the byte reader is held to.
    static func fieldReader(_ text: String) -> [EngineInput] {
        var previous: [Substring: [Int64]] = [:]
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            let tag = fields[0]
            let divisors = RawLog.divisors(tag)
            var last = previous[tag] ?? []
            if last.count < fields.count { last += Array(repeating: 0, count: fields.count - last.count) }
            var values: [Double?] = [nil]
            for i in 1..<fields.count {
                let field = fields[i]
                if field.first == "=" {
                    values.append(Double(field.dropFirst()))
                    continue
                }
                guard let delta = Int64(field) else {
                    values.append(nil)
                    continue
                }
                let (n, overflow) = last[i].addingReportingOverflow(delta)
                guard !overflow else {
                    values.append(nil)
                    continue
                }
                last[i] = n
                values.append(Double(n) / (i - 1 < divisors.count ? divisors[i - 1] : 1e3))
            }
            previous[tag] = last
            return RawLog.input(tag: tag, values)
        }
    }

    /// New rows hold their text deflated, not in `inputs`; reads, gaps and reprocessing use it.
    @Test func newRowsAreDeflatedAndReadBack() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, inputs, _) = try record(Scenario.flat5k.ending(at: 600), into: logbook)
        let rows = try logbook.database.query(
            "SELECT inputs, packed, text_length FROM raw_log WHERE flight_id = ?", [.integer(id)])
        #expect(!rows.isEmpty)
        #expect(rows.allSatisfy { $0[0] == .text("") && $0[1] != .null && $0[2].int != nil })
        #expect(
            try logbook.rawInputs(flight: id) == Array(inputs.prefix(try logbook.rawInputs(flight: id).count))
        )
        let copy = try #require(try logbook.reprocess(flight: id))
        #expect(try logbook.rawInputs(flight: copy) == logbook.rawInputs(flight: id))
    }

    /// A journal holding `journalAbsorbAt` bytes of records is taken into SQLite in flight (so
    /// touchdown moves only the rest); the flight lands and reads as one recorded without that.
    @Test func aJournalHoldingEnoughIsTakenInInFlight() throws {
        let scenario = Scenario.flat5k.ending(at: 1500)
        let plain = try Logbook(path: temporaryLogbookPath())
        let (plainID, plainInputs, plainFlight) = try record(scenario, into: plain)
        let path = temporaryLogbookPath()
        do {
            let logbook = try Logbook(path: path)
            logbook.journalAbsorbAt = 8192
            let (id, inputs, _) = try record(scenario, into: logbook, stopAfter: 2000)
            let rows = try logbook.database.query(
                "SELECT COUNT(*) FROM raw_log WHERE flight_id = ?", [.integer(id)]
            ).first?.first?.int
            #expect(rows ?? 0 > 10, "nothing taken in before touchdown")
            #expect(try #require(logbook.journal).heldBytes < 8192)
            #expect(
                try logbook.rawInputs(flight: id)
                    == Array(inputs.prefix(try logbook.rawInputs(flight: id).count)))
        }
        let logbook = try Logbook(path: temporaryLogbookPath())
        logbook.journalAbsorbAt = 8192
        let (id, _, flight) = try record(scenario, into: logbook)
        #expect(try logbook.rawInputs(flight: id) == plain.rawInputs(flight: plainID))
        #expect(try logbook.rawInputs(flight: id).count <= plainInputs.count)
        #expect(flight == plainFlight)
        #expect(try logbook.flight(id: id)?.flight == plainFlight)
        #expect(try logbook.rawLogGaps(flight: id).isEmpty)
    }

    /// A damaged deflated row (a flipped byte, an impossible length) is that commit missing:
    /// the flight still replays, and no length is trusted enough to allocate it.
    @Test func aDamagedDeflatedRowCostsItsOwnCommit() throws {
        let path = temporaryLogbookPath()
        let id: Int64
        do {
            let logbook = try Logbook(path: path)
            id = try record(Scenario.flat5k.ending(at: 1500), into: logbook).id
        }
        let before = try Logbook(path: path, access: .readOnly).rawInputs(flight: id).count
        let poke = try Database(path: path)
        try poke.execute("UPDATE raw_log SET packed = zeroblob(40) WHERE seq = 5")
        try poke.execute("UPDATE raw_log SET text_length = 4611686018427387904 WHERE seq = 7")
        let reader = try Logbook(path: path, access: .readOnly)
        let after = try reader.rawInputs(flight: id).count
        #expect(after < before && after > before - 200)
        let flight = try #require(try reader.replay(flight: id))
        #expect(flight.distance > 1000)
        // The flight says what is missing: the two commits, as holes in its raw log.
        #expect(try reader.rawLogGaps(flight: id).map(\.records) == [1, 1])
    }

    /// A logbook of schema 10 (every raw-log row plain text, no deflated columns) opens, is
    /// migrated to schema 11 with its rows as they were, and its flight flies the same; salvage
    /// reads such a file's raw log too.
    @Test func aSchemaTenLogbookIsMigratedAndItsPlainRowsStillFly() throws {
        let path = temporaryLogbookPath()
        let (id, landed) = try recordAndClose(Scenario.flat5k.ending(at: 1500), at: path)
        try downgradeToSchemaTen(path)
        let old = try Database(path: path)
        #expect(try old.query("PRAGMA user_version").first?.first?.int == 10)
        #expect(
            try old.query("SELECT COUNT(*) FROM raw_log WHERE inputs LIKE 'F,%'").first?.first?.int ?? 0 > 0)
        let salvageTarget = try Logbook(path: temporaryLogbookPath())
        let salvaged = try salvageTarget.salvage(from: path).flights
        if case .flownAgain(_, let complete) = salvaged.first?.outcome {
            #expect(complete)
        } else {
            Issue.record("the raw log of a schema-10 file was not flown again: \(salvaged)")
        }

        let logbook = try Logbook(path: path)
        #expect(logbook.schemaVersion == Schema.version)
        let again = try #require(try logbook.replay(flight: id))
        #expect(abs(again.distance - landed.distance) < 1e-6)
        // A new flight beside the old ones is stored deflated.
        let (next, _, _) = try record(Scenario.flat5k.ending(at: 600), into: logbook)
        let packed = try logbook.database.query(
            "SELECT COUNT(*) FROM raw_log WHERE flight_id = ? AND packed IS NOT NULL", [.integer(next)])
        #expect(packed.first?.first?.int ?? 0 > 0)
    }

    /// Rewrites a logbook as schema 10 wrote it: plain text rows, no deflated columns, a row per
    /// route point.
    func downgradeToSchemaTen(_ path: String) throws {
        try storeRoutesAsRows(path, dropTable: true)  // schema 12's packed routes, as rows
        let database = try Database(path: path)
        let rows = try database.query("SELECT rowid, inputs, packed, text_length FROM raw_log")
        for row in rows {
            let text = try #require(
                RawLogRow.inputs(Row(values: Array(row[1...]), columns: RawLogRow.Column.text.map(\.name))))
            try database.query(
                "UPDATE raw_log SET inputs = ? WHERE rowid = ?",
                [.text(RawLog.encode(RawLog.decode(text))), row[0]])
        }
        try database.execute("ALTER TABLE raw_log DROP COLUMN packed")
        try database.execute("ALTER TABLE raw_log DROP COLUMN text_length")
        try database.execute("PRAGMA user_version = 10")
    }
}
