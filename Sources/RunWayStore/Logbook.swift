import Glibc
import RunWayCore

/// How a flight in the logbook ended.
public enum LogbookStatus: String, Sendable, Equatable {
    case flying
    case finished
    /// Closed after a power cut, from everything recorded up to the cut.
    case recovered
    case tooShort = "too short"
}

/// One line of the logbook.
public struct LogbookEntry: Sendable, Equatable {
    public var id: Int64
    public var status: LogbookStatus
    public var startTime: Double
    public var distance: Double
    public var elapsed: Double
    public var movingTime: Double
}

/// The SQLite logbook, with `synchronous=FULL` and a rollback journal: a committed transaction
/// survives a power cut, and a cut never corrupts the file.
///
/// While a flight flies, its raw sensor log is committed every few seconds into a
/// `FlightJournal` beside the logbook (`<logbook>-rawlog`), not into SQLite: a durable SQLite
/// commit rewrites whole filesystem blocks and cost four times the SD card's write budget. The
/// journal's records move into `raw_log` at touchdown, when the journal fills, and when the
/// logbook is next opened after a power cut. The rest of SQLite's writes are then a few large
/// transactions, so the rollback journal (which copies only pages that existed before) writes
/// about half of what WAL would (every page twice: WAL, then checkpoint), and new logbooks use
/// 4 KB pages, which hold a raw-log row without overflow pages.
public final class Logbook {
    public let database: Database
    /// The raw-log journal's size; 0 commits the raw log straight into SQLite.
    public let journalCapacity: Int
    public static let defaultJournalCapacity = 4 * 1_048_576
    private var journal: FlightJournal?
    private var journalFailure: StoreError?
    private var nextSeq: [Int64: Int64] = [:]

    /// Where the raw-log journal lives.
    public var journalPath: String { Self.journalPath(forLogbook: database.path) }

    /// The raw-log journal beside the logbook at `path`.
    public static func journalPath(forLogbook path: String) -> String { path + "-rawlog" }

    /// Reads a logbook without checking or changing it (salvage).
    init(reading database: Database) {
        self.database = database
        journalCapacity = 0
    }

    /// Opens (creating if needed) and migrates. A logbook from a newer schema is refused and left
    /// untouched; a file that is not a healthy SQLite database is refused and kept.
    public init(path: String, journalCapacity: Int = Logbook.defaultJournalCapacity) throws(StoreError) {
        self.journalCapacity = journalCapacity
        do {
            database = try Database(path: path)
        } catch {
            throw Self.unwritable(error, path: path)
        }
        let version: Int
        let check: String?
        do {
            version = try database.query("PRAGMA user_version").first?.first?.int ?? 0
            // Health before any change: a damaged file is kept exactly as it is.
            check =
                version > Schema.version
                ? "ok" : try database.query("PRAGMA quick_check").first?.first?.string
        } catch {
            guard error.isCorrupt else { throw error }
            throw Self.damaged(error.message, path: path)
        }
        if version < 0 {
            // Four bytes of the header, written by something that is not RunWay.
            throw StoreError(
                code: 0, message: "not a RunWay logbook (schema version \(version)); nothing was changed",
                context: path)
        }
        if version > Schema.version {
            throw StoreError(
                code: 0,
                message: "written by a newer RunWay (schema \(version), this one knows \(Schema.version)); "
                    + "nothing was changed",
                context: path)
        }
        guard check == "ok" else { throw Self.damaged(check ?? "no answer", path: path) }
        if version == 0 { try database.execute("PRAGMA page_size = 4096") }
        do {
            // Logbooks written before the raw-log journal are WAL; DELETE converts them.
            try database.execute("PRAGMA journal_mode = DELETE")
        } catch {
            throw Self.unwritable(error, path: path)
        }
        try database.execute("PRAGMA synchronous = FULL")
        try database.execute("PRAGMA foreign_keys = ON")
        for index in version..<Schema.version {
            try database.transaction { () throws(StoreError) in
                try database.execute(Schema.migrations[index])
                try database.execute("PRAGMA user_version = \(index + 1)")
            }
        }
        // A power cut mid-flight leaves committed records in the journal: take them in first —
        // unless another process holds the journal, recording a flight right now.
        if access(journalPath, F_OK) == 0 {
            do {
                journal = try FlightJournal(path: journalPath, capacity: journalCapacity)
                try absorbJournal()
                journal = nil  // the lock is taken again when this logbook records
            } catch {
                guard error.code == 5 else { throw error }  // SQLITE_BUSY: the journal is locked
                recordingElsewhere = true
            }
        }
    }

