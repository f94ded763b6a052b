import RunWayCore

/// One reply line from runwayd (one per request), typed. The wire is an object with `"ok"`:
/// JSON `true` and what the request did, or anything else (`false`, `1`, a missing key) and an
/// `"error"`. Fields a newer daemon adds are ignored here; `protocol_version` says which
/// contract the daemon speaks (missing: one from before it was said).
public enum ControlResponse: Sendable, Equatable {
    case ok(ControlOutcome)
    case refused(ControlRefusal)

    /// A reply line; nil when it is not a JSON object (read strictly, `JSONValue.parse`: a key
    /// given twice is no reply, and `"ok": 1` is no yes).
    public init?(line: [UInt8]) {
        guard let json = try? JSONValue.parse(line), case .object = json else { return nil }
        guard json["ok"]?.boolValue == true else {
            self = .refused(json["error"]?.stringValue.map(ControlRefusal.init(message:)) ?? .unexplained)
            return
        }
        self = .ok(ControlOutcome(json: json))
    }

    /// The line runwayd writes (no newline): the goldens' field order, then the version.
    public var line: String {
        var fields: [(String, JSONValue)]
        switch self {
        case .ok(let outcome): fields = [("ok", .bool(true))] + outcome.fields
        case .refused(let refusal):
            fields = [("ok", .bool(false))]
            if let message = refusal.wireMessage { fields.append(("error", .string(message))) }
        }
        return JSONValue.object(
            fields + [("protocol_version", .number(Double(ControlContract.protocolVersion)))]
        )
        .rendered()
    }
}

/// What an accepted request did. Each field is on the wire only when set.
public struct ControlOutcome: Sendable, Equatable {
    /// `status`: the live state.
    public var status: ControlStatus?
    /// `subscribe`: events follow.
    public var subscribed: Bool?
    public var result: ControlResult?
    /// A landed flight's distance, metres.
    public var distance: Double?
    /// A landed flight was long enough to be recorded.
    public var recorded: Bool?
    /// The flight's phase after the command (`FlightPhase`'s raw value; text, as a newer
    /// daemon's phase must still print).
    public var phase: String?
    /// `sensors-scan`: the sensors near; `sensors-list`: the paired ones.
    public var sensors: [ControlSensor]?
    /// `sensors-pair`: the sensor now paired.
    public var paired: ControlSensor?
    /// `sensors-pair`: the sensors of the same kind it replaced (one per kind: a second strap
    /// replaces the first); nil when it replaced none.
    public var replaced: [ControlSensor]?
    /// `sensors-forget`: the sensor forgotten.
    public var forgotten: ControlSensor?
    /// The daemon's contract version; nil from a daemon older than the field.
    public var protocolVersion: Int?

    public init(
        status: ControlStatus? = nil, subscribed: Bool? = nil, result: ControlResult? = nil,
        distance: Double? = nil, recorded: Bool? = nil, phase: String? = nil, sensors: [ControlSensor]? = nil,
        paired: ControlSensor? = nil, replaced: [ControlSensor]? = nil, forgotten: ControlSensor? = nil
    ) {
        self.sensors = sensors
        self.paired = paired
        self.replaced = replaced
        self.forgotten = forgotten
        self.status = status
        self.subscribed = subscribed
        self.result = result
        self.distance = distance
        self.recorded = recorded
        self.phase = phase
        protocolVersion = ControlContract.protocolVersion
    }

    init(json: JSONValue) {
        status = json["status"].flatMap(ControlStatus.init(json:))
        subscribed = json["subscribed"]?.boolValue
        result = json["result"]?.stringValue.map(ControlResult.init(text:))
        distance = json["distance_m"]?.numberValue
        recorded = json["recorded"]?.boolValue
        phase = json["phase"]?.stringValue
        sensors = ControlSensor.list(json["sensors"])
        paired = json["paired"].flatMap(ControlSensor.init(json:))
        replaced = ControlSensor.list(json["replaced"])
        forgotten = json["forgotten"].flatMap(ControlSensor.init(json:))
        protocolVersion = json["protocol_version"]?.numberValue.flatMap { Int(exactly: $0) }
    }

