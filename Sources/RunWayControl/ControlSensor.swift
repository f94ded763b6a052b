import RunWayCore

/// A Bluetooth sensor on the wire: one object in `sensors-scan` and `sensors-list` replies, in
/// the `paired` / `replaced` / `forgotten` fields of `sensors-pair` and `sensors-forget`, and in
/// `status`'s `sensors` array (`Tests/Fixtures/control/reply-sensors-*`). A field is on the wire
/// only when the reply that carries it says it (a scan has `rssi` and `paired`; the list and the
/// status have `connected`, `battery_percent`, `heart_rate`, `cadence`, `contact`, `last_seen`,
/// `last_seen_age_s`);
/// every one of those present is `null` when unknown. Fields are added, never renamed.
public struct ControlSensor: Sendable, Equatable {
    /// What a sensor measures (RunWayBluetooth's `SensorKind`, by the same words).
    public enum Kind: String, Sendable, CaseIterable, Comparable {
        case heartRate = "heart_rate"
        case cadence = "cadence"

        /// As the runner says it: "heart rate", "footpod".
        public var words: String {
            switch self {
            case .heartRate: "heart rate"
            case .cadence: "footpod"
            }
        }

        public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
    }

    /// Which fields the object carries.
    public enum Shape: Sendable, Equatable {
        /// Address, name, kinds (a pair's or a forget's answer).
        case identity
        /// + rssi, paired (a scan).
        case scanned
        /// + connected, battery, values, contact, last seen (the list, the status).
        case live
    }

    public var shape: Shape
    /// `AA:BB:CC:DD:EE:FF`.
    public var address: String
    public var name: String?
    public var kinds: [Kind]
    public var rssi: Int?
    public var paired: Bool?
    public var connected: Bool?
    public var batteryPercent: Int?
    /// The newest usable heart rate, bpm (nil: none, or no skin contact).
    public var heartRate: Double?
    /// The newest cadence, steps per minute.
    public var cadence: Double?
    /// Skin contact as the strap reports it (nil: it does not say, or no reading yet).
    public var contact: Bool?
    /// When the sensor last said anything (GPS time, nil before the first fix or never).
    public var lastSeen: Double?
    /// How long ago the sensor last said anything, seconds (runwayd's own clock: known before
    /// the first fix too); nil only when nothing ever arrived.
    public var lastSeenAge: Double?

    public init(
        shape: Shape, address: String, name: String?, kinds: [Kind], rssi: Int? = nil, paired: Bool? = nil,
        connected: Bool? = nil, batteryPercent: Int? = nil, heartRate: Double? = nil, cadence: Double? = nil,
        contact: Bool? = nil, lastSeen: Double? = nil, lastSeenAge: Double? = nil
    ) {
        self.shape = shape
        self.address = address
        self.name = name
        self.kinds = kinds.sorted()
        self.rssi = rssi
        self.paired = paired
        self.connected = connected
        self.batteryPercent = batteryPercent
        self.heartRate = heartRate
        self.cadence = cadence
        self.contact = contact
        self.lastSeen = lastSeen
        self.lastSeenAge = lastSeenAge
    }

    /// A heart rate or cadence older than this (seconds) is not current: the list and the
    /// status send none, and the checklist says how long the sensor has been silent. A strap
    /// notifies about once a second and a footpod once or twice: 5 s is several missed in a row,
    /// past a moment's radio shadow.
    public static let staleAfter = 5.0

    /// The name, else the address: how messages and the checklist call it.
    public var label: String { name ?? address }

    public var json: JSONValue {
        var fields: [(String, JSONValue)] = [
            ("address", .string(address)), ("name", name.map { .string($0) } ?? .null),
            ("kinds", .array(kinds.map { .string($0.rawValue) })),
        ]
        switch shape {
        case .identity: break
        case .scanned:
            fields += [
                ("rssi", .number(rssi.map(Double.init), places: 0)),
                ("paired", paired.map { .bool($0) } ?? .null),
            ]
        case .live:
            fields += [
                ("connected", connected.map { .bool($0) } ?? .null),
                ("battery_percent", .number(batteryPercent.map(Double.init), places: 0)),
                ("heart_rate", .number(heartRate, places: 0)), ("cadence", .number(cadence, places: 0)),
                ("contact", contact.map { .bool($0) } ?? .null),
                ("last_seen", lastSeen.map { .string(UTCTime.format($0)) } ?? .null),
                ("last_seen_age_s", .number(lastSeenAge, places: 0)),
            ]
        }
        return .object(fields)
    }

    /// A sensor object from runwayd; nil when it has no address. A kind this version does not
    /// know is left out; the shape is the richest the fields allow.
    public init?(json: JSONValue) {
        guard case .object = json, let address = json["address"]?.stringValue else { return nil }
        let kinds: [Kind] =
            if case .array(let items)? = json["kinds"] {
                items.compactMap { $0.stringValue.flatMap(Kind.init(rawValue:)) }
            } else { [] }
        let shape: Shape =
            json["connected"] != nil
            ? .live : json["rssi"] != nil || json["paired"] != nil ? .scanned : .identity
        self.init(
            shape: shape, address: address, name: json["name"]?.stringValue, kinds: kinds,
            rssi: json["rssi"]?.numberValue.flatMap { Int(exactly: $0) },
            paired: json["paired"]?.boolValue, connected: json["connected"]?.boolValue,
            batteryPercent: json["battery_percent"]?.numberValue.flatMap { Int(exactly: $0) },
            heartRate: json["heart_rate"]?.numberValue, cadence: json["cadence"]?.numberValue,
            contact: json["contact"]?.boolValue,
            lastSeen: json["last_seen"]?.stringValue.flatMap(UTCTime.parse),
            lastSeenAge: json["last_seen_age_s"]?.numberValue)
    }

    /// A list of sensor objects; nil when `json` is not a list.
    static func list(_ json: JSONValue?) -> [ControlSensor]? {
        guard case .array(let items)? = json else { return nil }
        return items.compactMap(ControlSensor.init(json:))
    }
}
