import RunWayCore

/// What `Logbook.save` did with a flight flown from a recorded trace.
public enum SaveOutcome: Sendable, Equatable {
    case saved(Int64)
    /// Under 100 m: not recorded (SPEC), nothing written.
    case tooShort
    /// The logbook already holds this run (a flight with the same ROTATE time): nothing written.
    case alreadySaved(Int64)
}

/// Recording: a flight row at ROTATE, its derived data at touchdown.
extension Logbook {
    /// Opens a flight row at ROTATE; the raw log follows in `append`.
    public func begin(
        startTime: Double, mission: Mission?, workout: Workout? = nil, run: String? = nil,
        source: String = "live"
    ) throws(StoreError) -> Int64 {
        try requireWritable()
        try database.query(
            FlightRow.openSQL,
            FlightRow(
                status: .flying, startTime: startTime, mission: mission, workout: workout, runName: run,
                source: source
            )
            .values(FlightRow.opened))
        return database.lastInsertID
    }

    /// Writes the landed flight's derived data and status in one transaction — with its start
    /// and mission, so `reprocess --replace` of a flight whose stored summary was damaged stores
    /// the whole summary flown again.
    public func finish(flight id: Int64, with flight: Flight, status: LogbookStatus? = nil) throws(StoreError)
    {
        try requireWritable()
        let final = status ?? (flight.status == .tooShort ? .tooShort : .finished)
        try absorbJournal()  // the raw log first: a cut before the derived data means recovery
        try database.transaction { () throws(StoreError) in
            for delete in Tables.derivedDeletes {
                try database.query(delete, [.integer(id)])
            }
            let summary = FlightRow(
                status: final, startTime: flight.startTime, mission: flight.mission, workout: flight.workout,
                runName: flight.runName, landed: flight)
            try database.query(FlightRow.landSQL, summary.values(FlightRow.landing) + [.integer(id)])
            for split in flight.splits {
                try database.query(SplitRow.statements.insert, SplitRow(split: split).values(flight: id))
            }
            for sample in flight.samples {
                try database.query(SampleRow.statements.insert, SampleRow(sample: sample).values(flight: id))
            }
            for (simplified, route) in [(false, flight.route), (true, flight.simplifiedRoute)] {
                // One row holding every point (schema 12); a row per point only if deflating failed.
                let packed = RouteRow(simplified: simplified, points: route.points)
                guard packed.packed.isEmpty else {
                    try database.query(RouteRow.statements.insert, packed.values(flight: id))
                    continue
                }
                for (seq, point) in route.points.enumerated() {
                    let row = RoutePointRow(simplified: simplified, seq: seq, point: point)
                    try database.query(RoutePointRow.statements.insert, row.values(flight: id))
                }
            }
            for pause in flight.pauses {
                try database.query(PauseRow.statements.insert, PauseRow(pause: pause).values(flight: id))
            }
            for alert in flight.alerts {
                try database.query(AlertRow.statements.insert, AlertRow(alert: alert).values(flight: id))
            }
            for lap in flight.laps {
                try database.query(LapRow.statements.insert, LapRow(lap: lap).values(flight: id))
            }
            for decision in flight.decisions {
                try database.query(
                    DecisionRow.statements.insert, DecisionRow(decision: decision).values(flight: id))
            }
        }
    }

    /// Removes a flight that is not to be recorded (under 100 m), with its raw log.
    public func discard(flight id: Int64) throws(StoreError) {
        try requireWritable()
        try absorbJournal()  // so none of its journal records outlive it
        try database.query(FlightRow.deleteSQL, [.integer(id)])
    }

    /// Stores a flight flown from a recorded trace, with its raw inputs (so it can be flown
    /// again), all or nothing: one transaction, the raw log written straight into `raw_log`. A
    /// flight under 100 m is not recorded, and a run the logbook already holds is not saved twice.
    public func save(_ flight: Flight, inputs: [EngineInput], source: String) throws(StoreError)
        -> SaveOutcome
    {
        try requireWritable()
        if flight.status == .tooShort { return .tooShort }
        if let existing = try sameRun(startingAt: flight.startTime) { return .alreadySaved(existing) }
        return .saved(
            try database.transaction { () throws(StoreError) -> Int64 in
                let id = try begin(
                    startTime: flight.startTime, mission: flight.mission, workout: flight.workout,
                    run: flight.runName, source: source)
                try writeRawLog(flight: id, inputs: inputs, from: flight.startTime, until: flight.endTime)
                try finish(flight: id, with: flight)
                return id
            })
    }

    /// Writes `inputs` as flight `id`'s raw log: one row per 4 s of flight time, as a live
    /// recording would have committed it.
    func writeRawLog(flight id: Int64, inputs: [EngineInput], from start: Double, until end: Double)
        throws(StoreError)
    {
        var batch: [EngineInput] = []
        var seq: Int64 = 1
        var batchStart = start
        for input in inputs {
            if input.time - batchStart >= 4, !batch.isEmpty {
                try insertRawLog(flight: id, seq: seq, until: input.time, inputs: RawLog.compact(batch))
                seq += 1
                batch.removeAll(keepingCapacity: true)
                batchStart = input.time
            }
            batch.append(input)
        }
        if !batch.isEmpty {
            try insertRawLog(flight: id, seq: seq, until: end, inputs: RawLog.compact(batch))
        }
    }

    /// A flight already in the logbook that took off at `start` (to the millisecond): the same run.
    func sameRun(startingAt start: Double) throws(StoreError) -> Int64? {
        try database.query(FlightRow.sameRunSQL, [.real(start)]).first.flatMap(FlightRow.id)
    }
}
