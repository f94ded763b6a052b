import Glibc
import RunWayCore

/// What a salvage could take from one flight of a damaged logbook.
public struct SalvagedFlight: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        /// Flown again from its raw sensor log: `batches` commits read, all of them or only up
        /// to the damage.
        case flownAgain(batches: Int, complete: Bool)
        /// The raw log could not be read; the stored summary, splits, alerts, samples and route
        /// were (the flight cannot be reprocessed).
        case derivedOnly
        case unreadable(String)
    }

    public var originalID: Int64
    /// Its number in the new logbook.
    public var newID: Int64?
    public var startTime: Double?
    public var distance: Double?
    public var outcome: Outcome
}

extension Logbook {
    /// Copies every flight that can still be read from the damaged logbook at `path` into this
    /// logbook, and says what became of each. The damaged file is opened read-only and
    /// immutable (SQLite neither writes it nor rolls back its journals), its raw-log journal is
    /// only read, so it stays byte for byte as it was.
    ///
    /// A flight whose raw sensor log reads is flown again (up to the first unreadable batch, so
    /// a partly damaged log gives a `recovered` flight); otherwise its stored derived data is
    /// copied as it was. Throws only when nothing of the file can be read.
    /// `progress` is told the share of flights done.
    public func salvage(
        from path: String, configuration: EngineConfiguration = EngineConfiguration(),
        progress: ((Double) -> Void)? = nil
    ) throws(StoreError) -> (flights: [SalvagedFlight], note: String?) {
        var uri = "file:"
        for character in path.unicodeScalars {
            switch character {
            case "%": uri += "%25"
            case "?": uri += "%3F"
            case "#": uri += "%23"
            default: uri.unicodeScalars.append(character)
            }
        }
        let damaged = Logbook(reading: try Database(path: uri + "?mode=ro&immutable=1", readOnly: true))
        // A truncated file is shorter than its header says; SQLite reads it only with this set
        // (the connection is read-only: nothing is written).
        try damaged.database.execute("PRAGMA writable_schema = ON")
        let (rows, failure) = damaged.database.readableRows(FlightRow.salvageSQL)
        if rows.isEmpty, let failure { throw failure }
        let note = failure.map {
            "the list of flights is damaged after flight \(rows.last.flatMap(FlightRow.id) ?? 0): \(Self.reason($0))"
        }
        let journal = journalRecords(besideLogbook: path)
        var result: [SalvagedFlight] = []
        // Old id → new, so a reprocessed flight replaces its original's copy (ids ascend: the
        // original comes first) and stands for it in the totals, as it did in the damaged logbook.
        var newIDs: [Int64: Int64] = [:]
        for (n, row) in rows.enumerated() {
            progress?(Double(n) / Double(rows.count))
            guard let id = FlightRow.id(row) else { continue }
            let original = FlightRow.replaces(LogbookRow(row, path: path, flight: id))
            let salvaged = salvageFlight(
                id, row: row, replacing: original.flatMap { newIDs[$0] }, from: damaged, journal: journal,
                configuration: configuration)
            if let newID = salvaged.newID { newIDs[id] = newID }
            result.append(salvaged)
        }
        return (result, note)
    }

