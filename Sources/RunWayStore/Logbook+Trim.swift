import RunWayCore

/// Why a trim cannot be made: each names the field the runner gave.
public enum TrimError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `--end` beyond the flight's elapsed time (seconds given, seconds the flight has).
    case endPastFlight(end: Double, elapsed: Double)
    /// `--start` not before `--end` (or the flight's end).
    case startNotBeforeEnd(start: Double, end: Double)
    /// A negative or non-finite time.
    case notATime(field: String)
    /// The flight is still being recorded (runwayd writes its raw log).
    case stillFlying

    public var description: String {
        switch self {
        case .endPastFlight(let end, let elapsed):
            "--end \(UTCTime.duration(end)) is past the flight's end (\(UTCTime.duration(elapsed)) elapsed)"
        case .startNotBeforeEnd(let start, let end):
            "--start \(UTCTime.duration(start)) is not before the end (\(UTCTime.duration(end)))"
        case .notATime(let field): "\(field) must be a time from the flight's start, MM:SS or H:MM:SS"
        case .stillFlying: "it is still flying: end the run first (runway stop), then trim it"
        }
    }
}

extension Logbook {
    /// The window `runway trim` keeps, checked against the stored flight: elapsed seconds from its
    /// ROTATE. Nil `start` is the flight's start, nil `end` its end.
    public static func trimWindow(start: Double?, end: Double?, elapsed: Double, flying: Bool = false)
        throws(TrimError) -> ClosedRange<Double>
    {
        if flying { throw .stillFlying }
        for (field, value) in [("--start", start), ("--end", end)] {
            if let value, !(value.isFinite && value >= 0) { throw .notATime(field: field) }
        }
        let to = end ?? elapsed
        if to > elapsed + 0.5 { throw .endPastFlight(end: to, elapsed: elapsed) }
        let from = start ?? 0
        guard from < to else { throw .startNotBeforeEnd(start: from, end: to) }
        return from...min(to, elapsed)
    }

    /// Cuts a stored flight to `window` (elapsed seconds from its ROTATE) from its raw log, as
    /// `reprocess` flies one again (a forgotten stop's hour of standing, a car ride home at the
    /// end): the raw log inside the window is flown from the window's start and landed at its
    /// end, smoothed as at touchdown. By default the result is a new flight that replaces the
    /// original (kept, reachable by its id) with the window's raw log; with `replace` the original
    /// is rewritten, its raw log cut. Either way in one transaction. Returns the id written, or
    /// nil when what is left flies under 100 m (nothing is written).
    public func trim(
        flight id: Int64, window: ClosedRange<Double>, replace: Bool = false,
        configuration: EngineConfiguration = EngineConfiguration()
    ) throws(StoreError) -> Int64? {
        try requireWritable()
        guard let stored = try flight(id: id) else { throw .noFlight(id, path: path) }
        let start = stored.flight.startTime + window.lowerBound
        let end = stored.flight.startTime + window.upperBound
        let kept = try rawInputs(flight: id).filter { input in
            if case .end = input { return false }
            return input.time > start && input.time <= end
        }
        guard
            var computer = try rebuiltEngine(
                flight: id, inputs: kept, configuration: configuration, startingAt: start)
        else { throw .noFlight(id, path: path) }
        if computer.now < end { _ = computer.handle(.tick(end)) }
        guard let live = computer.end(sentAt: nil).result.flight ?? computer.landedByItself else {
            return nil
        }
        let flight = Self.saved(live, inputs: kept, configuration: computer.configuration)
        if flight.status == .tooShort { return nil }
        return try database.transaction { () throws(StoreError) -> Int64 in
            if replace {
                try database.query("DELETE FROM raw_log WHERE flight_id = ?", [.integer(id)])
                try database.query(
                    "UPDATE flights SET start_time = ? WHERE id = ?", [.real(flight.startTime), .integer(id)])
                try writeRawLog(flight: id, inputs: kept, from: flight.startTime, until: flight.endTime)
                try finish(flight: id, with: flight)
                return id
            }
            let copy = try begin(
                startTime: flight.startTime, mission: flight.mission, workout: flight.workout,
                run: flight.runName,
                source: "trim of \(id)")
            try database.query(
                "UPDATE flights SET replaces = ? WHERE id = ?", [.integer(id), .integer(copy)])
            try writeRawLog(flight: copy, inputs: kept, from: flight.startTime, until: flight.endTime)
            try finish(flight: copy, with: flight)
            return copy
        }
    }
}
