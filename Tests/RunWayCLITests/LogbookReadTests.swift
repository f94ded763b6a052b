import Foundation
import RunWayCore
import Testing

@testable import RunWayStore

/// Logbooks with the demo trace flown on `days` different days (flights 1, 2, …).
enum DemoLogbook {
    static func make(days: Int) throws -> String {
        let path = NSTemporaryDirectory() + "runway-reads-\(UUID().uuidString).sqlite"
        let gps = try RunWayBinary.fixture("demo-mission.gpsd.json")
        let text = try String(contentsOfFile: gps, encoding: .utf8)
        for day in 0..<days {
            let trace =
                day == 0
                ? gps
                : try RunWayBinary.temporary(
                    text.replacingOccurrences(of: "2026-10-03T", with: "2026-10-\(UTCTime.pad(3 + day, 2))T"),
                    suffix: ".json")
            let saved = try RunWayBinary.run(["fly", "--gps", trace, "--save", "--logbook", path])
            try #require(saved.status == 0, "\(saved.stderr)")
        }
        return path
    }

    static func poke(_ path: String, _ sql: String) throws { try Database(path: path).execute(sql) }

    /// Gives point `index` of a flight's full route (one packed row, schema 12) a longitude no
    /// route can have, as a flipped bit in the stored text would.
    static func spoilRoutePoint(_ path: String, flight: Int64, index: Int) throws {
        let database = try Database(path: path)
        let select = "SELECT points, text_length, packed FROM routes WHERE flight_id = ? AND simplified = 0"
        let row = try #require(try database.query(select, [.integer(flight)]).first)
        var points = RouteRow.route(LogbookRow(row, path: path, flight: flight))
        points[index].coordinate.longitude = 9e99
        let spoiled = RouteRow(simplified: false, points: points)
        try database.query(
            "UPDATE routes SET packed = ?, text_length = ? WHERE flight_id = ? AND simplified = 0",
            [.blob(spoiled.packed), .integer(Int64(spoiled.text.utf8.count)), .integer(flight)])
    }

