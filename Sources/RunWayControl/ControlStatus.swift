import RunWayCore

/// The live state in `status` replies and `state` events: the PFD and the board. It is kept as
/// the object runwayd sent, so `runway status --json` prints every field (a newer daemon's
/// too), and read through typed accessors, each nil when the field is missing or of another
/// type. Field names are a contract: added, never renamed.
public struct ControlStatus: Sendable, Equatable {
    /// The object's members, in the daemon's order.
    public var json: JSONValue

    /// The status object as runwayd builds it (`Tests/Fixtures/control/reply-status-*`).
    public init(_ pfd: PFD, board: BoardStatus) {
        json = .object([
            ("time", pfd.time > 0 ? .string(UTCTime.format(pfd.time)) : .null),
            ("phase", .string(pfd.phase.rawValue)),
            ("distance_m", .number(pfd.distance, places: 1)),
            ("elapsed_s", .number(pfd.elapsed, places: 1)),
            ("moving_s", .number(pfd.movingTime, places: 1)),
            ("pace_s_per_km", .number(pfd.pace, places: 1)),
            ("altitude_m", .number(pfd.altitude, places: 1)),
            ("heading_deg", .number(pfd.heading, places: 0)),
            ("gpws", .string(pfd.gpws.rawValue)),
            ("paused", .bool(pfd.pauseReason != nil)),
            ("pause_reason", pfd.pauseReason.map { .string($0.rawValue) } ?? .null),
            ("gps_signal", .string(pfd.signal.rawValue)),
            ("heart_rate", .number(pfd.heartRate, places: 0)),
            ("cadence", .number(pfd.cadence, places: 0)),
            ("splits", .number(Double(pfd.completedSplits))),
            ("battery_percent", .number(board.batteryPercent, places: 0)),
            ("storage_free_bytes", .number(board.storageFreeBytes, places: 0)),
            ("flight_id", board.flightID.map { .number(Double($0)) } ?? .null),
            ("barometer", board.barometer.map { .string($0.answering ? "ok" : "missing") } ?? .null),
            ("pressure_pa", .number(board.barometer?.pascals, places: 0)),
            ("pressure_tendency", board.barometer?.weather.map { .string($0.tendency.rawValue) } ?? .null),
            ("pressure_change_pa_3h", .number(board.barometer?.weather?.changePer3h, places: 0)),
            ("barograph_s", .number(board.barometer?.weather?.span, places: 0)),
        ])
    }

    /// A status object from runwayd; nil for anything but an object.
    public init?(json: JSONValue) {
        guard case .object = json else { return nil }
        self.json = json
    }

    /// The status's numbers, by their wire names.
    public enum Number: String, Sendable {
        case distance = "distance_m", elapsed = "elapsed_s", moving = "moving_s", pace = "pace_s_per_km"
        case altitude = "altitude_m", heading = "heading_deg", heartRate = "heart_rate", cadence, splits
        case batteryPercent = "battery_percent", storageFreeBytes = "storage_free_bytes", flightID = "flight_id"
        case pressure = "pressure_pa", pressureChangePer3h = "pressure_change_pa_3h", barographSpan = "barograph_s"
    }

    /// The status's words, by their wire names. `barometer` is `ok`, `missing`, or nil (runwayd
    /// has read no barometer yet).
    public enum Text: String, Sendable {
        case time, phase, gpws, pauseReason = "pause_reason", gpsSignal = "gps_signal", barometer
        case pressureTendency = "pressure_tendency"
    }

    public subscript(_ field: Number) -> Double? { json[field.rawValue]?.numberValue }
    public subscript(_ field: Text) -> String? { json[field.rawValue]?.stringValue }
    public var paused: Bool? { json["paused"]?.boolValue }
}

/// A line runwayd sends a subscriber: the state at most once a second, and every callout.
/// Kept as the object sent (`runway status --watch --json` prints it whole).
public struct ControlEvent: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case state(ControlStatus)
        /// The callout's words (`SPLIT 3 KM 5:18`).
        case callout(String)
        /// An event this version does not know (a newer daemon's): skipped, or printed with --json.
        case other
    }

    public var json: JSONValue

    public var kind: Kind {
        // As `runway status --watch` always read them: a callout by its name, else any event
        // carrying a state object.
        if json["event"]?.stringValue == "callout" { return .callout(json["callout"]?.stringValue ?? "?") }
        return json["state"].flatMap(ControlStatus.init(json:)).map(Kind.state) ?? .other
    }

    public init(state pfd: PFD, board: BoardStatus) {
        json = .object([("event", .string("state")), ("state", ControlStatus(pfd, board: board).json)])
    }

    public init(callout: TimedCallout) {
        json = .object([
            ("event", .string("callout")), ("callout", .string(callout.callout.text)),
            ("time", .string(UTCTime.format(callout.time))),
        ])
    }

    /// An event line; nil when it is not a JSON object (read strictly: a key twice is no event).
    public init?(line: [UInt8]) {
        guard let value = try? JSONValue.parse(line), case .object = value else { return nil }
        json = value
    }

    public var line: String { json.rendered() }
}
