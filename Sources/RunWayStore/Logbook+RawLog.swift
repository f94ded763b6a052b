import Glibc
import RunWayCore

/// A hole in a flight's raw log: `records` commits that were damaged on the card.
public struct RawLogGap: Sendable, Equatable {
    /// Seconds from ROTATE: the last input before the hole, and the first after it.
    public var fromElapsed: Double
    public var toElapsed: Double
    public var records: Int

    public var seconds: Double { toElapsed - fromElapsed }
}

/// The raw sensor log: every engine input a flight was given, committed as it flies into the
/// raw-log journal and taken into `raw_log` later; what recovery and reprocessing fly again.
extension Logbook {
    /// Opens the raw-log journal, creating it the first time (a one-time write of its whole
    /// size, so recording never grows a file; the daemon does this before takeoff). Returns why
    /// it cannot be had, if so — the raw log then commits straight into SQLite.
    @discardableResult
    public func prepareJournal() -> StoreError? {
        guard access == .readWrite, journal == nil, journalFailure == nil, journalCapacity > 0 else {
            return journalFailure
        }
        do {
            journal = try FlightJournal(path: journalPath, capacity: journalCapacity)
        } catch {
            journalFailure = error
        }
        return journalFailure
    }

    /// The bytes of raw-log records the journal has written since this logbook opened it (whole
    /// sectors, headers included): what the raw log costs in flight, for the bench.
    public var journalRecordBytes: Int { journal?.recordBytesWritten ?? 0 }

    /// Whether raw-log commits bypass the page cache (nil: no journal).
    public var journalIsDirect: Bool? { journal?.direct }

    /// Moves every record the journal holds into `raw_log` (a record already there, or of a
    /// flight since deleted — or of an older flight whose id a newer one took: it ends before
    /// that flight began — is skipped), durably, then reuses the journal from its start —
    /// unless this runs inside a larger transaction, which may yet roll back: then the records
    /// stay in the journal too, and a later absorb takes them again (skipped as already there).
    ///
    /// What the journal was found to have lost (damaged records, a cut, an unreadable header)
    /// joins `journalDamage`, to be said; a journal that must start over (cut short, or without
    /// a readable header) starts over even with no record to take in.
    ///
    /// The records go into `raw_log` as they are read, one at a time (a full journal's records
    /// read whole first were the daemon's growth: issue 29, `FlightJournal.scan`).
    func absorbJournal() throws(StoreError) {
        guard let journal else { return }
        let found = try database.transaction { () throws(StoreError) in
            try journal.scan { (record) throws(StoreError) in
                try database.query(
                    RawLogRow.absorbSQL,
                    RawLogRow(record: record).values + [.integer(record.flight), .real(record.until)])
            }
        }
        journalDamage += journal.damage.filter { !journalDamage.contains($0) }
        guard found.count > 0 || journal.needsRestart else { return }
        if !database.inTransaction { try journal.restart() }
    }

    /// The most bytes of the raw-log journal its last reading held at once (issue 29's bound).
    public var journalReadingPeak: Int { journal?.mostHeldReading ?? 0 }

    /// Commits one batch of raw inputs durably: one record in the raw-log journal (absorbed into
    /// SQLite first when the journal is full), or one `raw_log` row where there is no journal.
    public func append(flight id: Int64, inputs: [EngineInput], until: Double) throws(StoreError) {
        try requireWritable()
        guard !inputs.isEmpty else { return }
        let seq: Int64
        if let next = nextSeq[id] { seq = next } else { seq = try nextRawLogSeq(flight: id) }
        let record = FlightJournal.Record(flight: id, seq: seq, until: until, inputs: RawLog.compact(inputs))
        prepareJournal()
        for attempt in 0..<2 {
            guard let journal else { break }
            // Full: its records move into SQLite, and it starts over.
            if attempt == 1 { try absorbJournal() }
            do {
                if try journal.append(record) {
                    nextSeq[id] = seq + 1
                    // Held enough: into SQLite now, so touchdown moves only the rest. The record
                    // is durable in the journal already; a take-in that fails leaves it there
                    // (the take-in is one transaction, the journal starts over only after it).
                    if journal.heldBytes >= journalAbsorbAt, !database.inTransaction { try? absorbJournal() }
                    return
                }
            } catch {
                guard !error.isDiskFull else { throw error }
                // The journal's device failed: what it holds goes into SQLite if it still
                // reads (else it waits in the file for the next open), and the raw log
                // commits straight into SQLite from now on.
                try? absorbJournal()
                self.journal = nil
                journalFailure = error
            }
        }
        try insertRawLog(flight: id, seq: seq, until: until, inputs: record.inputs)
        nextSeq[id] = seq + 1
    }

    func insertRawLog(flight id: Int64, seq: Int64, until: Double, inputs: String) throws(StoreError) {
        let record = FlightJournal.Record(flight: id, seq: seq, until: until, inputs: inputs)
        try database.query(RawLogRow.statements.insert, RawLogRow(record: record).values)
    }

    private func nextRawLogSeq(flight id: Int64) throws(StoreError) -> Int64 {
        let rows = try database.query(RawLogRow.nextSeqSQL, [.integer(id)])
        return Int64(rows.first?["next"].int ?? 1)
    }

    /// The flight time up to which a flight's raw log is committed (its start when nothing is).
    public func recordedUntil(flight id: Int64) throws(StoreError) -> Double? {
        if access == .readWrite { try absorbJournal() }
        return try database.query(RawLogRow.recordedUntilSQL, [.integer(id)]).first?.first?.double
    }

    /// Where a flight's raw log has holes: records that were damaged on the card (their sequence
    /// numbers are missing, or their row's deflated text does not inflate), in seconds of flight
    /// time from ROTATE. A replay flies across a hole as across a signal loss; the flight says
    /// what was missing. Read a page of commits at a time (a 24 h 10 Hz raw log is ~15 MB);
    /// only the commit after a hole is decoded.
    public func rawLogGaps(flight id: Int64) throws(StoreError) -> [RawLogGap] {
        if access == .readWrite { try absorbJournal() }
        guard
            let start = try database.query(FlightRow.startSQL, [.integer(id)]).first?.first?.double
        else { return [] }
        var gaps: [RawLogGap] = []
        var previous: (seq: Int64, until: Double) = (0, start)
        let page = 64
        var after = Int64.min
        while true {
            let rows = try database.query(
                RawLogRow.inputsPageSQL, [.integer(id), .integer(after), .integer(Int64(page))])
            var advanced = false
            for row in rows {
                guard let (seq, until) = RawLogRow.time(row) else { continue }
                (after, advanced) = (seq, true)
                // A row whose text does not read is as missing as one the card lost.
                guard let text = RawLogRow.inputs(row) else { continue }
                if seq > previous.seq + 1 {
                    let resumed = RawLog.decode(text).first?.time ?? until
                    gaps.append(
                        RawLogGap(
                            fromElapsed: previous.until - start,
                            toElapsed: max(previous.until, resumed) - start,
                            records: Int(seq - previous.seq - 1)))
                }
                previous = (seq, until)
            }
            if rows.count < page || !advanced { break }
        }
        return gaps
    }

    /// The raw inputs recorded for a flight, in order.
    public func rawInputs(flight id: Int64) throws(StoreError) -> [EngineInput] {
        if access == .readWrite { try absorbJournal() }
        return try database.query(RawLogRow.inputsSQL, [.integer(id)])
            .flatMap { RawLog.decode(RawLogRow.inputs($0) ?? "") }
    }
}
