import Foundation
import RunWayCore
import Testing

@testable import RunWayStore

/// A flight's heart-rate figures (schema 6): its maximum, time in each zone, the zones they were
/// counted in, and each split's maximum, stored and read back; missing ones stay missing.
@Suite("Logbook rows: heart-rate maximum and zones")
struct HeartRateRowTests {
    static func flight(zones: HeartRateZones?, timeInZone: [Double]?, max: Double?) -> Flight {
        var first = Split(
            order: 1, distance: 1000, movingDuration: 301.5, elapsedDuration: 310.25, elapsedEnd: 310.25,
            heartRate: 151.5, cadence: 172, elevationGain: 4.5)
        first.maxHeartRate = max
        let second = Split(
            order: 2, distance: 412.5, movingDuration: 120, elapsedDuration: 121, elapsedEnd: 431.25,
            heartRate: nil, cadence: nil, elevationGain: 0)
        var flight = Flight(
            mission: nil, startTime: 1_000.5, endTime: 1_431.75, distance: 1_412.5, elapsed: 431.25,
            movingTime: 421.5, splits: [first, second], droppedTail: 0, samples: [], route: Route(points: []),
            simplifiedRoute: Route(points: []), alerts: [], averageHeartRate: max.map { $0 - 20 },
            averageCadence: nil)
        flight.maxHeartRate = max
        flight.heartRateZones = zones
        flight.timeInZone = timeInZone
        return flight
    }

    /// Stores `flight` as touchdown does and reads it back.
    func storedAndRead(_ flight: Flight) throws -> LoggedFlight {
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: 0)
        let id = try logbook.begin(startTime: flight.startTime, mission: nil)
        try logbook.finish(flight: id, with: flight)
        return try #require(try logbook.flight(id: id))
    }

    @Test(arguments: [
        HeartRateZones(method: .maximum, maximum: 190.5),
        HeartRateZones(
            method: .reserve, maximum: 188, resting: 48.5, fractions: [0.55, 0.65, 0.72, 0.81, 0.93]),
    ])
    func aFlightsZonesAndTimeInZoneRoundTrip(_ zones: HeartRateZones) throws {
        let flight = Self.flight(zones: zones, timeInZone: [0, 250.5, 1_020.25, 60, 0.5], max: 183.5)
        let logged = try storedAndRead(flight)
        #expect(logged.flight == flight)
        #expect(logged.flight.heartRateZones == zones && logged.flight.timeInZone?.count == 5)
        #expect(logged.flight.splits.map(\.maxHeartRate) == [183.5, nil])
        #expect(logged.damage.isEmpty, "\(logged.damage)")
    }

    /// Without heart rate every figure is missing, never 0.
    @Test func aFlightWithoutHeartRateReadsBackWithoutFigures() throws {
        let flight = Self.flight(zones: nil, timeInZone: nil, max: nil)
        let logged = try storedAndRead(flight)
        #expect(logged.flight == flight)
        #expect(logged.flight.maxHeartRate == nil && logged.flight.timeInZone == nil)
        #expect(logged.flight.heartRateZones == nil)
        #expect(logged.flight.splits.allSatisfy { $0.maxHeartRate == nil })
    }

    /// The zones are kept even without a reading (a strap that never connected): the time in
    /// zone is missing, the zones it would have been counted in are not.
    @Test func zonesWithoutReadingsAreKeptAndTheTimeStaysMissing() throws {
        let zones = HeartRateZones(maximum: 180)
        let logged = try storedAndRead(Self.flight(zones: zones, timeInZone: nil, max: nil))
        #expect(logged.flight.heartRateZones == zones && logged.flight.timeInZone == nil)
    }

    /// A flight stored before schema 6 (the v1 fixture, migrated) reads with no heart-rate
    /// figures at all: the migration's columns are NULL, not 0.
    @Test func aFlightStoredBeforeTheZonesReadsThemAsMissing() throws {
        let fixture = try #require(
            Bundle.module.url(forResource: "Fixtures/logbook/v1", withExtension: "sqlite"))
        let path = temporaryLogbookPath()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let logbook = try Logbook(path: path)
        let entry = try #require(try logbook.entries().first)
        let old = try #require(try logbook.flight(id: entry.id))
        #expect(old.flight.maxHeartRate == nil && old.flight.timeInZone == nil)
        #expect(old.flight.heartRateZones == nil)
        #expect(!old.flight.splits.isEmpty && old.flight.splits.allSatisfy { $0.maxHeartRate == nil })
        #expect(old.damage.isEmpty, "\(old.damage)")
        let stored = try logbook.database.query(
            "SELECT max_heart_rate, zone_1_s, hr_zone_method FROM flights")
        #expect(stored.first?.allSatisfy { $0 == .null } == true)
    }

    /// An impossible stored value reads as missing and is said, as any optional value's is; one
    /// of five zone times missing makes the five missing (a partial set would misstate shares).
    @Test func anImpossibleZoneValueReadsAsMissingAndIsSaid() throws {
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: 0)
        let flight = Self.flight(
            zones: HeartRateZones(maximum: 190), timeInZone: [10, 20, 30, 40, 50], max: 180)
        let id = try logbook.begin(startTime: flight.startTime, mission: nil)
        try logbook.finish(flight: id, with: flight)
        try logbook.database.execute(
            "UPDATE flights SET zone_3_s = -5, hr_zone_method = 'lactate', max_heart_rate = 900")
        let logged = try #require(try logbook.flight(id: id))
        #expect(logged.flight.timeInZone == nil && logged.flight.heartRateZones == nil)
        #expect(logged.flight.maxHeartRate == nil)
        let columns = Set(logged.damage.map(\.column))
        #expect(columns == ["zone_3_s", "hr_zone_method", "max_heart_rate"], "\(logged.damage)")
    }
}

extension SalvageTests {
    /// A flight whose raw log is lost keeps its heart-rate figures in the salvaged copy (it is
    /// copied from its derived data, which holds them).
    @Test func aSalvagedCopyKeepsTheHeartRateFigures() throws {
        let path = temporaryLogbookPath()
        var zoned: Flight
        do {
            let logbook = try Logbook(path: path)
            let (id, _, landed) = try record(scenario, into: logbook)
            zoned = try #require(landed)
            zoned.maxHeartRate = 177
            zoned.heartRateZones = HeartRateZones(method: .reserve, maximum: 185, resting: 52)
            zoned.timeInZone = [12.5, 100, 600, 200, 3]
            for i in zoned.splits.indices { zoned.splits[i].maxHeartRate = 170 + Double(i) }
            try logbook.finish(flight: id, with: zoned)
        }
        try damage("raw_log", in: path)
        let (logbook, flights, _) = try salvage(path)
        #expect(flights.map(\.outcome) == [.derivedOnly])
        let newID = try #require(flights.first?.newID)
        let copy = try #require(try logbook.flight(id: newID))
        #expect(copy.flight == zoned)
        #expect(copy.flight.timeInZone == [12.5, 100, 600, 200, 3] && copy.flight.maxHeartRate == 177)
    }
}