    /// Another process was recording a flight into this logbook when it was opened: its open
    /// flight is live, not interrupted, so `recoverInterruptedFlights` leaves open flights alone.
    public private(set) var recordingElsewhere = false

    /// Opens the raw-log journal, creating it the first time (a one-time write of its whole
    /// size, so recording never grows a file; the daemon does this before takeoff). Returns why
    /// it cannot be had, if so — the raw log then commits straight into SQLite.
    @discardableResult
    public func prepareJournal() -> StoreError? {
        guard journal == nil, journalFailure == nil, journalCapacity > 0 else { return journalFailure }
        do {
            journal = try FlightJournal(path: journalPath, capacity: journalCapacity)
        } catch {
            journalFailure = error
        }
        return journalFailure
    }

    /// Whether raw-log commits bypass the page cache (nil: no journal).
    public var journalIsDirect: Bool? { journal?.direct }

    /// Moves every record the journal holds into `raw_log` (a record already there, or of a
    /// flight since deleted, is skipped), durably, then reuses the journal from its start —
    /// unless this runs inside a larger transaction, which may yet roll back: then the records
    /// stay in the journal too, and a later absorb takes them again (skipped as already there).
    func absorbJournal() throws(StoreError) {
        guard let journal else { return }
        let records = try journal.records()
        guard !records.isEmpty else { return }
        try database.transaction { () throws(StoreError) in
            for record in records {
                try database.query(
                    "INSERT OR IGNORE INTO raw_log (flight_id, seq, until, inputs) SELECT ?, ?, ?, ? "
                        + "WHERE EXISTS (SELECT 1 FROM flights WHERE id = ?)",
                    [
                        .integer(record.flight), .integer(record.seq), .real(record.until),
                        .text(record.inputs), .integer(record.flight),
                    ])
            }
        }
        if !database.inTransaction { try journal.restart() }
    }

    static func damaged(_ reason: String, path: String) -> StoreError {
        StoreError(
            code: 11,
            message: "the file is damaged (\(reason)); it was kept as it is, and "
                + "`runway salvage \(path) --to NEW` copies every flight that can still be read",
            context: path)
    }

    /// Read-only storage (or a folder that cannot be written) said plainly, at start.
    static func unwritable(_ error: StoreError, path: String) -> StoreError {
        let code = error.code & 0xFF
        guard code == 8 || code == 14 else { return error }  // SQLITE_READONLY, SQLITE_CANTOPEN
        return StoreError(
            code: error.code,
            message:
                "cannot be written (read-only storage, or a folder that does not exist or is not writable); "
                + "nothing can be recorded there",
            context: path)
    }

    public var schemaVersion: Int { (try? database.query("PRAGMA user_version").first?.first?.int) ?? 0 }

    // MARK: Recording as it flies

    /// Opens a flight row at ROTATE; the raw log follows in `append`.
    public func begin(startTime: Double, mission: Mission?, source: String = "live") throws(StoreError)
        -> Int64
    {
        try database.query(
            "INSERT INTO flights (status, start_time, target_pace, allowed_deviation, target_distance, source) "
                + "VALUES ('flying', ?, ?, ?, ?, ?)",
            [
                .real(startTime), mission.map { .real($0.targetPace) } ?? .null,
                mission.map { .real($0.allowedDeviation) } ?? .null,
                mission.map { .real($0.targetDistance) } ?? .null, .text(source),
            ])
        return database.lastInsertID
    }

    /// Commits one batch of raw inputs durably: one record in the raw-log journal (absorbed into
    /// SQLite first when the journal is full), or one `raw_log` row where there is no journal.
    public func append(flight id: Int64, inputs: [EngineInput], until: Double) throws(StoreError) {
        guard !inputs.isEmpty else { return }
        let seq: Int64
        if let next = nextSeq[id] { seq = next } else { seq = try nextRawLogSeq(flight: id) }
        let record = FlightJournal.Record(flight: id, seq: seq, until: until, inputs: RawLog.encode(inputs))
        prepareJournal()
        for attempt in 0..<2 {
            guard let journal else { break }
            // Full: its records move into SQLite, and it starts over.
            if attempt == 1 { try absorbJournal() }
            do {
                if try journal.append(record) {
                    nextSeq[id] = seq + 1
                    return
                }
            } catch {
                guard !error.isDiskFull else { throw error }
                // The journal's device failed: what it holds goes into SQLite if it still
                // reads (else it waits in the file for the next open), and the raw log
                // commits straight into SQLite from now on.
                try? absorbJournal()
                self.journal = nil
                journalFailure = error
            }
        }
        try database.query(
            "INSERT INTO raw_log (flight_id, seq, until, inputs) VALUES (?, ?, ?, ?)",
            [.integer(id), .integer(seq), .real(until), .text(record.inputs)])
        nextSeq[id] = seq + 1
    }

