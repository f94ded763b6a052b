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

    /// Flown again with other zones configured (a runner who changed max_heart_rate, or salvage
    /// with the defaults), a landed flight is counted in the zones it was counted in.
    @Test func aReplayCountsInTheFlightsOwnZones() throws {
        var configuration = EngineConfiguration()
        configuration.heartRateZones = HeartRateZones(method: .reserve, maximum: 182, resting: 52)
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(Self.scenario, into: logbook, configuration: configuration)
        let flight = try #require(landed)
        #expect(flight.heartRateZones == configuration.heartRateZones)
        let again = try #require(try logbook.replay(flight: id))  // the defaults: max 190
        #expect(again.heartRateZones == configuration.heartRateZones)
        #expect(again.timeInZone == flight.timeInZone)
    }

    /// A band a flipped bit turned over (low above high; each edge alone in range) is no band:
    /// the replay flies the raw log as a free flight instead of trapping on a reversed range.
    @Test func aBandTurnedOverInTheRowIsNoMissionAndNoTrap() throws {
        var scenario = Self.scenario
        scenario.mission = Mission(pace: nil, heartRate: .init(low: 140, high: 155), goal: .duration(720))
        let path = temporaryLogbookPath()
        let logbook = try Logbook(path: path)
        let (id, _, landed) = try record(scenario, into: logbook)
        #expect(landed != nil)
        try logbook.database.execute(
            "UPDATE flights SET target_hr_low = 180, target_hr_high = 120 WHERE id = \(id)")
        let again = try #require(try logbook.replay(flight: id))
        #expect(again.mission == nil)
        #expect(!again.alerts.contains { $0.kind == .heartRateHigh || $0.kind == .heartRateLow })
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
