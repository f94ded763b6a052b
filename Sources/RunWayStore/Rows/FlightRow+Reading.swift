import RunWayCore

/// A stored flight's derived rows, read when its summary's decoding asks for them — so damage
/// is met, and said, in the order a flight's values are read.
protocol FlightParts {
    func samples() throws(StoreError) -> [FDRSample]
    func pauses() throws(StoreError) -> [PauseInterval]
    func splits() throws(StoreError) -> [Split]
    func route(simplified: Bool) throws(StoreError) -> Route
    func alerts() throws(StoreError) -> [AlertEpisode]
    func laps() throws(StoreError) -> [FlightLap]
    func decisions() throws(StoreError) -> [FlightDecision]
}

/// How a `flights` row reads back, each value checked as `LogbookRow` checks it.
extension FlightRow {
    /// The row's id (the rowid: always an integer).
    static func id(_ row: Row) -> Int64? { row[Column.id.name].int.map(Int64.init) }

    /// Its status; one that does not read makes the summary damaged.
    static func status(_ r: LogbookRow) throws(StoreError) -> LogbookStatus {
        try r.required(Column.status) { $0.string.flatMap(LogbookStatus.init(rawValue:)) }
    }

    /// Its status if it reads, nothing said when it does not.
    static func readableStatus(_ r: LogbookRow) -> LogbookStatus? {
        r[Column.status].string.flatMap(LogbookStatus.init(rawValue:))
    }

    static func source(_ r: LogbookRow) -> String? { r[Column.source].string }
    static func replaces(_ r: LogbookRow) -> Int64? { r[Column.replaces].int.map(Int64.init) }
    /// A flight stored before engine versions were (schema 2) was computed by engine 1.
    static func engineVersion(_ r: LogbookRow) -> Int { r[Column.engineVersion].int ?? 1 }

    /// A line of the logbook, from a row of `listSQL`; a required value that is impossible throws.
    static func entry(_ r: LogbookRow, id: Int64) throws(StoreError) -> LogbookEntry {
        LogbookEntry(
            id: id, status: try status(r), startTime: try r.number(Column.startTime, in: LogbookRow.time),
            distance: try r.number(Column.distance, in: LogbookRow.distance),
            elapsed: try r.number(Column.elapsed, in: LogbookRow.duration),
            movingTime: try r.number(Column.movingTime, in: LogbookRow.duration))
    }

    /// The newest landed flight reprocessed from this one (`listSQL`).
    static func supersededBy(_ r: LogbookRow) -> Int64? { r.row[supersededBy].int.map(Int64.init) }

    /// The flight as stored: its summary `r` and its derived rows from `parts`. An impossible
    /// required summary value throws; an impossible optional one reads as missing.
    static func flight(_ r: LogbookRow, engineVersion: Int, parts: some FlightParts) throws(StoreError)
        -> Flight
    {
        let start = try r.number(Column.startTime, in: LogbookRow.time)
        let distance = try r.number(Column.distance, in: LogbookRow.distance)
        let elapsed = try r.number(Column.elapsed, in: LogbookRow.duration)
        let moving = try r.number(Column.movingTime, in: LogbookRow.duration)
        let droppedTail = try r.number(Column.droppedTail, in: LogbookRow.distance)
        let samples = try parts.samples()
        var pauses = try parts.pauses()
        if engineVersion < 2 { pauses = Logbook.pauses(fromSamples: samples) }
        var flight = Flight(
            mission: Logbook.mission(r), startTime: start,
            endTime: r.optional(Column.endTime, in: LogbookRow.time) ?? start, distance: distance,
            elapsed: elapsed, movingTime: moving, splits: try parts.splits(),
            droppedTail: droppedTail, samples: samples,
            route: try parts.route(simplified: false), simplifiedRoute: try parts.route(simplified: true),
            alerts: try parts.alerts(),
            averageHeartRate: r.optional(Column.averageHeartRate, in: LogbookRow.heartRate),
            averageCadence: r.optional(Column.averageCadence, in: LogbookRow.cadence), pauses: pauses,
            elevation: elevation(r, engineVersion: engineVersion, samples: samples))
        flight.maxHeartRate = r.optional(Column.maxHeartRate, in: LogbookRow.heartRate)
        flight.timeInZone = timeInZone(r)
        flight.heartRateZones = heartRateZones(r)
        if case .text(let method) = r[Column.distanceMethod], let known = DistanceMethod(rawValue: method) {
            flight.distanceMethod = known
        }
        flight.liveDistance = r.optional(Column.liveDistance, in: LogbookRow.distance)
        if case .text(let note) = r[Column.smoothingNote] { flight.smoothingNote = note }
        if case .text(let landing) = r[Column.landing], let known = FlightLanding(rawValue: landing) {
            flight.landing = known
        }
        flight.workout = Logbook.workout(r)
        flight.runName = r[Column.runName].string
        flight.laps = try parts.laps()
        flight.decisions = try parts.decisions()
        return flight
    }

    /// Moving seconds in zones 1…5; nil when the flight has none (stored before schema 6, or
    /// without heart rate) or when any of the five does not read (said as damage): a partial
    /// set would misstate the others' shares.
    static func timeInZone(_ r: LogbookRow) -> [Double]? {
        let times = Column.zoneTimes.map { r.optional($0, in: LogbookRow.duration) }
        guard times.allSatisfy({ $0 != nil }) else { return nil }
        return times.compactMap { $0 }
    }

    /// The zones the flight was counted in; nil without them, or when one of their values does
    /// not read (an impossible one is said as damage).
    static func heartRateZones(_ r: LogbookRow) -> HeartRateZones? {
        guard r[Column.zoneMethod] != .null else { return nil }
        guard let method = r[Column.zoneMethod].string.flatMap(HeartRateZones.Method.init(rawValue:)) else {
            r.record(Column.zoneMethod.name, cost: .valueMissing)
            return nil
        }
        let maximum = r.optional(Column.zoneMaximum, in: LogbookRow.heartRate)
        let resting = r.optional(Column.zoneResting, in: LogbookRow.heartRate)
        let fractions = Column.zoneFractions.map { r.optional($0, in: 0...1) }
        guard let maximum, let resting, fractions.allSatisfy({ $0 != nil }) else { return nil }
        return HeartRateZones(
            method: method, maximum: maximum, resting: resting, fractions: fractions.compactMap { $0 })
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
        guard let source = r[Column.elevationSource].string.flatMap(ElevationSource.init(rawValue:)) else {
            return nil
        }
        return FlightElevation(
            source: source, loss: r.optional(Column.elevationLoss, in: LogbookRow.distance),
            minimum: r.optional(Column.altitudeMinimum, in: LogbookRow.altitude),
            maximum: r.optional(Column.altitudeMaximum, in: LogbookRow.altitude))
    }
}