    private func nextRawLogSeq(flight id: Int64) throws(StoreError) -> Int64 {
        let rows = try database.query(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM raw_log WHERE flight_id = ?", [.integer(id)])
        return Int64(rows.first?.first?.int ?? 1)
    }

    /// The flight time up to which a flight's raw log is committed (its start when nothing is).
    public func recordedUntil(flight id: Int64) throws(StoreError) -> Double? {
        try absorbJournal()
        return try database.query(
            "SELECT COALESCE((SELECT MAX(until) FROM raw_log WHERE flight_id = f.id), f.start_time) "
                + "FROM flights f WHERE f.id = ?", [.integer(id)]
        ).first?.first?.double
    }

    /// The raw inputs recorded for a flight, in order.
    public func rawInputs(flight id: Int64) throws(StoreError) -> [EngineInput] {
        try absorbJournal()
        return try database.query(
            "SELECT inputs FROM raw_log WHERE flight_id = ? ORDER BY seq", [.integer(id)]
        )
        .flatMap { RawLog.decode($0.first?.string ?? "") }
    }

    /// Writes the landed flight's derived data and status in one transaction.
    public func finish(flight id: Int64, with flight: Flight, status: LogbookStatus? = nil) throws(StoreError)
    {
        let final = status ?? (flight.status == .tooShort ? .tooShort : .finished)
        try absorbJournal()  // the raw log first: a cut before the derived data means recovery
        try database.transaction { () throws(StoreError) in
            for table in ["splits", "samples", "route_points", "alerts"] {
                try database.query("DELETE FROM \(table) WHERE flight_id = ?", [.integer(id)])
            }
            try database.query(
                "UPDATE flights SET status = ?, end_time = ?, distance_m = ?, elapsed_s = ?, moving_s = ?, "
                    + "dropped_tail_m = ?, avg_heart_rate = ?, avg_cadence = ?, engine_version = \(Schema.engineVersion) "
                    + "WHERE id = ?",
                [
                    .text(final.rawValue), .real(flight.endTime), .real(flight.distance),
                    .real(flight.elapsed),
                    .real(flight.movingTime), .real(flight.droppedTail), Self.value(flight.averageHeartRate),
                    Self.value(flight.averageCadence), .integer(id),
                ])
            for split in flight.splits {
                try database.query(
                    "INSERT INTO splits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(id), .integer(Int64(split.order)), .real(split.distance),
                        .real(split.movingDuration),
                        .real(split.elapsedDuration), .real(split.elapsedEnd), Self.value(split.heartRate),
                        Self.value(split.cadence), .real(split.elevationGain),
                    ])
            }
            for s in flight.samples {
                try database.query(
                    "INSERT INTO samples VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(id), .real(s.elapsed), .real(s.distance), Self.value(s.pace),
                        Self.value(s.heartRate),
                        Self.value(s.cadence), Self.value(s.altitude), Self.value(s.heading),
                        .integer(s.paused ? 1 : 0),
                    ])
            }
            for (simplified, route) in [(0, flight.route), (1, flight.simplifiedRoute)] {
                for (seq, point) in route.points.enumerated() {
                    try database.query(
                        "INSERT INTO route_points VALUES (?, ?, ?, ?, ?, ?)",
                        [
                            .integer(id), .integer(Int64(simplified)), .integer(Int64(seq)),
                            .real(point.elapsed),
                            .real(point.coordinate.latitude), .real(point.coordinate.longitude),
                        ])
                }
            }
            for alert in flight.alerts {
                try database.query(
                    "INSERT INTO alerts VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .integer(id), .text(alert.kind.rawValue), .real(alert.startElapsed),
                        Self.value(alert.endElapsed),
                        Self.value(alert.coordinate?.latitude), Self.value(alert.coordinate?.longitude),
                    ])
            }
        }
    }

    static func value(_ v: Double?) -> SQLValue { v.map { .real($0) } ?? .null }

    /// A flight row's mission columns (no target pace: a free flight).
    static func mission(pace: SQLValue, deviation: SQLValue, distance: SQLValue) -> Mission? {
        pace.double.map {
            Mission(
                targetPace: $0, allowedDeviation: deviation.double ?? 15, targetDistance: distance.double ?? 0
            )
        }
    }

    // MARK: Recovery and reprocessing

    /// Flies a stored flight again from its raw log with `configuration`'s engine.
    public func replay(flight id: Int64, configuration: EngineConfiguration = EngineConfiguration())
        throws(StoreError)
        -> Flight?
    {
        guard var computer = try rebuiltEngine(flight: id, configuration: configuration) else { return nil }
        return computer.end(sentAt: nil).result.flight
    }

    /// An engine that has flown a stored flight's raw log from its start (with its mission),
    /// not yet landed: what recovery, reprocessing and resuming all start from.
    func rebuiltEngine(flight id: Int64, configuration: EngineConfiguration) throws(StoreError)
        -> FlightComputer?
    {
        guard
            let row = try database.query(
                "SELECT start_time, target_pace, allowed_deviation, target_distance FROM flights WHERE id = ?",
                [.integer(id)]
            ).first
        else { return nil }
        return Self.flown(
            start: row[0].double ?? 0,
            mission: Self.mission(pace: row[1], deviation: row[2], distance: row[3]),
            inputs: try rawInputs(flight: id), configuration: configuration)
    }

    /// An engine that took off at `start` and was given `inputs`, not yet landed.
    static func flown(
        start: Double, mission: Mission?, inputs: [EngineInput], configuration: EngineConfiguration
    ) -> FlightComputer {
        var computer = FlightComputer(configuration: configuration)
        _ = computer.handle(.start(at: start, mission: mission, countdown: false))
        ReplayTicker.fly(inputs, into: &computer)
        return computer
    }

    /// Closes every flight left "flying" by a power cut: its raw log is flown again and stored as
    /// recovered (or too short). Returns the ids it closed.
    @discardableResult
    public func recoverInterruptedFlights(
        except kept: Int64? = nil, configuration: EngineConfiguration = EngineConfiguration()
    ) throws(StoreError) -> [Int64] {
        guard !recordingElsewhere else { return [] }
        let rows = try database.query("SELECT id FROM flights WHERE status = 'flying' ORDER BY id")
        let open: [Int64] = rows.compactMap { $0.first?.int.map(Int64.init) }
        let ids = open.filter { $0 != kept }
        for id in ids {
            if let flight = try replay(flight: id, configuration: configuration) {
                try finish(
                    flight: id, with: flight, status: flight.status == .tooShort ? .tooShort : .recovered)
            } else {
                try database.query("UPDATE flights SET status = 'too short' WHERE id = ?", [.integer(id)])
            }
        }
        return ids
    }

    // MARK: Queries

    /// Most recent first.
    public func entries() throws(StoreError) -> [LogbookEntry] {
        try database.query(
            "SELECT id, status, start_time, distance_m, elapsed_s, moving_s FROM flights ORDER BY start_time DESC, id DESC"
        ).map { row in
            LogbookEntry(
                id: Int64(row[0].int ?? 0), status: LogbookStatus(rawValue: row[1].string ?? "") ?? .flying,
                startTime: row[2].double ?? 0, distance: row[3].double ?? 0, elapsed: row[4].double ?? 0,
                movingTime: row[5].double ?? 0)
        }
    }

    public func splits(flight id: Int64) throws(StoreError) -> [Split] {
        try database.query("SELECT * FROM splits WHERE flight_id = ? ORDER BY ord", [.integer(id)]).map { r in
            Split(
                order: r[1].int ?? 0, distance: r[2].double ?? 0, movingDuration: r[3].double ?? 0,
                elapsedDuration: r[4].double ?? 0, elapsedEnd: r[5].double ?? 0, heartRate: r[6].double,
                cadence: r[7].double, elevationGain: r[8].double ?? 0)
        }
    }

    public func delete(flight id: Int64) throws(StoreError) {
        try absorbJournal()  // so none of its journal records outlive it
        try database.query("DELETE FROM flights WHERE id = ?", [.integer(id)])
    }
}

