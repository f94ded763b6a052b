import Foundation
import RunWayCore
import RunWaySimulator
import Testing

@testable import RunWayStore

func temporaryLogbookPath() -> String {
    NSTemporaryDirectory() + "runway-logbook-\(UUID().uuidString).sqlite"
}

/// Flies `scenario` into a new logbook at `path` and closes it (so the file can be rewritten as
/// an older schema): the flight's id and the landed flight.
func recordAndClose(_ scenario: Scenario, at path: String) throws -> (id: Int64, flight: Flight) {
    let logbook = try Logbook(path: path)
    let recorded = try record(scenario, into: logbook)
    return (recorded.id, try #require(recorded.flight))
}

/// Flies `scenario` through the engine and a recorder; `stopAfter` cuts the run (a power cut)
/// after that many inputs. Returns the flight id and the inputs the engine had received.
func record(
    _ scenario: Scenario, into logbook: Logbook, stopAfter: Int? = nil,
    configuration: EngineConfiguration = EngineConfiguration()
) throws -> (
    id: Int64, inputs: [EngineInput], flight: Flight?
) {
    let recorder = FlightRecorder(logbook: logbook)
    var computer = FlightComputer(configuration: configuration)
    var seen: [EngineInput] = []
    var count = 0
    var landed: Flight?
    for event in ScenarioRunner.events(for: scenario).events {
        switch event {
        case .input(let input):
            _ = recorder.take(.flew(input, computer.handle(input)), after: computer)
            if computer.isFlying {
                seen.append(input)
                count += 1
                if let stopAfter, count >= stopAfter { return (recorder.flightID!, seen, nil) }
            }
        case .end(let sentAt):
            let (result, _) = computer.end(sentAt: sentAt)
            if let flight = result.flight {
                try recorder.land(flight, configuration: configuration)
                landed = saved(flight, inputs: seen, configuration: configuration)
            }
        }
    }
    let id = try #require(try logbook.entries().first?.id)
    return (id, seen, landed)
}

/// The flight the logbook saves for a landed `live` one: the touchdown smoother's over the
/// inputs the engine was given (a 100 m flight is not saved and stays as landed).
func saved(
    _ live: Flight, inputs: [EngineInput], configuration: EngineConfiguration = EngineConfiguration()
) -> Flight {
    live.status == .recorded
        ? FlightSmoothing.smoothed(live, inputs: inputs, configuration: configuration) : live
}

@Suite("Logbook: schema, migrations, refusals")
struct LogbookSchemaTests {
    @Test func aVersionOneLogbookIsMigratedWithItsFlightIntact() throws {
        // Tests/Fixtures/logbook/v1.sqlite: written by schema 1 (gpsd's bundg_zeus_9 capture, saved
        // with `runway fly --save`).
        let fixture = try #require(
            Bundle.module.url(forResource: "Fixtures/logbook/v1", withExtension: "sqlite"))
        let path = temporaryLogbookPath()
        try FileManager.default.copyItem(atPath: fixture.path, toPath: path)
        let rawRows = try Database(path: path).query("SELECT COUNT(*) FROM raw_log").first?.first?.int
        let logbook = try Logbook(path: path)
        #expect(logbook.schemaVersion == Schema.version)
        // Schema 3 rebuilt the raw log as a rowid table, every row kept.
        #expect(try logbook.database.query("SELECT COUNT(*) FROM raw_log").first?.first?.int == rawRows)
        let sql = try logbook.database.query("SELECT sql FROM sqlite_schema WHERE name = 'raw_log'")
        #expect(sql.first?.first?.string?.contains("WITHOUT ROWID") == false)
        let entry = try #require(try logbook.entries().first)
        #expect(entry.status == .finished)
        #expect(abs(entry.distance - 410.4) < 0.1)
        #expect(try logbook.database.query("SELECT engine_version FROM flights").first?.first?.int == 1)
        // Its raw log still flies: the live engine to the same distance but for what engine 10
        // takes out of the speeds' drift by the fixes (0.13 m), and the touchdown smoother
        // (engine 5) to the boat's path (~2.9 m/s for 147 s by its positions, while its reported
        // speed reads 0–0.4 m/s for 38 s), not to what the lying speed says (298 m).
        let again = try #require(try logbook.replay(flight: entry.id))
        #expect(abs((again.liveDistance ?? 0) - entry.distance) < 0.5, "\(again.liveDistance ?? 0)")
        #expect(again.distanceMethod == .smoothed)
        #expect(again.distance > 390 && again.distance < 430, "\(again.distance)")
        // Stored before pauses were: they come from its samples, each as one a sample saw.
        let old = try #require(try logbook.flight(id: entry.id)).flight
        #expect(old.pauses == Logbook.pauses(fromSamples: old.samples))
        for pause in old.pauses {
            #expect(old.samples.contains { $0.paused && $0.elapsed == pause.start })
        }
    }

    @Test func aNewLogbookIsMigratedToTheCurrentSchemaWithARollbackJournalAnd4KPages() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        #expect(logbook.schemaVersion == Schema.version)
        #expect(try logbook.database.query("PRAGMA journal_mode").first?.first?.string == "delete")
        #expect(try logbook.database.query("PRAGMA page_size").first?.first?.int == 4096)
        #expect(try logbook.database.query("PRAGMA synchronous").first?.first?.int == 2)  // FULL
    }

    @Test func reopeningKeepsTheData() throws {
        let path = temporaryLogbookPath()
        do {
            let logbook = try Logbook(path: path)
            _ = try logbook.begin(startTime: 100, mission: nil)
        }
        #expect(try Logbook(path: path).entries().count == 1)
    }

    @Test func aLogbookFromANewerSchemaIsRefusedAndLeftUntouched() throws {
        let path = temporaryLogbookPath()
        do {
            let db = try Database(path: path)
            try db.execute(
                "CREATE TABLE future (x); PRAGMA user_version = \(Logbook.schemaVersionWritten + 1)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try Logbook(path: path)
        } throws: { error in
            (error as? StoreError)
                == .newerSchema(found: Schema.version + 1, known: Schema.version, path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Four header bytes must not crash runway: a negative schema version is "not a logbook".
    @Test(arguments: [-1, Int(Int32.min)])
    func aNegativeSchemaVersionIsRefusedNotACrash(_ version: Int) throws {
        let path = temporaryLogbookPath()
        do {
            let db = try Database(path: path)
            try db.execute("CREATE TABLE other (x); PRAGMA user_version = \(version)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect {
            _ = try Logbook(path: path)
        } throws: { error in
            (error as? StoreError) == .notALogbook(reason: "schema version \(version)", path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func aLogbookWithDamagedPagesIsRefusedAndKeptByteForByte() throws {
        let path = temporaryLogbookPath()
        do {
            let logbook = try Logbook(path: path)
            _ = try record(.walker.ending(at: 400), into: logbook)
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try #require(bytes.count > 8192)
        for i in 4200..<8192 { bytes[i] ^= 0x5A }  // page 2's cells, its header intact
        let journal = try Data(contentsOf: URL(fileURLWithPath: path + "-rawlog"))
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try Logbook(path: path)
        } throws: { error in
            (error as? StoreError)?.description.contains("kept") == true
                || (error as? StoreError)?.isCorrupt == true
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "-rawlog")) == journal)  // not absorbed
    }

    @Test func aCorruptFileIsRefusedAndKept() throws {
        let path = temporaryLogbookPath()
        let junk = Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try junk.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { _ = try Logbook(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == junk)
    }
}

@Suite("Raw sensor log: every input exactly as received")
struct RawLogTests {
    @Test func inputsRoundTripExactly() {
        let inputs: [EngineInput] = [
            .fix(
                Fix(
                    time: 1.25, coordinate: Coordinate(latitude: 37.123456789, longitude: 126.987654321),
                    horizontalAccuracy: 19.3, speed: 3.001, track: nil, altitude: 12.5, mode: 3)),
            .fix(Fix(time: 2, coordinate: Coordinate(latitude: 0, longitude: 0), mode: 1)),
            .pressure(PressureSample(time: 2.5, pascals: 101_325.123)),
            .body(BodySample(time: 3, heartRate: 150, cadence: nil)),
            .tick(4), .pause(at: 5), .resume(at: 6), .togglePause(at: 7), .barometerLost(at: 8), .lap(at: 9),
        ]
        #expect(RawLog.decode(RawLog.encode(inputs)) == inputs)
    }

    /// A footpod's speed and distance ride in six fields; a line of four (every log before them)
    /// still reads, and a footpod value out of its range reads as missing.
    @Test func aFootpodsSpeedAndDistanceAreKeptAndOldLinesStillRead() {
        let pod = BodySample(
            time: 3, heartRate: nil, cadence: 172, footpodSpeed: 3.25, footpodDistance: 1234.5)
        #expect(RawLog.encode([.body(pod)]) == "B,3.0,,172.0,3.25,1234.5")
        #expect(RawLog.decode(RawLog.encode([.body(pod)])) == [.body(pod)])
        #expect(RawLog.decode("B,3,150,") == [.body(BodySample(time: 3, heartRate: 150))])
        #expect(RawLog.decode("B,3,,170,40,-5") == [.body(BodySample(time: 3, cadence: 170))])
        #expect(RawLog.decode("B,3,150,170,1") == [])
    }

    /// A time past any receiver's (a flipped exponent) is no input, not a replay toward it.
    @Test func aTimePastAnyReceiversIsNoInput() {
        #expect(RawLog.decode("P,1e300,101325\nT,-1e300\nT,nan\nP,1790000000,101325").count == 1)
    }
}

@Suite("Recording, recovery, reprocess")
struct RecordingTests {
    let scenario = Scenario.demoMission.ending(at: 2300)

    @Test func aRecordedFlightIsStoredWithItsDerivedData() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(scenario, into: logbook)
        let flight = try #require(landed)
        let entry = try #require(try logbook.entries().first)
        #expect(entry.status == .finished)
        #expect(abs(entry.distance - flight.distance) < 1e-9)
        #expect(try logbook.splits(flight: id) == flight.splits)
        // One flight read back whole is the engine's flight, to the bit.
        let logged = try #require(try logbook.flight(id: id))
        #expect(logged.flight == flight)
        #expect(logged.status == .finished && logged.source == "live" && logged.replaces == nil)
        #expect(try logbook.flight(id: id + 1) == nil)
    }

    @Test func aMissionFlightReadsBackWithItsMissionAlertsSamplesAndRoutes() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(.demoMission, into: logbook)
        let flight = try #require(landed)
        #expect(flight.mission != nil && !flight.alerts.isEmpty && !flight.samples.isEmpty)
        #expect(flight.simplifiedRoute.points.count < flight.route.points.count)
        #expect(try logbook.flight(id: id)?.flight == flight)
    }

    @Test func aFlightWithStopsReadsBackWithItsPauses() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(.stops5k, into: logbook)
        let flight = try #require(landed)
        #expect(flight.pauses.count == 4)
        #expect(try logbook.flight(id: id)?.flight == flight)
    }

    @Test func reprocessReproducesTheStoredResultWithTheSameEngine() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(scenario, into: logbook)
        let again = try #require(try logbook.replay(flight: id))
        let flight = try #require(landed)
        #expect(again.splits == flight.splits)
        #expect(abs(again.distance - flight.distance) < 1e-9)
        #expect(again.alerts == flight.alerts)
    }

    @Test func recoveryProducesTheSplitsTheEngineWouldForTheRecordedPart() throws {
        let path = temporaryLogbookPath()
        let (id, inputs): (Int64, [EngineInput])
        do {
            let logbook = try Logbook(path: path)
            let cut = try record(scenario, into: logbook, stopAfter: 1_500)
            (id, inputs) = (cut.id, cut.inputs)
        }  // the power goes: nothing after the last commit is written
        let logbook = try Logbook(path: path)
        #expect(try logbook.recoverInterruptedFlights().map(\.id) == [id])
        let entry = try #require(try logbook.entries().first)
        #expect(entry.status == .recovered)
        // What the engine would say for the committed part of the run.
        let recorded = try logbook.rawInputs(flight: id)
        #expect(recorded == Array(inputs.prefix(recorded.count)))
        #expect(inputs.count - recorded.count < 200)  // < 4 s of inputs lost at ~40 inputs/s
        var computer = FlightComputer()
        _ = computer.handle(.start(at: scenario.rotateTime, mission: scenario.mission, countdown: false))
        for input in recorded { _ = computer.handle(input) }
        let live = try #require(computer.end(sentAt: nil).result.flight)
        let expected = saved(live, inputs: recorded)
        #expect(expected.distanceMethod == .smoothed)
        #expect(try logbook.splits(flight: id) == expected.splits)
        #expect(abs(entry.distance - expected.distance) < 1e-9)
        #expect(expected.splits.count >= 1)
    }

    /// Without a raw-log journal every commit goes to SQLite; with a small one, the full disk
    /// shows when the full journal must move into SQLite.
    @Test(arguments: [0, 4096])
    func aFullDiskKeepsTheFlightInMemoryReportsOnceAndWritesWhenSpaceReturns(journal: Int) throws {
        let logbook = try Logbook(path: temporaryLogbookPath(), journalCapacity: journal)
        var failures: [StoreError] = []
        let recorder = FlightRecorder(logbook: logbook) { failures.append($0) }
        try recorder.begin(at: 0, mission: nil)
        // Simulate a full disk: SQLite's page-count limit makes every growing write fail with SQLITE_FULL.
        let pages = try logbook.database.query("PRAGMA page_count").first?.first?.int ?? 0
        try logbook.database.execute("PRAGMA max_page_count = \(pages)")
        // 2 000 s: the raw log is stored deflated (schema 11), and 200 s now fit the free space.
        for t in 1...2_000 {
            recorder.record(
                .fix(
                    Fix(
                        time: Double(t),
                        coordinate: Coordinate(latitude: 37, longitude: 127 + Double(t) * 1e-5),
                        horizontalAccuracy: 10, speed: 3)))
        }
        #expect(failures.count == 1)
        #expect(failures.first?.isDiskFull == true)
        #expect(!recorder.pending.isEmpty)  // kept in memory, not lost
        try logbook.database.execute("PRAGMA max_page_count = 1073741823")
        #expect(recorder.commit(until: 2_001))
        #expect(try logbook.rawInputs(flight: recorder.flightID!).count == 2_000)
    }

    @Test func deletingAFlightDeletesItsRows() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, _) = try record(scenario, into: logbook)
        try logbook.delete(flight: id)
        #expect(try logbook.entries().isEmpty)
        #expect(try logbook.rawInputs(flight: id).isEmpty)
        #expect(try logbook.splits(flight: id).isEmpty)
    }
}

