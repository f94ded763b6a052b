import RunWayCore

/// One line of the logbook.
public struct LogbookEntry: Sendable, Equatable {
    public var id: Int64
    public var status: LogbookStatus
    public var startTime: Double
    public var distance: Double
    public var elapsed: Double
    public var movingTime: Double
    /// The flight this one was reprocessed from.
    public var replaces: Int64? = nil
    /// A newer flight reprocessed from this one: this one no longer counts in totals.
    public var supersededBy: Int64? = nil
    /// What was wrong with its stored summary, and what reading it cost (empty: nothing).
    public var damage: [RowDamage] = []
}

/// One day of the Flight Calendar.
public struct CalendarDay: Sendable, Equatable {
    public var day: Int
    public var distance: Double
    public var flights: [Int64]

    public var runCount: Int { flights.count }
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
    /// Holes in the raw log (records damaged on the card): the flight flew across them.
    public var rawLogGaps: [RawLogGap] = []
    /// Impossible stored values met reading it, and what each cost (empty: nothing).
    public var damage: [RowDamage] = []
}

/// A stored row read back by column name, each value checked as a live one is: a required value
/// that is missing or impossible means the row is damaged (said with the flight and column); an
/// optional one that is impossible reads as missing, as a live sensor's would. What was found is
/// written down in `log` (when given), with what it cost.
struct LogbookRow {
    let row: Row
    let path: String
    let flight: Int64?
    /// What the row is, in words ("sample", "route point", "summary").
    let kind: String
    let log: DamageLog?

    init(_ row: Row, path: String, flight: Int64?, kind: String = "row", log: DamageLog? = nil) {
        self.row = row
        self.path = path
        self.flight = flight
        self.kind = kind
        self.log = log
    }

    /// Not before the Unix epoch nor after GPS time's plausible end (tests fly at small times).
    static let time: ClosedRange<Double> = 0...GPSReport.timeRange.upperBound
    static let duration: ClosedRange<Double> = 0...10_000_000
    static let distance: ClosedRange<Double> = 0...10_000_000
    static let heartRate: ClosedRange<Double> = 20...250
    static let cadence: ClosedRange<Double> = 0...300
    static let pace: ClosedRange<Double> = 1...36_000
    static let altitude: ClosedRange<Double> = -10_000...10_000
    static let heading: ClosedRange<Double> = 0...360
    /// A mission's allowed deviation, s/km (no parser takes more than minutes).
    static let deviation: ClosedRange<Double> = 0...3_600
    static let any: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude

    func number(_ column: String, in range: ClosedRange<Double> = any) throws(StoreError) -> Double {
        guard let value = row[column].double, value.isFinite, range.contains(value) else {
            log?.failed = (column, describe(row[column]))
            let which = flight.map { "flight \($0)" } ?? "a row"
            throw .damaged(reason: "\(which) has \(column) = \(describe(row[column]))", path: path)
        }
        return value
    }

    /// The value, or nil when it is NULL or impossible (written down as damage).
    func optional(_ column: String, in range: ClosedRange<Double> = any) -> Double? {
        guard let value = row[column].double, value.isFinite, range.contains(value) else {
            if row[column] != .null { record(column, cost: .valueMissing) }
            return nil
        }
        return value
    }

    func integer(_ column: String) throws(StoreError) -> Int64 {
        guard let value = row[column].int else {
            log?.failed = (column, describe(row[column]))
            throw .damaged(reason: "\(column) = \(describe(row[column]))", path: path)
        }
        return Int64(value)
    }

    func status() throws(StoreError) -> LogbookStatus {
        guard let status = row["status"].string.flatMap(LogbookStatus.init(rawValue:)) else {
            log?.failed = ("status", describe(row["status"]))
            throw .damaged(
                reason: "flight \(flight ?? 0) has status = \(describe(row["status"]))", path: path)
        }
        return status
    }

    /// Writes down what the value of `column` cost.
    func record(_ column: String, cost: RowDamage.Cost) {
        log?.add(
            RowDamage(flight: flight, row: kind, column: column, value: describe(row[column]), cost: cost))
    }