/// One day of the Flight Calendar.
public struct CalendarDay: Sendable, Equatable {
    public var day: Int
    public var distance: Double
    public var flights: [Int64]

    public var runCount: Int { flights.count }
}

extension Logbook {
    /// A month of the Flight Calendar: per day with flights, total distance and the flights, in
    /// the runner's local time (`utcOffset` seconds east of UTC). Too-short flights are not runs.
    public func calendar(year: Int, month: Int, utcOffset: Int = 0) throws(StoreError) -> [CalendarDay] {
        let first = UTCTime.parse("\(UTCTime.pad(year, 4))-\(UTCTime.pad(month, 2))-01T00:00:00Z") ?? 0
        let next =
            month == 12
            ? UTCTime.parse("\(UTCTime.pad(year + 1, 4))-01-01T00:00:00Z") ?? 0
            : UTCTime.parse("\(UTCTime.pad(year, 4))-\(UTCTime.pad(month + 1, 2))-01T00:00:00Z") ?? 0
        let rows = try database.query(
            "SELECT id, start_time + ?, distance_m FROM flights WHERE start_time + ? >= ? AND start_time + ? < ? "
                + "AND status IN ('finished', 'recovered') ORDER BY start_time",
            [
                .integer(Int64(utcOffset)), .integer(Int64(utcOffset)), .real(first),
                .integer(Int64(utcOffset)),
                .real(next),
            ])
        var days: [Int: CalendarDay] = [:]
        for row in rows {
            let local = row[1].double ?? 0
            let day = Int((local - first) / 86_400) + 1
            days[day, default: CalendarDay(day: day, distance: 0, flights: [])].distance += row[2].double ?? 0
            days[day]?.flights.append(Int64(row[0].int ?? 0))
        }
        return days.values.sorted { $0.day < $1.day }
    }