@Suite("Logbook queries: most recent first, calendar month")
struct LogbookQueryTests {
    func flight(start: Double, distance: Double) -> Flight {
        Flight(
            mission: nil, startTime: start, endTime: start + 1800, distance: distance, elapsed: 1800,
            movingTime: 1700,
            splits: [], droppedTail: 0, samples: [], route: Route(points: []),
            simplifiedRoute: Route(points: []),
            alerts: [], averageHeartRate: nil, averageCadence: nil)
    }

    /// A stored flight whose raw log flies under 100 m with this engine is not stored again as a
    /// "too short" phantom.
    @Test func reprocessingIntoAFlightUnder100mWritesNothing() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let id = try logbook.begin(startTime: 1_000, mission: nil)
        try logbook.append(flight: id, inputs: [.tick(1_001), .tick(1_002)], until: 1_002)
        try logbook.finish(flight: id, with: flight(start: 1_000, distance: 5_000))
        #expect(try logbook.reprocess(flight: id) == nil)
        #expect(try logbook.reprocess(flight: id, replace: true) == nil)
        #expect(try logbook.entries(includingSuperseded: true).map(\.distance) == [5_000])
    }

    @Test func twoRunsOnOneDayAreTwoEntriesMostRecentFirstAndOneCalendarDay() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let morning = try #require(UTCTime.parse("2026-10-03T06:00:00Z"))
        let evening = try #require(UTCTime.parse("2026-10-03T18:30:00Z"))
        let nextWeek = try #require(UTCTime.parse("2026-10-10T07:00:00Z"))
        let a = try logbook.save(flight(start: morning, distance: 5000), inputs: [], source: "test")
        let b = try logbook.save(flight(start: evening, distance: 3000), inputs: [], source: "test")
        let c = try logbook.save(flight(start: nextWeek, distance: 10_000), inputs: [], source: "test")
        // Too short: not recorded at all (SPEC), so neither in the logbook nor on the calendar.
        #expect(
            try logbook.save(flight(start: nextWeek + 7200, distance: 50), inputs: [], source: "test")
                == .tooShort)
        guard case .saved(let a) = a, case .saved(let b) = b, case .saved(let c) = c else {
            Issue.record("not saved: \(a) \(b) \(c)")
            return
        }
        #expect(try logbook.entries().map(\.id) == [c, b, a])
        let october = try logbook.calendar(year: 2026, month: 10)
        #expect(october.map(\.day) == [3, 10])
        #expect(october[0].runCount == 2 && october[0].flights == [a, b] && october[0].distance == 8000)
        #expect(october[1].runCount == 1)
        // In Seoul (UTC+9) the evening run falls on the 4th.
        let seoul = try logbook.calendar(year: 2026, month: 10, utcOffset: 9 * 3600)
        #expect(seoul.map(\.day) == [3, 4, 10])
        #expect(try logbook.calendar(year: 2026, month: 11).isEmpty)
    }
}

