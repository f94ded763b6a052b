import RunWayCore

/// A flight's raw sensor log read from the logbook a page of commits at a time, so a pass over a
/// long flight holds one page, not the flight: the touchdown smoother passes over the raw log
/// three times (`FlightSmoothing`), and 24 h at 10 Hz is ~1.6 million inputs (~180 MB as values,
/// on a board with 512 MB). Each pass (`makeIterator`) reads the log from its start again.
///
/// A sequence cannot throw, so a read that fails ends the pass early and is kept in `failure`:
/// whoever iterates checks it afterwards (a flight smoothed over part of its log is not saved).
public struct RawLogInputs: Sequence {
    /// The first read error of any pass.
    public final class Failure {
        public internal(set) var error: StoreError?
    }

    let logbook: Logbook
    let flight: Int64
    /// Commits per read: a commit is ~4 s of inputs, so 64 are ~4 minutes.
    let pageSize: Int
    public let failure = Failure()

    public struct Iterator: IteratorProtocol {
        let source: RawLogInputs
        var page: [EngineInput] = []
        var index = 0
        var lastSeq = Int64.min
        var exhausted = false

        public mutating func next() -> EngineInput? {
            while index >= page.count {
                guard !exhausted else { return nil }
                read()
            }
            defer { index += 1 }
            return page[index]
        }

        private mutating func read() {
            page.removeAll(keepingCapacity: true)
            index = 0
            do {
                let rows = try source.logbook.database.query(
                    RawLogRow.inputsPageSQL,
                    [.integer(source.flight), .integer(lastSeq), .integer(Int64(source.pageSize))])
                var advanced = false
                for row in rows {
                    if let seq = row[RawLogRow.Column.seq.name].int.map(Int64.init) {
                        lastSeq = seq
                        advanced = true
                    }
                    page += RawLog.decode(RawLogRow.inputs(row) ?? "")
                }
                // A page with no sequence number that reads cannot be paged past: the log ends.
                exhausted = rows.count < source.pageSize || !advanced
            } catch {
                if source.failure.error == nil { source.failure.error = error }
                exhausted = true
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(source: self) }
}

extension Logbook {
    /// A flight's raw inputs in order, read as they are iterated (`RawLogInputs`); the journal is
    /// absorbed first, as `rawInputs` does.
    public func rawInputSequence(flight id: Int64, pageSize: Int = 64) throws(StoreError) -> RawLogInputs {
        if access == .readWrite { try absorbJournal() }
        return RawLogInputs(logbook: self, flight: id, pageSize: max(pageSize, 1))
    }
}