    /// Stores a flight flown from a recorded trace, with its raw inputs, so it can be flown again.
    @discardableResult
    public func save(_ flight: Flight, inputs: [EngineInput], source: String) throws(StoreError) -> Int64 {
        let id = try begin(startTime: flight.startTime, mission: flight.mission, source: source)
        try append(flight: id, inputs: inputs, until: flight.endTime)
        try finish(flight: id, with: flight)
        return id
    }
}

extension Logbook {
    /// Flies a stored flight again with the current engine. By default the result is stored as a
    /// new flight (`replaces` the original, which is kept, with a copy of its raw log); with
    /// `replace` the original's derived data is rewritten in place. Returns the id written.
    @discardableResult
    public func reprocess(
        flight id: Int64, replace: Bool = false, configuration: EngineConfiguration = EngineConfiguration()
    ) throws(StoreError) -> Int64? {
        guard let flight = try replay(flight: id, configuration: configuration) else { return nil }
        if replace {
            try finish(flight: id, with: flight)
            return id
        }
        return try database.transaction { () throws(StoreError) -> Int64 in
            let copy = try begin(
                startTime: flight.startTime, mission: flight.mission, source: "reprocess of \(id)")
            try database.query(
                "UPDATE flights SET replaces = ? WHERE id = ?", [.integer(id), .integer(copy)])
            try database.query(
                "INSERT INTO raw_log (flight_id, seq, until, inputs) SELECT ?, seq, until, inputs FROM raw_log "
                    + "WHERE flight_id = ?", [.integer(copy), .integer(id)])
            try finish(flight: copy, with: flight)
            return copy
        }
    }
}

/// What the logbook held when the device came up (see `Logbook.startUp`).
public struct StartUp {
    /// The flight a restart mid-run continues, with its engine rebuilt from the raw log.
    public var resumed: (id: Int64, computer: FlightComputer)?
    /// Open flights too old to continue, closed as recovered (or too short).
    public var recovered: [Int64]
}

extension Logbook {
    /// The start-up decision for flights a power cut left open, in one call so they cannot be
    /// taken in the wrong order: the newest open flight whose raw log reaches within `window`
    /// seconds of `now` (GPS time, so call it once the first fix is in) is continued; every
    /// other open flight is closed from its raw log. Record the continued flight with
    /// `FlightRecorder.resume(flight:at:)` and feed its engine from the next input on.
    public func startUp(
        now: Double, window: Double = 600, configuration: EngineConfiguration = EngineConfiguration()
    ) throws(StoreError) -> StartUp {
        let resumed = try resumableFlight(now: now, window: window, configuration: configuration)
        let recovered = try recoverInterruptedFlights(except: resumed?.id, configuration: configuration)
        return StartUp(resumed: resumed, recovered: recovered)
    }

