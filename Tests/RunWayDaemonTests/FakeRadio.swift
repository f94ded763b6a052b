import RunWayBluetooth
import RunWaySystem
import Synchronization

/// BlueZ as the tests play it: devices near, what a pairing or a connect comes to, events pushed
/// by the test (a drop, readings, garbage). Its descriptor is an eventfd, readable while events
/// wait, as an sd-bus connection's is while messages do. Sendable through its one lock, so a test
/// can push while the sensor thread owns it.
final class FakeRadio: SensorRadio, Sendable {
    struct State {
        var adapter = AdapterState.ready(address: nil)
        var devices: [SensorDevice] = []
        /// A scan stopped: BlueZ has invalidated every RSSI (until the next scan).
        var rssiGone = false
        var pending: [SensorEvent] = []
        /// Every request, in order: "connect AA:…", "pair AA:…", "scan on", …
        var calls: [String] = []
        /// What a pair request comes to (absent: nothing, as a sensor that never answers).
        var pairing: [BluetoothAddress: SensorEvent] = [:]
        /// Addresses whose connect succeeds (else it fails with connectFailed).
        var reachable: Set<BluetoothAddress> = []
        /// A request name ("scan", "pair", "connect", "devices") that throws this.
        var throwing: [String: BluetoothError] = [:]
        /// Why BlueZ cannot be used while `adapter` is `.noBlueZ` (nil: not running).
        var unavailable: BluetoothError?
        /// What `process()` throws (once), as a radio whose bus connection was lost.
        var processError: BluetoothError?
    }

    let state = Mutex(State())
    private let wake = WakeSignal()

    init(_ configure: (inout State) -> Void = { _ in }) { state.withLock { configure(&$0) } }

    var descriptor: Int32 { wake.fd }
    func timeout() -> Double? { nil }

    func process() throws(BluetoothError) -> [SensorEvent] {
        wake.drain()
        let thrown: BluetoothError? = state.withLock { state in
            defer { state.processError = nil }
            return state.processError
        }
        if let thrown { throw thrown }
        return state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
    }

    /// Events as BlueZ would send them by itself.
    func push(_ events: SensorEvent...) {
        state.withLock { $0.pending += events }
        wake.signal()
    }

    var calls: [String] { state.withLock { $0.calls } }

    private func call(_ name: String, _ detail: String = "") throws(BluetoothError) {
        let error: BluetoothError? = state.withLock { state in
            state.calls.append(detail.isEmpty ? name : "\(name) \(detail)")
            return state.throwing[name]
        }
        if let error { throw error }
    }

    private func later(_ event: SensorEvent) {
        state.withLock { $0.pending.append(event) }
        wake.signal()
    }

    func adapterState() -> AdapterState { state.withLock { $0.adapter } }
    var unavailable: BluetoothError? {
        state.withLock { $0.adapter == .noBlueZ ? $0.unavailable ?? .blueZNotRunning : nil }
    }
    /// A scan hears the devices' advertisements again: their RSSI is back.
    func startScan() throws(BluetoothError) {
        try call("scan", "on")
        state.withLock { $0.rssiGone = false }
    }
    /// As BlueZ does when discovery ends (src/adapter.c, invalidate_rssi_and_tx_power): every
    /// device's RSSI is gone.
    func stopScan() throws(BluetoothError) {
        try call("scan", "off")
        state.withLock { $0.rssiGone = true }
    }

    func devices() throws(BluetoothError) -> [SensorDevice] {
        try call("devices")
        return state.withLock { state in
            state.devices.map { device in
                var device = device
                if state.rssiGone { device.rssi = nil }
                return device
            }
        }
    }

    func pair(_ address: BluetoothAddress) throws(BluetoothError) {
        try call("pair", address.text)
        if let outcome = state.withLock({ $0.pairing[address] }) { later(outcome) }
    }

    func forget(_ address: BluetoothAddress) throws(BluetoothError) { try call("forget", address.text) }

    func connect(_ address: BluetoothAddress) throws(BluetoothError) {
        try call("connect", address.text)
        if state.withLock({ $0.reachable.contains(address) }) {
            later(.connected(address, kinds: [.heartRate]))
        } else {
            later(
                .failed(address, .connectFailed(name: address.text, message: "le-connection-abort-by-local")))
        }
    }

    func disconnect(_ address: BluetoothAddress) throws(BluetoothError) {
        try call("disconnect", address.text)
    }
}

extension BluetoothAddress {
    /// A test's address; traps on a typo.
    init(_ text: String) { self.init(parsing: text)! }
}

enum Sensors {
    static let polar = BluetoothAddress("A0:9E:1A:12:34:56")
    static let tickr = BluetoothAddress("C8:FD:19:AA:BB:CC")
    static let stryd = BluetoothAddress("F4:12:FA:00:01:02")

    static func device(_ address: BluetoothAddress, _ name: String?, _ kind: SensorKind, rssi: Int? = -50)
        -> SensorDevice
    {
        SensorDevice(address: address, name: name, kinds: [kind], rssi: rssi, paired: false, connected: false)
    }

    static let near = [
        device(polar, "Polar H10 1A2B3C4D", .heartRate, rssi: -48),
        device(tickr, "TICKR", .heartRate, rssi: -80),
        device(stryd, "Stryd", .cadence, rssi: -71),
    ]

    static func heartRate(_ bpm: Int, contact: HeartRateMeasurement.Contact = .detected) -> SensorReading {
        .heartRate(
            HeartRateMeasurement(beatsPerMinute: bpm, contact: contact, energyExpended: nil, rrIntervals: []))
    }
}
