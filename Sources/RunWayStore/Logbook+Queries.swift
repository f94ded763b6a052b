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
}

/// A stored row read back by column name, each value checked as a live one is: a required value
/// that is missing or impossible means the row is damaged (said with the flight and column); an
/// optional one that is impossible reads as missing, as a live sensor's would.
struct LogbookRow {
    let row: Row
    let path: String
    let flight: Int64?

    init(_ row: Row, path: String, flight: Int64?) {
        self.row = row
        self.path = path
        self.flight = flight
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
    static let any: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude

    func number(_ column: String, in range: ClosedRange<Double> = any) throws(StoreError) -> Double {
        guard let value = row[column].double, value.isFinite, range.contains(value) else {
            let which = flight.map { "flight \($0)" } ?? "a row"
            throw .damaged(reason: "\(which) has \(column) = \(describe(row[column]))", path: path)
        }
        return value
    }

    func optional(_ column: String, in range: ClosedRange<Double> = any) -> Double? {
        guard let value = row[column].double, value.isFinite, range.contains(value) else { return nil }
        return value
    }

    func integer(_ column: String) throws(StoreError) -> Int64 {
        guard let value = row[column].int else {
            throw .damaged(reason: "\(column) = \(describe(row[column]))", path: path)
        }
        return Int64(value)
    }

    func status() throws(StoreError) -> LogbookStatus {
        guard let status = row["status"].string.flatMap(LogbookStatus.init(rawValue:)) else {
            throw .damaged(
                reason: "flight \(flight ?? 0) has status = \(describe(row["status"]))", path: path)
        }
        return status
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
    /// (it stays reachable by its id), so one run counts once.
    public func entries(includingSuperseded: Bool = false) throws(StoreError) -> [LogbookEntry] {
        let rows = try database.query(
            "SELECT f.id, f.status, f.start_time, f.distance_m, f.elapsed_s, f.moving_s, f.replaces, "
                + "(SELECT MAX(n.id) FROM flights n WHERE n.replaces = f.id AND n.status != 'flying') AS superseded_by "
                + "FROM flights f ORDER BY f.start_time DESC, f.id DESC")
        var entries: [LogbookEntry] = []
        for row in rows {
            let id = try LogbookRow(row, path: path, flight: nil).integer("id")
            let r = LogbookRow(row, path: path, flight: id)
            let entry = LogbookEntry(
                id: id, status: try r.status(), startTime: try r.number("start_time", in: LogbookRow.time),
                distance: try r.number("distance_m", in: LogbookRow.distance),
                elapsed: try r.number("elapsed_s", in: LogbookRow.duration),
                movingTime: try r.number("moving_s", in: LogbookRow.duration),
                replaces: row["replaces"].int.map(Int64.init),
                supersededBy: row["superseded_by"].int.map(Int64.init))
            if includingSuperseded || entry.supersededBy == nil { entries.append(entry) }
        }
        return entries
    }

    public func splits(flight id: Int64) throws(StoreError) -> [Split] {
        var splits: [Split] = []
        for row in try database.query(
            "SELECT ord, distance_m, moving_s, elapsed_s, elapsed_end_s, heart_rate, cadence, elevation_gain_m "
                + "FROM splits WHERE flight_id = ? ORDER BY ord", [.integer(id)])
        {
            let r = LogbookRow(row, path: path, flight: id)
            splits.append(
                Split(
                    order: Int(try r.integer("ord")), distance: try r.number("distance_m", in: 0...1_001),
                    movingDuration: try r.number("moving_s", in: LogbookRow.duration),
                    elapsedDuration: try r.number("elapsed_s", in: LogbookRow.duration),
                    elapsedEnd: try r.number("elapsed_end_s", in: LogbookRow.duration),
                    heartRate: r.optional("heart_rate", in: LogbookRow.heartRate),
                    cadence: r.optional("cadence", in: LogbookRow.cadence),
                    elevationGain: try r.number("elevation_gain_m", in: 0...100_000)))
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

    /// `flight(id:)`; without `readingRawLog` its raw-log gaps are not looked for (salvage reads
    /// the derived data of a flight whose raw log is damaged).
    func flight(id: Int64, readingRawLog: Bool) throws(StoreError) -> LoggedFlight? {
        guard
            let row = try database.query(
                "SELECT status, target_pace, allowed_deviation, target_distance, start_time, end_time, "
                    + "distance_m, elapsed_s, moving_s, dropped_tail_m, avg_heart_rate, avg_cadence, source, "
                    + "replaces, engine_version, elevation_source, elevation_loss_m, altitude_min_m, altitude_max_m "
                    + "FROM flights WHERE id = ?", [.integer(id)]
            ).first
        else { return nil }
        let r = LogbookRow(row, path: path, flight: id)
        let key: [SQLValue] = [.integer(id)]
        var samples: [FDRSample] = []
        for sample in try database.query(
            "SELECT elapsed_s, distance_m, pace, heart_rate, cadence, altitude, heading, paused FROM samples "
                + "WHERE flight_id = ? ORDER BY elapsed_s", key)
        {
            let s = LogbookRow(sample, path: path, flight: id)
            samples.append(
                FDRSample(
                    elapsed: try s.number("elapsed_s", in: LogbookRow.duration),
                    distance: try s.number("distance_m", in: LogbookRow.distance),
                    pace: s.optional("pace", in: LogbookRow.pace),
                    heartRate: s.optional("heart_rate", in: LogbookRow.heartRate),
                    cadence: s.optional("cadence", in: LogbookRow.cadence),
                    altitude: s.optional("altitude", in: LogbookRow.altitude),
                    heading: s.optional("heading", in: LogbookRow.heading), paused: sample["paused"].int == 1)
            )
        }
        var routes: [Route] = []
        for simplified in [0, 1] {
            var points: [RoutePoint] = []
            for point in try database.query(
                "SELECT elapsed_s, lat, lon FROM route_points WHERE flight_id = ? AND simplified = ? ORDER BY seq",
                [.integer(id), .integer(Int64(simplified))])
            {
                let p = LogbookRow(point, path: path, flight: id)
                points.append(
                    RoutePoint(
                        elapsed: try p.number("elapsed_s", in: LogbookRow.duration),
                        coordinate: Coordinate(
                            latitude: try p.number("lat", in: -90...90),
                            longitude: try p.number("lon", in: -180...180)
                        )))
            }
            routes.append(Route(points: points))
        }
        var alerts: [AlertEpisode] = []
        for alert in try database.query(
            "SELECT kind, start_elapsed_s, end_elapsed_s, lat, lon FROM alerts WHERE flight_id = ? ORDER BY rowid",
            key)
        {
            let a = LogbookRow(alert, path: path, flight: id)
            guard let kind = alert["kind"].string.flatMap(GPWSAlert.init(rawValue:)) else { continue }
            let coordinate = a.optional("lat", in: -90...90).flatMap { lat in
                a.optional("lon", in: -180...180).map { Coordinate(latitude: lat, longitude: $0) }
            }
            alerts.append(
                AlertEpisode(
                    kind: kind, startElapsed: try a.number("start_elapsed_s", in: LogbookRow.duration),
                    endElapsed: a.optional("end_elapsed_s", in: LogbookRow.duration), coordinate: coordinate))
        }
        var pauses: [PauseInterval] = []
        for pause in try database.query(
            "SELECT start_elapsed_s, end_elapsed_s, reason FROM pauses WHERE flight_id = ? ORDER BY start_elapsed_s",
            key)
        {
            let p = LogbookRow(pause, path: path, flight: id)
            pauses.append(
                PauseInterval(
                    start: try p.number("start_elapsed_s", in: LogbookRow.duration),
                    end: try p.number("end_elapsed_s", in: LogbookRow.duration),
                    reason: pause["reason"].string.flatMap(PauseReason.init(rawValue:)) ?? .manual))
        }
        let engineVersion = row["engine_version"].int ?? 1
        if engineVersion < 2 { pauses = Self.pauses(fromSamples: samples) }
        let start = try r.number("start_time", in: LogbookRow.time)
        let flight = Flight(
            mission: Self.mission(row), startTime: start,
            endTime: r.optional("end_time", in: LogbookRow.time) ?? start,
            distance: try r.number("distance_m", in: LogbookRow.distance),
            elapsed: try r.number("elapsed_s", in: LogbookRow.duration),
            movingTime: try r.number("moving_s", in: LogbookRow.duration), splits: try splits(flight: id),
            droppedTail: try r.number("dropped_tail_m", in: LogbookRow.distance), samples: samples,
            route: routes[0], simplifiedRoute: routes[1], alerts: alerts,
            averageHeartRate: r.optional("avg_heart_rate", in: LogbookRow.heartRate),
            averageCadence: r.optional("avg_cadence", in: LogbookRow.cadence), pauses: pauses,
            elevation: Self.elevation(r, engineVersion: engineVersion, samples: samples))
        return LoggedFlight(
            id: id, status: try r.status(), source: row["source"].string ?? "",
            replaces: row["replaces"].int.map(Int64.init), engineVersion: engineVersion,
            flight: flight, rawLogGaps: readingRawLog ? try rawLogGaps(flight: id) : [])
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
