import RunWayCore

/// What a Bluetooth LE sensor measures for a runner: a chest strap's heart rate (Heart Rate
/// Service 0x180D) or a footpod's cadence, speed and stride (Running Speed and Cadence 0x1814).
public enum SensorKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case heartRate = "heart_rate"
    case cadence = "cadence"

    /// The GATT primary service that makes a device this kind of sensor (16-bit UUID).
    public var service: UInt16 {
        switch self {
        case .heartRate: 0x180D
        case .cadence: 0x1814
        }
    }

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// A Bluetooth device address as BlueZ writes it: six hexadecimal pairs, upper case, colons.
public struct BluetoothAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let text: String

    /// `AA:BB:CC:DD:EE:FF` in either case; nil for anything else.
    public init?(parsing candidate: some StringProtocol) {
        let parts = candidate.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6,
            parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { Self.isHexDigit($0) } })
        else { return nil }
        text = parts.joined(separator: ":").uppercased()
    }

    public var description: String { text }

    /// BlueZ's object path segment: `dev_AA_BB_CC_DD_EE_FF`.
    public var pathSegment: String { "dev_" + text.split(separator: ":").joined(separator: "_") }

    public static func < (a: Self, b: Self) -> Bool { a.text < b.text }

    static func isHexDigit(_ b: UInt8) -> Bool {
        (48...57).contains(b) || (65...70).contains(b) || (97...102).contains(b)
    }
}

/// One device BlueZ knows (seen in a scan, or paired before) that offers a sensor service.
public struct SensorDevice: Sendable, Equatable {
    public var address: BluetoothAddress
    /// The advertised or GAP name; nil when the device never said one.
    public var name: String?
    public var kinds: Set<SensorKind>
    /// Signal strength of the last advertisement, dBm; nil when not seen in this scan.
    public var rssi: Int?
    public var paired: Bool
    public var connected: Bool

    public init(
        address: BluetoothAddress, name: String?, kinds: Set<SensorKind>, rssi: Int?, paired: Bool,
        connected: Bool
    ) {
        self.address = address
        self.name = name
        self.kinds = kinds
        self.rssi = rssi
        self.paired = paired
        self.connected = connected
    }
}

/// A decoded notification or read from a connected sensor.
public enum SensorReading: Sendable, Equatable {
    case heartRate(HeartRateMeasurement)
    case runningSpeedCadence(RSCMeasurement)
    /// Battery Level (0x2A19), percent 0–100.
    case battery(Int)
}

/// What the radio reports from `process()`: the outcome of a request begun earlier, or
/// something the sensor or BlueZ did by itself.
public enum SensorEvent: Sendable, Equatable {
    /// `pair` finished: BlueZ holds the bond (or the device needs none) and trusts it.
    case paired(BluetoothAddress)
    /// Connected, services resolved, and notifications of `kinds` switched on.
    case connected(BluetoothAddress, kinds: Set<SensorKind>)
    /// The link dropped (out of range, battery out, the sensor switched off) or a connect ended.
    case disconnected(BluetoothAddress)
    case reading(BluetoothAddress, SensorReading)
    /// A request on this device failed (a connect, its services, its notifications), or a
    /// payload could not be decoded. Never a pairing's outcome: that is `.pairFailed`.
    case failed(BluetoothAddress, BluetoothError)
    /// `pair` failed (the bond refused, the trust not set): kept apart from `.failed`, so a
    /// connect's failure on the same device is never taken for the pairing's answer.
    case pairFailed(BluetoothAddress, BluetoothError)
    /// BlueZ or its adapter came or went (bluetoothd restarted, the adapter powered off).
    case adapter(AdapterState)
}

/// Whether there is anything to talk to.
public enum AdapterState: Sendable, Equatable {
    case ready(address: BluetoothAddress?)
    /// BlueZ is running but the adapter is not powered.
    case poweredOff
    /// bluetoothd is running with no adapter (no controller, or rfkill).
    case noAdapter
    /// No org.bluez on the system bus: bluetoothd is not running.
    case noBlueZ
}

/// BlueZ as runwayd's sensor thread drives it: over D-Bus with sd-bus (`BlueZRadio`), or a fake
/// in tests. Not Sendable: one thread owns it (an sd-bus connection is not thread-safe), polls
/// `descriptor` for input, and calls `process()` when it is readable or `timeout()` has passed.
/// Requests return at once; their outcome comes later as a `SensorEvent`. No call blocks the
/// owning thread for more than a D-Bus round trip to bluetoothd (bounded: 1 s).
public protocol SensorRadio: AnyObject {
    /// The file descriptor to poll for POLLIN.
    var descriptor: Int32 { get }
    /// Seconds until `process()` must be called even if nothing arrived; nil: no deadline.
    func timeout() -> Double?
    /// Handles whatever is pending (replies, signals) and returns what happened, in order.
    func process() throws(BluetoothError) -> [SensorEvent]
    func adapterState() -> AdapterState
    /// Why BlueZ cannot be used while `adapterState()` is `.noBlueZ`: `.blueZNotRunning` (no
    /// org.bluez on the bus), `.permissionDenied` (the bus's policy refused us), `.timedOut`
    /// (bluetoothd did not answer)…; nil while BlueZ is there. The daemon says this, not "BlueZ
    /// is not running", when it is the cause.
    var unavailable: BluetoothError? { get }
    func startScan() throws(BluetoothError)
    func stopScan() throws(BluetoothError)
    /// Every device BlueZ knows that offers a Heart Rate or Running Speed and Cadence service
    /// (discovered in a scan, or paired before).
    func devices() throws(BluetoothError) -> [SensorDevice]
    /// Pairs (where the device asks for it) and trusts the device: `.paired` or `.pairFailed`
    /// follows.
    func pair(_ address: BluetoothAddress) throws(BluetoothError)
    /// Removes the device from BlueZ (bond and all).
    func forget(_ address: BluetoothAddress) throws(BluetoothError)
    /// Connects, resolves services, switches notifications on and reads the battery:
    /// `.connected` (then readings) or `.failed`/`.disconnected` follows.
    func connect(_ address: BluetoothAddress) throws(BluetoothError)
    func disconnect(_ address: BluetoothAddress) throws(BluetoothError)
}