    /// A flight left "flying" whose raw log reaches within `window` seconds of `now` — the device
    /// restarted mid-run — can be continued: its engine is rebuilt by flying the raw log again,
    /// without landing. Older open flights are for `recoverInterruptedFlights`.
    public func resumableFlight(
        now: Double, window: Double = 600, configuration: EngineConfiguration = EngineConfiguration()
    ) throws(StoreError) -> (id: Int64, computer: FlightComputer)? {
        guard
            let id = try database.query(
                "SELECT id FROM flights WHERE status = 'flying' ORDER BY id DESC LIMIT 1"
            )
            .first?.first?.int.map(Int64.init),
            let until = try recordedUntil(flight: id), now - until <= window, now >= until,
            let computer = try rebuiltEngine(flight: id, configuration: configuration)
        else { return nil }
        return (id, computer)
    }
}

/// One flight as the logbook holds it: the engine's `Flight` read back whole (summary, splits,
/// alerts, FDR samples, full and simplified route), and how it came to be there.
public struct LoggedFlight: Sendable, Equatable {
    public var id: Int64
    public var status: LogbookStatus
    /// `live`, `demo`, `fly <file>`, `reprocess of <id>`, …
    public var source: String
    /// The flight this one was reprocessed from.
    public var replaces: Int64?
    /// The engine whose rules computed the derived data.
    public var engineVersion: Int
    public var flight: Flight
}

extension Logbook {
    /// One flight, whole; nil when there is no such flight. A flight still flying has its start
    /// and mission but no derived data yet (that comes at touchdown or recovery).
    public func flight(id: Int64) throws(StoreError) -> LoggedFlight? {
        guard
            let row = try database.query(
                "SELECT status, target_pace, allowed_deviation, target_distance, start_time, end_time, "
                    + "distance_m, elapsed_s, moving_s, dropped_tail_m, avg_heart_rate, avg_cadence, source, "
                    + "replaces, engine_version FROM flights WHERE id = ?", [.integer(id)]
            ).first
        else { return nil }
        let key: [SQLValue] = [.integer(id)]
        let samples = try database.query(
            "SELECT elapsed_s, distance_m, pace, heart_rate, cadence, altitude, heading, paused FROM samples "
                + "WHERE flight_id = ? ORDER BY elapsed_s", key
        ).map { r in
            FDRSample(
                elapsed: r[0].double ?? 0, distance: r[1].double ?? 0, pace: r[2].double,
                heartRate: r[3].double,
                cadence: r[4].double, altitude: r[5].double, heading: r[6].double, paused: r[7].int == 1)
        }
        var routes: [Route] = []
        for simplified in [0, 1] {
            let points = try database.query(
                "SELECT elapsed_s, lat, lon FROM route_points WHERE flight_id = ? AND simplified = ? ORDER BY seq",
                [.integer(id), .integer(Int64(simplified))]
            ).map { r in
                RoutePoint(
                    elapsed: r[0].double ?? 0,
                    coordinate: Coordinate(latitude: r[1].double ?? 0, longitude: r[2].double ?? 0))
            }
            routes.append(Route(points: points))
        }
        let alerts = try database.query(
            "SELECT kind, start_elapsed_s, end_elapsed_s, lat, lon FROM alerts WHERE flight_id = ? ORDER BY rowid",
            key
        ).compactMap { r -> AlertEpisode? in
            guard let kind = GPWSAlert(rawValue: r[0].string ?? "") else { return nil }
            let coordinate = r[3].double.flatMap { lat in
                r[4].double.map { Coordinate(latitude: lat, longitude: $0) }
            }
            return AlertEpisode(
                kind: kind, startElapsed: r[1].double ?? 0, endElapsed: r[2].double, coordinate: coordinate)
        }
        let mission = Self.mission(pace: row[1], deviation: row[2], distance: row[3])
        let start = row[4].double ?? 0
        let flight = Flight(
            mission: mission, startTime: start, endTime: row[5].double ?? start, distance: row[6].double ?? 0,
            elapsed: row[7].double ?? 0, movingTime: row[8].double ?? 0, splits: try splits(flight: id),
            droppedTail: row[9].double ?? 0, samples: samples, route: routes[0], simplifiedRoute: routes[1],
            alerts: alerts, averageHeartRate: row[10].double, averageCadence: row[11].double)
        return LoggedFlight(
            id: id, status: LogbookStatus(rawValue: row[0].string ?? "") ?? .flying,
            source: row[12].string ?? "",
            replaces: row[13].int.map(Int64.init), engineVersion: row[14].int ?? 1, flight: flight)
    }
}
