import CSystemd
import Glibc
import RunWayCore
import RunWaySystem

/// The `SensorRadio` of the board: bluetoothd (BlueZ 5) over D-Bus, through sd-bus.
///
/// **Object model used.** Service `org.bluez` on the system bus (or the bus given to
/// `init(address:)`):
/// - `/` — `org.freedesktop.DBus.ObjectManager`: `GetManagedObjects` once at start and each time
///   org.bluez comes back; signals `InterfacesAdded` / `InterfacesRemoved` keep the copy current.
/// - `/org/bluez/hciN` — `org.bluez.Adapter1` (the first by path is used): `Powered`, `Address`;
///   `SetDiscoveryFilter({Transport: "le", UUIDs: [180D, 1814]})`, `StartDiscovery`,
///   `StopDiscovery`, `RemoveDevice(o)`.
/// - `/org/bluez/hciN/dev_AA_BB_…` — `org.bluez.Device1`: `Address`, `Name`, `UUIDs`, `RSSI`,
///   `Paired`, `Connected`, `ServicesResolved`; `Pair`, `Connect`, `Disconnect`, and
///   `org.freedesktop.DBus.Properties.Set(Device1, "Trusted", true)` after pairing.
/// - `…/dev_…/serviceXXXX/charYYYY` — `org.bluez.GattCharacteristic1` with `UUID` 00002a37-…
///   (Heart Rate Measurement), 00002a53-… (RSC Measurement) or 00002a19-… (Battery Level):
///   `StartNotify`, `ReadValue({})` (battery), and `Value` arriving in `PropertiesChanged`.
/// - `org.freedesktop.DBus` `NameOwnerChanged` for org.bluez: bluetoothd stopping or starting.
///
/// Every request goes out with auto-start off (a stopped bluetoothd is reported, not
/// activated). Pair, Connect, StartNotify, ReadValue and Disconnect are asynchronous (their
/// replies come through `process()`); the few synchronous calls (GetManagedObjects, discovery,
/// RemoveDevice, AddMatch) wait at most 1 s each.
///
/// **Driving it** (one thread owns it, see `SensorRadio`): poll `descriptor` for POLLIN with
/// `timeout()` (0 means call `process()` now: events are waiting, or more input than one batch
/// was queued), then call `process()`. The first `process()` reports `.adapter(state)` with the
/// state at start; later `.adapter` events come only on a change. After `connect`:
/// `.connected(kinds)` then `.reading`s (the battery's among them), or `.failed`; a drop is
/// `.disconnected`, after which `connect` may be called again (the daemon's reconnect policy).
/// While the state is `.noBlueZ`, `blueZUnavailable` says why (not running, or the bus refused
/// us: `.permissionDenied`), and requests throw it. A `process()` that throws
/// `.busUnavailable` means the bus connection itself is gone: make a new radio.
///
/// **Bounds.** One `process()` returns at most about `eventBatchLimit` events and leaves the rest
/// of the input queued in the socket, so a sensor flooding notifications costs no more memory
/// than one batch. A run of malformed payloads from one characteristic is reported once
/// (`.failed(.malformed)`) until a good one arrives; `statistics` counts them all.
public final class BlueZRadio: SensorRadio {
    /// What the radio has counted since it started.
    public struct Statistics: Sendable, Equatable {
        /// Notifications and reads decoded into readings.
        public var readings = 0
        /// Payloads that did not decode (each burst reported once as `.failed(.malformed)`).
        public var malformedPayloads = 0
        /// Readings that arrived while notifications were still being switched on and found
        /// the holding buffer (`earlyReadingLimit`) full.
        public var droppedReadings = 0
    }

    /// Events one `process()` gathers before it stops reading (the rest waits in the socket).
    public static let eventBatchLimit = 512
    /// How long BlueZ's Pair may take before it is given up: the daemon's own limit for a
    /// pairing (`ControlRequest.pairSeconds`, 30 s), so the two never disagree about whether a
    /// pairing is still under way.
    public static let pairTimeout: Double = 30
    /// How long a connected device may take to resolve its services, by default.
    public static let defaultServicesTimeout: Double = 20
    /// Readings held while notifications are switched on, delivered after `.connected`.
    static let earlyReadingLimit = 32

    static let bluez = "org.bluez"
    static let properties = "org.freedesktop.DBus.Properties"
    static let objectManager = "org.freedesktop.DBus.ObjectManager"

