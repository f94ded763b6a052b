import RunWayCore

/// A flight that a power cut left open, closed from its raw log.
public struct RecoveredFlight: Sendable, Equatable {
    public var id: Int64
    public var distance: Double
    /// False when the raw log flew under 100 m: such a flight is not recorded, and was removed.
    public var kept: Bool
    /// Holes in its raw log (records damaged on the card), flown across.
    public var gaps: [RawLogGap] = []
}

/// What the logbook held when the device came up (see `Logbook.startUp`).
public struct StartUp {
    /// The flight a restart mid-run continues, with its engine rebuilt from the raw log.
    public var resumed: (id: Int64, computer: FlightComputer)?
    /// Open flights too old to continue, closed as recovered (or removed as too short).
    public var recovered: [RecoveredFlight]
}

/// Recovery, reprocessing and continuation: each flies a stored raw log through the engine again,
/// so a recovered flight has exactly the splits the engine computes for the recorded part.
extension Logbook {
    /// Flies a stored flight again from its raw log with `configuration`'s engine.
    public func replay(
        flight id: Int64, configuration: EngineConfiguration = EngineConfiguration(),
        progress: ((Double) -> Void)? = nil
    ) throws(StoreError) -> Flight? {
        let inputs = try rawInputs(flight: id)
        guard
            var computer = try rebuiltEngine(
                flight: id, inputs: inputs, configuration: configuration, progress: progress)
        else { return nil }
        return Self.landed(&computer, inputs: inputs)
    }

    /// The flight the logbook saves for a `live` one the engine landed from `inputs` (its raw
    /// log): the touchdown smoother's (`FlightSmoothing`), flown with `configuration` in the zones
    /// the live flight was counted in, the live figures beside it. Touchdown, recovery,
    /// reprocess and salvage all save through here, so a flight is the same whichever made it.
    public static func saved(
        _ live: Flight, inputs: some Sequence<EngineInput>, configuration: EngineConfiguration
    ) -> Flight {
        guard live.status == .recorded else { return live }
        var configuration = configuration
        if let zones = live.heartRateZones { configuration.heartRateZones = zones }
        return FlightSmoothing.smoothed(live, inputs: inputs, configuration: configuration)
    }

    /// `computer`, which has flown `inputs`, landed now; the flight it saves (`saved`).
    static func landed(_ computer: inout FlightComputer, inputs: [EngineInput]) -> Flight? {
        (computer.end(sentAt: nil).result.flight ?? computer.landedByItself).map {
            saved($0, inputs: inputs, configuration: computer.configuration)
        }
    }

    /// An engine that has flown a stored flight's raw log from its start (with its mission),
    /// not yet landed: what recovery, reprocessing and resuming all start from. A start time
    /// that cannot be right is taken from the raw log's first input (said in `log`); an
    /// impossible mission is none.
    /// `inputs` is the flight's raw log (`rawInputs`), read once by the caller.
    func rebuiltEngine(
        flight id: Int64, inputs: [EngineInput], configuration: EngineConfiguration,
        progress: ((Double) -> Void)? = nil, log: DamageLog? = nil, startingAt override: Double? = nil
    ) throws(StoreError) -> FlightComputer? {
        guard
            let row = try database.query(
                FlightRow.rebuildSQL,
                [.integer(id)]
            ).first
        else { return nil }
        let r = LogbookRow(row, path: path, flight: id, kind: FlightRow.kind, log: log ?? damageLog)
        guard let start = r.optional(FlightRow.Column.startTime, in: LogbookRow.time) ?? inputs.first?.time
        else {
            throw .damaged(
                reason: "flight \(id) has no start time and no raw sensor log to take one from", path: path)
        }
        // A landed flight is counted again in the zones it was counted in, not in whatever the
        // configuration says today (or the defaults, for salvage): a reprocess keeps its time in
        // zone as runwayd counted it. A flight still open has none stored: the configuration's.
        var configuration = configuration
        if let zones = FlightRow.heartRateZones(r) { configuration.heartRateZones = zones }
        return Self.flown(
            start: override ?? start, mission: Self.mission(r), workout: Self.workout(r),
            run: r[FlightRow.Column.runName].string, inputs: inputs, configuration: configuration,
            progress: progress)
    }

    /// An engine that took off at `start` and was given `inputs`, not yet landed.
    static func flown(
        start: Double, mission: Mission?, workout: Workout? = nil, run: String? = nil, inputs: [EngineInput],
        configuration: EngineConfiguration, progress: ((Double) -> Void)? = nil
    ) -> FlightComputer {
        let engine = FlightEngine.replaying(FlightComputer(configuration: configuration))
        // `assumeIsolated` runs its body at once on this thread, which is the engine's
        // (`CallerThreadExecutor` checks it), so `progress` is called only here, synchronously.
        nonisolated(unsafe) let progress = progress
        return engine.assumeIsolated { engine in
            engine.handle(.start(at: start, mission: mission, countdown: false, workout: workout, run: run))
            engine.replay(inputs, progress: progress)
            return engine.computer
        }
    }

