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

    public private(set) var statistics = Statistics()
    /// How long a connected device may take to resolve its services before the connect fails
    /// (`.failed(.timedOut)`) and the link is dropped.
    public var servicesTimeout = BlueZRadio.defaultServicesTimeout

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
    }

    private let bus: BusConnection
    private var objects = BlueZObjects()
    private var blueZRunning = false
    /// Why BlueZ cannot be used while `adapterState()` is `.noBlueZ`: not running (the usual),
    /// refused (not in the group bluetooth), or not answering. Requests throw it.
    public private(set) var blueZUnavailable: BluetoothError = .blueZNotRunning
    private var reportedState: AdapterState
    private var events: [SensorEvent] = []
    private var links: [BluetoothAddress: Link] = [:]
    private var generation: UInt64 = 0
    /// Calls awaiting their reply, by their sd-bus slot (which `replied` finds as the bus's
    /// current slot). Each slot is ours (not floating): unref'ing it cancels the call.
    private var calls: [OpaquePointer: Purpose] = [:]
    private var matches: [OpaquePointer] = []
    /// Characteristics whose last payload was malformed (a burst already reported).
    private var malformedBursts: Set<String> = []
    private var refreshNeeded = false
    /// When the last GetManagedObjects failed for a cause other than BlueZ's absence (refused,
    /// not answered): it is tried again `refreshRetry` later (monotonic seconds).
    private var refreshFailedAt: Double?
    /// How long after a GetManagedObjects that was refused or not answered it is asked again: a
    /// bluetoothd slow at boot, or a policy fixed by hand, is found without a restart. (BlueZ
    /// missing needs no retry: its NameOwnerChanged says when it comes.)
    public var refreshRetry: Double = 5
    private var inputLeft = false

    /// BlueZ on the system bus.
    public convenience init() throws(BluetoothError) {
        try self.init(bus: Self.open { () throws(BusFailure) in try BusConnection() })
    }

    /// BlueZ on the bus at `address` (`unix:path=…`): a private bus with a mock, in tests.
    public convenience init(address: String) throws(BluetoothError) {
        try self.init(bus: Self.open { () throws(BusFailure) in try BusConnection(address: address) })
    }

    private static func open(_ connect: () throws(BusFailure) -> BusConnection) throws(BluetoothError)
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
    private init(bus: BusConnection) throws(BluetoothError) {
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
                path, BlueZObjects.deviceInterface, "Pair", timeout: Self.pairTimeout, for: .pair(address))
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
    private func pump() throws(BluetoothError) {
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
    private func refresh() {
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
    private func noteAdapterState() {
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

    private func expireDeadlines() {
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

    // MARK: Signals (called from the C callbacks, inside sd_bus_process)

    func objectManagerSignal(_ message: OpaquePointer) {
        guard let member = sd_bus_message_get_member(message).map({ String(cString: $0) }),
            let body = try? BusConnection.readAll(message), body.count == 2, let path = body[0].string
        else { return }
        switch member {
        case "InterfacesAdded":
            objects.add(path: path, interfaces: body[1])
        case "InterfacesRemoved":
            let interfaces = body[1].strings ?? []
            if interfaces.contains(BlueZObjects.deviceInterface),
                let address = objects.address(ofDevice: path),
                let link = links.removeValue(forKey: address)
            {
                events.append(
                    link.phase == .connected
                        ? .disconnected(address)
                        : .failed(
                            address,
                            .connectFailed(name: link.name, message: "BlueZ lost the device while connecting")
                        ))
            }
            objects.remove(path: path, interfaces: interfaces)
        default: return
        }
        noteAdapterState()
    }

    func propertiesChanged(_ message: OpaquePointer) {
        guard let path = sd_bus_message_get_path(message).map({ String(cString: $0) }),
            let body = try? BusConnection.readAll(message), body.count >= 2, let interface = body[0].string
        else { return }
        objects.change(
            path: path, interface: interface, changed: body[1],
            invalidated: body.dropFirst(2).first?.strings ?? [])
        let changed = body[1].stringKeyed ?? [:]
        switch interface {
        case BlueZObjects.adapterInterface:
            noteAdapterState()
        case BlueZObjects.deviceInterface:
            guard let address = objects.address(ofDevice: path), let link = links[address] else { return }
            if changed["Connected"]?.boolean == false, link.phase != .connecting {
                links[address] = nil
                events.append(.disconnected(address))
            } else if changed["ServicesResolved"]?.boolean == true, case .resolving = link.phase {
                subscribe(address)
            }
        case BlueZObjects.characteristicInterface:
            guard let value = changed["Value"]?.bytes else { return }
            notified(path, value)
        default: return
        }
    }

    func nameOwnerChanged(_ message: OpaquePointer) {
        guard let body = try? BusConnection.readAll(message), body.count == 3, body[0].string == Self.bluez
        else {
            return
        }
        if body[2].string?.isEmpty == false {
            refreshNeeded = true  // read its objects after this dispatch, not inside it
        } else {
            blueZRunning = false
            blueZUnavailable = .blueZNotRunning
            refreshFailedAt = nil
            objects.removeAll()
            noteAdapterState()
        }
    }

    /// A characteristic's new Value: decoded for a sensor whose notifications are on.
    private func notified(_ characteristic: String, _ bytes: [UInt8]) {
        guard let devicePath = BlueZObjects.devicePath(of: characteristic),
            let address = objects.address(ofDevice: devicePath), links[address]?.isSubscribed == true,
            let uuid = objects.properties(characteristic, BlueZObjects.characteristicInterface)?["UUID"]?
                .string
                .flatMap(BlueZObjects.shortUUID)
        else { return }
        decode(bytes, uuid: uuid, from: characteristic, of: address)
    }

    private func decode(
        _ bytes: [UInt8], uuid: UInt16, from characteristic: String, of address: BluetoothAddress
    ) {
        let reading: SensorReading
        // A strap's payload whose heart rate is whole but whose later fields are not: the heart
        // rate goes on, the payload counts as malformed.
        var badTail: BluetoothError?
        do throws(BluetoothError) {
            switch uuid {
            case HeartRateMeasurement.characteristic:
                let (measurement, tail) = try HeartRateMeasurement.decodeKeepingValue(bytes)
                reading = .heartRate(measurement)
                badTail = tail
            case RSCMeasurement.characteristic:
                reading = .runningSpeedCadence(try RSCMeasurement.decode(bytes))
            case BatteryLevel.characteristic: reading = .battery(try BatteryLevel.decode(bytes))
            default: return
            }
        } catch {
            statistics.malformedPayloads += 1
            if malformedBursts.insert(characteristic).inserted { events.append(.failed(address, error)) }
            return
        }
        if let badTail {
            statistics.malformedPayloads += 1
            if malformedBursts.insert(characteristic).inserted { events.append(.failed(address, badTail)) }
        } else {
            malformedBursts.remove(characteristic)
        }
        statistics.readings += 1
        guard var link = links[address] else { return }
        if link.phase == .connected {
            events.append(.reading(address, reading))
        } else if link.early.count < Self.earlyReadingLimit {
            link.early.append(reading)
            links[address] = link
        } else {
            statistics.droppedReadings += 1
        }
    }

    // MARK: Replies

    /// The reply (or error, or sd-bus's timeout) to the call whose slot is `slot`.
    func replied(_ message: OpaquePointer, slot: OpaquePointer?) {
        guard let slot, let purpose = calls.removeValue(forKey: slot) else { return }
        sd_bus_slot_unref(slot)  // sd-bus holds its own reference while the callback runs
        var failure: BusFailure?
        var values: [DBusValue] = []
        if sd_bus_message_is_method_error(message, nil) > 0, let error = sd_bus_message_get_error(message) {
            failure = BusFailure(error: error, errno: sd_bus_message_get_errno(message))
        } else {
            do throws(BusFailure) { values = try BusConnection.readAll(message) } catch { failure = error }
        }
        switch purpose {
        case .pair(let address):
            let name = failure?.name
            if failure == nil || name == "org.bluez.Error.AlreadyExists"
                || name == "org.bluez.Error.NotSupported"
            {
                // Bonded now, or before, or a sensor that needs no bond: trust it either way.
                guard let path = objects.devicePaths[address] else {
                    events.append(.pairFailed(address, .unknownDevice(address.text)))
                    return
                }
                do throws(BluetoothError) { try trust(address, path) } catch {
                    events.append(.pairFailed(address, error))
                }
            } else if let failure {
                let deviceName = objects.devicePaths[address].map(name(of:)) ?? address.text
                events.append(.pairFailed(address, pairingError(failure, name: deviceName)))
            }
        case .trust(let address):
            if let failure {
                events.append(.pairFailed(address, map(failure, what: "trusting \(address)")))
            } else {
                events.append(.paired(address))
            }
        case .connect(let address, let generation):
            guard let link = links[address], link.generation == generation else { return }
            if let failure, failure.name != "org.bluez.Error.AlreadyConnected" {
                links[address] = nil
                events.append(.failed(address, connectError(failure, name: link.name)))
                return
            }
            if objects.properties(link.devicePath, BlueZObjects.deviceInterface)?["ServicesResolved"]?.boolean
                == true
            {
                subscribe(address)
            } else {
                links[address]?.phase = .resolving(deadline: MonotonicClock.seconds + servicesTimeout)
            }
        case .startNotify(let address, let generation, let kind):
            guard var link = links[address], link.generation == generation else { return }
            link.pendingNotifies -= 1
            if let failure {
                link.notifyFailures.append("\(kind.rawValue): \(failure)")
            } else {
                link.kinds.insert(kind)
            }
            links[address] = link
            if link.pendingNotifies == 0 { subscribed(address) }
        case .readBattery(let address, let generation, let characteristic):
            // A battery that cannot be read is not worth failing the sensor for: no reading.
            guard links[address]?.generation == generation, failure == nil, let bytes = values.first?.bytes
            else {
                return
            }
            decode(bytes, uuid: BatteryLevel.characteristic, from: characteristic, of: address)
        case .batteryNotify, .disconnect:
            return  // nothing waits on these: a drop is reported from Connected, not this reply
        }
    }

    /// Services resolved: switches notifications on and reads the battery.
    private func subscribe(_ address: BluetoothAddress) {
        guard var link = links[address] else { return }
        let characteristics = objects.characteristics(ofDevice: link.devicePath).sorted { $0.key < $1.key }
        let measurements = characteristics.compactMap { path, uuid -> (String, SensorKind)? in
            switch uuid {
            case HeartRateMeasurement.characteristic: (path, .heartRate)
            case RSCMeasurement.characteristic: (path, .cadence)
            default: nil
            }
        }
        guard !measurements.isEmpty else {
            links[address] = nil
            events.append(.failed(address, .notASensor(address)))
            try? send(
                link.devicePath, BlueZObjects.deviceInterface, "Disconnect", timeout: 10, for: .disconnect)
            return
        }
        link.phase = .subscribing
        link.pendingNotifies = measurements.count
        links[address] = link
        for (path, kind) in measurements {
            do throws(BluetoothError) {
                try send(
                    path, BlueZObjects.characteristicInterface, "StartNotify", timeout: 10,
                    for: .startNotify(address, generation: link.generation, kind: kind))
            } catch {
                links[address]?.pendingNotifies -= 1
                links[address]?.notifyFailures.append("\(kind.rawValue): \(error)")
            }
        }
        if let (battery, _) = characteristics.first(where: { $0.value == BatteryLevel.characteristic }) {
            try? send(
                battery, BlueZObjects.characteristicInterface, "ReadValue", [.options([])], timeout: 10,
                for: .readBattery(address, generation: link.generation, characteristic: battery))
            let flags =
                objects.properties(battery, BlueZObjects.characteristicInterface)?["Flags"]?.strings ?? []
            if flags.contains("notify") {
                try? send(
                    battery, BlueZObjects.characteristicInterface, "StartNotify", timeout: 10,
                    for: .batteryNotify)
            }
        }
        if links[address]?.pendingNotifies == 0 { subscribed(address) }
    }

    /// Every StartNotify answered: `.connected` with the kinds that work, then what came early.
    private func subscribed(_ address: BluetoothAddress) {
        guard var link = links[address] else { return }
        guard !link.kinds.isEmpty else {
            links[address] = nil
            events.append(
                .failed(
                    address,
                    .connectFailed(
                        name: link.name,
                        message: "notifications refused (\(link.notifyFailures.joined(separator: "; ")))")))
            try? send(
                link.devicePath, BlueZObjects.deviceInterface, "Disconnect", timeout: 10, for: .disconnect)
            return
        }
        link.phase = .connected
        events.append(.connected(address, kinds: link.kinds))
        events += link.early.map { .reading(address, $0) }
        link.early = []
        links[address] = link
    }

    private func trust(_ address: BluetoothAddress, _ path: String) throws(BluetoothError) {
        try send(
            path, Self.properties, "Set",
            [.string(BlueZObjects.deviceInterface), .string("Trusted"), .variant(.boolean(true))], timeout: 5,
            for: .trust(address))
    }

    // MARK: Calls

    private func send(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = [],
        timeout: Double, for purpose: Purpose
    ) throws(BluetoothError) {
        do throws(BusFailure) {
            let slot = try bus.callAsync(
                Self.bluez, path, interface, member, arguments, timeout: timeout, callback: blueZReply,
                userdata: Unmanaged.passUnretained(self).toOpaque())
            calls[slot] = purpose
            try bus.flush()
        } catch {
            throw map(error, what: "\(member) on \(subject(path))", device: subject(path))
        }
    }

    /// The device an object is (or is under), as BlueZ's messages should name it: its address.
    private func subject(_ path: String) -> String {
        BlueZObjects.devicePath(of: path).flatMap(objects.address(ofDevice:))?.text ?? path
    }

    private func callSync(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = []
    ) throws(BluetoothError) {
        do throws(BusFailure) {
            _ = try bus.call(Self.bluez, path, interface, member, arguments)
        } catch {
            throw map(error, what: "\(member) on \(subject(path))", device: subject(path))
        }
    }

    private func readyAdapter() throws(BluetoothError) -> String {
        switch adapterState() {
        case .noBlueZ: throw blueZUnavailable
        case .noAdapter: throw .noAdapter
        case .poweredOff: throw .adapterOff
        case .ready: return objects.adapterPath ?? ""
        }
    }

    private func devicePath(_ address: BluetoothAddress) throws(BluetoothError) -> String {
        guard let path = objects.devicePaths[address] else { throw .unknownDevice(address.text) }
        return path
    }

    private func name(of devicePath: String) -> String {
        let device = objects.properties(devicePath, BlueZObjects.deviceInterface)
        let name = device?["Name"]?.string ?? device?["Alias"]?.string ?? device?["Address"]?.string
        return (name ?? devicePath).safeForDisplay  // from the air: for the log and the terminal
    }

    // MARK: Errors

    /// The `BluetoothError` for a failed call: one case per cause the bus or BlueZ names.
    /// `device` names the sensor in `.unknownDevice` (default: `what`).
    func map(_ failure: BusFailure, what: String, device: String? = nil) -> BluetoothError {
        switch failure.name {
        case nil:
            failure.errno == ETIMEDOUT ? .timedOut(what) : .busUnavailable(errno: failure.errno)
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            .blueZNotRunning
        case "org.freedesktop.DBus.Error.AccessDenied", "org.bluez.Error.NotAuthorized":
            .permissionDenied(failure.message)
        case "org.freedesktop.DBus.Error.Timeout", "org.freedesktop.DBus.Error.NoReply":
            .timedOut(what)
        case "org.freedesktop.DBus.Error.UnknownObject", "org.bluez.Error.DoesNotExist":
            .unknownDevice(device ?? what)
        case "org.bluez.Error.NotReady":
            .adapterOff
        case let name?:
            .dbus(name: name, message: failure.message)
        }
    }

    /// Pair's errors: the sensor (or the user at it) saying no is `.pairingRefused`.
    func pairingError(_ failure: BusFailure, name: String) -> BluetoothError {
        let refusals: Set<String> = [
            "org.bluez.Error.AuthenticationFailed", "org.bluez.Error.AuthenticationRejected",
            "org.bluez.Error.AuthenticationCanceled", "org.bluez.Error.AuthenticationTimeout",
            "org.bluez.Error.ConnectionAttemptFailed", "org.bluez.Error.Failed", "org.bluez.Error.Rejected",
            "org.bluez.Error.Canceled",
        ]
        if failure.name == "org.bluez.Error.InProgress" { return .alreadyPairing(name: name) }
        guard let errorName = failure.name, refusals.contains(errorName) else {
            return map(failure, what: "pairing with \(name)")
        }
        return .pairingRefused(name: name, message: failure.message)
    }

    /// Connect's errors: BlueZ's own (out of range, page timeout, busy) are `.connectFailed`.
    func connectError(_ failure: BusFailure, name: String) -> BluetoothError {
        guard let errorName = failure.name, errorName.hasPrefix("org.bluez.Error."),
            errorName != "org.bluez.Error.NotReady", errorName != "org.bluez.Error.NotAuthorized",
            errorName != "org.bluez.Error.DoesNotExist"
        else { return map(failure, what: "connecting to \(name)") }
        return .connectFailed(name: name, message: failure.message)
    }
}

// The C callbacks: userdata is the radio, unretained (see `BlueZRadio.init(bus:)` for why it is
// alive whenever sd-bus calls one).

private func radio(_ userdata: UnsafeMutableRawPointer?) -> BlueZRadio? {
    userdata.map { Unmanaged<BlueZRadio>.fromOpaque($0).takeUnretainedValue() }
}

private func blueZReply(
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
