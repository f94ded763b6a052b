import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// A value a flipped bit leaves (SQLite's own check passes it) costs its own row: the flight is
/// flown again from its raw sensor log, or read with that value or row missing — and said. It
/// never blocks the other flights.
@Suite("A bad stored value costs its own row, never the logbook")
struct RowDamageTests {
    let scenario = Scenario.flat5k.ending(at: 1500)

    func logbook(flights count: Int, scenario: Scenario? = nil) throws -> (path: String, flights: [Flight]) {
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        var flights: [Flight] = []
        for _ in 0..<count {
            flights.append(try #require(try record(scenario ?? self.scenario, into: logbook).flight))
        }
        return (path, flights)
    }

    /// Writes what a flipped bit would, behind the logbook's back.
    func poke(_ path: String, _ sql: String) throws { try Database(path: path).execute(sql) }

    @Test func anImpossibleSummaryValueIsFlownAgainFromTheRawLogAndTheOthersStillList() throws {
        let (path, landed) = try logbook(flights: 3)
        try poke(path, "UPDATE flights SET distance_m = 1e300 WHERE id = 2")
        let logbook = try Logbook(path: path, access: .readOnly)
        let entries = try logbook.entries()
        #expect(entries.map(\.id) == [3, 2, 1])
        let second = try #require(entries.first { $0.id == 2 })
        #expect(abs(second.distance - landed[1].distance) < 1, "\(second)")
        #expect(second.damage.contains { $0.cost == .flownAgain && $0.column == "distance_m" })
        #expect(logbook.damage.contains { $0.flight == 2 && $0.cost == .flownAgain })
        #expect(logbook.damage.allSatisfy { $0.flight == 2 })
        let shown = try #require(try logbook.flight(id: 2))
        #expect(abs(shown.flight.distance - landed[1].distance) < 1)
        #expect(shown.flight.splits.count == landed[1].splits.count)
        #expect(shown.damage.contains { $0.cost == .flownAgain })
        #expect("\(shown.damage[0])".contains("flown again from its raw sensor log"))
        // Reading wrote nothing: the stored value is still the bad one until a writing command.
        #expect(
            try Database(path: path).query("SELECT distance_m FROM flights WHERE id = 2")[0][0]
                == .real(1e300))
    }

    @Test func anImpossibleStartTimeIsTakenFromTheRawLog() throws {
        let (path, landed) = try logbook(flights: 2)
        try poke(path, "UPDATE flights SET start_time = -1e300 WHERE id = 1")
        let logbook = try Logbook(path: path, access: .readOnly)
        let entries = try logbook.entries()
        #expect(entries.count == 2)
        let first = try #require(entries.first { $0.id == 1 })
        #expect(abs(first.startTime - landed[0].startTime) <= 1, "\(first)")
        #expect(abs(first.distance - landed[0].distance) < 5)
        let shown = try #require(try logbook.flight(id: 1))
        #expect(abs(shown.flight.startTime - landed[0].startTime) <= 1)
    }

    @Test func anImpossibleSampleOrRoutePointCostsThatRowAndIsSaid() throws {
        let (path, landed) = try logbook(flights: 2)
        // As a flight stored before schema 12 holds its route: a row per point (CompactRouteTests
        // spoils a packed route).
        try storeRoutesAsRows(path)
        try poke(
            path,
            "UPDATE samples SET distance_m = -1 WHERE rowid = (SELECT rowid FROM samples WHERE flight_id = 1 "
                + "ORDER BY elapsed_s LIMIT 1 OFFSET 10)")
        try poke(
            path,
            "UPDATE samples SET heart_rate = 9999 WHERE rowid = (SELECT rowid FROM samples WHERE flight_id = 1 "
                + "ORDER BY elapsed_s LIMIT 1 OFFSET 20)")
        try poke(
            path,
            "UPDATE route_points SET lat = 1e300 WHERE flight_id = 1 AND simplified = 0 AND seq = 7")
        try poke(path, "UPDATE splits SET moving_s = -3 WHERE flight_id = 1 AND ord = 2")
        let logbook = try Logbook(path: path, access: .readOnly)
        let logged = try #require(try logbook.flight(id: 1))
        #expect(logged.flight.samples.count == landed[0].samples.count - 1)
        #expect(logged.flight.route.points.count == landed[0].route.points.count - 1)
        #expect(logged.flight.splits.count == landed[0].splits.count - 1)
        #expect(logged.flight.distance == landed[0].distance)
        let costs = Set(logged.damage.map { "\($0.column) \($0.cost)" })
        #expect(costs.contains("distance_m rowLeftOut"), "\(logged.damage)")
        #expect(costs.contains("lat rowLeftOut"))
        #expect(costs.contains("moving_s rowLeftOut"))
        #expect(costs.contains("heart_rate valueMissing"))
        #expect(logged.damage.allSatisfy { $0.flight == 1 && $0.rows == 1 })
        // The other flight reads whole, and says nothing.
        let other = try #require(try logbook.flight(id: 2))
        #expect(other.flight == landed[1] && other.damage.isEmpty)
    }