    /// Writes down what the last value that failed to read cost (its row, or its flight).
    func recordFailure(cost: RowDamage.Cost) {
        guard let log, let (column, value) = log.failed else { return }
        log.add(RowDamage(flight: flight, row: kind, column: column, value: value, cost: cost))
        log.failed = nil
    }

    /// `body`'s value, or nil when a value of the row is impossible: the row is left out, said.
    func reading<T>(_ body: () throws(StoreError) -> T) -> T? {
        do {
            return try body()
        } catch {
            recordFailure(cost: .rowLeftOut)
            return nil
        }
    }

    private func describe(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let v): "\(v)"
        case .real(let v): "\(v)"
        case .text(let s): "'\(s.prefix(40))'"
        }
    }
}

extension Logbook {
    /// Most recent first. A flight superseded by a reprocessed one is left out unless asked for
    /// (it stays reachable by its id), so one run counts once. A flight whose stored summary
    /// holds an impossible value is flown again from its raw sensor log (or, without one, left
    /// out); either way it is said in its entry's and the logbook's `damage`, and no other flight
    /// pays for it.
    public func entries(includingSuperseded: Bool = false) throws(StoreError) -> [LogbookEntry] {
        let rows = try database.query(
            "SELECT f.id, f.status, f.start_time, f.distance_m, f.elapsed_s, f.moving_s, f.replaces, "
                + "(SELECT MAX(n.id) FROM flights n WHERE n.replaces = f.id AND n.status != 'flying') AS superseded_by "
                + "FROM flights f ORDER BY f.start_time DESC, f.id DESC")
        var entries: [LogbookEntry] = []
        for row in rows {
            guard let id = row["id"].int.map(Int64.init) else { continue }  // the rowid: always an integer
            let found = DamageLog()
            let r = LogbookRow(row, path: path, flight: id, kind: "summary", log: found)
            var entry: LogbookEntry
            do {
                entry = LogbookEntry(
                    id: id, status: try r.status(),
                    startTime: try r.number("start_time", in: LogbookRow.time),
                    distance: try r.number("distance_m", in: LogbookRow.distance),
                    elapsed: try r.number("elapsed_s", in: LogbookRow.duration),
                    movingTime: try r.number("moving_s", in: LogbookRow.duration))
            } catch {
                guard let flight = try flownAgain(r, error: error) else { continue }
                entry = LogbookEntry(
                    id: id, status: (try? r.status()) ?? .recovered, startTime: flight.startTime,
                    distance: flight.distance, elapsed: flight.elapsed, movingTime: flight.movingTime)
            }
            entry.replaces = row["replaces"].int.map(Int64.init)
            entry.supersededBy = row["superseded_by"].int.map(Int64.init)
            entry.damage = found.entries
            damageLog.merge(found.entries)
            if includingSuperseded || entry.supersededBy == nil { entries.append(entry) }
        }
        entries.sort { ($0.startTime, $0.id) > ($1.startTime, $1.id) }  // a flown-again start may differ
        return entries
    }

    /// A flight whose stored summary does not read (`error`), flown again from its raw sensor
    /// log in memory (nothing is written): said as `flownAgain`; nil, said as `flightLeftOut`,
    /// when it has no raw log to fly.
    func flownAgain(_ r: LogbookRow, error: StoreError) throws(StoreError) -> Flight? {
        guard let id = r.flight, let log = r.log else { throw error }
        let failed = log.failed
        var flight: Flight?
        if !(try rawInputs(flight: id).isEmpty),
            var computer = try rebuiltEngine(flight: id, configuration: EngineConfiguration(), log: log)
        {
            flight = computer.end(sentAt: nil).result.flight
        }
        log.failed = failed
        guard let flight else {
            r.recordFailure(cost: .flightLeftOut)
            damageLog.merge(log.entries)
            return nil
        }
        r.recordFailure(cost: .flownAgain)
        return flight
    }

    /// A flight's splits; a split with an impossible value is left out (said in `log`).
    public func splits(flight id: Int64) throws(StoreError) -> [Split] {
        try splits(flight: id, log: damageLog)
    }