    public internal(set) var statistics = Statistics()
    /// How long a connected device may take to resolve its services before the connect fails
    /// (`.failed(.timedOut)`) and the link is dropped.
    public var servicesTimeout = BlueZRadio.defaultServicesTimeout
    /// How long a Pair may take before it is given up (`pairTimeout`; tests shorten it).
    public var pairingTimeout = BlueZRadio.pairTimeout

    /// A connection under way or up, for one sensor.
    struct Link {
        enum Phase: Equatable {
            /// Device1.Connect sent.
            case connecting
            /// Connected; waiting for ServicesResolved until the deadline (monotonic seconds).
            case resolving(deadline: Double)
            /// StartNotify sent on the measurement characteristics.
            case subscribing
            case connected
        }

        var phase: Phase
        let devicePath: String
        let name: String
        /// Which connect this is: replies to an earlier one are ignored.
        let generation: UInt64
        var pendingNotifies = 0
        var kinds: Set<SensorKind> = []
        var notifyFailures: [String] = []
        /// Readings that arrived before `.connected` was reported.
        var early: [SensorReading] = []

        var isSubscribed: Bool { phase == .subscribing || phase == .connected }
    }

    /// What an asynchronous call was for.
    enum Purpose {
        case pair(BluetoothAddress)
        case trust(BluetoothAddress)
        case connect(BluetoothAddress, generation: UInt64)
        case startNotify(BluetoothAddress, generation: UInt64, kind: SensorKind)
        case batteryNotify
        case readBattery(BluetoothAddress, generation: UInt64, characteristic: String)
        case disconnect
        case cancelPairing
    }

    let bus: BusConnection
    var objects = BlueZObjects()
    var blueZRunning = false
    /// Why BlueZ cannot be used while `adapterState()` is `.noBlueZ`: not running (the usual),
    /// refused (not in the group bluetooth), or not answering. Requests throw it.
    public internal(set) var blueZUnavailable: BluetoothError = .blueZNotRunning
    var reportedState: AdapterState
    var events: [SensorEvent] = []
    var links: [BluetoothAddress: Link] = [:]
    var generation: UInt64 = 0
    /// Calls awaiting their reply, by their sd-bus slot (which `replied` finds as the bus's
    /// current slot). Each slot is ours (not floating): unref'ing it cancels the call.
    var calls: [OpaquePointer: Purpose] = [:]
    var matches: [OpaquePointer] = []
    /// Characteristics whose last payload was malformed (a burst already reported).
    var malformedBursts: Set<String> = []
    var refreshNeeded = false
    /// When the last GetManagedObjects failed for a cause other than BlueZ's absence (refused,
    /// not answered): it is tried again `refreshRetry` later (monotonic seconds).
    var refreshFailedAt: Double?
    /// How long after a GetManagedObjects that was refused or not answered it is asked again: a
    /// bluetoothd slow at boot, or a policy fixed by hand, is found without a restart. (BlueZ
    /// missing needs no retry: its NameOwnerChanged says when it comes.)
    public var refreshRetry: Double = 5
    var inputLeft = false

    /// BlueZ on the system bus.
    public convenience init() throws(BluetoothError) {
        try self.init(bus: Self.open { () throws(BusFailure) in try BusConnection() })
    }

    /// BlueZ on the bus at `address` (`unix:path=…`): a private bus with a mock, in tests.
    public convenience init(address: String) throws(BluetoothError) {
        try self.init(bus: Self.open { () throws(BusFailure) in try BusConnection(address: address) })
    }

    static func open(_ connect: () throws(BusFailure) -> BusConnection) throws(BluetoothError)
        -> BusConnection
    {
        do throws(BusFailure) {
            return try connect()
        } catch {
            throw .busUnavailable(errno: error.errno)
        }
    }

    /// Subscribes to BlueZ's signals, then reads its objects (in that order, so no change falls
    /// between the two). A missing bluetoothd is not an error here: it is `.noBlueZ` until it
    /// starts.
    init(bus: BusConnection) throws(BluetoothError) {
        self.bus = bus
        reportedState = .noBlueZ
        // Lifetime of `self` in the C callbacks: userdata is `self` unretained. Every match and
        // call slot is owned here and unref'd in deinit before `self` goes, and sd-bus calls a
        // callback only from sd_bus_process, which only this object's methods call. So no
        // callback runs without a live `self`.
        let me = Unmanaged.passUnretained(self).toOpaque()
        let rules: [(String, sd_bus_message_handler_t)] = [
            (
                "type='signal',sender='org.bluez',path='/',interface='\(Self.objectManager)'",
                blueZObjectManagerSignal
            ),
            (
                "type='signal',sender='org.bluez',interface='\(Self.properties)',member='PropertiesChanged',"
                    + "path_namespace='/org/bluez'", blueZPropertiesChanged
            ),
            (
                "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',"
                    + "interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.bluez'",
                blueZNameOwnerChanged
            ),
        ]
        do throws(BusFailure) {
            for (rule, callback) in rules {
                matches.append(try bus.match(rule, callback: callback, userdata: me))
            }
        } catch {
            for slot in matches { sd_bus_slot_unref(slot) }
            matches = []
            throw map(error, what: "subscribing to BlueZ's signals")
        }
        refresh()
        reportedState = adapterState()
        events.append(.adapter(reportedState))
    }