    var fields: [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = []
        if let status { fields.append(("status", status.json)) }
        if let subscribed { fields.append(("subscribed", .bool(subscribed))) }
        if let result { fields.append(("result", .string(result.text))) }
        if let distance { fields.append(("distance_m", .number(distance, places: 1))) }
        if let recorded { fields.append(("recorded", .bool(recorded))) }
        if let phase { fields.append(("phase", .string(phase))) }
        if let sensors { fields.append(("sensors", .array(sensors.map(\.json)))) }
        if let paired { fields.append(("paired", paired.json)) }
        if let replaced { fields.append(("replaced", .array(replaced.map(\.json)))) }
        if let forgotten { fields.append(("forgotten", forgotten.json)) }
        return fields
    }
}

/// What a command came to, in the words `runway` prints.
public enum ControlResult: Sendable, Equatable {
    case landed
    case takeoffAbandoned
    /// A STOP sent before this flight started (the stale-stop rule).
    case ignoredStale
    case notFlying
    /// START while a flight is already in this phase.
    case already(String)
    /// Before the first fix: a STOP called off the held START.
    case heldStartCancelled
    /// Before the first fix: the command waits for the GPS's time.
    case heldUntilFirstFix
    case exportDone
    case exportFailed
    /// START on a paused flight: it resumed.
    case resumed
    /// Words this version does not know (a newer daemon's): printed as they came.
    case other(String)

    private static let words: [(ControlResult, String)] = [
        (.landed, "landed"), (.takeoffAbandoned, "takeoff abandoned"),
        (.ignoredStale, "ignored: sent before this flight started"), (.notFlying, "not flying"),
        (.heldStartCancelled, "held start cancelled"), (.heldUntilFirstFix, "held until the first fix"),
        (.exportDone, "export done"), (.exportFailed, "export failed"), (.resumed, "resumed"),
    ]

    public var text: String {
        switch self {
        case .already(let phase): "already \(phase)"
        case .other(let text): text
        default: Self.words.first { $0.0 == self }?.1 ?? "?"
        }
    }

    public init(text: String) {
        if let known = Self.words.first(where: { $0.1 == text }) {
            self = known.0
        } else if text.hasPrefix("already "), text.count > 8 {
            self = .already(String(text.dropFirst(8)))
        } else {
            self = .other(text)
        }
    }
}

/// The daemon's reply lines as text, for code that answers with a line: each built from the
/// typed values above, so its bytes are theirs.
public enum ControlReply {
    /// `{"ok":true,…fields…,"protocol_version":1}`: a reply with fields of its own (tests'
    /// stand-in servers); runwayd's own replies are `ControlResponse.ok(ControlOutcome)`.
    public static func ok(_ fields: [(String, JSONValue)] = []) -> String {
        JSONValue.object(
            [("ok", .bool(true))] + fields + [
                ("protocol_version", .number(Double(ControlContract.protocolVersion)))
            ]
        ).rendered()
    }

    /// `{"ok":false,"error":message,"protocol_version":1}`, the sentence exactly as given.
    public static func refused(_ message: String) -> String {
        ControlResponse.refused(.invalid(message)).line
    }

    public static func refused(_ refusal: ControlRefusal) -> String { ControlResponse.refused(refusal).line }

    /// The live state: the PFD and the board.
    public static func status(_ pfd: PFD, board: BoardStatus) -> JSONValue {
        ControlStatus(pfd, board: board).json
    }

    public static func event(state pfd: PFD, board: BoardStatus) -> String {
        ControlEvent(state: pfd, board: board).line
    }

    public static func event(callout: TimedCallout) -> String { ControlEvent(callout: callout).line }
}
