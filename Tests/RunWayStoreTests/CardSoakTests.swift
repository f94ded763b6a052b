import Foundation
import RunWayCore
import RunWaySimulator
import RunWayTestSupport
import Testing

@testable import RunWayStore

/// The card's other faults, many times over (`RUNWAY_CARD_SOAK_ITERATIONS`, 12 in `make test`,
/// 300 in `make soak`): a flight cut at a random moment with one random sector of its journal
/// damaged, and a flight whose card fills at a random moment. The logbook must pass
/// `integrity_check`, and what is lost is measured: for a damaged sector, the record it held
/// (about 4 s) plus the cut's tail; for a full card with the journal in place, nothing.
@Suite("Card soak: damaged journal sectors and full cards", .serialized)
struct CardSoakTests {
    static var iterations: Int {
        Int(ProcessInfo.processInfo.environment["RUNWAY_CARD_SOAK_ITERATIONS"] ?? "") ?? 12
    }

    @Test func aDamagedSectorCostsItsRecordOnly() async throws {
        var generator = SystemRandomNumberGenerator()
        var (corruptions, worstGap, totalGap, worstTail) = (0, 0.0, 0.0, 0.0)
        let scenario = Scenario.walker.ending(at: 900)
        for _ in 0..<Self.iterations {
            let path = temporaryLogbookPath()
            defer {
                for suffix in ["", "-journal", "-rawlog"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            let cutAfter = Int.random(in: 600...2_400, using: &generator)
            let cut = try await offPool {
                try record(scenario, into: try Logbook(path: path), stopAfter: cutAfter)
            }
            let reached = try #require(cut.inputs.last?.time)
            let journal = Logbook.journalPath(forLogbook: path)
            let used = try FlightJournal(reading: journal).records().count
            // Any sector the journal has written: its header block's or a record's.
            let sectors = FlightJournal.headerBlock / 512 + max(1, used)
            let sector = UInt64.random(in: 0..<UInt64(sectors), using: &generator)
            let handle = try #require(FileHandle(forUpdatingAtPath: journal))
            try handle.seek(toOffset: sector * 512 + UInt64.random(in: 0..<512, using: &generator))
            handle.write(Data([UInt8.random(in: 0...255, using: &generator) | 1]))
            try handle.close()
            let logbook = try Logbook(path: path)
            _ = try logbook.recoverInterruptedFlights()
            if try logbook.database.query("PRAGMA integrity_check").first?.first?.string != "ok" {
                corruptions += 1
            }
            guard let flight = try logbook.flight(id: cut.id) else { continue }
            let gap = flight.rawLogGaps.reduce(0) { $0 + $1.seconds }
            let tail = reached - flight.flight.endTime
            worstGap = max(worstGap, gap)
            totalGap += gap
            worstTail = max(worstTail, tail)
            #expect(gap <= 9, "a damaged sector cost \(gap) s")
            #expect(tail <= 9, "the cut lost \(tail) s")
        }
        #expect(corruptions == 0)
        print(
            "damaged-journal soak: \(Self.iterations) runs, \(corruptions) corruptions, seconds lost to the damaged "
                + "record: worst \(String(format: "%.1f", worstGap)), mean \(String(format: "%.1f", totalGap / Double(Self.iterations))); "
                + "worst tail at the cut \(String(format: "%.1f", worstTail)) s")
    }

    /// Flies `events` into a new logbook at `path`, its card filling after `fillAt` inputs;
    /// returns the landed flight, its id and whether the journal was in place before takeoff.
    static func fly(_ events: [SimulatedEvent], into path: String, fillingAt fillAt: Int) throws
        -> (Flight?, Int64?, Bool)
    {
        let logbook = try Logbook(path: path)
        let journalReady = logbook.prepareJournal() == nil
        let recorder = FlightRecorder(logbook: logbook)
        var computer = FlightComputer()
        var (landed, id, count): (Flight?, Int64?, Int) = (nil, nil, 0)
        for event in events {
            switch event {
            case .input(let input):
                _ = recorder.take(.flew(input, computer.handle(input)), after: computer)
                count += 1
                if count == fillAt {  // the card fills: SQLite can grow no more
                    let pages = try logbook.database.query("PRAGMA page_count").first?.first?.int ?? 0
                    try logbook.database.execute("PRAGMA max_page_count = \(pages)")
                }
            case .end(let sentAt):
                landed = computer.end(sentAt: sentAt).result.flight
                id = recorder.flightID
                if let landed { _ = try? recorder.land(landed, configuration: computer.configuration) }
            }
        }
        return (landed, id, journalReady)
    }

    @Test func aFullCardWithTheJournalInPlaceLosesNothing() async throws {
        var generator = SystemRandomNumberGenerator()
        var (corruptions, worstLoss) = (0, 0.0)
        let scenario = Scenario.walker.ending(at: 900)
        let events = ScenarioRunner.events(for: scenario).events
        for _ in 0..<Self.iterations {
            let path = temporaryLogbookPath()
            defer {
                for suffix in ["", "-journal", "-rawlog"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            let fillAt = Int.random(in: 100...2_500, using: &generator)
            let (landed, id, journalReady) = try await offPool {
                try Self.fly(events, into: path, fillingAt: fillAt)
            }
            #expect(journalReady)  // preallocated before takeoff
            let logbook = try Logbook(path: path)  // room again
            _ = try logbook.recoverInterruptedFlights()
            if try logbook.database.query("PRAGMA integrity_check").first?.first?.string != "ok" {
                corruptions += 1
            }
            let flightID = try #require(id)
            let flight = try #require(try logbook.flight(id: flightID))
            let loss = try #require(landed).endTime - flight.flight.endTime
            worstLoss = max(worstLoss, loss)
            #expect(abs(flight.flight.distance - (landed?.distance ?? 0)) < 0.5)
        }
        #expect(corruptions == 0)
        #expect(worstLoss <= 0.001)
        print(
            "full-card soak: \(Self.iterations) runs, \(corruptions) corruptions, worst loss "
                + "\(String(format: "%.1f", worstLoss)) s of flown time")
    }
}