    deinit {
        for slot in matches { sd_bus_slot_unref(slot) }
        for slot in calls.keys { sd_bus_slot_unref(slot) }
    }

    // MARK: SensorRadio

    public var descriptor: Int32 { bus.descriptor }

    public func timeout() -> Double? {
        if !events.isEmpty || inputLeft || refreshNeeded { return 0 }
        let now = MonotonicClock.seconds
        var deadlines = links.values.compactMap { link -> Double? in
            if case .resolving(let deadline) = link.phase { return max(0, deadline - now) }
            return nil
        }
        if let failed = refreshFailedAt { deadlines.append(max(0, failed + refreshRetry - now)) }
        return ([bus.timeout()].compactMap { $0 } + deadlines).min()
    }

    public func process() throws(BluetoothError) -> [SensorEvent] {
        // Cleared on every way out, a throw included: events left behind would make `timeout()`
        // say 0 forever, and a radio whose bus is gone would be polled in a tight loop.
        defer { events = [] }
        do throws(BluetoothError) {
            try pump()
        } catch {
            inputLeft = false
            refreshNeeded = false
            throw error
        }
        if let failed = refreshFailedAt, MonotonicClock.seconds >= failed + refreshRetry {
            refreshNeeded = true
        }
        if refreshNeeded {
            refreshNeeded = false
            refresh()
            noteAdapterState()
        }
        expireDeadlines()
        return events
    }

    public func adapterState() -> AdapterState { blueZRunning ? objects.adapterState : .noBlueZ }

    public var unavailable: BluetoothError? { blueZRunning ? nil : blueZUnavailable }

    public func startScan() throws(BluetoothError) {
        let adapter = try readyAdapter()
        let uuids = SensorKind.allCases.map { BlueZObjects.fullUUID($0.service) }
        try callSync(
            adapter, BlueZObjects.adapterInterface, "SetDiscoveryFilter",
            [.options([("Transport", .string("le")), ("UUIDs", .strings(uuids))])])
        do throws(BluetoothError) {
            try callSync(adapter, BlueZObjects.adapterInterface, "StartDiscovery")
        } catch .dbus("org.bluez.Error.InProgress", _) {
            // Already discovering (another client's scan, or ours): that is what was asked.
        }
    }

    public func stopScan() throws(BluetoothError) {
        let adapter = try readyAdapter()
        guard objects.properties(adapter, BlueZObjects.adapterInterface)?["Discovering"]?.boolean != false
        else {
            return
        }
        try callSync(adapter, BlueZObjects.adapterInterface, "StopDiscovery")
    }

    public func devices() throws(BluetoothError) -> [SensorDevice] {
        try pump()  // what has arrived (a device just seen, an RSSI) before answering
        guard blueZRunning else { throw blueZUnavailable }
        return objects.devicePaths.values.compactMap(objects.sensorDevice).sorted { $0.address < $1.address }
    }

    public func pair(_ address: BluetoothAddress) throws(BluetoothError) {
        _ = try readyAdapter()
        let path = try devicePath(address)
        if objects.properties(path, BlueZObjects.deviceInterface)?["Paired"]?.boolean == true {
            try trust(address, path)
        } else {
            try send(
                path, BlueZObjects.deviceInterface, "Pair", timeout: pairingTimeout, for: .pair(address))
        }
    }

    public func forget(_ address: BluetoothAddress) throws(BluetoothError) {
        let adapter = try readyAdapter()
        let path = try devicePath(address)
        if links.removeValue(forKey: address) != nil { events.append(.disconnected(address)) }
        try callSync(adapter, BlueZObjects.adapterInterface, "RemoveDevice", [.objectPath(path)])
    }