    func splits(flight id: Int64, log: DamageLog) throws(StoreError) -> [Split] {
        var splits: [Split] = []
        for row in try database.query(
            "SELECT ord, distance_m, moving_s, elapsed_s, elapsed_end_s, heart_rate, cadence, elevation_gain_m "
                + "FROM splits WHERE flight_id = ? ORDER BY ord", [.integer(id)])
        {
            let r = LogbookRow(row, path: path, flight: id, kind: "split", log: log)
            let split = r.reading { () throws(StoreError) in
                Split(
                    order: Int(try r.integer("ord")), distance: try r.number("distance_m", in: 0...1_001),
                    movingDuration: try r.number("moving_s", in: LogbookRow.duration),
                    elapsedDuration: try r.number("elapsed_s", in: LogbookRow.duration),
                    elapsedEnd: try r.number("elapsed_end_s", in: LogbookRow.duration),
                    heartRate: r.optional("heart_rate", in: LogbookRow.heartRate),
                    cadence: r.optional("cadence", in: LogbookRow.cadence),
                    elevationGain: try r.number("elevation_gain_m", in: 0...100_000))
            }
            if let split { splits.append(split) }
        }
        return splits
    }

    /// Rows per table, for the bench and a maintainer's look at a logbook's size.
    public func tableSizes() throws(StoreError) -> [String: Int] {
        var sizes: [String: Int] = [:]
        for table in ["flights", "splits", "samples", "route_points", "alerts", "raw_log"] {
            sizes[table] = try database.query("SELECT COUNT(*) AS n FROM \(table)").first?["n"].int ?? 0
        }
        return sizes
    }

    /// Deletes a flight and everything recorded for it.
    public func delete(flight id: Int64) throws(StoreError) {
        try discard(flight: id)
    }

    /// A month of the Flight Calendar: per day with flights, total distance and the flights, in
    /// the runner's local time (`utcOffset` seconds east of UTC). Too-short and superseded
    /// flights are not runs.
    public func calendar(year: Int, month: Int, utcOffset: Int = 0) throws(StoreError) -> [CalendarDay] {
        let first = UTCTime.parse("\(UTCTime.pad(year, 4))-\(UTCTime.pad(month, 2))-01T00:00:00Z") ?? 0
        let next =
            month == 12
            ? UTCTime.parse("\(UTCTime.pad(year + 1, 4))-01-01T00:00:00Z") ?? 0
            : UTCTime.parse("\(UTCTime.pad(year, 4))-\(UTCTime.pad(month + 1, 2))-01T00:00:00Z") ?? 0
        var days: [Int: CalendarDay] = [:]
        for entry in try entries().reversed() where entry.status == .finished || entry.status == .recovered {
            let local = entry.startTime + Double(utcOffset)
            guard local >= first, local < next else { continue }
            let day = Int((local - first) / 86_400) + 1
            days[day, default: CalendarDay(day: day, distance: 0, flights: [])].distance += entry.distance
            days[day]?.flights.append(entry.id)
        }
        return days.values.sorted { $0.day < $1.day }
    }

    /// One flight, whole; nil when there is no such flight. A flight still flying has its start
    /// and mission but no derived data yet (that comes at touchdown or recovery).
    public func flight(id: Int64) throws(StoreError) -> LoggedFlight? {
        try flight(id: id, readingRawLog: true)
    }

    /// `flight(id:)`; without `readingRawLog` its raw-log gaps are not looked for, nor is a
    /// damaged summary flown again (salvage reads the derived data of a flight whose raw log is
    /// damaged). A sample, route point, split, alert or pause with an impossible value is left
    /// out; a summary with one is flown again from the raw log — or, without one, the flight
    /// does not read (`damaged`). Each is said in the flight's `damage`.
    func flight(id: Int64, readingRawLog: Bool) throws(StoreError) -> LoggedFlight? {
        guard
            let row = try database.query(
                "SELECT status, target_pace, allowed_deviation, target_distance, start_time, end_time, "
                    + "distance_m, elapsed_s, moving_s, dropped_tail_m, avg_heart_rate, avg_cadence, source, "
                    + "replaces, engine_version, elevation_source, elevation_loss_m, altitude_min_m, altitude_max_m "
                    + "FROM flights WHERE id = ?", [.integer(id)]
            ).first
        else { return nil }
        let found = DamageLog()
        defer { damageLog.merge(found.entries) }
        let r = LogbookRow(row, path: path, flight: id, kind: "summary", log: found)
        let engineVersion = row["engine_version"].int ?? 1
        var flight: Flight
        var status: LogbookStatus
        do {
            status = try r.status()
            flight = try storedFlight(r, engineVersion: engineVersion)
        } catch {
            guard readingRawLog, let flown = try flownAgain(r, error: error) else { throw error }
            flight = flown
            status = (try? r.status()) ?? .recovered
        }
        return LoggedFlight(
            id: id, status: status, source: row["source"].string ?? "",
            replaces: row["replaces"].int.map(Int64.init), engineVersion: engineVersion,
            flight: flight, rawLogGaps: readingRawLog ? try rawLogGaps(flight: id) : [], damage: found.entries
        )
    }