    /// A copy of the logbook as a kill in the middle of a transaction leaves it: the file and
    /// its rollback journal, copied while a transaction that spilled pages into the file is open.
    static func hotJournalCopy(of path: String, to copy: String) throws {
        let db = try Database(path: path)
        try db.execute("PRAGMA cache_size = 2")
        try db.execute("BEGIN IMMEDIATE")
        try db.execute("DELETE FROM samples")
        try db.execute("UPDATE flights SET distance_m = 0")
        for suffix in ["", "-journal"] {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
        try db.execute("ROLLBACK")
    }

    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "runway-reads-dir-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

@Suite("One impossible stored value: list, calendar, show, export and the drive go on, and say it")
struct StoredValueDamageCLITests {
    @Test func aBadSummaryValueInOneFlightBlocksNoOtherFlight() async throws {
        let path = try DemoLogbook.make(days: 2)
        try DemoLogbook.poke(path, "UPDATE flights SET distance_m = 1e300 WHERE id = 1")
        let listed = try await RunWayBinary.run(["logbook", "--logbook", path])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("#1") && listed.stdout.contains("#2"))
        #expect(
            listed.stderr.contains("flight 1") && listed.stderr.contains("flown again"), "\(listed.stderr)")
        let json = try await RunWayBinary.run(["logbook", "--logbook", path, "--json"])
        #expect(json.status == 0 && json.stdout.split(separator: "\n").count == 2)
        let calendar = try await RunWayBinary.run(["calendar", "2026-10", "--logbook", path])
        #expect(calendar.status == 0 && calendar.stdout.contains("in 2 runs"), "\(calendar.stdout)")
        let shown = try await RunWayBinary.run(["show", "1", "--logbook", path])
        #expect(shown.status == 0 && shown.stdout.contains("5.1"), "\(shown.stderr)")
        let stick = try DemoLogbook.directory()
        let exported = try await RunWayBinary.run(
            [
                "export", "--to", stick, "--logbook", path, "--config", "/nonexistent", "--format",
                "fit,gpx,tcx",
            ])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("6 files written"), "\(exported.stdout)")
        #expect(exported.stderr.contains("flight 1"))
        let image = try DemoLogbook.directory() + "/drive.img"
        let drive = try await RunWayBinary.run(
            ["drive", "--image", image, "--logbook", path, "--config", "/nonexistent"])
        #expect(drive.status == 0, "\(drive.stderr)")
    }

    @Test func aBadSampleOrRoutePointCostsThatRowAndTheExportWritesEveryFile() async throws {
        let path = try DemoLogbook.make(days: 3)
        try DemoLogbook.poke(
            path,
            "UPDATE samples SET elapsed_s = -5 WHERE flight_id = 2 AND rowid = (SELECT MIN(rowid) FROM samples WHERE flight_id = 2)"
        )
        try DemoLogbook.spoilRoutePoint(path, flight: 2, index: 3)
        let stick = try DemoLogbook.directory()
        let exported = try await RunWayBinary.run(
            [
                "export", "--to", stick, "--logbook", path, "--config", "/nonexistent", "--format",
                "fit,gpx,tcx",
            ])
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("9 files written"), "\(exported.stdout)")
        #expect(exported.stderr.contains("flight 2"), "\(exported.stderr)")
        let shown = try await RunWayBinary.run(["show", "2", "--logbook", path, "--json"])
        #expect(shown.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
        #expect((object["damage"] as? [Any])?.count == 2, "\(object["damage"] ?? "none")")
    }

    /// The stored one crashed `runway show` (issue 22).
    @Test func aStoredPaceOf1e18IsNoMissionAndCrashesNothing() async throws {
        let path = try DemoLogbook.make(days: 1)
        try DemoLogbook.poke(path, "UPDATE flights SET target_pace = 1e18")
        for command in [["show", "1"], ["show", "1", "--json"], ["logbook"], ["reprocess", "1"]] {
            let result = try await RunWayBinary.run(command + ["--logbook", path])
            #expect(result.status == 0, "\(command): \(result.stderr)")
        }
        let shown = try await RunWayBinary.run(["show", "1", "--logbook", path])
        #expect(shown.stdout.contains("FREE FLIGHT"))
        #expect(shown.stderr.contains("target_pace"), "\(shown.stderr)")
    }
}

@Suite("A logbook a kill left mid-write: every reader reads it and says what it did")
struct HotJournalCLITests {
    @Test func readOnlyCommandsReadALogbookWithAHotJournal() async throws {
        let path = try DemoLogbook.make(days: 2)
        for command in [["logbook"], ["calendar", "2026-10"], ["show", "2"], ["replay", "1"]] {
            let copy = NSTemporaryDirectory() + "runway-hot-\(UUID().uuidString).sqlite"
            try DemoLogbook.hotJournalCopy(of: path, to: copy)
            let result = try await RunWayBinary.run(command + ["--logbook", copy])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            // No SQLite code in words for a runner (the path is left out: a UUID may hold "776").
            #expect(!result.stderr.replacingOccurrences(of: copy, with: "").contains("776"))
            #expect(result.stderr.contains("rolled back"), "\(command): \(result.stderr)")
        }
        let copy = NSTemporaryDirectory() + "runway-hot-\(UUID().uuidString).sqlite"
        try DemoLogbook.hotJournalCopy(of: path, to: copy)
        let exported = try await RunWayBinary.run(
            ["export", "--to", try DemoLogbook.directory(), "--logbook", copy, "--config", "/nonexistent"])
        #expect(exported.status == 0, "\(exported.stderr)")
    }
}

@Suite("A writing command never makes a logbook at a mistyped path; errors speak in words")
struct MistypedPathAndWordsTests {
    @Test func reprocessAndDeleteRefuseAMissingLogbookAndCreateNothing() async throws {
        for command in [["reprocess", "1"], ["delete", "1", "--yes"]] {
            let path = NSTemporaryDirectory() + "runway-mistyped-\(UUID().uuidString).sqlite"
            let result = try await RunWayBinary.run(command + ["--logbook", path])
            #expect(result.status == 1, "\(command)")
            #expect(result.stderr == "runway: no logbook at \(path)\n", "\(command): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(!FileManager.default.fileExists(atPath: path + "-rawlog"))
        }
    }