    /// A second `connect` while one is under way does nothing (its outcome is still to come);
    /// on a connected sensor it reports `.connected` again.
    public func connect(_ address: BluetoothAddress) throws(BluetoothError) {
        _ = try readyAdapter()
        let path = try devicePath(address)
        if let link = links[address] {
            if link.phase == .connected { events.append(.connected(address, kinds: link.kinds)) }
            return
        }
        generation += 1
        malformedBursts = malformedBursts.filter { !$0.hasPrefix(path + "/") }  // a new link, new bursts
        links[address] = Link(
            phase: .connecting, devicePath: path, name: name(of: path), generation: generation)
        do throws(BluetoothError) {
            try send(
                path, BlueZObjects.deviceInterface, "Connect", timeout: 30,
                for: .connect(address, generation: generation))
        } catch {
            links[address] = nil
            throw error
        }
    }

    /// Ends the link at once (`.disconnected` is reported now, not when BlueZ confirms).
    public func disconnect(_ address: BluetoothAddress) throws(BluetoothError) {
        let path = try devicePath(address)
        if links.removeValue(forKey: address) != nil { events.append(.disconnected(address)) }
        try send(path, BlueZObjects.deviceInterface, "Disconnect", timeout: 10, for: .disconnect)
    }

    // MARK: Reading the bus

    /// Runs sd-bus until it has nothing left or a batch of events is gathered.
    func pump() throws(BluetoothError) {
        inputLeft = false
        do throws(BusFailure) {
            while events.count < Self.eventBatchLimit {
                guard try bus.processOne() else { return }
            }
            inputLeft = true
        } catch {
            throw .busUnavailable(errno: error.errno)
        }
    }

    /// Reads BlueZ's objects afresh: at start, and when org.bluez got a new owner.
    func refresh() {
        do throws(BusFailure) {
            let reply = try bus.call(Self.bluez, "/", Self.objectManager, "GetManagedObjects")
            blueZRunning = reply.first.map { objects.replaceAll(with: $0) } ?? false
            blueZUnavailable =
                blueZRunning
                ? .blueZNotRunning : .dbus(name: "GetManagedObjects", message: "not a{oa{sa{sv}}}")
            refreshFailedAt = blueZRunning ? nil : MonotonicClock.seconds
        } catch {
            // Not running, refused, or not answering within 1 s: nothing to talk to, and why.
            blueZRunning = false
            blueZUnavailable = map(error, what: "GetManagedObjects")
            objects.removeAll()
            // Absent, BlueZ's arrival is a NameOwnerChanged; any other cause is asked again.
            refreshFailedAt = blueZUnavailable == .blueZNotRunning ? nil : MonotonicClock.seconds
        }
    }

    /// Reports a change of the adapter's state; links cannot outlive a usable adapter.
    func noteAdapterState() {
        let state = adapterState()
        guard state != reportedState else { return }
        reportedState = state
        if case .ready = state {
        } else {
            for address in links.keys.sorted() { events.append(.disconnected(address)) }
            links = [:]
        }
        events.append(.adapter(state))
    }

    func expireDeadlines() {
        let now = MonotonicClock.seconds
        for (address, link) in links.sorted(by: { $0.key < $1.key }) {
            guard case .resolving(let deadline) = link.phase, deadline <= now else { continue }
            links[address] = nil
            events.append(
                .failed(
                    address,
                    .timedOut("\(link.name) resolving its services within \(servicesTimeout) s")))
            try? send(
                link.devicePath, BlueZObjects.deviceInterface, "Disconnect", timeout: 10, for: .disconnect)
        }
    }
}

// The C callbacks: userdata is the radio, unretained (see `BlueZRadio.init(bus:)` for why it is
// alive whenever sd-bus calls one).

private func radio(_ userdata: UnsafeMutableRawPointer?) -> BlueZRadio? {
    userdata.map { Unmanaged<BlueZRadio>.fromOpaque($0).takeUnretainedValue() }
}

func blueZReply(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    guard let message, let radio = radio(userdata) else { return 0 }
    radio.replied(message, slot: sd_bus_get_current_slot(sd_bus_message_get_bus(message)))
    return 0
}

private func blueZObjectManagerSignal(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    if let message, let radio = radio(userdata) { radio.objectManagerSignal(message) }
    return 0
}

private func blueZPropertiesChanged(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    if let message, let radio = radio(userdata) { radio.propertiesChanged(message) }
    return 0
}

private func blueZNameOwnerChanged(
    _ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?,
    _ error: UnsafeMutablePointer<sd_bus_error>?
) -> Int32 {
    if let message, let radio = radio(userdata) { radio.nameOwnerChanged(message) }
    return 0
}