    /// A flight as stored: its summary row `r` and its derived rows.
    private func storedFlight(_ r: LogbookRow, engineVersion: Int) throws(StoreError) -> Flight {
        let id = r.flight ?? 0
        let log = r.log ?? damageLog
        let start = try r.number("start_time", in: LogbookRow.time)
        let distance = try r.number("distance_m", in: LogbookRow.distance)
        let elapsed = try r.number("elapsed_s", in: LogbookRow.duration)
        let moving = try r.number("moving_s", in: LogbookRow.duration)
        let droppedTail = try r.number("dropped_tail_m", in: LogbookRow.distance)
        let samples = try storedSamples(flight: id, log: log)
        var pauses = try storedPauses(flight: id, log: log)
        if engineVersion < 2 { pauses = Self.pauses(fromSamples: samples) }
        return Flight(
            mission: Self.mission(r), startTime: start,
            endTime: r.optional("end_time", in: LogbookRow.time) ?? start, distance: distance,
            elapsed: elapsed, movingTime: moving, splits: try splits(flight: id, log: log),
            droppedTail: droppedTail, samples: samples,
            route: try storedRoute(flight: id, simplified: false, log: log),
            simplifiedRoute: try storedRoute(flight: id, simplified: true, log: log),
            alerts: try storedAlerts(flight: id, log: log),
            averageHeartRate: r.optional("avg_heart_rate", in: LogbookRow.heartRate),
            averageCadence: r.optional("avg_cadence", in: LogbookRow.cadence), pauses: pauses,
            elevation: Self.elevation(r, engineVersion: engineVersion, samples: samples))
    }

    private func storedSamples(flight id: Int64, log: DamageLog) throws(StoreError) -> [FDRSample] {
        var samples: [FDRSample] = []
        for sample in try database.query(
            "SELECT elapsed_s, distance_m, pace, heart_rate, cadence, altitude, heading, paused FROM samples "
                + "WHERE flight_id = ? ORDER BY elapsed_s", [.integer(id)])
        {
            let s = LogbookRow(sample, path: path, flight: id, kind: "sample", log: log)
            let read = s.reading { () throws(StoreError) in
                FDRSample(
                    elapsed: try s.number("elapsed_s", in: LogbookRow.duration),
                    distance: try s.number("distance_m", in: LogbookRow.distance),
                    pace: s.optional("pace", in: LogbookRow.pace),
                    heartRate: s.optional("heart_rate", in: LogbookRow.heartRate),
                    cadence: s.optional("cadence", in: LogbookRow.cadence),
                    altitude: s.optional("altitude", in: LogbookRow.altitude),
                    heading: s.optional("heading", in: LogbookRow.heading), paused: sample["paused"].int == 1)
            }
            if let read { samples.append(read) }
        }
        return samples
    }

    private func storedRoute(flight id: Int64, simplified: Bool, log: DamageLog) throws(StoreError) -> Route {
        var points: [RoutePoint] = []
        for point in try database.query(
            "SELECT elapsed_s, lat, lon FROM route_points WHERE flight_id = ? AND simplified = ? ORDER BY seq",
            [.integer(id), .integer(simplified ? 1 : 0)])
        {
            let p = LogbookRow(
                point, path: path, flight: id, kind: simplified ? "simplified route point" : "route point",
                log: log)
            let read = p.reading { () throws(StoreError) in
                RoutePoint(
                    elapsed: try p.number("elapsed_s", in: LogbookRow.duration),
                    coordinate: Coordinate(
                        latitude: try p.number("lat", in: -90...90),
                        longitude: try p.number("lon", in: -180...180)))
            }
            if let read { points.append(read) }
        }
        return Route(points: points)
    }

