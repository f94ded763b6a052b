import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

@Suite("Salvage: a damaged logbook gives up every flight that can still be read")
struct SalvageTests {
    let scenario = Scenario.flat5k.ending(at: 1500)

    /// A logbook with `count` landed flights; returns its path and the flights as they landed.
    func logbook(flights count: Int) throws -> (path: String, flights: [Flight]) {
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        var flights: [Flight] = []
        for _ in 0..<count { flights.append(try #require(try record(scenario, into: logbook).flight)) }
        return (path, flights)
    }

    /// Zeroes every leaf page of `table`: sectors the card lost.
    func damage(_ table: String, in path: String) throws {
        let pages = try Database(path: path).query(
            "SELECT pageno FROM dbstat WHERE name = ? AND pagetype = 'leaf'", [.text(table)]
        ).compactMap { $0.first?.int }
        try #require(!pages.isEmpty)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        for page in pages { bytes.replaceSubrange((page - 1) * 4096..<page * 4096, with: Data(count: 4096)) }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    func salvage(_ path: String) throws -> (logbook: Logbook, flights: [SalvagedFlight], untouched: Bool) {
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try Logbook(path: path)
        } throws: { error in
            "\(error)".contains("runway salvage \(path) --to NEW")
                && (error as? StoreError)?.isCorrupt == true
        }
        let target = temporaryLogbookPath()
        let logbook = try Logbook(path: target)
        let (flights, _) = try logbook.salvage(from: path)
        #expect(try logbook.database.query("PRAGMA integrity_check").first?.first?.string == "ok")
        return (logbook, flights, try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func anUnreadableRawLogStillGivesEverySummarySplitsAndRoute() throws {
        let (path, landed) = try logbook(flights: 3)
        try damage("raw_log", in: path)
        let (logbook, flights, untouched) = try salvage(path)
        #expect(untouched)
        #expect(flights.map(\.outcome) == Array(repeating: .derivedOnly, count: 3))
        for (salvaged, flight) in zip(flights, landed) {
            let newID = try #require(salvaged.newID)
            let copy = try #require(try logbook.flight(id: newID))
            #expect(copy.flight == flight)
            #expect(copy.status == .finished)
            #expect(copy.source.contains("salvaged from #\(salvaged.originalID)"))
        }
    }

    @Test func unreadableSamplesAreFlownAgainFromTheRawLog() throws {
        let (path, landed) = try logbook(flights: 3)
        try damage("samples", in: path)
        let (logbook, flights, untouched) = try salvage(path)
        #expect(untouched)
        #expect(flights.allSatisfy { if case .flownAgain(_, true) = $0.outcome { true } else { false } })
        for (salvaged, flight) in zip(flights, landed) {
            let newID = try #require(salvaged.newID)
            let copy = try #require(try logbook.flight(id: newID))
            #expect(copy.flight == flight)  // the same engine flies the same raw log to the same flight
            #expect(copy.status == .finished)
            // The copy keeps its raw log, so it can be reprocessed like any flight.
            #expect(try logbook.replay(flight: copy.id) == flight)
        }
    }

    @Test func aFlightCutByPowerLossIsTakenFromTheJournalOfTheDamagedLogbook() throws {
        let path = temporaryLogbookPath()
        let first: Flight
        let cut: [EngineInput]
        do {
            let logbook = try Logbook(path: path)
            first = try #require(try record(scenario, into: logbook).flight)
            cut = try record(scenario, into: logbook, stopAfter: 800).inputs  // the power goes
        }
        try damage("samples", in: path)
        let (logbook, flights, untouched) = try salvage(path)
        #expect(untouched)
        #expect(flights.count == 2)
        let firstID = try #require(flights.first?.newID)
        #expect(try logbook.flight(id: firstID)?.flight == first)
        let second = try #require(flights.last)
        guard case .flownAgain(let batches, true) = second.outcome else {
            Issue.record("the cut flight was not flown again: \(second.outcome)")
            return
        }
        #expect(batches > 0)
        let secondID = try #require(second.newID)
        let copy = try #require(try logbook.flight(id: secondID))
        #expect(copy.status == .recovered)
        let recorded = try logbook.rawInputs(flight: copy.id)
        #expect(recorded == Array(cut.prefix(recorded.count)))
        #expect(cut.count - recorded.count < 200)  // < 4 s of inputs lost at ~40 inputs/s
    }

    @Test func aTruncatedLogbookGivesTheFlightsBeforeTheCut() throws {
        let (path, landed) = try logbook(flights: 3)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // Two thirds: past the first flight's pages, into the second's (with the route a row per
        // point, half the file was past the first flight; packed routes, schema 12, made it smaller).
        try bytes.prefix(bytes.count * 2 / 3 / 4096 * 4096).write(to: URL(fileURLWithPath: path))
        let (logbook, flights, untouched) = try salvage(path)
        #expect(untouched)
        #expect(flights.count == 3)
        let firstCopy = try #require(flights.first?.newID)
        #expect(try logbook.flight(id: firstCopy)?.flight == landed[0])
        #expect(flights.contains { $0.newID == nil || $0.outcome != .flownAgain(batches: 0, complete: true) })
    }

    /// Issue 27: 10.4 km in 2 runs became 15.5 km in 3 — the reprocessed copy and its original
    /// both counted in the salvaged logbook. The copy stands for its original there too.
    @Test func aReprocessedFlightStillStandsForItsOriginal() throws {
        let (path, landed) = try logbook(flights: 2)
        let reprocessed = try #require(try Logbook(path: path).reprocess(flight: 1))
        do {
            let before = try Logbook(path: path, access: .readOnly).entries()
            #expect(before.count == 2 && before.contains { $0.id == reprocessed && $0.replaces == 1 })
        }
        try damage("samples", in: path)
        let (logbook, flights, _) = try salvage(path)
        #expect(flights.count == 3 && flights.allSatisfy { $0.newID != nil })
        let entries = try logbook.entries()
        #expect(entries.count == 2, "\(entries.map { ($0.id, $0.distance, $0.replaces) })")
        let total = entries.reduce(0) { $0 + $1.distance }
        #expect(abs(total - landed.reduce(0) { $0 + $1.distance }) < 1, "\(total) m")
        // The copy of the reprocessed flight replaces the copy of its original, which stays
        // reachable by its id (`--all`).
        let original = try #require(flights.first { $0.originalID == 1 }?.newID)
        let copy = try #require(flights.first { $0.originalID == reprocessed }?.newID)
        #expect(entries.contains { $0.id == copy && $0.replaces == original })
        #expect(
            try logbook.entries(includingSuperseded: true).contains {
                $0.id == original && $0.supersededBy == copy
            })
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let month = calendar.dateComponents(
            [.year, .month], from: Date(timeIntervalSince1970: try #require(entries.first).startTime))
        let days = try logbook.calendar(year: try #require(month.year), month: try #require(month.month))
        #expect(days.reduce(0) { $0 + $1.runCount } == 2, "\(days)")
        #expect(abs(days.reduce(0) { $0 + $1.distance } - total) < 1, "\(days)")
    }

    @Test func aFileThatIsNotALogbookIsRefused() throws {
        let path = temporaryLogbookPath()
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        let logbook = try Logbook(path: temporaryLogbookPath())
        #expect(throws: StoreError.self) { _ = try logbook.salvage(from: path) }
    }
}