@Suite("Logbook: unwritable storage, reprocess")
struct LogbookMaintenanceTests {
    @Test func storageThatCannotBeWrittenIsSaidAtStart() {
        // /proc cannot hold files: the same answer read-only storage gives.
        #expect {
            _ = try Logbook(path: "/proc/runway-logbook.sqlite")
        } throws: { error in
            (error as? StoreError) == .unwritable(path: "/proc/runway-logbook.sqlite")
        }
    }

    @Test func reprocessKeepsTheOriginalUnlessAskedToReplaceIt() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let (id, _, landed) = try record(.flat5k.ending(at: 1500), into: logbook)
        let copy = try #require(try logbook.reprocess(flight: id))
        #expect(copy != id)
        // One run counts once: the copy supersedes the original in listings and totals, and the
        // original stays reachable.
        #expect(try logbook.entries().map(\.id) == [copy])
        #expect(try logbook.entries(includingSuperseded: true).map(\.supersededBy) == [nil, copy])
        #expect(try logbook.flight(id: id) != nil)
        #expect(try logbook.splits(flight: copy) == landed?.splits)
        #expect(try logbook.rawInputs(flight: copy) == (try logbook.rawInputs(flight: id)))
        #expect(try logbook.reprocess(flight: id, replace: true) == id)
        #expect(try logbook.entries(includingSuperseded: true).count == 2)
        #expect(try logbook.splits(flight: id) == landed?.splits)
    }
}