    private func storedAlerts(flight id: Int64, log: DamageLog) throws(StoreError) -> [AlertEpisode] {
        var alerts: [AlertEpisode] = []
        for alert in try database.query(
            "SELECT kind, start_elapsed_s, end_elapsed_s, lat, lon FROM alerts WHERE flight_id = ? ORDER BY rowid",
            [.integer(id)])
        {
            let a = LogbookRow(alert, path: path, flight: id, kind: "alert", log: log)
            guard let kind = alert["kind"].string.flatMap(GPWSAlert.init(rawValue:)) else { continue }
            let coordinate = a.optional("lat", in: -90...90).flatMap { lat in
                a.optional("lon", in: -180...180).map { Coordinate(latitude: lat, longitude: $0) }
            }
            let read = a.reading { () throws(StoreError) in
                AlertEpisode(
                    kind: kind, startElapsed: try a.number("start_elapsed_s", in: LogbookRow.duration),
                    endElapsed: a.optional("end_elapsed_s", in: LogbookRow.duration), coordinate: coordinate)
            }
            if let read { alerts.append(read) }
        }
        return alerts
    }

    private func storedPauses(flight id: Int64, log: DamageLog) throws(StoreError) -> [PauseInterval] {
        var pauses: [PauseInterval] = []
        for pause in try database.query(
            "SELECT start_elapsed_s, end_elapsed_s, reason FROM pauses WHERE flight_id = ? ORDER BY start_elapsed_s",
            [.integer(id)])
        {
            let p = LogbookRow(pause, path: path, flight: id, kind: "pause", log: log)
            let read = p.reading { () throws(StoreError) in
                PauseInterval(
                    start: try p.number("start_elapsed_s", in: LogbookRow.duration),
                    end: try p.number("end_elapsed_s", in: LogbookRow.duration),
                    reason: pause["reason"].string.flatMap(PauseReason.init(rawValue:)) ?? .manual)
            }
            if let read { pauses.append(read) }
        }
        return pauses
    }

    /// A flight stored before pauses were (schema 4): its pauses as its FDR samples show them, to
    /// the samples' resolution (a pause runs from its first paused sample to the next moving one).
    static func pauses(fromSamples samples: [FDRSample]) -> [PauseInterval] {
        var pauses: [PauseInterval] = []
        var openedAt: Double?
        for sample in samples {
            switch (sample.paused, openedAt) {
            case (true, nil): openedAt = sample.elapsed
            case (false, let start?):
                pauses.append(PauseInterval(start: start, end: sample.elapsed, reason: .stopped))
                openedAt = nil
            default: break
            }
        }
        if let start = openedAt, let last = samples.last, last.elapsed > start {
            pauses.append(PauseInterval(start: start, end: last.elapsed, reason: .stopped))
        }
        return pauses
    }

    /// A stored flight's elevation: its columns; for a flight stored before they were (engine
    /// version < 3), the barometer when its samples carry altitude (the only source then), with
    /// the range its samples show and no descent.
    static func elevation(_ r: LogbookRow, engineVersion: Int, samples: [FDRSample]) -> FlightElevation? {
        let altitudes = samples.compactMap(\.altitude)
        guard engineVersion >= 3 else {
            guard !altitudes.isEmpty else { return nil }
            return FlightElevation(
                source: .barometer, loss: nil, minimum: altitudes.min(), maximum: altitudes.max())
        }
        guard let source = r.row["elevation_source"].string.flatMap(ElevationSource.init(rawValue:)) else {
            return nil
        }
        return FlightElevation(
            source: source, loss: r.optional("elevation_loss_m", in: LogbookRow.distance),
            minimum: r.optional("altitude_min_m", in: LogbookRow.altitude),
            maximum: r.optional("altitude_max_m", in: LogbookRow.altitude))
    }
}
