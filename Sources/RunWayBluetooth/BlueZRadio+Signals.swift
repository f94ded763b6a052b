import CSystemd
import Glibc
import RunWayCore
import RunWaySystem

/// What bluetoothd says by itself: the object tree's changes, property changes (a characteristic's
/// Value among them: the sensors' notifications, decoded here) and org.bluez coming or going.
extension BlueZRadio {
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
    func notified(_ characteristic: String, _ bytes: [UInt8]) {
        guard let devicePath = BlueZObjects.devicePath(of: characteristic),
            let address = objects.address(ofDevice: devicePath), links[address]?.isSubscribed == true,
            let uuid = objects.properties(characteristic, BlueZObjects.characteristicInterface)?["UUID"]?
                .string
                .flatMap(BlueZObjects.shortUUID)
        else { return }
        decode(bytes, uuid: uuid, from: characteristic, of: address)
    }

    func decode(
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
}
