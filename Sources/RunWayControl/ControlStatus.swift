import RunWayCore

/// The live state in `status` replies and `state` events: the PFD and the board. It is kept as
/// the object runwayd sent, so `runway status --json` prints every field (a newer daemon's
/// too), and read through typed accessors, each nil when the field is missing or of another
/// type. Field names are a contract: added, never renamed.
public struct ControlStatus: Sendable, Equatable {
    /// The object's members, in the daemon's order.
    public var json: JSONValue

    /// The status object as runwayd builds it (`Tests/Fixtures/control/reply-status-*`), each
    /// field named by its `Field` case: one list of names for both ends.
    public init(_ pfd: PFD, board: BoardStatus) {
        func n(_ field: Field, _ value: Double?, _ places: Int) -> (String, JSONValue) {
            (field.rawValue, .number(value, places: places))
        }
        func t(_ field: Field, _ value: String?) -> (String, JSONValue) {
            (field.rawValue, value.map { .string($0) } ?? .null)
        }
        let barometer = board.barometer
        // After TOUCHDOWN the board is back in preflight, ready for the next run (README, On the
        // board): the engine keeps the phase `touchdown` until the next START (the landing's
        // reply and the TOUCHDOWN callout say it), but the state shown is preflight's, not
        // "TOUCHDOWN 0.00 km".
        let phase = pfd.phase == .touchdown ? FlightPhase.preflight : pfd.phase
        json = .object([
            t(.time, pfd.time > 0 ? UTCTime.format(pfd.time) : nil), t(.phase, phase.rawValue),
            n(.distance, pfd.distance, 1), n(.elapsed, pfd.elapsed, 1), n(.moving, pfd.movingTime, 1),
            n(.pace, pfd.pace, 1), n(.altitude, pfd.altitude, 1), n(.heading, pfd.heading, 0),
            t(.gpws, pfd.gpws.rawValue), (Field.paused.rawValue, .bool(pfd.pauseReason != nil)),
            t(.pauseReason, pfd.pauseReason?.rawValue), t(.gpsSignal, pfd.signal.rawValue),
            n(.heartRate, pfd.heartRate, 0), n(.cadence, pfd.cadence, 0),
            n(.splits, Double(pfd.completedSplits), 0),
            n(.batteryPercent, board.batteryPercent, 0), n(.storageFreeBytes, board.storageFreeBytes, 0),
            n(.flightID, board.flightID.map(Double.init), 0),
            t(.barometer, barometer.map { $0.answering ? "ok" : "missing" }),
            n(.pressure, barometer?.pascals, 0), t(.pressureTendency, barometer?.weather?.tendency.rawValue),
            n(.pressureChangePer3h, barometer?.weather?.changePer3h, 0),
            n(.barographSpan, barometer?.weather?.span, 0),
            (Field.sensors.rawValue, board.sensors.map { .array($0.map(\.json)) } ?? .null),
            (Field.bluetooth.rawValue, board.bluetooth?.json ?? .null),
            t(.run, board.run),
            t(.step, pfd.workoutStep?.text), n(.stepNumber, pfd.workoutStep.map { Double($0.index + 1) }, 0),
            n(.stepCount, pfd.workoutStep.map { Double($0.count) }, 0),
            n(.stepLeftMetres, pfd.workoutStep.flatMap { $0.step.isDistance ? $0.remaining : nil }, 0),
            n(.stepLeftSeconds, pfd.workoutStep.flatMap { $0.step.isDistance ? nil : $0.remaining }, 0),
        ])
    }

    /// A status object from runwayd; nil for anything but an object.
    public init?(json: JSONValue) {
        guard case .object = json else { return nil }
        self.json = json
    }

    /// The status's fields by their wire names, in the order runwayd writes them: the
    /// contract's list (added to, never renamed). `barometer` is `ok`, `missing`, or null
    /// (runwayd has read no barometer yet).
    public enum Field: String, Sendable, CaseIterable {
        case time
        case phase
        case distance = "distance_m"
        case elapsed = "elapsed_s"
        case moving = "moving_s"
        case pace = "pace_s_per_km"
        case altitude = "altitude_m"
        case heading = "heading_deg"
        case gpws
        case paused
        case pauseReason = "pause_reason"
        case gpsSignal = "gps_signal"
        case heartRate = "heart_rate"
        case cadence
        case splits
        case batteryPercent = "battery_percent"
        case storageFreeBytes = "storage_free_bytes"
        case flightID = "flight_id"
        case barometer
        case pressure = "pressure_pa"
        case pressureTendency = "pressure_tendency"
        case pressureChangePer3h = "pressure_change_pa_3h"
        case barographSpan = "barograph_s"
        /// The paired Bluetooth sensors (`ControlSensor`, live); null when Bluetooth is off.
        case sensors
        /// Whether the sensor service has a radio (`ControlBluetooth`); null when Bluetooth is off.
        case bluetooth
        /// The run START flies, chosen in preflight (`free run`, `mission`, a configured run's name).
        case run
        /// The workout step being run, as its text; null without a workout (or after its last step).
        case step
        /// The step's number (from 1) and how many steps the workout has.
        case stepNumber = "step_number"
        case stepCount = "step_count"
        /// What is left of the step: metres for a distance step, moving seconds for a time step
        /// (the other null).
        case stepLeftMetres = "step_left_m"
        case stepLeftSeconds = "step_left_s"
    }

    /// The paired sensors; nil when the field is missing or null (an older daemon, or Bluetooth
    /// off in its configuration).
    public var sensors: [ControlSensor]? { ControlSensor.list(json[Field.sensors.rawValue]) }

    /// The radio's state; nil when the field is missing or null (an older daemon, Bluetooth off).
    public var bluetooth: ControlBluetooth? { ControlBluetooth(json: json[Field.bluetooth.rawValue]) }

    /// A number field; nil when missing, null or not a number.
    public func number(_ field: Field) -> Double? { json[field.rawValue]?.numberValue }
    /// A text field; nil when missing, null or not a string.
    public func text(_ field: Field) -> String? { json[field.rawValue]?.stringValue }
    /// A true/false field; nil when missing, null or not JSON true or false.
    public func flag(_ field: Field) -> Bool? { json[field.rawValue]?.boolValue }
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
