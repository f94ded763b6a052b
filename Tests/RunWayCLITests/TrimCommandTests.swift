import Foundation
import RunWayCore
import RunWayStore
import Testing

/// `runway trim ID --start/--end` (issue 27): a flight cut from its raw log, atomically; a window
/// that cannot be is a usage error naming the field, and nothing is stored.
@Suite("runway trim: a flight cut to a window of its raw log")
struct TrimCommandTests {
    /// The demo mission flown into a fresh logbook: flight 1, about 28 minutes.
    static func logbook() throws -> String {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("runway-trim-\(UUID().uuidString).sqlite").path
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let saved = try RunWayBinary.run(["fly", "--gps", gps, "--save", "--logbook", path])
        #expect(saved.status == 0, "\(saved.stderr)")
        return path
    }

    static func flights(_ path: String) throws -> [LoggedFlight] {
        let logbook = try Logbook(path: path, access: .readOnly)
        return try logbook.entries().compactMap { try logbook.flight(id: $0.id) }
    }

    @Test func theEndIsCutAndTheOriginalKept() throws {
        let path = try Self.logbook()
        let original = try #require(try Self.flights(path).first)
        let result = try RunWayBinary.run(["trim", "1", "--end", "10:00", "--logbook", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("stored as flight 2"), "\(result.stdout)")
        let logbook = try Logbook(path: path, access: .readOnly)
        let cut = try #require(try logbook.flight(id: 2))
        #expect(cut.replaces == 1)
        #expect(abs(cut.flight.elapsed - 600) < 1.5)
        #expect(cut.flight.distance < original.flight.distance * 0.45)
        #expect(cut.flight.distance > 1500)
        // Its raw log is the window's: flown again, it is the same flight.
        let again = try #require(try logbook.replay(flight: 2))
        #expect(abs(again.distance - cut.flight.distance) < 1)
        #expect(try logbook.flight(id: 1) != nil)
    }

    @Test func theStartIsCutAndReplaceRewritesInPlace() throws {
        let path = try Self.logbook()
        let original = try #require(try Self.flights(path).first)
        let result = try RunWayBinary.run(["trim", "1", "--start", "5:00", "--replace", "--logbook", path])
        #expect(result.status == 0, "\(result.stderr)")
        let flights = try Self.flights(path)
        #expect(flights.count == 1)
        let cut = try #require(flights.first)
        #expect(abs(cut.flight.startTime - (original.flight.startTime + 300)) < 0.01)
        #expect(abs(cut.flight.elapsed - (original.flight.elapsed - 300)) < 1.5)
        #expect(cut.flight.distance < original.flight.distance - 500)
    }

    @Test(arguments: [
        (["--end", "99:00"], "--end 1:39:00 is past the flight's end"),
        (["--start", "10:00", "--end", "5:00"], "--start 10:00 is not before the end (5:00)"),
        (["--end", "ten"], #"--end "ten" is not a time from the flight's start"#),
        (["--end", "5:75"], #"--end "5:75" is not a time"#),
        ([], "trim needs --start, --end or both"),
    ])
    func aWindowThatCannotBeIsAUsageErrorAndNothingIsStored(_ options: [String], _ message: String) throws {
        let path = try Self.logbook()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let result = try RunWayBinary.run(["trim", "1"] + options + ["--logbook", path])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try Self.flights(path).count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aFlightThatIsNotThereIsSaid() throws {
        let path = try Self.logbook()
        let result = try RunWayBinary.run(["trim", "7", "--end", "1:00", "--logbook", path])
        #expect(result.status != 0)
        #expect(result.stderr.contains("has no flight 7"), "\(result.stderr)")
    }

    /// A flight runwayd is still recording is not cut under it (the CLI sees it flying when
    /// runwayd holds the logbook; a flight a power cut left open is recovered first).
    @Test func aFlightStillFlyingIsNotTrimmed() throws {
        #expect(throws: TrimError.stillFlying) {
            try Logbook.trimWindow(start: nil, end: 60, elapsed: 600, flying: true)
        }
    }
}