    @Test func aFullCardIsSaidInWordsWithTheCodeKeptForTheLog() {
        let full = StoreError.sqlite(
            .full, message: "database or disk is full", operation: "writing the flight's route", path: "/x")
        #expect("\(full)" == "/x: the card is full: writing the flight's route")
        #expect(full.logDescription.contains("SQLite 13"))
        #expect(
            Database.operation("INSERT INTO route_points (flight_id) VALUES (?)")
                == "writing the flight's route")
        #expect(
            Database.operation("INSERT INTO raw_log (flight_id) VALUES (?)")
                == "writing the flight's raw sensor log")
        let io = StoreError.io(.ioError, operation: "reading the raw-log journal", path: "/x-rawlog")
        #expect(!"\(io)".contains("errno"))
        #expect(io.logDescription.contains("errno 5"))
    }
}

@Suite("A demo on a card too full for the journal does not claim RECORDED")
struct DemoFullCardTests {
    /// 96 KiB: room for the empty logbook (schema 10's nine tables and their indexes), none for the
    /// flight's raw log (at 80 KiB the logbook itself cannot be made, said as such).
    @Test func itSaysWhatWasLostAndExitsNonZero() async throws {
        let path = NSTemporaryDirectory() + "runway-full-demo-\(UUID().uuidString).sqlite"
        let result = try await RunWayBinary.run(
            ["demo", "--speed", "max", "--logbook", path], fileSizeLimit: 96 << 10)
        #expect(result.status == 1)
        #expect(result.stderr.contains("could not be written and are lost"), "\(result.stderr)")
        let verdict = try #require(
            result.stdout.split(separator: "\n").first { $0.hasPrefix("FLIGHT SUMMARY") })
        #expect(!verdict.hasSuffix("  RECORDED"), "\(verdict)")
        #expect(verdict.contains("NOT RECORDED"), "\(verdict)")
    }
}

@Suite("A killed salvage leaves no partial logbook, and a retry succeeds", .serialized)
struct SalvageRetryTests {
    static func check(_ target: String, flights: Int) throws {
        let logbook = try Logbook(path: target, access: .readOnly)
        #expect(try logbook.database.query("PRAGMA integrity_check").first?.first?.string == "ok")
        #expect(try logbook.entries().count == flights)
    }

    @Test func aLeftoverPartialIsCleanedAndTheRetrySucceeds() async throws {
        let damaged = try DemoLogbook.make(days: 2)
        let target = NSTemporaryDirectory() + "runway-salvaged-\(UUID().uuidString).sqlite"
        // What a salvage killed mid-write leaves under its temporary name: a half-written
        // logbook and its hot journal.
        try DemoLogbook.hotJournalCopy(of: damaged, to: target + ".partial")
        let result = try await RunWayBinary.run(["salvage", damaged, "--to", target])
        #expect(result.status == 0, "\(result.stderr)")
        try Self.check(target, flights: 2)
        for suffix in [".partial", ".partial-journal", ".partial-rawlog", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: target + suffix), "\(suffix)")
        }
    }

    @Test func aSalvageKilledAtAnyMomentLeavesNothingOrTheWholeAndARetrySucceeds() async throws {
        let damaged = try DemoLogbook.make(days: 6)
        for delay in stride(from: 0.05, through: 1.25, by: 0.15) {
            let target = NSTemporaryDirectory() + "runway-salvaged-\(UUID().uuidString).sqlite"
            _ = try await RunWayBinary.shell(
                "\"$RUNWAY\" salvage '\(damaged)' --to '\(target)' >/dev/null 2>&1 & "
                    + "pid=$!; sleep \(delay); kill -9 $pid 2>/dev/null; wait $pid 2>/dev/null; true")
            if FileManager.default.fileExists(atPath: target) { try Self.check(target, flights: 6) }
            try? FileManager.default.removeItem(atPath: target)
            let retry = try await RunWayBinary.run(["salvage", damaged, "--to", target])
            #expect(retry.status == 0, "after \(delay) s: \(retry.stderr)")
            try Self.check(target, flights: 6)
            #expect(!FileManager.default.fileExists(atPath: target + ".partial"))
        }
    }
}
