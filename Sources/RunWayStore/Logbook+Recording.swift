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
    public func begin(startTime: Double, mission: Mission?, source: String = "live") throws(StoreError)
        -> Int64
    {
        try requireWritable()
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

    /// Writes the landed flight's derived data and status in one transaction — with its start
    /// and mission, so `reprocess --replace` of a flight whose stored summary was damaged stores
    /// the whole summary flown again.
    public func finish(flight id: Int64, with flight: Flight, status: LogbookStatus? = nil) throws(StoreError)
    {
        try requireWritable()
        let final = status ?? (flight.status == .tooShort ? .tooShort : .finished)
        try absorbJournal()  // the raw log first: a cut before the derived data means recovery
        try database.transaction { () throws(StoreError) in
            for table in ["splits", "samples", "route_points", "alerts", "pauses"] {
                try database.query("DELETE FROM \(table) WHERE flight_id = ?", [.integer(id)])
            }
            try database.query(
                "UPDATE flights SET status = ?, start_time = ?, target_pace = ?, allowed_deviation = ?, "
                    + "target_distance = ?, end_time = ?, distance_m = ?, elapsed_s = ?, moving_s = ?, "
                    + "dropped_tail_m = ?, avg_heart_rate = ?, avg_cadence = ?, engine_version = \(Schema.engineVersion), "
                    + "elevation_source = ?, elevation_loss_m = ?, altitude_min_m = ?, altitude_max_m = ? "
                    + "WHERE id = ?",
                [
                    .text(final.rawValue), .real(flight.startTime), Self.value(flight.mission?.targetPace),
                    Self.value(flight.mission?.allowedDeviation), Self.value(flight.mission?.targetDistance),
                    .real(flight.endTime), .real(flight.distance),
                    .real(flight.elapsed),
                    .real(flight.movingTime), .real(flight.droppedTail), Self.value(flight.averageHeartRate),
                    Self.value(flight.averageCadence),
                    flight.elevation.map { .text($0.source.rawValue) } ?? .null,
                    Self.value(flight.elevation?.loss), Self.value(flight.elevation?.minimum),
                    Self.value(flight.elevation?.maximum), .integer(id),
                ])
            for split in flight.splits {
                try database.query(
                    "INSERT INTO splits (flight_id, ord, distance_m, moving_s, elapsed_s, elapsed_end_s, "
                        + "heart_rate, cadence, elevation_gain_m) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(id), .integer(Int64(split.order)), .real(split.distance),
                        .real(split.movingDuration), .real(split.elapsedDuration), .real(split.elapsedEnd),
                        Self.value(split.heartRate), Self.value(split.cadence), .real(split.elevationGain),
                    ])
            }
            for s in flight.samples {
                try database.query(
                    "INSERT INTO samples (flight_id, elapsed_s, distance_m, pace, heart_rate, cadence, altitude, "
                        + "heading, paused) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .integer(id), .real(s.elapsed), .real(s.distance), Self.value(s.pace),
                        Self.value(s.heartRate), Self.value(s.cadence), Self.value(s.altitude),
                        Self.value(s.heading), .integer(s.paused ? 1 : 0),
                    ])
            }
            for (simplified, route) in [(0, flight.route), (1, flight.simplifiedRoute)] {
                for (seq, point) in route.points.enumerated() {
                    try database.query(
                        "INSERT INTO route_points (flight_id, simplified, seq, elapsed_s, lat, lon) "
                            + "VALUES (?, ?, ?, ?, ?, ?)",
                        [
                            .integer(id), .integer(Int64(simplified)), .integer(Int64(seq)),
                            .real(point.elapsed),
                            .real(point.coordinate.latitude), .real(point.coordinate.longitude),
                        ])
                }
            }
            for pause in flight.pauses {
                try database.query(
                    "INSERT INTO pauses (flight_id, start_elapsed_s, end_elapsed_s, reason) VALUES (?, ?, ?, ?)",
                    [.integer(id), .real(pause.start), .real(pause.end), .text(pause.reason.rawValue)])
            }
            for alert in flight.alerts {
                try database.query(
                    "INSERT INTO alerts (flight_id, kind, start_elapsed_s, end_elapsed_s, lat, lon) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        .integer(id), .text(alert.kind.rawValue), .real(alert.startElapsed),
                        Self.value(alert.endElapsed), Self.value(alert.coordinate?.latitude),
                        Self.value(alert.coordinate?.longitude),
                    ])
            }
        }
    }

    /// Removes a flight that is not to be recorded (under 100 m), with its raw log.
    public func discard(flight id: Int64) throws(StoreError) {
        try requireWritable()
        try absorbJournal()  // so none of its journal records outlive it
        try database.query("DELETE FROM flights WHERE id = ?", [.integer(id)])
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
                let id = try begin(startTime: flight.startTime, mission: flight.mission, source: source)
                // One row per 4 s of flight time, as a live recording would have committed it.
                var batch: [EngineInput] = []
                var seq: Int64 = 1
                var batchStart = flight.startTime
                for input in inputs {
                    if input.time - batchStart >= 4, !batch.isEmpty {
                        try insertRawLog(
                            flight: id, seq: seq, until: input.time, inputs: RawLog.encode(batch))
                        seq += 1
                        batch.removeAll(keepingCapacity: true)
                        batchStart = input.time
                    }
                    batch.append(input)
                }
                if !batch.isEmpty {
                    try insertRawLog(
                        flight: id, seq: seq, until: flight.endTime, inputs: RawLog.encode(batch))
                }
                try finish(flight: id, with: flight)
                return id
            })
    }

    /// A flight already in the logbook that took off at `start` (to the millisecond): the same run.
    func sameRun(startingAt start: Double) throws(StoreError) -> Int64? {
        try database.query(
            "SELECT id FROM flights WHERE abs(start_time - ?) < 0.0005 AND status != 'flying' ORDER BY id LIMIT 1",
            [.real(start)]
        ).first?["id"].int.map(Int64.init)
    }
}
