import CSystemd
import Glibc
import RunWayCore
import RunWaySystem

/// The radio's own requests: their replies, the subscription that follows a connect, the calls
/// themselves and how their D-Bus errors read.
extension BlueZRadio {
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
                let error = pairingError(failure, name: deviceName)
                if case .timedOut = error, let path = objects.devicePaths[address] {
                    // Given up here, the pairing goes on in bluetoothd (its LE connection attempt
                    // still pending): the next try would be refused as "already pairing", and
                    // on the emulated board the peripheral could not advertise until runwayd
                    // stopped. Cancelled, the sensor is free for the next try at once.
                    try? send(
                        path, BlueZObjects.deviceInterface, "CancelPairing", timeout: 10, for: .cancelPairing)
                }
                events.append(.pairFailed(address, error))
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
        case .batteryNotify, .disconnect, .cancelPairing:
            return  // nothing waits on these: a drop is reported from Connected, not this reply
        }
    }

    /// Services resolved: switches notifications on and reads the battery.
    func subscribe(_ address: BluetoothAddress) {
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
    func subscribed(_ address: BluetoothAddress) {
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

    func trust(_ address: BluetoothAddress, _ path: String) throws(BluetoothError) {
        try send(
            path, Self.properties, "Set",
            [.string(BlueZObjects.deviceInterface), .string("Trusted"), .variant(.boolean(true))], timeout: 5,
            for: .trust(address))
    }

    // MARK: Calls

    func send(
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
    func subject(_ path: String) -> String {
        BlueZObjects.devicePath(of: path).flatMap(objects.address(ofDevice:))?.text ?? path
    }

    func callSync(
        _ path: String, _ interface: String, _ member: String, _ arguments: [DBusArgument] = []
    ) throws(BluetoothError) {
        do throws(BusFailure) {
            _ = try bus.call(Self.bluez, path, interface, member, arguments)
        } catch {
            throw map(error, what: "\(member) on \(subject(path))", device: subject(path))
        }
    }

    func readyAdapter() throws(BluetoothError) -> String {
        switch adapterState() {
        case .noBlueZ: throw blueZUnavailable
        case .noAdapter: throw .noAdapter
        case .poweredOff: throw .adapterOff
        case .ready: return objects.adapterPath ?? ""
        }
    }

    func devicePath(_ address: BluetoothAddress) throws(BluetoothError) -> String {
        guard let path = objects.devicePaths[address] else { throw .unknownDevice(address.text) }
        return path
    }

    func name(of devicePath: String) -> String {
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