    /// One flight of the damaged logbook: flown again from its raw log if that reads, else its
    /// stored derived data copied; what became of it. `replacing`: the new id of the flight
    /// this one was reprocessed from, when that was salvaged.
    private func salvageFlight(
        _ id: Int64, row: Row, replacing original: Int64?, from damaged: Logbook,
        journal: [FlightJournal.Record], configuration: EngineConfiguration
    ) -> SalvagedFlight {
        let r = LogbookRow(row, path: damaged.path, flight: id, kind: FlightRow.kind, log: damaged.damageLog)
        let batches = damaged.readableBatches(flight: id, journal: journal)
        // A start time that cannot be right is taken from the raw log's first input.
        let start =
            r.optional(FlightRow.Column.startTime, in: LogbookRow.time)
            ?? batches.rows.first.flatMap { RawLog.decode($0.inputs).first?.time }
        var salvaged = SalvagedFlight(
            originalID: id, newID: nil, startTime: start, distance: nil, outcome: .derivedOnly)
        guard let start else {
            salvaged.outcome = .unreadable("its start time does not read, and it has no raw sensor log")
            return salvaged
        }
        let mission = Self.mission(r)
        let workout = Self.workout(r)
        let run = r[FlightRow.Column.runName].string
        let source = "\(FlightRow.source(r) ?? "live"), salvaged from #\(id)"
        let status = FlightRow.readableStatus(r) ?? .flying
        do {
            let inputs = batches.rows.flatMap { RawLog.decode($0.inputs) }
            var computer = Self.flown(
                start: start, mission: mission, workout: workout, run: run, inputs: inputs,
                configuration: configuration
            )
            if !batches.rows.isEmpty, let flight = Self.landed(&computer, inputs: inputs) {
                salvaged.newID = try database.transaction { () throws(StoreError) -> Int64 in
                    let copy = try begin(
                        startTime: start, mission: mission, workout: workout, run: run, source: source)
                    try markReplacing(original, by: copy)
                    for var batch in batches.rows {
                        batch.flight = copy
                        try database.query(RawLogRow.statements.insert, RawLogRow(record: batch).values)
                    }
                    let kept: LogbookStatus =
                        flight.status == .tooShort
                        ? .tooShort : (batches.complete && status == .finished ? .finished : .recovered)
                    try finish(flight: copy, with: flight, status: kept)
                    return copy
                }
                salvaged.distance = flight.distance
                salvaged.outcome = .flownAgain(batches: batches.rows.count, complete: batches.complete)
            } else if let logged = try damaged.flight(id: id, readingRawLog: false), status != .flying {
                salvaged.newID = try database.transaction { () throws(StoreError) -> Int64 in
                    let copy = try begin(
                        startTime: start, mission: mission, workout: workout, run: run, source: source)
                    try markReplacing(original, by: copy)
                    try finish(flight: copy, with: logged.flight, status: status)
                    return copy
                }
                salvaged.distance = logged.flight.distance
            } else {
                salvaged.outcome = .unreadable("no raw sensor log and no summary")
            }
        } catch {
            salvaged.newID = nil
            salvaged.outcome = .unreadable(Self.reason(error))
        }
        return salvaged
    }

    /// Records that `copy` was reprocessed from `original` (nothing when that is nil).
    private func markReplacing(_ original: Int64?, by copy: Int64) throws(StoreError) {
        guard let original else { return }
        try database.query(
            "UPDATE flights SET replaces = ? WHERE id = ?", [.integer(original), .integer(copy)])
    }

    /// Why a part of a damaged file could not be read, in a few words.
    static func reason(_ error: StoreError) -> String {
        if case .sqlite(let code, _, let operation, _) = error { return "\(code.cause) (\(operation))" }
        return "\(error)"
    }

    /// The raw-log batches of a flight that read, in order, up to the first gap or damage;
    /// then the journal's records that continue them.
    private func readableBatches(flight id: Int64, journal: [FlightJournal.Record]) -> (
        rows: [FlightJournal.Record], complete: Bool
    ) {
        var (rows, failure) = database.readableRows(RawLogRow.statements.select, [.integer(id)])
        if rows.isEmpty, failure != nil {
            // A logbook written before schema 11 has no deflated column.
            let plain = database.readableRows(RawLogRow.plainSelectSQL, [.integer(id)])
            if !plain.rows.isEmpty || plain.failure == nil { (rows, failure) = plain }
        }
        var batches: [FlightJournal.Record] = []
        for row in rows {
            guard let batch = RawLogRow.decode(row, flight: id),
                batch.seq == (batches.last?.seq ?? batch.seq - 1) + 1
            else { break }
            batches.append(batch)
        }
        let complete = failure == nil && batches.count == rows.count
        guard complete else { return (batches, false) }
        for record in journal where record.flight == id && record.seq == (batches.last?.seq ?? 0) + 1 {
            batches.append(record)
        }
        return (batches, true)
    }

    /// The records of the damaged logbook's raw-log journal, read without creating one.
    private func journalRecords(besideLogbook path: String) -> [FlightJournal.Record] {
        let journalPath = Self.journalPath(forLogbook: path)
        guard Glibc.access(journalPath, R_OK) == 0,
            let journal = try? FlightJournal(reading: journalPath)
        else { return [] }
        return (try? journal.records()) ?? []
    }
}