    @Test func aFlightWithNothingToFlyAgainIsLeftOutAndSaidAndTheRestList() throws {
        let (path, _) = try logbook(flights: 3)
        try poke(path, "DELETE FROM raw_log WHERE flight_id = 2")
        try poke(path, "UPDATE flights SET elapsed_s = 'x' WHERE id = 2")
        let logbook = try Logbook(path: path, access: .readOnly)
        #expect(try logbook.entries().map(\.id) == [3, 1])
        #expect(logbook.damage.contains { $0.flight == 2 && $0.cost == .flightLeftOut })
        #expect(throws: StoreError.self) { _ = try logbook.flight(id: 2) }
        #expect(try logbook.flight(id: 3) != nil)
    }

    /// A stored target pace of 1e18 s/km (no parser would take it) reads as no mission, said.
    @Test func anImpossibleStoredMissionIsRangeCheckedOnRead() throws {
        let (path, _) = try logbook(flights: 1, scenario: Scenario.demoMission.ending(at: 900))
        #expect(try Logbook(path: path, access: .readOnly).flight(id: 1)?.flight.mission != nil)
        try poke(path, "UPDATE flights SET target_pace = 1e18")
        let logbook = try Logbook(path: path, access: .readOnly)
        let logged = try #require(try logbook.flight(id: 1))
        try #require(logged.flight.mission == nil)
        #expect(logged.damage.contains { $0.column == "target_pace" && $0.cost == .valueMissing })
        #expect(try logbook.replay(flight: 1)?.mission == nil)
        try poke(path, "UPDATE flights SET target_pace = 330, allowed_deviation = -1e300")
        #expect(try Logbook(path: path, access: .readOnly).flight(id: 1)?.flight.mission == nil)
    }

    @Test func salvageFliesAFlightWithAnImpossibleStartTimeFromItsIntactRawLog() throws {
        let (path, landed) = try logbook(flights: 3)
        try poke(path, "UPDATE flights SET start_time = 1e300 WHERE id = 2")
        let target = try Logbook(path: temporaryLogbookPath())
        let (flights, _) = try target.salvage(from: path)
        #expect(flights.count == 3)
        let second = try #require(flights.first { $0.originalID == 2 })
        guard case .flownAgain = second.outcome else {
            Issue.record("flight 2 was \(second.outcome)")
            return
        }
        #expect(abs((second.distance ?? 0) - landed[1].distance) < 5)
        #expect(try target.entries().count == 3)
    }

    /// What the note promises: `reprocess --replace` stores the summary flown again, start and
    /// mission included, and the flight then reads without damage.
    @Test func reprocessReplaceStoresTheFlownAgainSummaryWhole() throws {
        let (path, landed) = try logbook(flights: 2)
        try poke(path, "UPDATE flights SET start_time = -1e300, target_pace = 1e18 WHERE id = 1")
        let writer = try Logbook(path: path)
        #expect(try writer.reprocess(flight: 1, replace: true) == 1)
        let reader = try Logbook(path: path, access: .readOnly)
        let entry = try #require(try reader.entries().first { $0.id == 1 })
        #expect(entry.damage.isEmpty && reader.damage.isEmpty, "\(reader.damage)")
        #expect(abs(entry.startTime - landed[0].startTime) <= 1)
        #expect(try reader.flight(id: 1)?.flight.mission == nil)
    }

    /// A flipped bit in a raw-log line (a fix's mode of 1e300) is that input missing, never a trap:
    /// in a plain row (schema 10 and before) and in a compact one (deflated, schema 11).
    @Test(arguments: [false, true])
    func anImpossibleRawLogValueIsThatInputMissing(compact: Bool) throws {
        let (path, landed) = try logbook(flights: 1)
        func noFixes(_ inputs: [EngineInput]) -> Int {
            inputs.filter { if case .fix(let fix) = $0 { fix.mode == 0 } else { false } }.count
        }
        let original = try Logbook(path: path, access: .readOnly).rawInputs(flight: 1)
        let database = try Database(path: path)
        let row = try #require(try database.query(RawLogRow.inputsAtSQL, [.integer(1), .integer(5)]).first)
        let inputs = RawLog.decode(try #require(RawLogRow.inputs(row)))
        if compact {
            let text = RawLog.compact(inputs).replacingOccurrences(of: ",3\n", with: ",=1e300\n")
            let packed = FlightJournal.packed(Array(text.utf8))
            try database.query(
                "UPDATE raw_log SET packed = ?, text_length = ? WHERE seq = 5",
                [.blob(packed), .integer(Int64(text.utf8.count))])
        } else {
            let text = RawLog.encode(inputs).replacingOccurrences(of: ",3\n", with: ",1e300\n")
            try database.query(
                "UPDATE raw_log SET inputs = ?, packed = NULL, text_length = NULL WHERE seq = 5",
                [.text(text)])
        }
        // The fix reads with no mode (no fix), the batch's other inputs as they were.
        let kept = try Logbook(path: path, access: .readOnly).rawInputs(flight: 1)
        #expect(kept.count == original.count)
        #expect(noFixes(kept) > noFixes(original))
        let flight = try #require(try Logbook(path: path, access: .readOnly).replay(flight: 1))
        #expect(abs(flight.distance - landed[0].distance) < 100)
    }
}
