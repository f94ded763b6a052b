import RunWayCore

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

/// One flight read back.
extension Logbook {
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
        guard let row = try database.query(FlightRow.readSQL, [.integer(id)]).first else { return nil }
        let found = DamageLog()
        defer { damageLog.merge(found.entries) }
        let r = LogbookRow(row, path: path, flight: id, kind: FlightRow.kind, log: found)
        let engineVersion = FlightRow.engineVersion(r)
        var flight: Flight
        var status: LogbookStatus
        do {
            status = try FlightRow.status(r)
            flight = try FlightRow.flight(
                r, engineVersion: engineVersion, parts: StoredParts(logbook: self, flight: id, log: found))
        } catch {
            guard readingRawLog, let flown = try flownAgain(r, error: error) else { throw error }
            flight = flown
            status = (try? FlightRow.status(r)) ?? .recovered
        }
        return LoggedFlight(
            id: id, status: status, source: FlightRow.source(r) ?? "", replaces: FlightRow.replaces(r),
            engineVersion: engineVersion, flight: flight,
            rawLogGaps: readingRawLog ? try rawLogGaps(flight: id) : [], damage: found.entries)
    }

    /// A flight whose stored summary does not read (`error`), flown again from its raw sensor
    /// log in memory (nothing is written): said as `flownAgain`; nil, said as `flightLeftOut`,
    /// when it has no raw log to fly.
    func flownAgain(_ r: LogbookRow, error: StoreError) throws(StoreError) -> Flight? {
        guard let id = r.flight, let log = r.log else { throw error }
        let failed = log.failed
        var flight: Flight?
        let inputs = try rawInputs(flight: id)
        if !inputs.isEmpty,
            var computer = try rebuiltEngine(
                flight: id, inputs: inputs, configuration: EngineConfiguration(), log: log)
        {
            flight = Self.landed(&computer, inputs: inputs)
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
        try stored(SplitRow.self, flight: id, log: damageLog)
    }

    /// A flight's rows of one derived table, in order (`more` binds after its id); a row with an
    /// impossible value is left out, said in `log` as a `kind`.
    func stored<R: FlightChildRow>(
        _: R.Type, flight id: Int64, _ more: [SQLValue] = [], kind: String = R.statements.kind, log: DamageLog
    ) throws(StoreError) -> [R.Value] {
        var values: [R.Value] = []
        for row in try database.query(R.statements.select, [.integer(id)] + more) {
            let r = LogbookRow(row, path: path, flight: id, kind: kind, log: log)
            if let value = r.reading({ () throws(StoreError) in try R.decode(r) }) ?? nil {
                values.append(value)
            }
        }
        return values
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
}

/// A stored flight's derived rows, each table read through its row description.
private struct StoredParts: FlightParts {
    let logbook: Logbook
    let flight: Int64
    let log: DamageLog

    func samples() throws(StoreError) -> [FDRSample] {
        try logbook.stored(SampleRow.self, flight: flight, log: log)
    }
    func pauses() throws(StoreError) -> [PauseInterval] {
        try logbook.stored(PauseRow.self, flight: flight, log: log)
    }
    func splits() throws(StoreError) -> [Split] {
        try logbook.stored(SplitRow.self, flight: flight, log: log)
    }
    func alerts() throws(StoreError) -> [AlertEpisode] {
        try logbook.stored(AlertRow.self, flight: flight, log: log)
    }
    func laps() throws(StoreError) -> [FlightLap] {
        try logbook.stored(LapRow.self, flight: flight, log: log)
    }
    func decisions() throws(StoreError) -> [FlightDecision] {
        try logbook.stored(DecisionRow.self, flight: flight, log: log)
    }

    func route(simplified: Bool) throws(StoreError) -> Route {
        let kind = simplified ? RouteRow.simplifiedKind : RouteRow.statements.kind
        if try logbook.database.query(RouteRow.existsSQL).first != nil,
            let row = try logbook.database.query(
                RouteRow.statements.select, [.integer(flight), .integer(simplified ? 1 : 0)]
            ).first
        {
            return Route(
                points: RouteRow.route(
                    LogbookRow(row, path: logbook.path, flight: flight, kind: kind, log: log)))
        }
        // Stored before schema 12 (or when deflating failed): a row per point.
        return Route(
            points: try logbook.stored(
                RoutePointRow.self, flight: flight, [.integer(simplified ? 1 : 0)],
                kind: simplified ? RoutePointRow.simplifiedKind : RoutePointRow.statements.kind, log: log))
    }
}