@Suite("Recovery: a restart within the window continues the flight")
struct ResumeTests {
    @Test func aRestartWithinTheWindowContinuesTheSameFlight() throws {
        let scenario = Scenario.flat5k.ending(at: 2500)
        let path = temporaryLogbookPath()
        let yesterday: Int64
        do {
            // An older flight a cut left open the day before, then today's run, cut too.
            let logbook = try Logbook(path: path)
            let start = scenario.rotateTime - 86_400
            yesterday = try logbook.begin(startTime: start, mission: nil)
            try logbook.append(flight: yesterday, inputs: [.tick(start + 1)], until: start + 1)
        }
        let cut = try record(scenario, into: try Logbook(path: path), stopAfter: 1200)
        let all = ScenarioRunner.events(for: scenario).events
        // The device is back 30 s after the cut.
        let cutTime = try #require(cut.inputs.last?.time)
        let logbook = try Logbook(path: path)
        #expect(try logbook.resumableFlight(now: cutTime + 3600) == nil)  // too late: recover instead
        let startUp = try logbook.startUp(now: cutTime + 30)
        // Closed (flown under 100 m: not recorded, removed); today's run is not.
        #expect(startUp.recovered == [RecoveredFlight(id: yesterday, distance: 0, kept: false)])
        let resumed = try #require(startUp.resumed)
        #expect(resumed.id == cut.id)
        var computer = resumed.computer
        #expect(computer.isFlying)
        let recorder = FlightRecorder(logbook: logbook)
        recorder.resume(flight: resumed.id, at: cutTime + 30)
        var landed: Flight?
        for event in all where event.time > cutTime + 30 {
            switch event {
            case .input(let input):
                _ = computer.handle(input)
                recorder.record(input)
            case .end(let sentAt):
                if let flight = computer.end(sentAt: sentAt).result.flight {
                    try recorder.land(flight, configuration: computer.configuration)
                    landed = flight
                }
            }
        }
        let flight = try #require(landed)
        // One flight, finished, that ran through the 30 s outage (the runner kept going: the
        // signal-loss pause is taken back, the distance counted).
        let entries = try logbook.entries()
        #expect(entries.count == 1)
        #expect(entries.first?.id == cut.id && entries.first?.status == .finished)
        #expect(abs(flight.distance - 2500) < 2500 * 0.02)
        #expect(flight.splits.count == 3)
    }
}

@Suite("The recorder opens the flight at ROTATE, not at the first input after it")
struct RecorderStartTests {
    @Test func theFlightRowStartsAtRotateEvenWhenTheFirstInputComesLater() throws {
        let logbook = try Logbook(path: temporaryLogbookPath())
        let recorder = FlightRecorder(logbook: logbook)
        var computer = FlightComputer()
        let press = 1_800_000_000.0
        for input: EngineInput in [
            .start(at: press, mission: nil, countdown: true), .tick(press + 1), .tick(press + 2),
            .pressure(PressureSample(time: press + 3.4, pascals: 101_325)),  // first input after ROTATE
        ] {
            _ = recorder.take(.flew(input, computer.handle(input)), after: computer)
        }
        let id = try #require(recorder.flightID)
        #expect(
            try logbook.database.query("SELECT start_time FROM flights").first?.first?.double == press + 3)
        #expect(try logbook.recordedUntil(flight: id) == press + 3)  // nothing committed yet
    }
}