    /// A flight row's mission columns (no target pace and no heart-rate band: a free flight),
    /// each range-checked: a value no parser would take (a flipped bit: a target pace of 1e18
    /// s/km) makes it none, said in the row's damage log.
    static func workout(_ r: LogbookRow) -> Workout? {
        r[FlightRow.Column.workout].string.flatMap { try? Workout(parsing: $0) }
    }

    static func mission(_ r: LogbookRow) -> Mission? {
        typealias Column = FlightRow.Column
        let hasPace = r[Column.targetPace] != .null
        let hasHeartRate = r[Column.targetHeartRateLow] != .null || r[Column.targetHeartRateHigh] != .null
        guard hasPace || hasHeartRate else { return nil }
        var pace: Mission.PaceBand?
        if hasPace {
            guard let target = r.optional(Column.targetPace, in: LogbookRow.pace) else { return nil }
            let deviation =
                r[Column.allowedDeviation] == .null
                ? 15 : r.optional(Column.allowedDeviation, in: LogbookRow.deviation)
            guard let deviation else { return nil }
            pace = Mission.PaceBand(targetPace: target, allowedDeviation: deviation)
        }
        var heartRate: Mission.HeartRateBand?
        if hasHeartRate {
            guard let low = r.optional(Column.targetHeartRateLow, in: LogbookRow.heartRate),
                let high = r.optional(Column.targetHeartRateHigh, in: LogbookRow.heartRate)
            else { return nil }
            // Each edge in range is not enough: a band whose low is not below its high (a
            // flipped bit) is no band, and the row's mission none, as for any impossible target.
            guard var band = try? Mission.HeartRateBand(checkedLow: low, high: high) else { return nil }
            band.zone = r.optional(Column.targetZone, in: 1...5).map { Int($0) }
            heartRate = band
        }
        let goal: Mission.Goal
        if r[Column.targetDuration] != .null {
            guard let seconds = r.optional(Column.targetDuration, in: LogbookRow.duration) else { return nil }
            goal = .duration(seconds)
        } else {
            let distance =
                r[Column.targetDistance] == .null
                ? 0 : r.optional(Column.targetDistance, in: LogbookRow.distance)
            guard let distance else { return nil }
            goal = .distance(distance)
        }
        return Mission(pace: pace, heartRate: heartRate, goal: goal)
    }

    /// Closes every flight left "flying" by a power cut: its raw log is flown again and stored as
    /// recovered — or, when it flew under 100 m, removed (a flight that short is not recorded).
    @discardableResult
    public func recoverInterruptedFlights(
        except kept: Int64? = nil, configuration: EngineConfiguration = EngineConfiguration()
    ) throws(StoreError) -> [RecoveredFlight] {
        guard !recordingElsewhere, access == .readWrite else { return [] }
        let rows = try database.query("SELECT id FROM flights WHERE status = 'flying' ORDER BY id")
        var ids: [Int64] = []
        for row in rows {
            if let id = row["id"].int.map(Int64.init), id != kept { ids.append(id) }
        }
        var result: [RecoveredFlight] = []
        for id in ids {
            let flight = try replay(flight: id, configuration: configuration)
            if let flight, flight.status != .tooShort {
                try finish(flight: id, with: flight, status: .recovered)
                result.append(
                    RecoveredFlight(
                        id: id, distance: flight.distance, kept: true, gaps: try rawLogGaps(flight: id)))
            } else {
                try discard(flight: id)
                result.append(RecoveredFlight(id: id, distance: flight?.distance ?? 0, kept: false))
            }
        }
        return result
    }

    /// Flies a stored flight again with the current engine. By default the result is stored as a
    /// new flight that `replaces` the original — which stays reachable by its id but no longer
    /// counts in listings and totals — with a copy of its raw log; with `replace` the original's
    /// derived data is rewritten in place. Returns the id written, or nil when the flight flies
    /// under 100 m with this engine: nothing is written then (such a flight is not recorded).
    @discardableResult
    public func reprocess(
        flight id: Int64, replace: Bool = false, configuration: EngineConfiguration = EngineConfiguration(),
        progress: ((Double) -> Void)? = nil
    ) throws(StoreError) -> Int64? {
        try requireWritable()
        guard let flight = try replay(flight: id, configuration: configuration, progress: progress) else {
            throw .noFlight(id, path: path)
        }
        if flight.status == .tooShort { return nil }
        if replace {
            try finish(flight: id, with: flight)
            return id
        }
        return try database.transaction { () throws(StoreError) -> Int64 in
            let copy = try begin(
                startTime: flight.startTime, mission: flight.mission, workout: flight.workout,
                run: flight.runName,
                source: "reprocess of \(id)")
            try database.query(
                "UPDATE flights SET replaces = ? WHERE id = ?", [.integer(id), .integer(copy)])
            try database.query(
                RawLogRow.copySQL, [.integer(copy), .integer(id)])
            try finish(flight: copy, with: flight)
            return copy
        }
    }

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
            ).first?["id"].int.map(Int64.init),
            let until = try recordedUntil(flight: id), now - until <= window, now >= until,
            let computer = try rebuiltEngine(
                flight: id, inputs: try rawInputs(flight: id), configuration: configuration)
        else { return nil }
        return (id, computer)
    }
}
