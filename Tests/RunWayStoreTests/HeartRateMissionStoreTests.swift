import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

/// A heart-rate mission over a time (schema 6's columns) is stored with its flight, and flying
/// its raw log again gives the live flight's alerts, maximum heart rate and time in zone.
@Suite("Heart-rate missions in the logbook")
struct HeartRateMissionStoreTests {
    static var scenario: Scenario {
        var scenario = Scenario.heartRateEdge(offset: -5, minutes: 14, stepAt: 420, stepTo: 168)
        scenario.mission = Mission(
            pace: .init(targetPace: 360, allowedDeviation: 30),
            heartRate: .init(low: 140, high: 155, zone: 3), goal: .duration(720))
        return scenario
    }

    @Test func theMissionReadsBackAndTheReplayIsTheLiveFlight() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(Self.scenario, into: logbook)
        let flight = try #require(landed)
        #expect(flight.alerts.contains { $0.kind == .heartRateHigh })
        let stored = try #require(try logbook.flight(id: id)?.flight)
        #expect(stored.mission == Self.scenario.mission)
        #expect(stored.alerts == flight.alerts)
        let again = try #require(try logbook.replay(flight: id))
        #expect(again.mission == flight.mission)
        #expect(again.alerts == flight.alerts)
        #expect(again.maxHeartRate == flight.maxHeartRate)
        #expect(again.timeInZone == flight.timeInZone)
        #expect(again.splits.map(\.maxHeartRate) == flight.splits.map(\.maxHeartRate))
    }

    @Test func aPaceMissionsRowIsAsBefore() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let mission = Mission(targetPace: 330, allowedDeviation: 15, targetDistance: 5000)
        let id = try logbook.begin(startTime: 1_000, mission: mission)
        let row = try #require(
            try logbook.database.query(
                "SELECT target_pace, target_hr_low, target_hr_high, target_zone, target_duration_s FROM flights WHERE id = \(id)"
            ).first)
        #expect(Array(row) == [.real(330), .null, .null, .null, .null])
    }
}
