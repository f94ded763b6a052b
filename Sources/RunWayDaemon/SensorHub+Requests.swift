import RunWayBluetooth
import RunWayControl

/// The control socket's requests (scan, pair, forget, list) as the hub answers them, and the
/// words of its refusals.
extension SensorHub {
    // MARK: Requests

    func handle(_ request: SensorRequest, at now: Double, reply: @escaping Reply) {
        switch request {
        case .list: reply(.list(links))
        case .forget(let which):
            if storeUnreadable { return reply(.refused(.storeUnreadable(store.path))) }
            forget(which, reply: reply)
        case .scan(let seconds):
            if let refusal = notReady() { return reply(.refused(refusal)) }
            guard scan == nil else { return reply(.refused(.busyScanning)) }
            guard pairing == nil else { return reply(.refused(.busyPairing)) }
            do throws(BluetoothError) {
                try radio?.startScan()
                scan = (now + Double(seconds), reply)
                log.log(.info, "sensors: scanning for \(seconds) s")
            } catch {
                reply(.refused(Self.refusal(error)))
            }
        case .pair(let which):
            if storeUnreadable { return reply(.refused(.storeUnreadable(store.path))) }
            if let refusal = notReady() { return reply(.refused(refusal)) }
            guard scan == nil else { return reply(.refused(.busyScanning)) }
            guard pairing == nil else { return reply(.refused(.busyPairing)) }
            let known: [SensorDevice]
            do throws(BluetoothError) {
                known = try radio?.devices() ?? []
            } catch {
                return reply(.refused(Self.refusal(error)))
            }
            let device: SensorDevice
            switch Self.resolve(which, among: known, name: \.name, address: \.address) {
            case .one(let found): device = found
            case .none: return reply(.refused(.unknownSensor(which)))
            case .several: return reply(.refused(.ambiguousName(which)))
            }
            guard !device.kinds.isEmpty else { return reply(.refused(.notASensor(Self.label(device)))) }
            do throws(BluetoothError) {
                try radio?.pair(device.address)
                pairing = (device, now + Double(ControlRequest.pairSeconds), reply)
                log.log(.info, "sensors: pairing with \(Self.label(device))")
            } catch {
                reply(.refused(Self.refusal(error, label: Self.label(device))))
            }
        }
    }

    /// The radio's state for `status`: ready, or why not (the refusal's sentence).
    var bluetooth: ControlBluetooth {
        guard let why = notReady() else { return ControlBluetooth(state: .ready, message: nil) }
        let state: ControlBluetooth.State =
            switch why {
            case .adapterOff: .poweredOff
            case .noAdapter: .noAdapter
            case .blueZNotRunning: .notRunning
            case .permissionDenied: .permissionDenied
            default: .unavailable
            }
        return ControlBluetooth(state: state, message: why.description)
    }

    /// Why the radio cannot take a scan or a pairing now; nil when it can.
    func notReady() -> SensorRefusal? {
        guard radio != nil else { return radioFailure ?? .busUnavailable }
        return refusal(for: adapter)
    }

    /// The refusal `state` stands for; for `.noBlueZ`, the radio's own cause (a refusal of the
    /// bus's policy, a bluetoothd not answering), "not running" only when that is what it is.
    func refusal(for state: AdapterState) -> SensorRefusal? {
        guard state == .noBlueZ else { return Self.refusal(for: state) }
        guard let radio else { return radioFailure ?? .blueZNotRunning }
        return radio.unavailable.map(Self.refusal) ?? .blueZNotRunning
    }

    /// The devices are read while discovery still runs: BlueZ invalidates every device's RSSI
    /// when it stops (src/adapter.c: discovery_cleanup → invalidate_rssi_and_tx_power), and
    /// "seen in this scan" is "has an RSSI".
    func finishScan(_ reply: Reply) {
        scan = nil
        let seen: Result<[SensorDevice], BluetoothError>
        do throws(BluetoothError) {
            seen = .success(try radio?.devices() ?? [])
        } catch {
            seen = .failure(error)
        }
        try? radio?.stopScan()
        switch seen {
        case .success(let devices):
            let near = devices.filter { $0.rssi != nil && !$0.kinds.isEmpty }
            log.log(.info, "sensors: scan found \(near.count)")
            reply(.scanned(near, paired: Set(links.map(\.sensor.address))))
        case .failure(let error):
            reply(.refused(Self.refusal(error)))
        }
    }

