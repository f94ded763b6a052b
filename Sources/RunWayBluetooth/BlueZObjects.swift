import RunWayCore

/// BlueZ's object tree as RunWay keeps it: every object path under org.bluez with its
/// interfaces and their properties (variants unwrapped), filled by GetManagedObjects and kept
/// current by ObjectManager.InterfacesAdded / InterfacesRemoved and
/// Properties.PropertiesChanged. Pure: `BlueZRadio` feeds it the parsed signal bodies.
struct BlueZObjects {
    static let adapterInterface = "org.bluez.Adapter1"
    static let deviceInterface = "org.bluez.Device1"
    static let serviceInterface = "org.bluez.GattService1"
    static let characteristicInterface = "org.bluez.GattCharacteristic1"

    /// path → interface → property → value.
    private(set) var objects: [String: [String: [String: DBusValue]]] = [:]

    /// Replaces everything with a GetManagedObjects reply (a{oa{sa{sv}}}); false if it is not one.
    mutating func replaceAll(with reply: DBusValue) -> Bool {
        guard let paths = reply.stringKeyed else { return false }
        objects = [:]
        for (path, interfaces) in paths { add(path: path, interfaces: interfaces) }
        return true
    }

    mutating func removeAll() { objects = [:] }

    /// InterfacesAdded's body: the path and a{sa{sv}}.
    mutating func add(path: String, interfaces: DBusValue) {
        guard let byName = interfaces.stringKeyed else { return }
        for (interface, properties) in byName {
            var current = objects[path, default: [:]][interface, default: [:]]
            for (name, value) in properties.stringKeyed ?? [:] { current[name] = value.unwrapped }
            objects[path, default: [:]][interface] = current
        }
    }

    /// InterfacesRemoved's body: the path and the interfaces it lost.
    mutating func remove(path: String, interfaces: [String]) {
        for interface in interfaces { objects[path]?[interface] = nil }
        if objects[path]?.isEmpty == true { objects[path] = nil }
    }

    /// PropertiesChanged's body; ignored for an object or interface not known (yet).
    mutating func change(path: String, interface: String, changed: DBusValue, invalidated: [String]) {
        guard objects[path]?[interface] != nil else { return }
        for (name, value) in changed.stringKeyed ?? [:] { objects[path]?[interface]?[name] = value.unwrapped }
        for name in invalidated { objects[path]?[interface]?[name] = nil }
    }

    func properties(_ path: String, _ interface: String) -> [String: DBusValue]? { objects[path]?[interface] }

    // MARK: Adapters

    /// The adapter BlueZ would use: the first Adapter1 by path (/org/bluez/hci0 before hci1).
    var adapterPath: String? {
        objects.filter { $0.value[Self.adapterInterface] != nil }.keys.min()
    }

    var adapterState: AdapterState {
        guard let path = adapterPath, let adapter = properties(path, Self.adapterInterface) else {
            return .noAdapter
        }
        guard adapter["Powered"]?.boolean == true else { return .poweredOff }
        return .ready(address: adapter["Address"]?.string.flatMap { BluetoothAddress(parsing: $0) })
    }

    // MARK: Devices

    /// Device1 objects by address.
    var devicePaths: [BluetoothAddress: String] {
        var result: [BluetoothAddress: String] = [:]
        for (path, interfaces) in objects {
            guard let address = interfaces[Self.deviceInterface]?["Address"]?.string,
                let parsed = BluetoothAddress(parsing: address)
            else { continue }
            // Two adapters may know the same device: keep the one on the adapter in use.
            if result[parsed] == nil || adapterPath.map({ path.hasPrefix($0 + "/") }) == true {
                result[parsed] = path
            }
        }
        return result
    }

    func address(ofDevice path: String) -> BluetoothAddress? {
        properties(path, Self.deviceInterface)?["Address"]?.string.flatMap { BluetoothAddress(parsing: $0) }
    }

    /// The sensor kinds a device's advertised or resolved service UUIDs name.
    func kinds(ofDevice path: String) -> Set<SensorKind> {
        var uuids = Set(
            (properties(path, Self.deviceInterface)?["UUIDs"]?.strings ?? []).compactMap(Self.shortUUID))
        for (child, interfaces) in objects where child.hasPrefix(path + "/") {
            if let uuid = interfaces[Self.serviceInterface]?["UUID"]?.string.flatMap(Self.shortUUID) {
                uuids.insert(uuid)
            }
        }
        return Set(SensorKind.allCases.filter { uuids.contains($0.service) })
    }

    func sensorDevice(_ path: String) -> SensorDevice? {
        guard let device = properties(path, Self.deviceInterface), let address = address(ofDevice: path)
        else {
            return nil
        }
        let kinds = kinds(ofDevice: path)
        guard !kinds.isEmpty else { return nil }
        return SensorDevice(
            // The name comes from the air: nothing in it may drive a terminal or split a log line.
            address: address, name: device["Name"]?.string?.safeForDisplay, kinds: kinds,
            rssi: device["RSSI"]?.integer,
            paired: device["Paired"]?.boolean ?? false, connected: device["Connected"]?.boolean ?? false)
    }

    /// The GattCharacteristic1 objects under a device: path → 16-bit UUID (SIG-based UUIDs only).
    func characteristics(ofDevice path: String) -> [String: UInt16] {
        var result: [String: UInt16] = [:]
        for (child, interfaces) in objects where child.hasPrefix(path + "/") {
            if let uuid = interfaces[Self.characteristicInterface]?["UUID"]?.string.flatMap(Self.shortUUID) {
                result[child] = uuid
            }
        }
        return result
    }

    /// The device a characteristic (or service) object belongs to: its path's
    /// /org/bluez/hciN/dev_XX_… prefix.
    static func devicePath(of path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[4].hasPrefix("dev_") else { return nil }
        return parts.prefix(5).joined(separator: "/")
    }

    /// The 16-bit UUID of a Bluetooth SIG base UUID (0000XXXX-0000-1000-8000-00805f9b34fb).
    static func shortUUID(_ uuid: String) -> UInt16? {
        let lower = uuid.lowercased()
        guard lower.utf8.count == 36, lower.hasPrefix("0000"), lower.hasSuffix("-0000-1000-8000-00805f9b34fb")
        else { return nil }
        return UInt16(lower.dropFirst(4).prefix(4), radix: 16)
    }

    static func fullUUID(_ short: UInt16) -> String {
        let hex = String(short, radix: 16)
        return "0000" + String(repeating: "0", count: 4 - hex.count) + hex + "-0000-1000-8000-00805f9b34fb"
    }
}