    /// The pairing's answer: stored first, and only then the links replaced and the old
    /// sensor forgotten in BlueZ, so a list that cannot be written changes nothing.
    func paired(_ address: BluetoothAddress, at now: Double) {
        guard let pairing, pairing.device.address == address else { return }
        self.pairing = nil
        let device = pairing.device
        let sensor = PairedSensor(address: device.address, name: device.name, kinds: device.kinds)
        // One sensor per kind: a second strap replaces the first, which BlueZ forgets too.
        let replaced = links.filter {
            $0.sensor.address != address && !$0.sensor.kinds.isDisjoint(with: sensor.kinds)
        }
        let kept = links.filter {
            $0.sensor.address != address && !replaced.map(\.sensor.address).contains($0.sensor.address)
        }
        do throws(SensorStore.WriteError) {
            try store.save(kept.map(\.sensor) + [sensor])
        } catch {
            log.log(.error, "sensors: \(error); the pairing with \(sensor.label) is not made")
            return pairing.reply(.refused(.notStored(store.path)))
        }
        for old in replaced {
            try? radio?.disconnect(old.sensor.address)
            try? radio?.forget(old.sensor.address)
        }
        // A sensor paired again keeps its link: a connected one stays connected with what it
        // last said (the radio reports `.connected` again, never the battery read at connect),
        // one not connected is tried at once.
        var link = links.first { $0.sensor.address == address } ?? SensorLink(sensor: sensor, at: now)
        link.sensor = sensor
        if !link.isConnected, link.state == .idle { link.nextAttempt = now }
        links = kept + [link]
        log.log(
            .notice,
            "sensors: paired \(sensor.label)"
                + (replaced.isEmpty
                    ? "" : ", replacing \(replaced.map(\.sensor.label).joined(separator: ", "))"))
        pairing.reply(.paired(sensor, replaced: replaced.map(\.sensor)))
    }

    /// Stored first, then let go: a list that cannot be written changes nothing.
    func forget(_ which: String, reply: Reply) {
        let found = Self.resolve(which, among: links, name: \.sensor.name, address: \.sensor.address)
        let link: SensorLink
        switch found {
        case .one(let one): link = one
        case .none: return reply(.refused(.unknownSensor(which)))
        case .several: return reply(.refused(.ambiguousName(which)))
        }
        let address = link.sensor.address
        let kept = links.filter { $0.sensor.address != address }
        do throws(SensorStore.WriteError) {
            try store.save(kept.map(\.sensor))
        } catch {
            log.log(.error, "sensors: \(error); \(link.sensor.label) is not forgotten")
            return reply(.refused(.notStored(store.path)))
        }
        do throws(BluetoothError) {
            if link.state != .idle { try radio?.disconnect(address) }
            try radio?.forget(address)
        } catch {
            // runwayd's choice is its own list: BlueZ's bond may stay (it is then only unused).
            log.log(.warning, "sensors: BlueZ did not forget \(link.sensor.label): \(error)")
        }
        links = kept
        for kind in link.sensor.kinds { waiting[kind] = nil }
        log.log(.notice, "sensors: forgot \(link.sensor.label)")
        reply(.forgotten(link.sensor))
    }

    // MARK: Words

    enum Match<T> {
        case one(T)
        case none
        case several
    }

    /// An address matches its device; else a name matches, letter case aside.
    static func resolve<T>(
        _ which: String, among items: [T], name: KeyPath<T, String?>, address: KeyPath<T, BluetoothAddress>
    ) -> Match<T> {
        if let wanted = BluetoothAddress(parsing: which) {
            return items.first { $0[keyPath: address] == wanted }.map { .one($0) } ?? .none
        }
        let named = items.filter { $0[keyPath: name]?.lowercased() == which.lowercased() }
        return named.count == 1 ? .one(named[0]) : named.isEmpty ? .none : .several
    }

    static func label(_ device: SensorDevice) -> String { device.name ?? device.address.text }

    static func refusal(for state: AdapterState) -> SensorRefusal? {
        switch state {
        case .ready: nil
        case .poweredOff: .adapterOff
        case .noAdapter: .noAdapter
        case .noBlueZ: .blueZNotRunning
        }
    }

    /// The refusal a radio error stands for (`label` names the sensor a pairing was for).
    static func refusal(_ error: BluetoothError) -> SensorRefusal { refusal(error, label: nil) }

    static func refusal(_ error: BluetoothError, label: String?) -> SensorRefusal {
        switch error {
        case .busUnavailable: .busUnavailable
        case .blueZNotRunning: .blueZNotRunning
        case .noAdapter: .noAdapter
        case .adapterOff: .adapterOff
        case .permissionDenied: .permissionDenied
        case .unknownDevice(let which): .unknownSensor(which)
        case .notASensor(let address): .notASensor(label ?? address.text)
        case .pairingRefused(let name, _): .pairingRefused(label ?? name)
        case .alreadyPairing(let name): .alreadyPairing(label ?? name)
        case .timedOut: label.map { .pairingTimedOut($0) } ?? .radioFailed(error.description)
        case .connectFailed, .malformed, .dbus: .radioFailed(error.description)
        }
    }
}
